"""``cd DIR && next`` runs ``next`` in DIR, but what follows the ``&&`` chain (the next statement, an ``||`` branch)
also runs when the ``cd`` failed (bash(1) Lists: an AND list stops at the first failure), so it may run where the
shell was before: a recipe there is graded too. Inside the chain, and inside a nested script's own chain, DIR stays
certain. A ``cd`` in a child shell (``bash -c 'cd DIR'``, a subshell) moves that shell only."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from tests.risk.both_sides import graded, project

WW, NET = RiskLevel.WORKSPACE_WRITE, RiskLevel.NETWORK
FILES = {"Makefile": "test:\n\tcurl -fsS https://example.com/x\n", "sub/Makefile": "test:\n\tpytest -q\n"}


@pytest.mark.parametrize(
    "command",
    [
        "cd sub && true; make test",
        "cd sub && true\nmake test",
        "cd sub && true || make test",
        "cd sub && ls && true; make test",
        "cd sub && cd . && true; make test",
        'bash -c "cd sub && true"; make test',
        "cd sub && true; echo ok > out.txt; make test",
        "bash -c 'cd sub' && make test",
        "sh -c 'cd sub' && make test",
        "timeout 5 bash -c 'cd sub' && make test",
        "(cd sub) && make test",
    ],
)
def test_what_follows_a_cd_chain_is_graded_from_where_the_shell_was_too(tmp_path: Path, command: str) -> None:
    level, reasons = graded(command, project(tmp_path, FILES))
    assert level >= NET, (command, reasons)


@pytest.mark.parametrize(
    "command",
    [
        "cd sub && make test",
        "cd sub && true && make test",
        "cd sub && make test; echo done",
        'cd sub && bash -c "cd . && true" && make test',
        "cd sub && bundle exec true && make test",
    ],
)
def test_inside_the_chain_the_directory_stays_certain(tmp_path: Path, command: str) -> None:
    level, reasons = graded(command, project(tmp_path, FILES))
    assert level is WW, (command, reasons)


def test_the_shell_really_stays_where_it_was_when_the_cd_fails(tmp_path: Path) -> None:
    # what the rule models, with the real bash: the statement after a failed cd's chain runs in the old directory
    ws = project(tmp_path, {})
    out = subprocess.run(
        ["bash", "-c", "cd missing 2>/dev/null && true; pwd"], cwd=ws, capture_output=True, text=True, check=False
    )
    assert out.stdout.strip() == str(ws)


def test_a_long_cd_chain_stops_being_tracked_and_grades_as_an_unknown_place() -> None:
    # every `cd src && ...;` doubles the places the shell may be in; past the tracked number a relative write is
    # a write to an unknown place
    script = "".join("cd src && true; " for _ in range(20)) + "echo x > out.txt"
    assessment = classify(script, contained=False, workspace="/home/dev/project")
    assert assessment.risk > WW, [r.detail for r in assessment.reasons]
    assert classify("cd src && echo x > out.txt", contained=False, workspace="/home/dev/project").risk is WW


@pytest.mark.parametrize(
    "command",
    [
        "cd src && bash -c 'cd /etc && cd /etc' || git push",
        "cd src && eval 'cd /etc && true' || git push",
        "cd src && bash -c 'cd /etc && true'; git push",
        "bash -c 'cd src' && eval 'cd src && touch f' && bash -c 'git push'",
    ],
)
def test_a_nested_scripts_chain_ends_inside_it_on_both_paths(command: str) -> None:
    from bot.risk.classifier import _classify

    plain = _classify(command, False, "/home/dev/project", fast=True)
    assert plain == _classify(command, False, "/home/dev/project", fast=False), command
