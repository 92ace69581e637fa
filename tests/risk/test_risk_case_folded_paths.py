"""Control files, agents' settings, git hooks and config, editor task files and shell start-up files named in another
case are the same files on a file system that ignores case (macOS's APFS and HFS+, Windows' NTFS by default): a write
there grades as the lower-case name does. Ordinary paths in any case keep their grade."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.risk import RiskLevel, classify
from bot.risk.tools import grade_tool

WW, SYS, DES = RiskLevel.WORKSPACE_WRITE, RiskLevel.SYSTEM, RiskLevel.DESTRUCTIVE
WORKSPACE = Path("/home/dev/project")


def graded(command: str) -> tuple[RiskLevel, list[str]]:
    result = classify(command, contained=False, workspace=WORKSPACE)
    return result.risk, [r.rule for r in result.reasons]


@pytest.mark.parametrize(
    "path",
    [
        ".Claude/settings.json",
        ".CLAUDE/settings.local.json",
        ".git/Hooks/pre-commit",
        ".git/HOOKS/Pre-Commit",
        ".git/CONFIG",
        ".Git/Config",
        ".VSCODE/tasks.json",
        ".vscode/Tasks.json",
        ".Vscode/Settings.json",
        ".Envrc",
        ".MCP.json",
        ".Husky/pre-commit",
        ".Pre-commit-config.yaml",
        ".Devcontainer/devcontainer.json",
        ".DevContainer.json",
        ".Cursor/mcp.json",
        ".Codex/config.toml",
        ".Gemini/settings.json",
        ".GitHub/hooks/x.json",
        ".github/MCP.json",
        ".VSCODE/mcp.json",
        "OpenCode.json",
        "lib/python3.12/Site-Packages/x.PTH",
        "lib/python3.12/site-packages/SiteCustomize.py",
        ".Hg/HGRC",
        "sub/.GIT/modules/x/HOOKS/post-checkout",
        "/home/dev/Project/.claude/settings.json",
        "/HOME/dev/project/.Git/hooks/x",
    ],
)
def test_control_files_in_another_case_are_destructive(path: str) -> None:
    risk, rules = graded(f"echo x > {path}")
    assert risk is DES and "git-control-write" in rules, rules


@pytest.mark.parametrize(
    "path",
    [
        "~/.BASHRC",
        "~/.Zshrc",
        "~/.Profile",
        "~/.SSH/authorized_keys",
        "~/.Config/autostart/x.desktop",
        "~/.Cargo/Config.toml",
        "~/.Local/Bin/git",
        "/Users/dev/.Bash_Profile",
        "/ETC/profile.d/x.sh",
        "/LIBRARY/LaunchDaemons/x.plist",
        ".VENV/Bin/pytest",
        "node_modules/.BIN/jest",
    ],
)
def test_start_up_files_and_program_directories_in_another_case_are_destructive(path: str) -> None:
    risk, rules = graded(f"echo x >> {path}")
    assert risk is DES and ("protected-path-write" in rules or "git-control-write" in rules), rules


@pytest.mark.parametrize(
    ("command", "grade"),
    [
        ("echo x > Src/Main.py", WW),
        ("echo x > README.md", WW),
        ("echo x > Docs/Hooks.md", WW),
        ("echo x > .github/workflows/CI.yml", WW),
        ("echo x > Settings.json", WW),
        ("echo x > src/Tasks.json", WW),
        ("echo x >> /srv/Notes.txt", SYS),
        ("echo x >> ~/Notes.txt", SYS),
        ("echo x >> /Var/Tmp/x", SYS),  # not the temp area as written, and no system tree
    ],
)
def test_ordinary_paths_in_any_case_keep_their_grade(command: str, grade: RiskLevel) -> None:
    assert graded(command)[0] is grade


@pytest.mark.parametrize(
    ("path", "level", "rule"),
    [
        (".Claude/settings.json", DES, "git-control-write"),
        (".VSCODE/tasks.json", DES, "git-control-write"),
        (".git/Hooks/pre-push", DES, "git-control-write"),
        ("Src/App.py", WW, "tool-write-in-workspace"),
    ],
)
def test_an_agent_s_file_tools_match_control_files_in_any_case(path: str, level: RiskLevel, rule: str) -> None:
    graded_tool = grade_tool("Write", {"file_path": f"{WORKSPACE}/{path}"}, workspace=str(WORKSPACE))
    assert (graded_tool.risk, graded_tool.reasons[0].rule) == (level, rule), graded_tool
