"""sops encrypting with a ``.sops.yaml`` creation rule that names a key service (SOPS README, "Using .sops.yaml
conf to select KMS, PGP and age for new files"): the new data key is sent to AWS KMS, GCP KMS, Azure Key Vault or a
Vault transit engine, so the use talks to another machine (network), while age and PGP recipients encrypt locally.
sops uses the nearest ``.sops.yaml`` of the directory it runs in and its parents."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

VAULT_RULE = (
    "creation_rules:\n  - path_regex: .*\n    hc_vault_transit_uri: https://vault.x.invalid:8200/v1/transit/keys/k\n"
)
KMS_RULE = "creation_rules:\n  - kms: arn:aws:kms:us-east-1:111122223333:key/abcd\n"
AGE_RULE = (
    "creation_rules:\n  - path_regex: .*\n    age: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p\n"
)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return project(
        tmp_path,
        {
            ".sops.yaml": AGE_RULE,
            "legacy/.sops.yaml": VAULT_RULE,
            "cloud/.sops.yaml": KMS_RULE,
            "secrets/new.yaml": "a: b\n",
        },
    )


@pytest.mark.parametrize(
    "command",
    [
        "cd legacy && sops -e ../secrets/new.yaml",
        "cd legacy && sops --encrypt --in-place ../secrets/new.yaml",
        "cd cloud && sops -e ../secrets/new.yaml",
        "cd cloud && sops updatekeys ../secrets/new.yaml",
        "cd /tmp && sops -e new.yaml",  # the .sops.yaml it uses there is not known
        'cd "$DIR" && sops -e new.yaml',
    ],
)
def test_encrypting_with_a_key_service_is_network(workspace: Path, command: str) -> None:
    risk, details = graded(command, workspace)
    assert risk >= RiskLevel.NETWORK, (command, details)


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("sops -e secrets/new.yaml", RiskLevel.READ_ONLY),
        ("sops -e -i secrets/new.yaml", RiskLevel.WORKSPACE_WRITE),
        ("cd legacy && sops --version", RiskLevel.READ_ONLY),
    ],
)
def test_encrypting_to_age_recipients_stays_local(workspace: Path, command: str, level: RiskLevel) -> None:
    risk, details = graded(command, workspace)
    assert risk is level, (command, details)
