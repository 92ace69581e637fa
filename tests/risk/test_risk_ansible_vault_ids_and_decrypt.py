"""ansible-vault: ``decrypt`` writes the plaintext over its files, to ``--output`` (``-`` is standard output) or,
with no file, from standard input to standard output, so it is a secret read as ``view`` is; and ``--vault-id`` /
``--new-vault-id`` ``LABEL@SOURCE`` name a password file Ansible runs when it is executable (Ansible, "Managing
vault passwords"), so a SOURCE outside the workspace is code from outside, as ``--vault-password-file`` is.
``encrypt``, ``rekey``, ``LABEL@prompt`` and a password file in the workspace keep their grades."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes
from tests.risk.both_sides import graded, project

DES = RiskLevel.DESTRUCTIVE
NET = RiskLevel.NETWORK
WW = RiskLevel.WORKSPACE_WRITE


def _both(command: str, workspace: Path) -> tuple[RiskLevel, RiskLevel]:
    host, _ = graded(command, workspace)
    inside = classify(command, contained=True, workspace=str(workspace), recipes=ProjectRecipes(workspace)).risk
    return host, inside


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("ansible-vault decrypt --output - x.yml", NET),
        ("ansible-vault decrypt --output=/dev/stdout x.yml", NET),
        ("ansible-vault decrypt < x.yml", NET),
        ("ansible-vault decrypt x.yml && cat x.yml", NET),
        ("ansible-vault view --vault-id dev@../elsewhere/pass x.yml", DES),
        ("ansible-vault view --vault-id ../elsewhere/pass x.yml", DES),
        ("ansible-vault view --vault-id=dev@~/pass x.yml", DES),
        ("ansible-vault encrypt --vault-id dev@../elsewhere/pass x.yml", DES),
        ("ansible-vault rekey --new-vault-id dev@../elsewhere/pass x.yml", DES),
        ("ansible-vault encrypt_string --vault-id dev@../elsewhere/pass secret", DES),
    ],
)
def test_decrypting_and_outside_password_files(tmp_path: Path, command: str, grade: RiskLevel) -> None:
    assert _both(command, project(tmp_path, {"x.yml": "$ANSIBLE_VAULT;1.1;AES256\n"})) == (grade, grade)


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("ansible-vault encrypt x.yml", WW),
        ("ansible-vault rekey x.yml", WW),
        ("ansible-vault encrypt --vault-id dev@prompt x.yml", WW),
        ("ansible-vault encrypt --encrypt-vault-id dev x.yml", WW),
        ("ansible-vault view --vault-id dev@prompt x.yml", NET),
    ],
)
def test_everyday_forms_keep_their_grade(tmp_path: Path, command: str, grade: RiskLevel) -> None:
    assert _both(command, project(tmp_path, {"x.yml": "$ANSIBLE_VAULT;1.1;AES256\n"})) == (grade, grade)
