"""Which programs count as link makers, and which writes after one still land where they are named (grader.py
``_makes_links``, ``_git_keeps_tree``, ``Grader.lands_as_named``, ``_script_operand``): creating a branch at HEAD
changes no file; ``sed -i`` replaces a link named in the workspace root instead of writing through it; git changes
its own repository without following links git made; sed's script names no file. Each case is checked in both
directions: the hostile neighbour (a start point, a directory part, a ``cd``, a non-git link maker, a loop) stays
graded as a write whose target is only known when it runs."""

from __future__ import annotations

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel

W = "/work/repo"


def _graded(command: str) -> tuple[RiskLevel, list[str]]:
    graded = classify(command, contained=False, workspace=W)
    return graded.risk, [reason.rule for reason in graded.reasons]


@pytest.mark.parametrize(
    "command",
    [
        "git checkout -b feat && sed -i 's/a/b/' README.md && git commit -am x",
        "git checkout -b fix/cli && echo x >> src/app/cli.py",
        "git checkout -q -B feat && echo x > notes/a.txt",
        "git switch -c feat && echo x > docs/a.md",
        "git switch --create feat --no-track && echo x > docs/a.md",
        "git stash && git commit -am x",
        "git stash && sed -i s/a/b/ README.md",
        "git stash && git pull --rebase && git stash pop",
        "git pull && sed -i s/a/b/ *.md",
        "git checkout main && git commit -am x",
    ],
)
def test_writes_that_land_where_they_are_named_after_git_are_no_unknown_target(command: str) -> None:
    risk, rules = _graded(command)
    assert "unknown-write-target" not in rules
    assert risk <= RiskLevel.NETWORK or "discard-changes" in rules


@pytest.mark.parametrize(
    "command",
    [
        "git checkout -b feat && sed -i 's/a/b/' README.md && git commit -am x",
        "git switch -c feat && echo x > docs/a.md",
        "git stash && git commit -am x",
    ],
)
def test_a_branch_at_head_then_workspace_writes_is_a_workspace_write(command: str) -> None:
    assert _graded(command)[0] is RiskLevel.WORKSPACE_WRITE


@pytest.mark.parametrize(
    "command",
    [
        "git checkout -b feat origin/evil && echo x >> hd/.bashrc",
        "git checkout -b feat -- hd && echo x >> hd/.bashrc",
        "git checkout -bfeat && echo x >> hd/.bashrc",
        "git checkout -b feat --recurse-submodules && echo x >> hd/.bashrc",
        "git switch -c feat origin/evil && echo x >> hd/.bashrc",
        "git switch --orphan feat && echo x >> hd/.bashrc",
        "git checkout -b $B && echo x >> hd/.bashrc",
        "git stash && echo x >> hd/.bashrc",
        "git pull && sed -i s/a/b/ hd/.bashrc",
        "git pull && sed -i s/a/b/ */.bashrc",
        "git pull && cd hd && sed -i s/a/b/ .bashrc",
        "git pull && sed -i --follow-symlinks s/a/b/ README.md",
        "git pull && echo x > README.md",
        "git pull && git -C hd commit -am x",
        "git pull && git --work-tree=hd commit -am x",
        "tar xf a.tar && git commit -am x",
        "git pull && tar xf a.tar && git commit -am x",
        "git pull && for f in a b; do git commit -am x; done",
        "git submodule foreach 'git pull'",
    ],
)
def test_writes_that_may_go_through_a_link_made_earlier_stay_unknown_targets(command: str) -> None:
    risk, rules = _graded(command)
    assert risk is RiskLevel.DESTRUCTIVE and "unknown-write-target" in rules, rules


@pytest.mark.parametrize(
    "command",
    [
        "git pull && sed -i s/a/b/ README.md",
        "tar xf a.tar && sed -i s/a/b/ README.md",
        "git pull && sed -n p k",
        "git pull && sed --expression=p k",
        "git pull && sed -e p -- k",
        "git pull && sed -ne p k",
        "git pull && grep -r foo k",
        "git pull && grep -e foo k",
        "git pull && awk '{print}' k",
        "git pull && awk -f prog k",
    ],
)
def test_a_file_read_after_a_link_maker_is_still_a_possible_secret_read(command: str) -> None:
    risk, rules = _graded(command)
    assert "secret-read" in rules and risk >= RiskLevel.NETWORK


@pytest.mark.parametrize("command", ["git pull && sed p", "git pull && sed -n 's/a/b/p'", "git pull && grep foo"])
def test_sed_script_or_grep_pattern_is_no_file_read(command: str) -> None:
    assert "secret-read" not in _graded(command)[1]


def test_sed_in_place_after_git_reads_the_file_not_the_script() -> None:
    graded = classify("git pull && sed -i 's/hi/hello/' README.md", contained=False, workspace=W)
    reads = [r.detail for r in graded.reasons if r.rule == "secret-read"]
    assert reads and all("README.md may be" in text for text in reads), reads
    assert graded.risk is RiskLevel.NETWORK
