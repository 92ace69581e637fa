"""Tools that look for their project, configuration or repository in the directory they run in and each one above:
with none in the workspace, one above it is code from outside (``project-outside-workspace``, settings.py ``above``).
SwiftPM's Package.swift, ``zig build``'s build.zig, cabal.project, stack.yaml, clang-tidy's compile_commands.json,
.rubocop.yml, golangci-lint's, flake8's and Jest's configurations, and the repository of hg (``.hg/hgrc`` hooks and extensions) and jj;
and pytest, which before 8.0 imported every conftest.py above when no configuration file was found. The same tools
with their own file in the workspace, or nothing above, keep their grades."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import ProjectRecipes
from tests.risk.both_sides import graded

DES = RiskLevel.DESTRUCTIVE
WW = RiskLevel.WORKSPACE_WRITE
RO = RiskLevel.READ_ONLY

CASES = [
    ("swift build", "Package.swift", WW),
    ("swift test", "Package.swift", WW),
    ("zig build", "build.zig", WW),
    ("cabal build", "cabal.project", WW),
    ("stack build", "stack.yaml", WW),
    ("clang-tidy x.c", "compile_commands.json", RO),
    ("rubocop", ".rubocop.yml", WW),
    ("golangci-lint run", ".golangci.yml", WW),
    ("hg status", ".hg/hgrc", RO),
    ("jj log", ".jj/repo/config.toml", RO),
    ("flake8", "setup.cfg", WW),
    ("flake8 src", ".flake8", WW),
    ("jest", "jest.config.js", WW),
    ("pytest", "conftest.py", WW),
    ("python -m pytest -q tests", "conftest.py", WW),
]


def _layout(tmp_path: Path, above: dict[str, str], inside: dict[str, str]) -> Path:
    """A workspace ``tmp_path/home/dev/proj`` holding ``inside``, below ``tmp_path/home/dev`` holding ``above``."""
    top = (tmp_path / "home" / "dev").resolve()
    workspace = top / "proj"
    workspace.mkdir(parents=True)
    for files, base in ((above, top), (inside, workspace)):
        for name, text in files.items():
            (base / name).parent.mkdir(parents=True, exist_ok=True)
            (base / name).write_text(text)
    return workspace


def _both(command: str, workspace: Path) -> tuple[RiskLevel, RiskLevel]:
    host, _ = graded(command, workspace)
    inside = classify(command, contained=True, workspace=str(workspace), recipes=ProjectRecipes(workspace)).risk
    return host, inside


@pytest.mark.parametrize(("command", "name", "grade"), CASES)
def test_a_file_found_above_the_workspace_is_code_from_outside(
    tmp_path: Path, command: str, name: str, grade: RiskLevel
) -> None:
    workspace = _layout(tmp_path, {name: "x\n"}, {"x.c": "int x;\n", "tests/test_x.py": "def test(): pass\n"})
    assert _both(command, workspace) == (DES, DES)


@pytest.mark.parametrize(("command", "name", "grade"), CASES)
def test_nothing_above_keeps_the_grade(tmp_path: Path, command: str, name: str, grade: RiskLevel) -> None:
    workspace = _layout(tmp_path, {}, {"x.c": "int x;\n", "tests/test_x.py": "def test(): pass\n"})
    assert _both(command, workspace) == (grade, grade)


@pytest.mark.parametrize(("command", "name", "grade"), [c for c in CASES if c[1] != "conftest.py"])
def test_the_workspace_own_file_keeps_the_grade(tmp_path: Path, command: str, name: str, grade: RiskLevel) -> None:
    workspace = _layout(tmp_path, {name: "x\n"}, {name: "x\n", "x.c": "int x;\n"})
    assert _both(command, workspace) == (grade, grade)


def test_a_pytest_configuration_in_the_workspace_stops_the_conftest_search(tmp_path: Path) -> None:
    workspace = _layout(tmp_path, {"conftest.py": "x\n"}, {"pytest.ini": "[pytest]\n", "tests/test_x.py": "x\n"})
    assert _both("pytest", workspace) == (WW, WW)


def test_flake8_config_option_stops_the_search(tmp_path: Path) -> None:
    workspace = _layout(tmp_path, {"setup.cfg": "[flake8]\n"}, {"lint.cfg": "[flake8]\n"})
    assert _both("flake8 --config lint.cfg", workspace) == (WW, WW)
