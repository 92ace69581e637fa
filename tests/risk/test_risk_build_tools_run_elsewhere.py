"""Build and test tools find their project from the directory they start in: run after a ``cd`` out of the workspace
(or to a directory only known when it runs) they build and run a project FlyBot does not read, so the command is
destructive (``project-outside-workspace``); inside the workspace they stay a workspace write."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel
from tests.risk.both_sides import graded, project

TOOLS = [
    "cargo build",
    "cargo test",
    "go test ./...",
    "go run .",
    "mix test",
    "gradle build",
    "sbt test",
    "stack build",
    "swift build",
    "dotnet test",
    "zig build",
    "mvn package",
    "bundle exec rspec",
    "python -m pytest",
    "poetry run pytest",
]

ELSEWHERE = [
    "cd {elsewhere} && {tool}",
    "cd {elsewhere}; {tool}",
    "cd .. && {tool}",
    "(cd {elsewhere} && {tool})",
    'cd "$PROJECT" && {tool}',
    "cd - && {tool}",
    "pushd {elsewhere} && {tool}",
]

INSIDE = [
    "{tool}",
    "cd src && {tool}",
    "cd src && cd .. && {tool}",
    "cd {elsewhere} && cd {workspace} && {tool}",
]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return project(tmp_path, {"src/main.rs": "fn main() {}\n", "README.md": "x\n"})


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("shape", ELSEWHERE)
def test_a_build_tool_run_outside_the_workspace_is_destructive(workspace: Path, shape: str, tool: str) -> None:
    command = shape.format(elsewhere=workspace.parent / "elsewhere", workspace=workspace, tool=tool)
    risk, details = graded(command, workspace)
    assert risk is RiskLevel.DESTRUCTIVE, details


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("shape", INSIDE)
def test_a_build_tool_run_inside_the_workspace_is_not_raised(workspace: Path, shape: str, tool: str) -> None:
    command = shape.format(elsewhere=workspace.parent / "elsewhere", workspace=workspace, tool=tool)
    risk, details = graded(command, workspace)
    assert risk < RiskLevel.DESTRUCTIVE, details
    assert not any("code FlyBot does not read" in detail for detail in details), details


def test_the_reason_names_the_directory(workspace: Path) -> None:
    _, details = graded("cd .. && cargo build", workspace)
    assert any(
        f"runs in {str(workspace.parent)[:20]}" in detail and "outside the workspace: it builds and runs" in detail
        for detail in details
    ), details
    _, details = graded('cd "$PROJECT" && cargo build', workspace)
    assert any("runs in a directory only known when it runs" in detail for detail in details), details
