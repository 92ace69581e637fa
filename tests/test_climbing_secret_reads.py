"""A secret read through ``..`` sent straight to ``POST /v1/escalations`` (no path report): the server judges the
path from the escalation's ``cwd``, so no standing approval answers it."""

from __future__ import annotations

from tests.harness import Harness
from tests.test_standing import _admin_token, asks, auto


async def test_a_standing_approval_for_cat_never_answers_a_secret_read_through_dot_dot(harness: Harness) -> None:
    bot_token = await harness.add_bot()
    admin = await _admin_token(harness)
    body = {"scope": "bot", "bot": "ci-bot", "pattern": "cat", "max_risk": "read_only", "host_ok": True}
    async with harness.http.post(
        f"{harness.url}/v1/standing-approvals", json=body, headers={"Authorization": f"Bearer {admin}"}
    ) as r:
        assert r.status == 201, await r.text()
    cwd = "/srv/attack/work"
    assert (await auto(harness, bot_token, command="cat ../README.md", cwd=cwd))["risk"] == "read_only"
    for command in (
        "cat ../../../etc/shadow",
        "cat ../../../proc/self/environ",
        "cat ../../../root/.local/state/flybot/local.json",
    ):
        esc = await asks(harness, bot_token, command=command, cwd=cwd)
        assert esc["risk"] == "network", (command, esc["reasons"])
        assert "secret-read" in str(esc["reasons"])
