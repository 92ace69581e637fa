"""dnf's repository changes and rpm's trusted keys (programs/packages.py ``_dnf_sources``, catalogue/system.py
``rpm --import``): ``dnf config-manager --add-repo``, ``--set-enabled``, dnf5's ``setopt``, ``dnf copr enable`` and
``rpm --import KEY`` change where, or from whom, every later install takes its packages, as a file written to
``/etc/yum.repos.d`` does: destructive on the host, so a Bot-wide system approval does not cover them; printing the
configuration and installing a package keep their grades."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from tests.risk.both_sides import graded, project


@pytest.mark.parametrize(
    "command",
    [
        "sudo dnf config-manager --add-repo https://repo.example/x.repo",
        "sudo yum config-manager --set-enabled crb",
        "sudo dnf config-manager setopt x.gpgcheck=0",
        "sudo dnf config-manager addrepo --from-repofile=https://repo.example/x.repo",
        "sudo dnf copr enable someone/tools",
        "sudo dnf -y copr enable someone/tools",
        "sudo rpm --import https://repo.example/key.asc",
        "sudo rpm --import /tmp/key.asc",
    ],
)
def test_a_new_package_source_is_destructive_on_the_host(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {})
    assert graded(command, ws)[0] == RiskLevel.DESTRUCTIVE, graded(command, ws)
    assert classify(command, contained=True, workspace=str(ws)).risk < RiskLevel.DESTRUCTIVE


@pytest.mark.parametrize(
    ("command", "risk"),
    [
        ("dnf config-manager --dump", RiskLevel.SYSTEM),
        ("dnf copr list", RiskLevel.SYSTEM),
        ("sudo dnf install -y jq", RiskLevel.SYSTEM),
        ("rpm -qa", RiskLevel.READ_ONLY),
        ("rpm -K x.rpm", RiskLevel.READ_ONLY),
    ],
)
def test_reading_the_configuration_and_installing_keep_their_grades(
    tmp_path: Path, command: str, risk: RiskLevel
) -> None:
    ws = project(tmp_path, {})
    assert graded(command, ws)[0] == risk, graded(command, ws)
