"""A workspace that is a directory inside a repository whose ``.git`` lies above it: git run in the workspace finds
that repository (git(1) "GIT_DIR": it searches the directory and its parents) and obeys its configuration, so the
programs that configuration names are graded as git running them (settings question ``programs``, programs/git.py
``_configured_programs``); a plain configuration keeps git's grade, and one that cannot be read fails closed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import git, graded

RO = RiskLevel.READ_ONLY
DES = RiskLevel.DESTRUCTIVE


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    """``tmp/repo/ws``: the workspace, a directory of the repository ``tmp/repo``."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", cwd=repo)
    ws = (repo / "ws").resolve()
    ws.mkdir()
    return ws


@pytest.mark.parametrize(
    ("key", "value", "command"),
    [
        ("core.fsmonitor", "/tmp/evil", "git status"),
        ("core.pager", "/tmp/evil", "git log"),
        ("core.sshCommand", "/tmp/evil", "git fetch"),
        ("diff.external", "/tmp/evil", "git diff"),
        ("include.path", "/tmp/more.cfg", "git status"),
    ],
)
def test_the_configuration_of_a_repository_above_the_workspace_is_obeyed(
    workspace: Path, key: str, value: str, command: str
) -> None:
    git("config", key, value, cwd=workspace.parent)
    risk, details = graded(command, workspace)
    assert risk is DES and any(key.lower() in d and value in d for d in details), details


def test_a_plain_configuration_above_keeps_the_grade(workspace: Path) -> None:
    git("config", "user.name", "Dev", cwd=workspace.parent)
    git("config", "core.pager", "less", cwd=workspace.parent)
    assert graded("git status", workspace)[0] is RO
    assert graded("git log", workspace)[0] is RO


def test_a_git_file_above_leads_to_the_git_directory_it_names(workspace: Path, tmp_path: Path) -> None:
    repo = workspace.parent
    (repo / ".git").rename(tmp_path / "moved.git")
    (repo / ".git").write_text(f"gitdir: {tmp_path / 'moved.git'}\n")
    assert graded("git status", workspace)[0] is RO
    git("--git-dir", str(tmp_path / "moved.git"), "config", "core.fsmonitor", "/tmp/evil", cwd=tmp_path)
    assert graded("git status", workspace)[0] is DES


def test_a_configuration_above_that_cannot_be_read_fails_closed(workspace: Path) -> None:
    config = workspace.parent / ".git" / "config"
    config.write_bytes(b"[core]\n\tfsmonitor = \xff\n")
    assert graded("git status", workspace)[0] is DES
    (workspace.parent / ".git").rename(workspace.parent / "old.git")
    (workspace.parent / ".git").write_text("not a gitdir line\n")  # a .git file git cannot follow
    assert graded("git status", workspace)[0] is DES


def test_a_git_directory_named_in_the_commands_environment_is_not_vouched_for(workspace: Path) -> None:
    for command in ("GIT_DIR=../.git git status", "env GIT_DIR=/tmp/r/.git git log", "export GIT_DIR=x; git status"):
        assert graded(command, workspace)[0] is DES, command


@pytest.mark.parametrize(
    ("key", "command"),
    [
        ("core.fsmonitor", "go build ./cmd/app"),
        ("core.fsmonitor", "go install ./cmd/app"),
        ("core.fsmonitor", "npm version patch"),
        ("core.hooksPath", "npm version minor"),
        ("gpg.program", "npm version patch"),
        ("core.fsmonitor", "yarn version --new-version 1.2.0"),
    ],
)
def test_tools_running_git_in_the_repository_run_what_its_configuration_names(
    workspace: Path, key: str, command: str
) -> None:
    (workspace / "package.json").write_text('{"name": "a", "version": "1.0.0"}\n')
    (workspace / "go.mod").write_text("module example.com/a\n\ngo 1.22\n")
    assert graded(command, workspace)[0] < DES, command  # a plain configuration
    git("config", key, "/tmp/evil", cwd=workspace.parent)
    risk, details = graded(command, workspace)
    assert risk is DES and any(key.lower() in d for d in details), details


@pytest.mark.parametrize(
    "command", ["go build -buildvcs=false ./cmd/app", "go test ./...", "npm version patch --no-git-tag-version"]
)
def test_tools_told_not_to_run_git_keep_their_grade(workspace: Path, command: str) -> None:
    (workspace / "package.json").write_text('{"name": "a", "version": "1.0.0"}\n')
    (workspace / "go.mod").write_text("module example.com/a\n\ngo 1.22\n")
    git("config", "core.fsmonitor", "/tmp/evil", cwd=workspace.parent)
    assert graded(command, workspace)[0] < DES, command
