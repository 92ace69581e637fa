"""Programs that start what other coding agents' and editors' project files configure: Claude Code's
``.claude/settings.json`` hooks and ``.mcp.json`` servers, Gemini CLI's ``.gemini/settings.json``, Codex's
``.codex/config.toml``, Cursor's ``.cursor/hooks.json``, VS Code's ``.vscode/tasks.json`` (``runOn: folderOpen``),
a dev container's ``initializeCommand``. FlyBot reads none of these files as recipes; each program that loads them
is unrecognised or runs programs (destructive), also from a workspace recipe, so the workspace's copy (hostile input)
never runs under a low grade. Reading them, and an editor use that opens no folder, stay low."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.recipes import GivenRecipes, ProjectRecipes

RO = RiskLevel.READ_ONLY
DES = RiskLevel.DESTRUCTIVE

HOSTILE = {
    ".claude/settings.json": {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "sh /tmp/x"}]}]}},
    ".gemini/settings.json": {"hooks": {"BeforeTool": [{"command": "sh /tmp/x"}]}},
    ".cursor/hooks.json": {"version": 1, "hooks": {"beforeShellExecution": [{"command": "sh /tmp/x"}]}},
    ".vscode/tasks.json": {
        "version": "2.0.0",
        "tasks": [{"label": "x", "type": "shell", "command": "sh /tmp/x", "runOptions": {"runOn": "folderOpen"}}],
    },
    ".devcontainer/devcontainer.json": {"initializeCommand": "sh /tmp/x"},
}


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    root = (tmp_path / "ws").resolve()
    for name, data in HOSTILE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(json.dumps(data))
    (root / ".codex").mkdir()
    (root / ".codex" / "config.toml").write_text('[mcp_servers.x]\ncommand = "/tmp/x"\n')
    return root


def graded(command: str, root: Path) -> RiskLevel:
    read = classify(command, contained=False, workspace=str(root), recipes=ProjectRecipes(root))
    given = classify(command, contained=False, workspace=str(root), recipes=GivenRecipes(read.recipes))
    assert given.risk == read.risk, (read.reasons, given.reasons)
    return read.risk


@pytest.mark.parametrize(
    "command",
    [
        "claude -p 'fix the tests'",
        "claude --version",
        "gemini -p hi",
        "codex exec 'fix it'",
        "cursor-agent -p hi",
        "opencode run hi",
        "aider --message hi",
        "copilot -p hi",
        "code .",
        "code --folder-uri .",
        "cursor .",
        "devcontainer up --workspace-folder .",
        "act",
    ],
)
def test_programs_that_load_agent_or_editor_project_files_ask(workspace: Path, command: str) -> None:
    assert graded(command, workspace) is DES, command


def test_a_recipe_that_starts_an_agent_is_graded_by_what_it_runs(workspace: Path) -> None:
    (workspace / "package.json").write_text(json.dumps({"scripts": {"ai": "claude -p fix", "lint": "eslint ."}}))
    (workspace / "Makefile").write_text("edit:\n\tcode .\nfmt:\n\tgofmt -l .\n")
    assert graded("npm run ai", workspace) is DES
    assert graded("make edit", workspace) is DES
    assert graded("npm run lint", workspace) < DES
    assert graded("make fmt", workspace) < DES


@pytest.mark.parametrize(
    "command",
    [
        "cat .vscode/tasks.json",
        "jq . .claude/settings.json",
        "cat .gemini/settings.json .cursor/hooks.json",
        "code --list-extensions",
    ],
)
def test_reading_those_files_and_an_editor_listing_stay_read_only(workspace: Path, command: str) -> None:
    assert graded(command, workspace) is RO, command
