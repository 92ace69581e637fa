"""A directory a tool empties that holds the project's tracked files or a repository (pytest --basetemp, webpack
--output-clean), sponge's file emptied when it reads nothing, npx under a workspace .npmrc that chooses its shell,
and the read-only queries of ldconfig and xcodebuild. Each rule is checked both ways: the hostile form grades high,
the everyday form keeps its grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from tests.risk.both_sides import git, graded, project

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE

SOURCES = {"src/app.py": "print(1)\n", "tests/test_app.py": "def test_x():\n    pass\n", "README.md": "# x\n"}


def _repository(tmp_path: Path) -> Path:
    root = project(tmp_path, SOURCES)
    git("init", "-q", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-qm", "init", cwd=root)
    (root / "build" / "pytest" / "test_x0").mkdir(parents=True)  # an earlier run's output: numbered directories
    (root / "build" / "pytest" / "test_x0" / "old.txt").write_text("x")
    (root / "build" / "pytest" / "test_xcurrent").symlink_to(root / "build" / "pytest" / "test_x0")
    return root


# -- pytest --basetemp: a directory holding tracked files or a repository is emptied, a deletion ----------------------
@pytest.mark.parametrize(
    "command",
    [
        "pytest --basetemp=src -q",
        "pytest --basetemp tests",
        "python -m pytest --basetemp=./src",
        "pytest -o addopts=--basetemp=src",
    ],
)
def test_basetemp_naming_a_directory_of_tracked_files_is_a_deletion(tmp_path: Path, command: str) -> None:
    root = _repository(tmp_path)
    level, details = graded(command, root)
    assert level == DES
    assert any("files the repository tracks" in d for d in details), details


def test_basetemp_naming_another_repository_in_the_temp_area_is_a_deletion(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    level, details = graded(f"pytest --basetemp={other} -q", root)
    assert level == DES
    assert any("a repository" in d for d in details), details


def test_basetemp_naming_a_link_in_the_workspace_is_a_deletion(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    (root / "out").symlink_to(tmp_path / "elsewhere")
    assert graded("pytest --basetemp=out", root)[0] == DES


@pytest.mark.parametrize(
    "command",
    [
        "pytest --basetemp=build/pytest -q",  # an earlier run's output, no tracked file
        "pytest --basetemp=build/fresh",  # not there yet
        "pytest --basetemp=.pytest-tmp -q",
    ],
)
def test_basetemp_naming_output_or_a_new_directory_stays_a_write(tmp_path: Path, command: str) -> None:
    assert graded(command, _repository(tmp_path))[0] == WW


def test_basetemp_in_the_temp_area_without_a_repository_stays_a_write(tmp_path: Path) -> None:
    root = _repository(tmp_path)
    (tmp_path / "scratch" / "test_a0").mkdir(parents=True)  # an earlier run's numbered directory
    (tmp_path / "scratch" / "test_a0" / "old").write_text("x")
    assert graded(f"pytest --basetemp={tmp_path / 'scratch'} -q", root)[0] == WW
    (tmp_path / "scratch" / "notes.txt").write_text("x")  # a file pytest did not make there: lost
    assert graded(f"pytest --basetemp={tmp_path / 'scratch'} -q", root)[0] == DES


@pytest.mark.parametrize(
    "command",
    [
        "webpack --output-path src --output-clean",
        "webpack build -o tests --output-clean",
        "webpack-cli --output-clean-keep=x --output-path=src",
        "webpack --output-path /srv/www --output-clean",
        'webpack --output-path "$OUT" --output-clean',
    ],
)
def test_webpack_output_clean_of_sources_or_elsewhere_is_a_deletion(tmp_path: Path, command: str) -> None:
    assert graded(command, _repository(tmp_path))[0] == DES


@pytest.mark.parametrize(
    "command",
    [
        "webpack --output-path build/pytest --output-clean",  # output only
        "webpack --output-path dist --output-clean",  # not there yet
        "webpack --output-clean",  # the configuration's output.path: the project's code
        "webpack --output-path src",  # no clean: a write
        "webpack --output-path src --output-clean --output-clean-dry",  # only logs
    ],
)
def test_webpack_output_clean_of_output_stays_a_build(tmp_path: Path, command: str) -> None:
    assert graded(command, _repository(tmp_path))[0] == WW


# -- sponge ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        "sponge src/app.py < /dev/null",
        "sponge /tmp/notes.txt < /dev/null",
        "env sponge src/app.py < /dev/null",
        "true | sponge src/app.py",
        "printf '' | sponge src/app.py",
        ": | tee README.md",
        "ls; echo -n | tee -- src/app.py",
        "false | sort -o src/app.py",
    ],
)
def test_sponge_fed_nothing_empties_its_file(tmp_path: Path, command: str) -> None:
    level, details = graded(command, project(tmp_path, SOURCES))
    assert level == DES
    assert any("empties" in d for d in details), details


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("jq . package.json | sponge package.json", WW),
        ("sort README.md | sponge README.md", WW),
        ("sponge -a src/app.py < /dev/null", WW),  # -a appends nothing
        ("cat README.md | sponge", RO),  # no file: it prints
        ("echo KEY=1 | sponge .env", WW),  # .env is only written
        ("echo hi | tee README.md", WW),
        ("true | tee -a README.md", WW),  # appends nothing
        ("printf 'x\\n' | sponge README.md", WW),
    ],
)
def test_sponge_fed_a_pipeline_writes_its_file(tmp_path: Path, command: str, level: RiskLevel) -> None:
    assert graded(command, project(tmp_path, {**SOURCES, "package.json": "{}\n"}))[0] == level


@pytest.mark.parametrize("command", ["echo x | sponge ~/.bashrc", "sort README.md | sponge /etc/hosts"])
def test_sponge_into_a_protected_file_is_destructive(tmp_path: Path, command: str) -> None:
    assert graded(command, project(tmp_path, SOURCES))[0] == DES


# -- npx reads the workspace's .npmrc --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "npmrc",
    [
        "script-shell=/tmp/evil.sh\n",
        "node-options=--require /tmp/evil.js\n",
        "registry=http://registry.example/\n",
    ],
)
@pytest.mark.parametrize("command", ["npx jest", "npx --no-install eslint src", "npx tsc --noEmit"])
def test_npx_under_an_npmrc_choosing_its_shell_or_registry_is_destructive(
    tmp_path: Path, npmrc: str, command: str
) -> None:
    root = project(tmp_path, {"package.json": "{}\n", ".npmrc": npmrc})
    level, details = graded(command, root)
    assert level == DES
    assert any("npx reads .npmrc:1" in d for d in details), details


@pytest.mark.parametrize(
    ("npmrc", "command", "level"),
    [
        ("", "npx jest", NET),  # no .npmrc: it may fetch jest
        ("save-exact=true\nengine-strict=true\n", "npx jest", NET),
        ("@acme:registry=https://npm.acme.example/\n", "npx --no-install eslint src", WW),  # another scope's registry
        ("save-exact=true\n", "npx --no-install eslint src", WW),
    ],
)
def test_npx_under_an_inert_npmrc_keeps_its_grade(tmp_path: Path, npmrc: str, command: str, level: RiskLevel) -> None:
    files = {"package.json": "{}\n", **({".npmrc": npmrc} if npmrc else {})}
    assert graded(command, project(tmp_path, files))[0] == level


def test_npx_of_the_scope_an_npmrc_registry_names_is_destructive(tmp_path: Path) -> None:
    root = project(tmp_path, {"package.json": "{}\n", ".npmrc": "@acme:registry=https://npm.acme.example/\n"})
    assert graded("npx @acme/tool", root)[0] == DES


# -- ldconfig -p and xcodebuild's listings only print ----------------------------------------------------------------
def _grade(command: str) -> RiskLevel:
    return classify(command, contained=False, workspace="/home/dev/project").risk


@pytest.mark.parametrize(
    "command",
    [
        "ldconfig -p",
        "ldconfig -p | grep ssl",
        "ldconfig --print-cache --verbose",
        "ldconfig --version",
        "xcodebuild -list",
        "xcodebuild -list -project App.xcodeproj",
        "xcodebuild -version",
        "xcodebuild -showsdks",
        "xcodebuild -showBuildSettings -scheme App",
    ],
)
def test_printing_queries_are_read_only(command: str) -> None:
    assert _grade(command) == RO


@pytest.mark.parametrize(
    ("command", "level"),
    [
        ("ldconfig", SYS),
        ("sudo ldconfig", SYS),
        ("ldconfig -p -C /tmp/cache", DES),
        ("ldconfig -p /opt/lib", DES),
        ("ldconfig -n /opt/lib", DES),
        ("xcodebuild -scheme App", WW),
        ("xcodebuild test -scheme App", WW),
        ("xcodebuild -list -xcconfig /tmp/x.xcconfig", DES),
        ("xcodebuild -list -project /srv/other/App.xcodeproj", DES),
        ("xcodebuild -list clean", DES),
    ],
)
def test_changes_beside_the_queries_keep_their_grade(command: str, level: RiskLevel) -> None:
    assert _grade(command) == level
