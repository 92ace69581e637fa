"""pip config's ``--editor <editor>`` (pip.pypa.io "pip config") names a program pip runs: it is destructive with
any action and in any optparse spelling (``--editor=X``, the abbreviations ``--edit`` and ``--edi``), where its value
was once read as the action (``pip config --editor 'sh -c id' edit`` graded as a settings change). Setting and
reading plain settings keep their grades."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes
from tests.risk.both_sides import graded, project


def _both(command: str, workspace: Path) -> tuple[RiskLevel, RiskLevel]:
    host, _ = graded(command, workspace)
    inside = classify(command, contained=True, workspace=str(workspace), recipes=ProjectRecipes(workspace)).risk
    return host, inside


@pytest.mark.parametrize(
    "command",
    [
        "pip config --editor 'sh -c id' edit",
        "pip config --editor=vi edit",
        "pip config --edit 'sh -c id' edit",
        "pip config --edi vi list",
        "pip --editor vi config edit",
        "pip config --editor vi set global.timeout 60",
        "python -m pip config --editor 'sh -c id' edit",
    ],
)
def test_pip_config_editor_is_destructive(tmp_path: Path, command: str) -> None:
    assert _both(command, project(tmp_path, {})) == (RiskLevel.DESTRUCTIVE, RiskLevel.DESTRUCTIVE)


@pytest.mark.parametrize(
    ("command", "host", "inside"),
    [
        ("pip config --user get global.timeout", RiskLevel.READ_ONLY, RiskLevel.READ_ONLY),
        ("pip config --global set global.timeout 60", RiskLevel.SYSTEM, RiskLevel.WORKSPACE_WRITE),
        ("pip config list", RiskLevel.NETWORK, RiskLevel.NETWORK),
        ("pip install --editable .", RiskLevel.NETWORK, RiskLevel.NETWORK),
    ],
)
def test_plain_pip_config_keeps_its_grade(tmp_path: Path, command: str, host: RiskLevel, inside: RiskLevel) -> None:
    assert _both(command, project(tmp_path, {})) == (host, inside)
