"""Local projects outside the workspace named by options (pip/uv/pip-compile ``--find-links DIR``, ``meson setup
BUILD SRC``, ``cargo install --path DIR``): building them runs their build code, so they are destructive; the same
commands on the workspace keep their everyday grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project


@pytest.mark.parametrize(
    "command",
    [
        "pip install --no-index -f {out} evil",
        "pip install --find-links={out} evil",
        "pip install --find-l={out} evil",
        "pip install -f{out} evil",
        "python3 -m pip install --find-links {out} evil",
        "pip download -f file://{out} evil",
        "uv pip install --find-links={out} evil",
        "uv pip compile -f {out} requirements.in",
        "uv pip sync --find-links={out} requirements.txt",
        "uv sync --find-links={out}",
        "uv run --find-links {out} pytest",
        "pip-compile --find-links={out}",
        'uv pip install -f "$D" evil',
        'pip-compile -f "$D"',
        'uv add --editable "$D"',
        'uv pip install -e "$D"',
        'uv run --with "$P" pytest',
    ],
)
def test_find_links_outside_the_workspace_is_a_local_project_outside(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {"requirements.in": "evil\n", "requirements.txt": "evil==1\n"})
    risk, details = graded(command.format(out=tmp_path / "elsewhere"), ws)
    assert risk is RiskLevel.DESTRUCTIVE
    assert any("outside the workspace" in d for d in details), details


@pytest.mark.parametrize(
    "command",
    [
        "pip install --no-index -f ./wheels evil",
        "pip install -f wheels evil",
        "uv pip install -f ./wheels evil",
        "uv pip compile -f ./wheels requirements.in",
        "pip-compile -f ./wheels",
        "uv sync",
        "uv add requests",
        "uv pip install -e .",
    ],
)
def test_find_links_in_the_workspace_keeps_the_install_grade(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {"requirements.in": "evil\n", "wheels/x.txt": ""})
    risk, details = graded(command, ws)
    assert risk is RiskLevel.NETWORK, details


@pytest.mark.parametrize(
    "command",
    [
        "meson setup build {out}",
        "meson setup {out}/build {out}",
        "meson setup {out}",
        "meson setup -Dopt=1 build {out}",
        "cargo install --path {out}",
        "cargo install --path={out}",
        "cargo install --locked --path {out} --root {out}/root",
    ],
)
def test_a_source_directory_outside_the_workspace_runs_its_build_code(tmp_path: Path, command: str) -> None:
    ws = project(tmp_path, {"meson.build": "project('x')\n", "Cargo.toml": '[package]\nname = "x"\n'})
    risk, details = graded(command.format(out=tmp_path / "elsewhere"), ws)
    assert risk is RiskLevel.DESTRUCTIVE
    assert any("outside the workspace" in d and "runs or loads code" in d for d in details), details


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("meson setup build", RiskLevel.WORKSPACE_WRITE),
        ("meson setup build .", RiskLevel.WORKSPACE_WRITE),
        ("meson setup -Dopt=1 builddir", RiskLevel.WORKSPACE_WRITE),
        ("cargo install --path .", RiskLevel.SYSTEM),
        ("cargo install --path crates/cli", RiskLevel.SYSTEM),
        ("cargo install ripgrep", RiskLevel.SYSTEM),
    ],
)
def test_the_workspace_as_source_keeps_its_grade(tmp_path: Path, command: str, expected: RiskLevel) -> None:
    ws = project(tmp_path, {"meson.build": "project('x')\n", "Cargo.toml": '[package]\nname = "x"\n'})
    risk, details = graded(command, ws)
    assert risk is expected, details
