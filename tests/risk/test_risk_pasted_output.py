"""Text make and just paste into a recipe line from a program's output or file names: the shell reads it as part
of the line, so it may run as commands (bot/risk/recipes.py :data:`~bot.risk.recipes.PASTED`).

Each case writes real project files and grades on both sides of the wire (tests/risk/both_sides.py); the real-make
cases run GNU make and bash in a temporary directory with an inert payload (a ``touch`` of a marker there).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import git, graded, project

WW = RiskLevel.WORKSPACE_WRITE
DES = RiskLevel.DESTRUCTIVE


def marker_payload(tmp_path: Path) -> str:
    return f"hi; touch {tmp_path}/marker\n"


def pasted(details: list[str]) -> bool:
    return any("pastes" in d and "the shell may read it as commands" in d for d in details)


# -- make pastes a program's output or file names: destructive ----------------------------------------------------
@pytest.mark.parametrize(
    ("makefile", "what"),
    [
        ("X := $(shell cat payload.txt)\ntest:\n\techo $(X)\n", "the output of `cat payload.txt`"),
        ("X = $(shell cat payload.txt)\ntest:\n\techo $(X)\n", "the output of `cat payload.txt`"),
        ("X != cat payload.txt\ntest:\n\techo $(X)\n", "the output of `cat payload.txt`"),
        ("test:\n\techo $(shell cat payload.txt)\n", "the output of `cat payload.txt`"),
        ("F := payload.txt\ntest:\n\techo $(shell cat $(F))\n", "the output of `cat $(F)`"),
        ("ifeq ($(CI),)\nX := $(shell cat payload.txt)\nendif\ntest:\n\techo $(X)\n", "the output of `cat payload"),
        ("define X\n$(shell cat payload.txt)\nendef\ntest:\n\techo $(X)\n", "the output of `cat payload.txt`"),
        ("test: X := $(shell cat payload.txt)\ntest:\n\techo $(X)\n", "the output of `cat payload.txt`"),
        ("Y := $(shell cat payload.txt)\nX := a $(Y)\ntest:\n\techo $(X)\n", "the output of `cat payload.txt`"),
        ("test:\n\techo '$(shell cat payload.txt)'\n", "the output of `cat payload.txt`"),  # a ' in it closes
        ("test:\n\tcc $(wildcard *.c)\n", "file names from $(wildcard ...)"),
        ("SRC := $(wildcard src/*.c)\ntest:\n\tcc -o app $(patsubst %.c,%.o,$(SRC))\n", "file names from $(wildcard"),
        ("test:\n\tcat $(realpath link)\n", "file names from $(realpath ...)"),
        ("B := $(shell git rev-parse --abbrev-ref HEAD)\ntest:\n\techo $(B)\n", "git rev-parse --abbrev-ref HEAD"),
        (
            'VERSION := $(shell git describe --tags)\ntest:\n\tgo build -ldflags "-X main.version=$(VERSION)" .\n',
            "the output of `git describe --tags`",
        ),
    ],
)
def test_make_pasting_program_output_or_file_names_is_destructive(tmp_path: Path, makefile: str, what: str) -> None:
    root = project(tmp_path, {"Makefile": makefile, "payload.txt": marker_payload(tmp_path)})
    risk, details = graded("make test", root)
    assert risk is DES, details
    assert pasted(details), details
    assert any(what in d for d in details), details


def test_the_reason_names_the_line_and_the_producer(tmp_path: Path) -> None:
    root = project(tmp_path, {"Makefile": "X := $(shell cat payload.txt)\ntest:\n\techo $(X)\n"})
    _risk, details = graded("make test", root)
    assert (
        "make test: Makefile:3 (test), where make pastes the output of `cat payload.txt` into the line as text"
        in "\n".join(details)
    ), details


# -- producers known to print plain text, and plain values: their grade stays ---------------------------------------
@pytest.mark.parametrize(
    "assignment",
    [
        "X := $(shell date +%Y-%m-%d)",
        "X := $(shell date -u +%Y%m%d%H%M%S)",
        "X := $(shell date -u '+%Y-%m-%dT%H:%M:%SZ')",
        "X := $(shell uname -s)",
        "X := $(shell uname -m)",
        "X := $(shell nproc)",
        "X := $(shell git rev-parse HEAD)",
        "X := $(shell git rev-parse --short HEAD)",
        "X := $(shell git rev-parse --short HEAD 2>/dev/null)",
        "X := $(shell go env GOPATH)",
        "X != uname -s",
        "X := v1.2.3",
        "X ?= release",
    ],
)
def test_plain_producers_keep_the_everyday_grade(tmp_path: Path, assignment: str) -> None:
    plain = project(tmp_path / "a", {"Makefile": 'test:\n\techo "v=1"\n\techo 1\n'})
    baseline, _ = graded("make test", plain)
    makefile = f'{assignment}\ntest:\n\techo "v=$(X)"\n\techo $(X)\n'
    root = project(tmp_path / "b", {"Makefile": makefile})
    risk, details = graded("make test", root)
    assert risk is baseline, details
    assert risk is not DES, details
    assert not pasted(details), details


def test_a_substitution_the_shell_makes_is_graded_as_its_command_not_as_pasted(tmp_path: Path) -> None:
    # $$(...) is the shell's own command substitution: the shell runs cat and keeps its output as data
    root = project(tmp_path, {"Makefile": 'test:\n\techo "$$(cat payload.txt)"\n'})
    risk, details = graded("make test", root)
    assert risk is WW, details
    assert not pasted(details), details


@pytest.mark.parametrize(
    ("line", "what"), [("echo $(CURDIR)", "the path of its directory"), ("echo $(shell pwd)", "the output of `pwd`")]
)
def test_curdir_is_plain_in_a_plain_workspace_and_pasted_in_one_holding_shell_syntax(
    tmp_path: Path, line: str, what: str
) -> None:
    makefile = f"test:\n\t{line}\n"
    plain = project(tmp_path / "plain", {"Makefile": makefile})
    risk, details = graded("make test", plain)
    assert risk is WW, details
    odd = project(tmp_path / "a;b", {"Makefile": makefile})
    risk, details = graded("make test", odd)
    assert risk is DES, details
    assert any(what in d for d in details), details


# -- just ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "justfile",
    [
        "x := `cat payload.txt`\ntest:\n    echo {{x}}\n",
        "x := `cat payload.txt`\ny := x + '.o'\ntest:\n    echo {{y}}\n",
        "test:\n    echo {{ `cat payload.txt` }}\n",
        'x := `cat payload.txt`\ntest:\n    echo "{{x}}"\n',
    ],
)
def test_just_pasting_backtick_output_is_destructive(tmp_path: Path, justfile: str) -> None:
    root = project(tmp_path, {"justfile": justfile, "payload.txt": marker_payload(tmp_path)})
    risk, details = graded("just test", root)
    assert risk is DES, details
    assert any("where just pastes the output of `cat payload.txt`" in d for d in details), details


@pytest.mark.parametrize(
    "justfile",
    [
        "x := `cat payload.txt`\ntest:\n    echo {{quote(x)}}\n",
        "x := `git rev-parse --short HEAD`\ntest:\n    echo {{x}}\n",
        "x := 'plain'\ntest:\n    echo {{x}}\n",
    ],
)
def test_just_quoted_or_plain_values_keep_the_everyday_grade(tmp_path: Path, justfile: str) -> None:
    root = project(tmp_path, {"justfile": justfile, "payload.txt": "hi\n"})
    risk, details = graded("just test", root)
    assert risk is not DES, details
    assert not pasted(details), details


def test_a_backtick_inside_a_just_interpolation_is_graded_as_a_command(tmp_path: Path) -> None:
    root = project(tmp_path, {"justfile": "test:\n    echo {{ `git push` }}\n"})
    risk, details = graded("just test", root)
    assert risk is DES, details
    assert any("(backtick)" in d and "git push" in d for d in details), details


# -- what real make and bash do with the pasted text -----------------------------------------------------------------
def _run(argv: list[str], cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LC_ALL": "C"}
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.skipif(shutil.which("make") is None, reason="GNU make is not installed")
def test_real_make_runs_the_pasted_output_as_commands(tmp_path: Path) -> None:
    root = project(tmp_path, {"Makefile": "X := $(shell cat payload.txt)\ntest:\n\techo $(X)\n"})
    (root / "payload.txt").write_text(marker_payload(tmp_path))
    (tmp_path / "home").mkdir()
    risk, _details = graded("make test", root)
    assert risk is DES
    assert not (tmp_path / "marker").exists()
    _run(["make", "test"], root, tmp_path / "home")
    assert (tmp_path / "marker").exists()  # the ; in the file's text ended echo and ran touch


@pytest.mark.skipif(shutil.which("make") is None or shutil.which("git") is None, reason="GNU make and git are needed")
def test_real_make_runs_a_tag_name_inside_double_quotes(tmp_path: Path) -> None:
    makefile = 'VERSION := $(shell git describe --tags)\ntest:\n\t@echo "-X main.version=$(VERSION)"\n'
    root = project(tmp_path, {"Makefile": makefile})
    home = tmp_path / "home"
    home.mkdir()
    git("init", "-q", ".", cwd=root)
    git("commit", "-q", "--allow-empty", "-m", "x", cwd=root)
    # git-check-ref-format(1) allows $, (, ), { and } in a tag name; ${IFS} stands in for the space it forbids
    git("tag", "v1$(touch${IFS}" + str(tmp_path) + "/marker)", cwd=root)
    risk, details = graded("make test", root)
    assert risk is DES, details
    _run(["make", "test"], root, home)
    assert (tmp_path / "marker").exists()  # "$(...)" in double quotes is still a command substitution


@pytest.mark.parametrize(
    ("justfile", "pasted_in"),
    [
        ("build: (dep `cat payload.txt`)\ndep arg:\n    echo {{arg}}\n", True),
        ("x := `cat payload.txt`\nbuild: (dep x)\ndep arg:\n    echo {{arg + '.o'}}\n", True),
        ("build: (dep `cat payload.txt`)\ndep arg:\n    echo {{quote(arg)}}\n", False),
        ("build: (dep 'plain')\ndep arg:\n    echo {{arg}}\n", False),
    ],
)
def test_just_dependency_arguments_from_a_program_are_pasted(tmp_path: Path, justfile: str, pasted_in: bool) -> None:
    # just manual, "Dependencies with arguments": the dependency's lines paste the value of its parameter
    root = project(tmp_path, {"justfile": justfile, "payload.txt": "hi\n"})
    risk, details = graded("just build", root)
    assert pasted(details) is pasted_in, details
    assert (risk is DES) is pasted_in, details


@pytest.mark.parametrize(
    "makefile",
    [
        "test: $(shell cat payload.txt)\n\techo ok\n",
        "test: $(wildcard *.c)\n\techo ok\n",
        "include $(wildcard *.mk)\ntest:\n\techo ok\n",
    ],
)
def test_prerequisites_and_includes_from_a_program_or_file_names_stay_unreadable(tmp_path: Path, makefile: str) -> None:
    # the names decide which recipes run (or which makefiles are read): unknown, so the recipe is not known either
    root = project(tmp_path, {"Makefile": makefile, "payload.txt": "hi\n", "a.c": "", "x.mk": "test:\n\techo x\n"})
    risk, details = graded("make test", root)
    assert risk is DES, details
