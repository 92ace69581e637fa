"""pytest removes the whole content of its ``--basetemp`` directory at the start of a run (pytest docs "How to use
temporary directories": "The contents of mydir will be completely removed") and then makes only numbered
directories there, with a ``PREFIXcurrent`` link to the newest (``_pytest/tmpdir.py``, ``make_numbered_dir``).
A directory holding anything else, files the repository does not track included, loses it: destructive. A missing
or empty directory, or one holding only what an earlier run of pytest made there, keeps the grade of a test run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import git, graded, project

R = RiskLevel


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    ws = project(tmp_path, {"src/a.py": "x = 1\n", "tests/test_a.py": "def test_a(tmp_path):\n    pass\n"})
    git("init", "-q", cwd=ws)
    git("add", "-A", cwd=ws)
    git("commit", "-q", "-m", "i", cwd=ws)
    for name, text in files.items():  # untracked, written after the commit
        path = ws / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return ws


@pytest.mark.parametrize(
    "command",
    [
        "pytest --basetemp=data",
        "pytest --basetemp data",
        "python -m pytest -q --basetemp=./data",
        "py.test --basetemp=data/",
        "pytest --basetemp=notes",
        "pytest --basetemp=nested",
    ],
)
def test_a_basetemp_holding_untracked_files_is_a_deletion(tmp_path: Path, command: str) -> None:
    ws = _repo(tmp_path, {"data/rows.csv": "1,2\n", "notes/todo.txt": "t\n", "nested/run1/keep.txt": "k\n"})
    (ws / "nested" / "scratch").mkdir()
    level, details = graded(command, ws)
    assert level is R.DESTRUCTIVE, details
    assert any("did not make" in d for d in details), details


def test_a_basetemp_holding_a_link_other_than_pytests_is_a_deletion(tmp_path: Path) -> None:
    ws = _repo(tmp_path, {"bt/test_a0/f": "x\n"})
    (ws / "bt" / "test_acurrent").symlink_to(ws / "src")  # not the numbered directory beside it
    assert graded("pytest --basetemp=bt", ws)[0] is R.DESTRUCTIVE


def test_a_configured_basetemp_holding_untracked_files_is_a_deletion(tmp_path: Path) -> None:
    ws = _repo(tmp_path, {"data/rows.csv": "1,2\n", "pytest.ini": "[pytest]\naddopts = --basetemp=data\n"})
    assert graded("pytest -q", ws)[0] is R.DESTRUCTIVE


def test_a_basetemp_an_earlier_pytest_run_made_keeps_the_grade(tmp_path: Path) -> None:
    ws = _repo(
        tmp_path,
        {
            "tests/test_b.py": (
                "import pytest\n\n"
                "@pytest.mark.parametrize('n', ['a b', 'c/d'])\n"
                "def test_b(tmp_path, n):\n    (tmp_path / 'f').write_text(n)\n\n"
                "def test_c(tmp_path_factory):\n    tmp_path_factory.mktemp('data')\n"
            )
        },
    )
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "PYTEST_ADDOPTS": ""}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--basetemp=bt", "tests"],
        cwd=ws,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert any((ws / "bt").iterdir())
    for command in ("pytest --basetemp=bt", "pytest -q --basetemp bt tests"):
        assert graded(command, ws)[0] is R.WORKSPACE_WRITE, command


@pytest.mark.parametrize("command", ["pytest --basetemp=empty", "pytest --basetemp=build/pytest", "pytest -q"])
def test_a_missing_or_empty_basetemp_keeps_the_grade(tmp_path: Path, command: str) -> None:
    ws = _repo(tmp_path, {})
    (ws / "empty").mkdir()
    assert graded(command, ws)[0] is R.WORKSPACE_WRITE
