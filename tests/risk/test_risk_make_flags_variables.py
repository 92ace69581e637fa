"""MAKEFLAGS, GNUMAKEFLAGS and MFLAGS (GNU make manual "Communicating Options to a Sub-make"): make reads them as
options given first, so a value choosing a makefile, directory, include path, variable or evaluated text is a
hijack (destructive); a value of only parallelism, output and keep-going options (bot/risk/walker.py
``harmless_value``) sets nothing that runs, and the make run after it keeps its own grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

RO, WW, DES = RiskLevel.READ_ONLY, RiskLevel.WORKSPACE_WRITE, RiskLevel.DESTRUCTIVE
MAKEFILE = {"Makefile": "all:\n\techo built\n"}


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("export MAKEFLAGS=-j4", RO),
        ("export MAKEFLAGS='-j 4 -k'", RO),
        ("export GNUMAKEFLAGS=--no-print-directory", RO),
        ("MFLAGS=-s", RO),
        ("export MAKEFLAGS=-j4; make", WW),
        ("MAKEFLAGS='-j8 -Otarget --keep-going' make", WW),
        ("env MAKEFLAGS=--jobs=4 make all", WW),
        ("set -a; MAKEFLAGS=-j2; make", WW),
        ("make -j4", WW),
    ],
)
def test_parallelism_and_output_flags_keep_makes_grade(tmp_path: Path, command: str, level: RiskLevel) -> None:
    assert graded(command, project(tmp_path, MAKEFILE))[0] is level, command


@pytest.mark.parametrize(
    "command",
    [
        "export MAKEFLAGS=-f/tmp/evil.mk",
        "export MAKEFLAGS='-j4 -f /tmp/evil.mk'; make",
        "export MAKEFLAGS=-C/tmp/other",
        "export MAKEFLAGS='-j4 -I /tmp/inc'",
        "export MAKEFLAGS=--eval=x",
        "export MAKEFLAGS='-j4 -e'",
        "MAKEFLAGS='-j4 SHELL=/tmp/sh' make",
        "export MAKEFLAGS=k",  # a first word without "-" is read as option letters: f/tmp/x is -f /tmp/x
        "export MAKEFLAGS=$FLAGS",
        "MAKEFLAGS+=' -f /tmp/evil.mk' make",
        "env MAKEFLAGS=-j4f/tmp/evil.mk make",
        "export MAKEFLAGS=-j4; export MAKEFLAGS+=' --eval=x'; make",
    ],
)
def test_flags_that_choose_what_make_reads_or_runs_stay_a_hijack(tmp_path: Path, command: str) -> None:
    assert graded(command, project(tmp_path, MAKEFILE))[0] is DES, command
