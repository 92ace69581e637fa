"""Bundler evaluates the Gemfile of the directory it runs in as Ruby (gemfile(5): "A Gemfile is evaluated as Ruby
code"), as ``pod install`` evaluates a Podfile: ``bundle install``/``update``/``lock`` run from a directory outside the
workspace, or one only known when it runs, run code FlyBot does not read (destructive), as ``--gemfile=`` naming such
a file already does. In the workspace they keep their install or fetch grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

GEMFILE = {"Gemfile": 'source "https://rubygems.org"\ngem "rake"\n'}


@pytest.mark.parametrize(
    "command",
    [
        "cd {elsewhere} && bundle install",
        "cd {elsewhere} && bundle",
        "cd {elsewhere} && bundle update",
        "cd {elsewhere} && bundle lock",
        "cd {elsewhere} && bundler install",
        'cd "$D" && bundle install',
        "bundle install --gemfile={elsewhere}/Gemfile",
    ],
)
def test_bundler_run_where_the_gemfile_is_outside_is_destructive(tmp_path: Path, command: str) -> None:
    workspace = project(tmp_path, GEMFILE)
    (tmp_path / "elsewhere" / "Gemfile").write_text(GEMFILE["Gemfile"])
    level, details = graded(command.format(elsewhere=tmp_path / "elsewhere"), workspace)
    assert level is RiskLevel.DESTRUCTIVE, details
    assert command.startswith("bundle install --gemfile") or any("Gemfile" in d for d in details), details


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("bundle install", RiskLevel.SYSTEM),
        ("bundle", RiskLevel.SYSTEM),
        ("bundle lock", RiskLevel.NETWORK),
        ("bundle add rails", RiskLevel.SYSTEM),
    ],
)
def test_bundler_in_the_workspace_keeps_its_grade(tmp_path: Path, command: str, level: RiskLevel) -> None:
    assert graded(command, project(tmp_path, GEMFILE))[0] is level, command
