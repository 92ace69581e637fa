"""Credential files named by tools and conventions (bot/risk/sensitive.py ``_CONFIG_SECRETS``, ``_SECRET_NAMES``,
``env_file``): reading one prints a secret to the model (secret-read, network), in the home and, for the names
projects give their keys, in the workspace too. Look-alike names stay read-only."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
NET = RiskLevel.NETWORK

#: Every credential file the brief named, with the ones already known before (they must stay known).
HOME_FILES = [
    "~/.config/aichat/config.yaml",
    "~/.config/io.datasette.llm/keys.json",
    "~/.config/age/key.txt",
    "~/.vault_pass.txt",
    "~/.config/Code/User/globalStorage/state.vscdb",
    "~/.config/Cursor/User/globalStorage/state.vscdb",
    "~/.config/gh/hosts.yml",
    "~/.config/hub",
    "~/.terraform.d/credentials.tfrc.json",
    "~/.cargo/credentials.toml",
    "~/.gem/credentials",
    "~/.pypirc",
    "~/.m2/settings.xml",
    "~/.gradle/gradle.properties",
    "~/.composer/auth.json",
    "~/.config/op/config",
    "~/.password-store/email/work.gpg",
    "~/.gnupg/private-keys-v1.d/0123ABCD.key",
]
WORKSPACE_FILES = [
    "gcp-key.json",
    "deploy/gcloud-key.json",
    "prod-sa.json",
    "ci_sa.json",
    "sa-key.json",
    "BigQuery-Key.json",
    "keyfile.json",
    "credentials.json",
    "token.pickle",
    ".vault_pass.txt",
    "vault-password.txt",
    ".envrc.local",
]


@pytest.mark.parametrize("path", HOME_FILES)
def test_reading_a_tool_credential_file_in_the_home_is_a_secret_read(path: str) -> None:
    for contained in (False, True):
        result = classify(f"cat {path}", contained=contained, workspace="/home/u/proj")
        assert result.risk == NET, (path, result.reasons)
        assert any(r.rule == "secret-read" for r in result.reasons), result.reasons


@pytest.mark.parametrize("path", WORKSPACE_FILES)
def test_reading_a_key_named_by_convention_in_the_workspace_is_a_secret_read(path: str, tmp_path: Path) -> None:
    result = classify(f"cat {path}", contained=False, workspace=str(tmp_path))
    assert result.risk == NET, (path, result.reasons)
    assert any(r.rule == "secret-read" for r in result.reasons), result.reasons


@pytest.mark.parametrize(
    "command",
    [
        "cat usa.json",
        "cat visa.json",
        "cat key.json",
        "cat keys.json",
        "cat hotkeys.json",
        "cat monkey.json",
        "cat tokens.json",
        "cat token.json",
        "cat src/token.py",
        "cat package.json tsconfig.json",
        "cat google-services.json",
        "cat .envrc.example",
        "cat *.json",
        "cat ~/.config/Code/User/settings.json",
        "cat ~/.config/aichat.md",
        "cat vault.txt",
    ],
)
def test_look_alike_names_stay_read_only(command: str, tmp_path: Path) -> None:
    result = classify(command, contained=False, workspace=str(tmp_path))
    assert result.risk == RO, (command, result.reasons)
