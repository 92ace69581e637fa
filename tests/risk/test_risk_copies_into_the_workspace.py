"""Copies from outside into the workspace (bot/risk/programs/files.py ``cp``, ``_copied_names``; grader.py
``git_directory_file``): landing on git's control files (``.git``, its hooks and config) or on a file another tool
runs (``.envrc``) is a control-file write; other copies into the workspace, subdirectories included, are ordinary
workspace writes (a bare repository copied in is caught when git runs in it: settings.py ``_git_nested``)."""

from __future__ import annotations

import pytest

from bot.risk import RiskLevel, classify

WW = RiskLevel.WORKSPACE_WRITE
DES = RiskLevel.DESTRUCTIVE


@pytest.mark.parametrize(
    "command",
    [
        "cp /tmp/x .git/hooks/pre-commit",
        "cp /tmp/pre-commit .git/hooks/",
        "cp -t .git/hooks /tmp/pre-commit",
        "cp -r /tmp/t ./.git",
        "cp -r /tmp/t .git/",
        "cp -r /tmp/hooks .git/",
        "cp /tmp/config .git/",
        "cp /tmp/config ./sub/config",
        "mv /tmp/x .git/hooks/post-checkout",
        "cp -r /tmp/t/.git ./sub",
        "cp /tmp/x .envrc",
        "cp /tmp/.envrc sub/",
        "cp -r /tmp/t/. .",
        "rsync -a /tmp/t/ ./",
    ],
)
def test_copies_landing_on_control_files_are_destructive(command: str) -> None:
    result = classify(command, contained=False, workspace="/home/u/proj")
    assert result.risk == DES, (command, result.reasons)
    assert any(r.rule == "git-control-write" for r in result.reasons), result.reasons


@pytest.mark.parametrize(
    "command",
    [
        "cp /tmp/x.py sub/",
        "cp -r /tmp/t ./sub",
        "cp -a /tmp/t ./sub/",
        "cp /tmp/data.csv ./",
        "cp -r /tmp/assets static/",
        "rsync -a /tmp/t/ ./sub/",
    ],
)
def test_other_copies_into_the_workspace_stay_workspace_writes(command: str) -> None:
    result = classify(command, contained=False, workspace="/home/u/proj")
    assert result.risk == WW, (command, result.reasons)
