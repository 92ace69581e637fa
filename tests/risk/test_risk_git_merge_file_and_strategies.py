"""git merge-file writes its result into <current> (git-merge-file(1)), so that file is graded as a write wherever
it is; a merge strategy git does not have (``git merge -s NAME``) makes git run the program ``git-merge-NAME``
(git-merge(1) "MERGE STRATEGIES"): destructive. Built-in strategies, ``-p`` and cherry-pick's ``-s`` (signoff)
keep their grades."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import git, graded, project

R = RiskLevel


def _repo(tmp_path: Path) -> Path:
    ws = project(tmp_path, {"a.py": "a\n", "base": "a\n", "other": "a\nb\n"})
    git("init", "-q", cwd=ws)
    git("add", ".", cwd=ws)
    git("commit", "-q", "-m", "init", cwd=ws)
    return ws


@pytest.mark.parametrize(
    "command",
    [
        "git merge-file /etc/cron.d/job base other",
        "git merge-file -L a -L b -L c /etc/cron.d/job base other",
        "git merge-file --diff3 /root/.bashrc base other",
        "git merge -s evil main",
        "git merge -sevil main",
        "git merge --strategy=../../tmp/x main",
        "git merge --strategy evil main",
        "git rebase -s evil HEAD~1",
        "git pull -s evil",
        "git cherry-pick --strategy=evil HEAD",
        "git revert --strategy=evil HEAD",
    ],
)
def test_merge_file_outside_and_custom_strategies_are_destructive(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, _repo(tmp_path))
    assert risk == R.DESTRUCTIVE, details


@pytest.mark.parametrize(
    "command",
    [
        "git merge-file a.py base other",
        "git merge-file -p /etc/hostname base other",
        "git merge -s ours main",
        "git merge -sours main",
        "git merge -X theirs main",
        "git merge --strategy=ort main",
        "git merge --stat main",
        "git rebase --strategy=ours HEAD",
        "git cherry-pick -s HEAD",
        "git revert -s HEAD",
    ],
)
def test_everyday_merges_keep_their_grade(tmp_path: Path, command: str) -> None:
    risk, details = graded(command, _repo(tmp_path))
    assert risk == R.WORKSPACE_WRITE, details


def test_merge_file_names_the_file_it_writes(tmp_path: Path) -> None:
    _, details = graded("git merge-file /etc/cron.d/job base other", _repo(tmp_path))
    assert any("merge-file writes" in d and "/etc/cron.d/job" in d for d in details), details
