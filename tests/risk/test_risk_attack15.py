"""Holes found by a review pass: recursive comparisons that print credential files below a home or system tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel

W = Path("/home/dev/project")


def _rules(command: str) -> tuple[RiskLevel, set[str]]:
    graded = classify(command, contained=True, workspace=W)
    return graded.risk, {reason.rule for reason in graded.reasons}


@pytest.mark.parametrize(
    "command",
    [
        # GNU diffutils "Comparing Directories": -r compares every file below both; -N prints a file only one side
        # holds whole (diff -rN ~ EMPTY prints ~/.ssh/id_rsa)
        "diff -r ~ /",
        "diff -rN ~ /tmp/e",
        "diff -r --new-file ~ .",
        "diff -ru ~/.config /tmp/e",
        "diff --recursive /home /tmp/e",
        "diff -r -x '*.o' /etc /tmp/e",
        "diff -Nr --from-file=/home/dev /tmp/e",
        # git-diff(1) --no-index: directories are compared recursively, a file one side lacks printed whole
        "git diff --no-index ~ /tmp/e",
        "git diff --no-index ~/.config /tmp/e",
        "git diff --no-index / /tmp/e",
    ],
)
def test_a_recursive_comparison_of_a_tree_holding_credentials_is_a_secret_read(command: str) -> None:
    risk, rules = _rules(command)
    assert risk >= RiskLevel.NETWORK
    assert "secret-read" in rules


@pytest.mark.parametrize(
    "command",
    [
        "diff -r src /tmp/e",
        "diff -ru src/ other/",
        "diff a.txt b.txt",
        "diff ~/notes.txt x",
        "diff -x .git -r src lib",
        "git diff --no-index a.txt b.txt",
        "git diff --no-index src /tmp/e",
        "git diff HEAD~1 -- src",
    ],
)
def test_comparing_workspace_trees_and_files_stays_read_only(command: str) -> None:
    risk, rules = _rules(command)
    assert risk == RiskLevel.READ_ONLY, rules
