"""A relative entry in the PATH the session's commands run under (the adapter's environment, which the agent's shell
shares): a program named without a ``/`` may then be a file of the working directory (bash(1) "PATH"; execvp(3)),
so it is graded ``runs-program``, ``destructive``, on both sides of the wire; bash's builtins and programs named by
path keep their grade, and so does every command under a PATH of absolute entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import BASH_DEFAULT_PATH, SEARCH_PATH, GivenRecipes, ProjectRecipes
from tests.risk.both_sides import project

R = RiskLevel
ABSOLUTE = "/usr/local/bin:/usr/bin:/bin"
RELATIVE = {
    "empty entry": "/usr/local/bin::/usr/bin",
    "leading colon": ":/usr/bin:/bin",
    "trailing colon": "/usr/bin:/bin:",
    "dot": ".:/usr/bin",
    "directory in the workspace": "/usr/bin:node_modules/.bin",
    "empty PATH": "",
    "bash's default": BASH_DEFAULT_PATH,
}


def both_sides(command: str, workspace: Path, path: str) -> tuple[RiskLevel, list[str], list[str]]:
    """The host grade of ``command`` under ``path`` as the adapter grades it and as the server grades what the
    adapter sent (asserted equal), with the reasons' rules and details."""
    read = classify(command, contained=False, workspace=str(workspace), recipes=ProjectRecipes(workspace, path))
    given = classify(
        command, contained=False, workspace=str(workspace), recipes=GivenRecipes(read.recipes) if read.recipes else None
    )
    assert given.risk == read.risk, (read.reasons, given.reasons)
    return read.risk, [r.rule for r in read.reasons], [r.detail for r in read.reasons]


@pytest.mark.parametrize("path", RELATIVE.values(), ids=RELATIVE.keys())
@pytest.mark.parametrize(
    "command",
    ["ls", "ls -la src", "git status", "env ls", "echo hi | cat", "find . -name x -exec ls {} +", "cd src && ls"],
)
def test_a_program_named_without_a_slash_under_a_relative_path_is_destructive(
    tmp_path: Path, path: str, command: str
) -> None:
    ws = project(tmp_path, {"ls": "#!/bin/sh\ntouch ran\n", "src/a.py": ""})
    risk, rules, details = both_sides(command, ws, path)
    assert risk is R.DESTRUCTIVE, details
    assert "runs-program" in rules
    assert any("relative entry" in d for d in details), details


def test_the_reason_names_the_relative_entries(tmp_path: Path) -> None:
    ws = project(tmp_path, {})
    _, _, details = both_sides("ls", ws, "/usr/bin::bin:/bin:.")
    assert any("relative entry '', bin, ." in d for d in details), details


@pytest.mark.parametrize("path", RELATIVE.values(), ids=RELATIVE.keys())
@pytest.mark.parametrize(
    ("command", "level"),
    [("echo hi", R.READ_ONLY), ("cd src && pwd", R.READ_ONLY), ("/usr/bin/ls -la", R.READ_ONLY),
     ("printf x > notes.txt", R.WORKSPACE_WRITE)],
)  # fmt: skip
def test_builtins_and_programs_named_by_path_keep_their_grade(
    tmp_path: Path, path: str, command: str, level: RiskLevel
) -> None:
    ws = project(tmp_path, {"src/a.py": ""})
    risk, rules, details = both_sides(command, ws, path)
    assert risk is level, details
    assert "runs-program" not in rules


@pytest.mark.parametrize(
    ("command", "level"), [("ls -la", R.READ_ONLY), ("git status", R.READ_ONLY), ("echo hi", R.READ_ONLY)]
)
def test_an_absolute_path_keeps_every_grade_and_sends_nothing(tmp_path: Path, command: str, level: RiskLevel) -> None:
    ws = project(tmp_path, {})
    read = classify(command, contained=False, workspace=str(ws), recipes=ProjectRecipes(ws, ABSOLUTE))
    assert read.risk is level
    assert not any(r.target == SEARCH_PATH for r in read.recipes)


@pytest.mark.parametrize("command", ["PATH=.:$PATH ls", "export PATH=:$PATH; ls", "PATH=bin ls"])
def test_a_path_the_command_sets_is_graded_where_it_is_set(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {})
    risk, rules, details = both_sides(command, ws, ABSOLUTE)
    assert risk is R.DESTRUCTIVE and "env-hijack" in rules, details


def test_the_server_without_the_adapters_report_grades_by_the_command_alone(tmp_path: Path) -> None:
    """What the server knows is what was sent: the relative PATH is reported first, as a recipe of its own."""
    ws = project(tmp_path, {})
    read = classify("ls", contained=False, workspace=str(ws), recipes=ProjectRecipes(ws, ".:/usr/bin"))
    assert [r.target for r in read.recipes] == [SEARCH_PATH]
    assert classify("ls", contained=False, workspace=str(ws), recipes=None).risk is R.READ_ONLY
