"""Code a command runs indirectly: environment variables that choose programs or configuration, catalogue rows,
options that run programs, build and test tools pointed outside the workspace, and tool configuration written
before a command that reads it. Each dangerous form with its benign neighbour."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify

RO = RiskLevel.READ_ONLY
WW = RiskLevel.WORKSPACE_WRITE
NET = RiskLevel.NETWORK
SYS = RiskLevel.SYSTEM
DES = RiskLevel.DESTRUCTIVE

WORKSPACE = Path("/home/dev/project")

#: (command, the least grade it must get on the host)
AT_LEAST: list[tuple[str, RiskLevel]] = [
    # --- environment names that choose programs or configuration
    ("HOME=/tmp/h git status", DES),
    ("XDG_CONFIG_HOME=/tmp/h git status", DES),
    ("XDG_DATA_HOME=/tmp/h git status", DES),
    ("HOME=/tmp/h; git status", DES),
    ("HGRCPATH=/opt/x hg status", DES),
    ("JAVA_TOOL_OPTIONS=-javaagent:/opt/x.jar java -version", DES),
    ("_JAVA_OPTIONS=-javaagent:/opt/x.jar java -version", DES),
    ("JDK_JAVA_OPTIONS=-javaagent:/opt/x.jar java -version", DES),
    ("MAVEN_OPTS=-javaagent:/opt/x.jar mvn test", DES),
    ("GRADLE_OPTS=-javaagent:/opt/x.jar gradle build", DES),
    ("RUSTC_WRAPPER=/opt/x cargo check", DES),
    ("CARGO_BUILD_RUSTC_WRAPPER=/opt/x cargo check", DES),
    ("RUSTC=/opt/x cargo build", DES),
    ("RUSTFLAGS='-C linker=/opt/x' cargo build", DES),
    ("GOFLAGS=-toolexec=/opt/x go build", DES),
    ("CC=/opt/x go build", DES),
    ("CC=/opt/x cmake -S . -B build", DES),
    ("CXX=/opt/x meson setup build", DES),
    ("LD=/opt/x cargo build", DES),
    ("PYTEST_ADDOPTS='-p evil' pytest", DES),
    ("PYTEST_PLUGINS=evil pytest", DES),
    ("PYTHONPATH=/opt/x pytest", DES),
    ("BUNDLE_GEMFILE=/opt/Gemfile bundle list", DES),
    ("VAGRANT_CWD=/opt/x vagrant status", DES),
    ("CARGO_TARGET_DIR=/srv/t cargo build", DES),
    ("GOTOOLCHAIN=go1.99.0 go version", DES),
    ("env JAVA_TOOL_OPTIONS=-javaagent:/opt/x.jar java -version", DES),
    ("export HOME=/tmp/h; git status", DES),
    ("export SOME_TOOL_CONFIG=/opt/x; git status", DES),
    ("FOO=1; export FOO; ls", DES),
    ("SOME_TOOL_CONFIG=/opt/x make -n", DES),
]

#: (command, the grade it keeps on the host)
STAYS: list[tuple[str, RiskLevel]] = [
    ("LANG=C git status", RO),
    ("LC_ALL=C TZ=UTC ls", RO),
    ("GOOS=linux GOARCH=arm64 CGO_ENABLED=0 go build ./...", WW),
    ("RUST_LOG=debug RUST_BACKTRACE=1 cargo test", WW),
    ("export CI=true; git status", RO),
    ("export FOO=1", RO),
    ("export FOO=1; echo $FOO", RO),
    ("X=1; echo $X", RO),
    ("git log | while IFS= read -r line; do echo \"$line\"; done", RO),
    ("GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b git commit -m x", WW),
]


@pytest.mark.parametrize(("command", "least"), AT_LEAST, ids=[c for c, _ in AT_LEAST])
def test_indirect_code_is_graded_at_least(command: str, least: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk >= least


@pytest.mark.parametrize(("command", "grade"), STAYS, ids=[c for c, _ in STAYS])
def test_benign_neighbours_keep_their_grade(command: str, grade: RiskLevel) -> None:
    assert classify(command, contained=False, workspace=WORKSPACE).risk == grade
