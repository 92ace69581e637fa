"""pdm config of the index (``pypi.url``, ``pypi.NAME.url``, ``pypi.verify_ssl``) changes where every later install
gets its packages (package-source, as ``pip config set global.index-url``), and ``pdm self add`` installs a package
into PDM's own environment, which PDM loads as a plugin on every later run (as ``poetry self add``). Other settings,
listing and ``pdm self list`` keep their grades."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes
from tests.risk.both_sides import graded, project

DES = RiskLevel.DESTRUCTIVE
SYS = RiskLevel.SYSTEM
NET = RiskLevel.NETWORK
WW = RiskLevel.WORKSPACE_WRITE
RO = RiskLevel.READ_ONLY


def _both(command: str, workspace: Path) -> tuple[RiskLevel, RiskLevel]:
    host, _ = graded(command, workspace)
    inside = classify(command, contained=True, workspace=str(workspace), recipes=ProjectRecipes(workspace)).risk
    return host, inside


@pytest.mark.parametrize(
    ("command", "host", "inside"),
    [
        ("pdm config pypi.url https://pypi.example.com/simple", DES, NET),
        ("pdm config -l pypi.url https://pypi.example.com/simple", DES, NET),
        ("pdm config pypi.extra.url https://pypi.example.com/simple", DES, NET),
        ("pdm config pypi.verify_ssl false", DES, WW),
        ("pdm self add pdm-plugin-x", DES, SYS),
        ("pdm config python.use_venv true", WW, WW),
        ("pdm config", RO, RO),
        ("pdm self list", RO, RO),
    ],
)
def test_pdm_sources_and_plugins(tmp_path: Path, command: str, host: RiskLevel, inside: RiskLevel) -> None:
    assert _both(command, project(tmp_path, {})) == (host, inside)
