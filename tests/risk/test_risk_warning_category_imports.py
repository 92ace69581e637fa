"""A warning filter ``action:message:category:module:lineno`` whose category is a dotted name makes the program import
that module to find the class: pytest's ``-W``/``--pythonwarnings`` (``_resolve_warning_category``) and Python's own
``-W`` (``warnings._getcategory``, at start-up). That is code loaded by name, as ``pytest -p NAME`` loads it:
destructive. Built-in categories, and pytest's and the warnings module's own, keep the grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes
from tests.risk.both_sides import graded, project

DES = RiskLevel.DESTRUCTIVE
WW = RiskLevel.WORKSPACE_WRITE


def _both(command: str, workspace: Path) -> tuple[RiskLevel, RiskLevel]:
    host, _ = graded(command, workspace)
    inside = classify(command, contained=True, workspace=str(workspace), recipes=ProjectRecipes(workspace)).risk
    return host, inside


@pytest.mark.parametrize(
    "command",
    [
        "pytest -W error::evil.Warning",
        "pytest -Werror::evil.Warning",
        "pytest --pythonwarnings=error::evil.Warning",
        "pytest --pythonw error::evil.Warning",
        "python -W error::evil.Warning -m pytest",
        "python -Werror::evil.Warning -m pytest",
        "python3 -W error::evil.Warning -m pytest -q",
    ],
)
def test_a_dotted_category_is_code_loaded_by_name(tmp_path: Path, command: str) -> None:
    assert _both(command, project(tmp_path, {"pytest.ini": "[pytest]\n"})) == (DES, DES)


@pytest.mark.parametrize(
    "command",
    [
        "pytest -W error::DeprecationWarning",
        "pytest -W error::pytest.PytestUnraisableExceptionWarning",
        "pytest -W 'ignore:a.b.c:DeprecationWarning'",
        "python -W ignore -m pytest",
        "python -W error::DeprecationWarning -m pytest",
        "python -W error::warnings.WarningMessage -m pytest",
    ],
)
def test_builtin_categories_keep_the_grade(tmp_path: Path, command: str) -> None:
    assert _both(command, project(tmp_path, {"pytest.ini": "[pytest]\n"})) == (WW, WW)
