"""A glob in the words of a recipe runner (``make test *``, ``npm test *``) expands, when it runs, to the names of
files the agent can create, and the runner reads those names as its own options or, for make, as variable
assignments (make(1): a word holding ``=``): a file named ``--eval=X:=$(shell ...)`` or ``X:=$(shell ...)`` is make
code run when make starts, one named ``--userconfig=x`` makes npm read a configuration that sets its script shell.
So such a glob is destructive; a literal word, a quoted glob, and a glob npm passes to the script after ``--`` keep
the runner's grade. just runs every recipe named after the first (``just test clean``): each is graded, and a word
only known when it runs may name any."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

WW, DES = RiskLevel.WORKSPACE_WRITE, RiskLevel.DESTRUCTIVE
FILES = {
    "Makefile": "test:\n\tpytest -q\n",
    "tox.ini": "[tox]\nenvlist = py\n[testenv]\ncommands = pytest -q\n",
    "package.json": json.dumps({"name": "x", "scripts": {"test": "pytest -q"}}),
}


@pytest.mark.parametrize(
    "command",
    [
        "make test *",
        "make test tests/*",
        "make test ?",
        "make * test",
        "npm test *",
        "npm test --u*",
        "npm * test",
        "pnpm test *",
        "yarn test [a-z]*",
        "tox -e py *",
        "tox * -e py",
    ],
)
def test_a_glob_the_runner_reads_as_its_own_words_is_destructive(tmp_path: Path, command: str) -> None:
    level, reasons = graded(command, project(tmp_path, FILES))
    assert level is DES, (command, reasons)
    assert any("glob" in r for r in reasons), reasons


@pytest.mark.parametrize(
    "command",
    ["make test", "make test -j4", "make test 'x*'", "npm test", "npm test -- *", "npm test tests/*", "pnpm test"],
)
def test_literal_words_and_globs_passed_to_the_script_keep_the_runners_grade(tmp_path: Path, command: str) -> None:
    assert graded(command, project(tmp_path, FILES))[0] is WW, command


def test_tox_with_literal_words_keeps_its_grade(tmp_path: Path) -> None:
    assert graded("tox -e py", project(tmp_path, FILES))[0] is RiskLevel.NETWORK


def _gnu_make() -> str:
    """``make --version``'s first line when ``make`` is GNU make, else ``""``."""
    if shutil.which("make") is None:
        return ""
    line = subprocess.run(["make", "--version"], capture_output=True, text=True, check=False).stdout.split("\n")[0]
    return line if line.startswith("GNU Make") else ""


@pytest.mark.skipif(not _gnu_make(), reason="needs GNU make")
def test_make_reads_a_file_name_a_glob_expands_to_as_make_code(tmp_path: Path) -> None:
    # what the rule guards against, with the real make: the file's name runs as make code. GNU make 4.3 runs a
    # command-line assignment's $(shell) with the environment's SHELL (an agent's shell exports one; without it
    # make fails to start the shell), so the run names one.
    ws = project(tmp_path, {"Makefile": "test:\n\t@true\n", "tests/x:=$(shell touch ran)": ""})
    env = {**os.environ, "SHELL": "/bin/sh"}
    run = subprocess.run(
        ["bash", "-c", "make test tests/*"], cwd=ws, env=env, capture_output=True, text=True, check=False
    )
    assert (ws / "ran").exists(), (_gnu_make(), run.returncode, run.stdout, run.stderr, sorted(ws.rglob("*")))
    assert graded("make test tests/*", ws)[0] is DES


JUSTFILE = {"justfile": "test:\n    pytest -q\nlint:\n    ruff check .\nclean:\n    rm -rf ~\n"}


@pytest.mark.parametrize("command", ["just test clean", "just test lint clean", "just test $X", "just test *"])
def test_just_runs_every_recipe_named_after_the_first_and_each_is_graded(tmp_path: Path, command: str) -> None:
    # just manual, "Running Recipes": a recipe that takes no parameters is followed by more recipes to run
    assert graded(command, project(tmp_path, JUSTFILE))[0] is DES, command


@pytest.mark.parametrize("command", ["just test", "just test lint", "just lint test"])
def test_just_recipes_named_after_the_first_keep_their_grade(tmp_path: Path, command: str) -> None:
    assert graded(command, project(tmp_path, JUSTFILE))[0] is WW, command
