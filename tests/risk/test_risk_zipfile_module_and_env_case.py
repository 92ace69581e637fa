"""Secret reads graded read_only before: ``python -m zipfile -c /dev/stdout .`` and ``python -m tarfile -c`` print an
archive of every file below what they add, as ``zip -r - .`` and ``tar cf - .`` do (programs/shells.py
``_archive_module``, Grader.read_below); ``cat .ENV`` reads ``.env`` on a file system that ignores case (macOS's
APFS, Windows' NTFS: sensitive.env_file); ``git grep --no-index``/``--untracked`` search files git does not track, a
``.env`` among them (programs/git.py ``_grep_working_files``). Archives written to a file, templates, other names
and a plain ``git grep`` keep their grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import git, graded, project

FILES = {".env": "AWS_SECRET_ACCESS_KEY=x\n", "src/a.py": "print(1)\n", "docs/guide.md": "hi\n"}


@pytest.mark.parametrize(
    "command",
    [
        "python3 -m zipfile -c /dev/stdout .",
        "python -m zipfile --create /dev/fd/1 .",
        "python3 -m tarfile -c /dev/stdout .",
        "python3 -m zipfile -c out.zip ~",
        "cat .ENV",
        "cat .Env",
        "grep KEY .ENV.local",
        "cat config/PROD.ENV",
    ],
)
def test_the_secret_goes_to_the_model(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, FILES)
    assert graded(command, ws)[0] >= RiskLevel.NETWORK, graded(command, ws)


@pytest.mark.parametrize(
    ("command", "risk"),
    [
        ("python3 -m zipfile -c out.zip src", RiskLevel.WORKSPACE_WRITE),
        ("python3 -m zipfile -c /dev/stdout docs", RiskLevel.READ_ONLY),
        ("python3 -m zipfile -l out.zip", RiskLevel.READ_ONLY),
        ("cat .ENV.EXAMPLE", RiskLevel.READ_ONLY),
        ("cat src/Environment.py", RiskLevel.READ_ONLY),
        ("cat README.env.md", RiskLevel.READ_ONLY),
    ],
)
def test_archives_to_a_file_and_other_names_keep_their_grade(tmp_path: Path, command: str, risk: RiskLevel) -> None:
    ws = project(tmp_path, FILES)
    assert graded(command, ws)[0] == risk, graded(command, ws)


@pytest.mark.parametrize(
    "command", ["git grep --no-index AWS", "git grep --untracked AWS", "git grep --no-ind -n KEY -- . src"]
)
def test_git_grep_beyond_the_tracked_files_reads_the_env_file(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {**FILES, ".gitignore": ".env\n"})
    git("init", "-q", cwd=ws)
    git("add", "src", ".gitignore", cwd=ws)
    assert graded(command, ws)[0] == RiskLevel.NETWORK, graded(command, ws)
    assert graded("git grep AWS", ws)[0] == RiskLevel.READ_ONLY
    assert graded("git grep --no-index AWS -- src", ws)[0] == RiskLevel.READ_ONLY  # no secret below src


def test_git_grep_beyond_the_tracked_files_without_a_secret_file_only_reads(tmp_path: Path) -> None:
    ws = project(tmp_path, {"src/a.py": "print(1)\n"})
    git("init", "-q", cwd=ws)
    for command in ("git grep --no-index x", "git grep --untracked x"):
        assert graded(command, ws)[0] == RiskLevel.READ_ONLY, graded(command, ws)
