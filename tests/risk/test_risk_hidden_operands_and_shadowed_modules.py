"""Options a package manager hands its script, operands fed to xargs on a here-string, secret names after an
unknown prefix, fd's commands, modules a workspace file shadows, agents' and IDEs' control directories planted
whole, commit templates, backup copies of the password hashes, and yarn's own release named by its settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import classify
from bot.risk.model import Assessment, RiskLevel

W = Path("/home/dev/project")


def _graded(command: str, *, workspace: Path = W, contained: bool = False) -> Assessment:
    return classify(command, contained=contained, workspace=workspace)


def _rules(graded: Assessment) -> set[str]:
    return {reason.rule for reason in graded.reasons}


@pytest.mark.parametrize(
    "command", ["cat /var/backups/shadow.bak", "cat /var/backups/gshadow.bak", "cp /var/backups/shadow.bak ./s"]
)
def test_debians_copies_of_the_password_hashes_are_secret_reads(command: str) -> None:
    graded = _graded(command)
    assert graded.risk == RiskLevel.NETWORK
    assert "secret-read" in _rules(graded)
    assert any("password hashes" in reason.detail for reason in graded.reasons)


@pytest.mark.parametrize(
    "command", ["cat /var/backups/passwd.bak", "cat /var/backups/dpkg.status.0", "ls /var/backups"]
)
def test_other_backups_stay_reads(command: str) -> None:
    assert _graded(command).risk == RiskLevel.READ_ONLY
