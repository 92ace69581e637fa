"""Exports that switch the cloud account, profile or endpoint, or the server a stored token goes to
(bot/risk/walker.py ``_ACCOUNT_SWITCHES``, ``_TOKEN_DESTINATIONS``, and the credential files in ``_HIJACK_NAMES``):
later commands of the agent's shell then act elsewhere. Region variables, emptied values and unrelated names stay
read-only."""

from __future__ import annotations

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE


def _graded(command: str, contained: bool = False) -> tuple[RiskLevel, set[str]]:
    result = classify(command, contained=contained, workspace="/home/u/proj")
    return result.risk, {r.rule for r in result.reasons}


@pytest.mark.parametrize(
    "command",
    [
        "export AWS_PROFILE=prod",
        "export AWS_DEFAULT_PROFILE=prod",
        "export AWS_ACCESS_KEY_ID=AKIAEXAMPLE",
        "export AWS_ENDPOINT_URL=http://evil.example",
        "declare -x AWS_ENDPOINT_URL_S3=http://evil.example",
        "export CLOUDSDK_ACTIVE_CONFIG_NAME=prod",
        "export CLOUDSDK_CORE_PROJECT=prod-123",
        "export AZURE_DEFAULTS_GROUP=prod",
        "export HELM_KUBECONTEXT=prod",
        "export TF_WORKSPACE=prod",
        "set -a; AWS_PROFILE=prod",
        'export AWS_PROFILE="$P"',
    ],
)
def test_switching_the_cloud_account_is_system(command: str) -> None:
    for contained in (False, True):
        risk, rules = _graded(command, contained)
        assert risk == SYS, (command, rules)
        assert "account-switch" in rules


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("export VAULT_ADDR=https://evil.example", "remote-control-plane"),
        ("export HELM_KUBEAPISERVER=https://evil.example", "remote-control-plane"),
        ("export CLOUDSDK_API_ENDPOINT_OVERRIDES_STORAGE=https://evil.example/", "remote-control-plane"),
        ("export GOOGLE_APPLICATION_CREDENTIALS=/tmp/x.json", "env-hijack"),
        ("export GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES=1", "env-hijack"),
        ("export AWS_SHARED_CREDENTIALS_FILE=/tmp/x", "env-hijack"),
        ("export KUBECONFIG=/tmp/x", "env-hijack"),
        ("export AWS_CONFIG_FILE=/tmp/x", "env-hijack"),
        ("export DOCKER_HOST=ssh://evil.example", "remote-control-plane"),
    ],
)
def test_a_token_sent_elsewhere_or_a_credential_file_that_runs_programs_is_destructive(command: str, rule: str) -> None:
    risk, rules = _graded(command)
    assert risk == DES, (command, rules)
    assert rule in rules


@pytest.mark.parametrize(
    "command",
    [
        "export AWS_PROFILE=",
        "export AWS_REGION=eu-west-1",
        "export AWS_DEFAULT_REGION=us-east-1",
        "export CLOUDSDK_CORE_PROJECT=",
        "export VAULT_ADDR=",
        "export AWS_PAGER_X=1",
        "export PROFILE=prod",
        "AWS_PROFILE=prod",
    ],
)
def test_regions_resets_and_other_names_stay_read_only(command: str) -> None:
    risk, rules = _graded(command)
    assert risk == RO, (command, rules)
