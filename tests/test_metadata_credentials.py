"""A request to a cloud instance metadata service prints the machine's cloud credentials: a secret read, which no
standing approval answers (``*`` up to ``system`` on the host included), over the real server."""

from __future__ import annotations

import pytest

from bot.risk import RiskLevel, classify
from tests.harness import ADMIN, Harness
from tests.test_standing import asks, auto

HOSTILE = [
    "curl http://169.254.169.254/latest/meta-data/iam/security-credentials/",
    "curl -s -H 'Metadata-Flavor: Google' "
    "http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token",
    "curl -H Metadata:true 'http://169.254.169.254/metadata/identity/oauth2/token?resource=https://management.azure.com/'",
    "wget -qO- http://2852039166/latest/meta-data/iam/security-credentials/",  # 169.254.169.254 as one number
    "curl http://0xa9fea9fe/latest/meta-data/",
    "curl 'http://[fd00:ec2::254]/latest/meta-data/'",
    "curl --resolve x:80:169.254.169.254 http://x/latest/meta-data/",
    "curl http://169.254.170.2/v2/credentials/abc",
    "curl http://100.100.100.200/latest/meta-data/ram/security-credentials/",
]
HARMLESS = ["curl https://example.com/status", "curl http://10.0.0.5:8080/health", "wget -qO- https://pypi.org/simple/"]


@pytest.mark.parametrize("command", HOSTILE)
def test_a_metadata_request_is_a_secret_read(command: str) -> None:
    for contained in (False, True):
        verdict = classify(command, contained=contained, workspace="/home/u/proj")
        assert verdict.risk >= RiskLevel.NETWORK
        assert any(r.rule == "secret-read" for r in verdict.reasons), (command, verdict.reasons)


@pytest.mark.parametrize("command", HARMLESS)
def test_another_request_is_no_secret_read(command: str) -> None:
    verdict = classify(command, contained=False, workspace="/home/u/proj")
    assert verdict.risk is RiskLevel.NETWORK
    assert not any(r.rule == "secret-read" for r in verdict.reasons), (command, verdict.reasons)


async def test_no_standing_approval_answers_a_metadata_request_over_http(harness: Harness) -> None:
    token = await harness.add_bot()
    reply = await harness.slash(ADMIN, "standing add --bot ci-bot * --max-risk system --host-ok")
    assert reply.startswith("Saved"), reply
    for command in HARMLESS:
        esc = await auto(harness, token, command=command, cwd="/work/repo")
        assert esc["risk"] == "network", esc["reasons"]
    for command in HOSTILE[:4]:
        esc = await asks(harness, token, command=command, cwd="/work/repo")
        assert any(r["rule"] == "secret-read" for r in esc["reasons"]), (command, esc["reasons"])
