"""The repository's configuration chooses what two git uses do: ``pull.twohead``/``pull.octopus`` name the merge
strategies ``git pull`` and ``git merge`` use when none is given (git-config(1); one git does not have runs the
program ``git-merge-NAME``, as ``git merge -s NAME`` does: destructive), and ``stash.showPatch`` makes ``git stash
show`` print the stashed changes' lines (git-config(1) stash.showPatch), graded as ``git stash show -p`` is: a
secret read (network) in a repository tracking a secret file. Strategies git has, ``stash.showPatch = false`` and
a format option given (``--stat``) keep their grades."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import git, graded, project

R = RiskLevel


def _repo(tmp_path: Path, settings: dict[str, str], files: dict[str, str] | None = None) -> Path:
    ws = project(tmp_path, files or {"src/a.py": "x = 1\n", "README.md": "r\n"})
    git("init", "-q", cwd=ws)
    git("add", "-A", cwd=ws)
    git("commit", "-q", "-m", "i", cwd=ws)
    for key, value in settings.items():
        git("config", key, value, cwd=ws)
    return ws


@pytest.mark.parametrize("key", ["pull.twohead", "pull.octopus"])
@pytest.mark.parametrize("command", ["git pull", "git pull origin main", "git merge main", "git merge --no-ff main"])
def test_a_configured_strategy_git_does_not_have_runs_a_program(tmp_path: Path, key: str, command: str) -> None:
    ws = _repo(tmp_path, {key: "evil"})
    level, details = graded(command, ws)
    assert level is R.DESTRUCTIVE
    assert any(key in d for d in details)


@pytest.mark.parametrize("value", ["ours", "ort", "recursive resolve", "octopus"])
def test_a_configured_strategy_git_has_keeps_the_grade(tmp_path: Path, value: str) -> None:
    ws = _repo(tmp_path, {"pull.twohead": value, "pull.octopus": value})
    assert graded("git pull", ws)[0] is R.NETWORK
    assert graded("git merge main", ws)[0] is R.WORKSPACE_WRITE


def test_a_strategy_list_naming_one_git_does_not_have_runs_it(tmp_path: Path) -> None:
    ws = _repo(tmp_path, {"pull.twohead": "ort evil"})
    assert graded("git pull", ws)[0] is R.DESTRUCTIVE


def test_a_configured_strategy_is_not_read_by_other_subcommands(tmp_path: Path) -> None:
    ws = _repo(tmp_path, {"pull.twohead": "evil"})
    assert graded("git status", ws)[0] is R.READ_ONLY
    assert graded("git log --oneline", ws)[0] is R.READ_ONLY


SECRETS = {".env.production": "API_KEY=s3cret\n", "src/a.py": "x = 1\n"}


@pytest.mark.parametrize("value", ["true", "yes", "1", "on"])
@pytest.mark.parametrize("command", ["git stash show", "git stash show stash@{1}", "git stash show -u"])
def test_stash_show_patch_configured_prints_the_tracked_secret(tmp_path: Path, value: str, command: str) -> None:
    ws = _repo(tmp_path, {"stash.showPatch": value}, SECRETS)
    level, details = graded(command, ws)
    assert level is R.NETWORK
    assert any(".env.production" in d for d in details)


def test_stash_show_patch_configured_matches_stash_show_p(tmp_path: Path) -> None:
    ws = _repo(tmp_path, {"stash.showPatch": "true"}, SECRETS)
    assert graded("git stash show", ws)[0] is graded("git stash show -p", ws)[0]


@pytest.mark.parametrize(
    ("settings", "command"),
    [
        ({}, "git stash show"),
        ({"stash.showPatch": "false"}, "git stash show"),
        ({"stash.showPatch": "true"}, "git stash show --stat"),
        ({"stash.showPatch": "true"}, "git stash show --name-only"),
        ({"stash.showPatch": "true"}, "git stash list"),
    ],
)
def test_stash_show_without_a_patch_keeps_its_grade(tmp_path: Path, settings: dict[str, str], command: str) -> None:
    ws = _repo(tmp_path, settings, SECRETS)
    assert graded(command, ws)[0] is R.READ_ONLY


def test_stash_show_patch_configured_without_a_tracked_secret_stays_a_read(tmp_path: Path) -> None:
    ws = _repo(tmp_path, {"stash.showPatch": "true"})
    assert graded("git stash show", ws)[0] is R.READ_ONLY


@pytest.mark.parametrize(
    "command",
    [
        "git -c pull.twohead=evil pull",
        "git -c pull.octopus=evil pull origin a b",
        "git config pull.twohead evil && git pull",
        "git config --local pull.twohead ours",
        "git config set pull.twohead evil",
    ],
)
def test_choosing_a_strategy_in_the_command_is_destructive(tmp_path: Path, command: str) -> None:
    assert graded(command, _repo(tmp_path, {}))[0] is R.DESTRUCTIVE
