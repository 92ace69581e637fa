"""Recipes and build code chosen from elsewhere: ``cmake --build DIR -- -f FILE`` hands make or ninja another
makefile (programs/build.py ``cmake_native``), ``gradle -Dgradle.user.home=DIR`` runs that home's ``init.d``
scripts and ``mvn -Dmaven.user.settings=FILE``/``-Dmaven.conf=DIR`` load other settings (settings.py
``_JVM_PATH_PROPERTIES``), as ``--gradle-user-home`` and ``-s`` do. Parallelism and verbosity after ``--`` and a
home in the workspace keep the build's grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

FILES = {"CMakeLists.txt": "project(x)\n", "build.gradle": "\n", "pom.xml": "<project/>\n"}


@pytest.mark.parametrize(
    "command",
    [
        "cmake --build build -- -f /tmp/x.mk",
        "cmake --build build -- -C /tmp/other",
        "cmake --build build -- SHELL=/tmp/sh",
        "cmake --build build --target all -- -f../x",
        "gradle test -Dgradle.user.home=/tmp/g",
        "gradle test -Dgradle.user.home=../g",
        "mvn -Dmaven.user.settings=/tmp/s.xml test",
        "mvn -Dmaven.installation.settings=/tmp/s.xml test",
        "mvn -Dmaven.conf=/tmp/conf test",
    ],
)
def test_a_recipe_or_build_home_from_elsewhere_is_destructive(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, FILES)
    assert graded(command, ws)[0] == RiskLevel.DESTRUCTIVE, graded(command, ws)


@pytest.mark.parametrize(
    "command",
    [
        "cmake --build build",
        "cmake --build build -- -j8",
        "cmake --build build -- -k 0",
        "cmake --build build -j 4 -- VERBOSE=1",
        "cmake --build build -- -l2.5 -s --no-print-directory",
        "gradle test -Dgradle.user.home=.gradle-home",
        "mvn -Dstyle.color=always test",
    ],
)
def test_parallelism_verbosity_and_a_home_inside_keep_the_build_grade(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, FILES)
    assert graded(command, ws)[0] == RiskLevel.WORKSPACE_WRITE, graded(command, ws)
