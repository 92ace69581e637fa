"""File names a listing prints at run time and a content reader then prints (``cat $(ls -a)``, ``find . -type f |
xargs cat``): a listing that shows hidden or git-ignored files (``ls -a``, ``find`` without a name test, ``fd -H``,
``git ls-files -o``) names the project's ``.env`` (listing.HIDDEN); one that hides them keeps its grade. Whole-repository
searches and dumps (``git grep``, ``git cat-file --batch-all-objects``) print a committed secret file when the index
tracks one (settings question ``tracked``), and keep their grade when it tracks none."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    """A project with a git-ignored ``.env`` beside its sources."""
    return project(
        tmp_path, {".env": "API_KEY=s3cret\n", ".gitignore": ".env\n", "src/a.py": "print(1)\n", "README.md": "x\n"}
    )


@pytest.mark.parametrize(
    "command",
    [
        "cat $(ls -a)",
        "cat `ls -A`",
        "ls -a | xargs cat",
        "ls -la | xargs cat",
        "cat $(ls --almost-all)",
        "cat $(ls --alm)",
        "awk 1 $(ls -A)",
        "nl $(ls -a)",
        "paste $(ls -A)",
        "grep -h . $(ls -A)",
        "head -n 99 $(ls -A | grep -v git)",
        "ls -a src | xargs cat",
        "find . -type f | xargs cat",
        "find . | xargs cat",
        "cat $(find . -type f)",
        "find . ! -name '*.py' | xargs cat",
        "find . -name '*.py' -o -type f | xargs cat",
        "find src -not -name '*.py' | xargs cat",
        "fd -H | xargs cat",
        "fd --no-ignore | xargs cat",
        "fd -u . | xargs cat",
        "git ls-files -o | xargs cat",
        "git ls-files --others | xargs cat",
        "git ls-files --oth | xargs cat",
        "cat $(git ls-files -o -i --exclude-standard)",
        "cat $(git ls-files --ignored --exclude-standard -o)",
    ],
)
def test_a_listing_of_hidden_or_ignored_files_names_the_env_file(workspace: Path, command: str) -> None:
    risk, details = graded(command, workspace)
    assert risk is NET and any("hidden or git-ignored" in d for d in details), details


@pytest.mark.parametrize(
    "command",
    [
        "cat $(ls)",
        "cat $(ls src)",
        "ls | xargs cat",
        "ls -l | xargs cat",
        "ls -A | grep src | xargs cat",
        "find . -name '*.py' | xargs cat",
        "cat $(find src -name '*.py')",
        "find . -type f -name '*.md' | xargs cat",
        "fd | xargs cat",
        "fd py | xargs cat",
        "ls -a | xargs wc -l",
        "find . -type f | xargs ls -l",
        "git ls-files -o | wc -l",
    ],
)
def test_a_listing_that_hides_dotfiles_or_is_not_printed_keeps_its_grade(workspace: Path, command: str) -> None:
    assert graded(command, workspace)[0] is RO


# -- a secret file's counts, or its content sent to /dev/null: nothing of it reaches the output ----------------------
@pytest.mark.parametrize(
    "command",
    [
        "wc -l .env",
        "wc -c .env",
        "wc .env",
        "cat .env > /dev/null",
        "cat .env >/dev/null 2>&1",
        "cat .env 2>&1 >/dev/null",
        "cat .env &> /dev/null",
        "cat .env >& /dev/null",
    ],
)
def test_counts_or_a_silenced_read_of_a_secret_file_print_none_of_it(workspace: Path, command: str) -> None:
    assert graded(command, workspace)[0] is RO


@pytest.mark.parametrize(
    "command",
    [
        "cat .env > /dev/null 1>&2",
        "cat .env 2>/dev/null",
        "cat .env > /dev/stdout",
        "cat .env > /dev/null > /dev/tty",
        "cat .env | wc -c",
        "head .env > /dev/null",
        "grep -q KEY .env > /dev/null",
        "md5sum .env",
        "wc --files0-from=.env",
        "wc --files0-from .env",
    ],
)
def test_a_secret_files_content_reaching_the_output_stays_a_secret_read(workspace: Path, command: str) -> None:
    risk, details = graded(command, workspace)
    assert risk is NET, details
