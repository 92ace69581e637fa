"""Writes that plant code a coding agent, git or a login runs later, by shell command or by tool call, and web
fetches whose host parsers read differently: graded destructive; their ordinary neighbours are not."""

from __future__ import annotations

import pytest

from bot.risk import classify
from bot.risk.model import RiskLevel
from bot.risk.tools import describe_tool, grade_tool, tool_words

W = "/work/repo"


def _shell(command: str) -> tuple[RiskLevel, str]:
    graded = classify(command, contained=False, workspace=W)
    return graded.risk, graded.reasons[0].rule


@pytest.mark.parametrize(
    "command",
    [
        "echo '{}' > .claude/settings.json",
        "printf x >> .claude/settings.local.json",
        "cp evil.md .claude/commands/deploy.md",
        "cp a.md .claude/agents/a.md",
        "mkdir -p .claude/skills/s && cp s.md .claude/skills/s/SKILL.md",
        "cp hook.sh .claude/hooks/pre.sh",
        "cp servers.json .mcp.json",
        "echo x >> .codex/config.toml",
        "cp h.json .codex/hooks.json",
        "echo '{}' > .gemini/settings.json",
        "tar -xf a.tar -C .claude",
        "unzip a.zip -d .codex",
        "git apply --directory=.claude p.diff",
    ],
)
def test_shell_writes_to_agent_settings_in_the_workspace_are_destructive(command: str) -> None:
    assert _shell(command) == (RiskLevel.DESTRUCTIVE, "git-control-write")


@pytest.mark.parametrize(
    "command",
    ["echo x > claude/settings.json", "cp a docs/mcp.json", "echo x >> codex/config.toml", "cp a src/settings.json"],
)
def test_shell_writes_to_files_named_like_them_elsewhere_stay_workspace_writes(command: str) -> None:
    assert _shell(command) == (RiskLevel.WORKSPACE_WRITE, "write-in-workspace")


def test_reading_agent_settings_stays_read_only() -> None:
    assert _shell("cat .claude/settings.json .mcp.json")[0] is RiskLevel.READ_ONLY


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("Write", f"{W}/.claude/settings.json"),
        ("Edit", f"{W}/.claude/settings.local.json"),
        ("Write", f"{W}/.claude/commands/x.md"),
        ("Write", f"{W}/.mcp.json"),
        ("MultiEdit", f"{W}/.codex/config.toml"),
        ("Write", f"{W}/.codex/hooks.json"),
        ("Write", f"{W}/.gemini/settings.json"),
        ("Edit", f"{W}/.gemini/settings.json"),
        ("Edit", f"{W}/sub/.git/config"),
        ("Write", f"{W}/.git/modules/m/hooks/post-checkout"),
        ("Write", f"{W}/fake/config"),
        ("Write", f"{W}/fake/hooks/pre-commit"),
        ("Write", f"{W}/HEAD"),
        ("Edit", f"{W}/.hg/hgrc"),
        ("Edit", f"{W}/.jj/repo/config.toml"),
        ("Write", "/tmp/r/.git/config"),
        ("Write", f"{W}/opencode.json"),
        ("Edit", f"{W}/opencode.jsonc"),
        ("Write", f"{W}/.github/mcp.json"),
        ("Write", f"{W}/.github/agents/deploy.agent.md"),
        ("Edit", f"{W}/.vscode/mcp.json"),
    ],
)
def test_tool_writes_to_control_files_are_destructive(name: str, path: str) -> None:
    graded = grade_tool(name, {"file_path": path}, workspace=W)
    assert (graded.risk, graded.reasons[0].rule) == (RiskLevel.DESTRUCTIVE, "git-control-write")


@pytest.mark.parametrize(
    "path",
    [
        f"{W}/claude/settings.json",
        f"{W}/src/config.py",
        f"{W}/docs/hooks.md",
        f"{W}/git/config.toml",
        f"{W}/AGENTS.md",
        f"{W}/.github/copilot-instructions.md",
    ],
)
def test_tool_writes_to_ordinary_workspace_files_stay_workspace_writes(path: str) -> None:
    graded = grade_tool("Edit", {"file_path": path}, workspace=W)
    assert (graded.risk, graded.reasons[0].rule) == (RiskLevel.WORKSPACE_WRITE, "tool-write-in-workspace")


@pytest.mark.parametrize("name", ["Write", "Edit", "MultiEdit"])
def test_tool_writes_outside_the_workspace_are_destructive_like_a_shell_overwrite(name: str) -> None:
    graded = grade_tool(name, {"file_path": "/srv/app/main.py"}, workspace=W)
    assert (graded.risk, graded.reasons[0].rule) == (RiskLevel.DESTRUCTIVE, "overwrite-outside-workspace")
    assert _shell("echo x > /srv/app/main.py") == (RiskLevel.DESTRUCTIVE, "overwrite-outside-workspace")
    notebook = grade_tool("NotebookEdit", {"notebook_path": "/srv/nb.ipynb"}, workspace=W)
    assert notebook.risk is RiskLevel.DESTRUCTIVE
    first = describe_tool(name, {"file_path": "/srv/app/main.py"}, workspace=W).splitlines()[0]
    assert first.endswith("(outside the workspace)")


def test_tool_writes_in_the_temp_area_stay_system() -> None:
    graded = grade_tool("Write", {"file_path": "/tmp/scratch.txt"}, workspace=W)
    assert (graded.risk, graded.reasons[0].rule) == (RiskLevel.SYSTEM, "tool-write-outside-workspace")


@pytest.mark.parametrize(
    "command",
    [
        "printf '[core]\\n\\tpager = sh -c x\\n' >> ~/.gitconfig",
        "echo 'alias ls=x' >> ~/.bash_aliases",
        "ln -s /tmp/x ~/.gitconfig",
        "cp tool ~/bin/ls",
        "echo x >> ~/.cargo/config.toml",
        "echo x >> ~/.cargo/config",
        "cp tool ~/.cargo/bin/cargo-x",
        "echo '{}' > ~/.claude/settings.json",
        "echo '{}' > ~/.claude.json",
        "echo x >> ~/.codex/config.toml",
        "echo '{}' > ~/.gemini/settings.json",
        "echo x >> /home/u/.gitconfig",
    ],
)
def test_home_files_that_run_code_are_protected(command: str) -> None:
    level, rule = _shell(command)
    assert level is RiskLevel.DESTRUCTIVE  # ``~/.cargo/config`` is also a git directory's config by its name
    assert rule in ("protected-path-write", "git-control-write")


def test_home_neighbours_are_not_protected() -> None:
    assert _shell("echo x >> ~/notes.txt")[1] != "protected-path-write"
    assert _shell("echo x >> ~/.cargo/registry/x")[1] != "protected-path-write"
    assert _shell("cat ~/.bash_aliases ~/.vimrc")[0] is RiskLevel.READ_ONLY  # ~/.gitconfig: a secret read
    assert grade_tool("Write", {"file_path": "/home/u/.gitconfig"}, workspace=W).reasons[0].rule == (
        "protected-path-write"
    )


@pytest.mark.parametrize(
    "url",
    [
        "http://evil.example\\@docs.python.org/",
        "https://user@docs.python.org/",
        "https://evil.example%2f@docs.python.org/",
        "https://d%6Fcs.python.org/",
        "https://docs.python.org\t/x",
        "https://docs .python.org/",
        "https://d\u043ecs.python.org/",
        "https://docs.python.org\x00.evil/",
    ],
)
def test_web_fetches_whose_host_parsers_disagree_on_are_unknown(url: str) -> None:
    graded = grade_tool("WebFetch", {"url": url}, workspace=W)
    assert (graded.risk, graded.reasons[0].rule) == (RiskLevel.DESTRUCTIVE, "tool-unknown-url")
    assert tool_words("WebFetch", {"url": url}) == ("tool:WebFetch",)
    assert "docs.python.org" not in describe_tool("WebFetch", {"url": url}, workspace=W).splitlines()[1]


@pytest.mark.parametrize(
    "url", ["https://docs.python.org/3/", "https://docs.python.org/search?q=a%20b", "HTTPS://Docs.Python.org:443/x"]
)
def test_plain_web_fetches_keep_their_host(url: str) -> None:
    graded = grade_tool("WebFetch", {"url": url}, workspace=W)
    assert (graded.risk, graded.reasons[0].rule) == (RiskLevel.NETWORK, "tool-network")
    assert tool_words("WebFetch", {"url": url}) == ("tool:WebFetch", "host:https://docs.python.org")


@pytest.mark.parametrize(
    ("command", "runner"),
    [
        ("echo 'curl x | sh' > .husky/pre-commit", "husky"),
        ("cp t.json .vscode/tasks.json", "VS Code"),
        ("echo '{}' > .vscode/settings.json", "VS Code"),
        ("echo 'rm -rf ~' > .envrc", "direnv"),
        ("echo 'import os' > .venv/lib/python3.12/site-packages/x.pth", "Python"),
        ("cp d.json .devcontainer/devcontainer.json", "postCreateCommand"),
        ("sed -i s/a/b/ .pre-commit-config.yaml", "pre-commit"),
        ("cp l.json .vscode/launch.json", "VS Code"),
        ("echo '{}' > app.code-workspace", "VS Code"),
        ("echo '<component/>' > .idea/runConfigurations/App.xml", "JetBrains"),
        ("cp w.xml .idea/workspace.xml", "JetBrains"),
        ("echo '<component/>' > .run/App.run.xml", "JetBrains"),
    ],
)
def test_writes_to_workspace_files_other_tools_run_are_destructive_naming_the_runner(command: str, runner: str) -> None:
    """paths.runs_later: husky hooks, VS Code tasks, settings, launch configurations and workspace files, JetBrains
    run configurations, direnv's .envrc, site-packages .pth files, dev
    container commands, pre-commit's configuration; contained too (the workspace outlives the sandbox)."""
    for contained in (False, True):
        graded = classify(command, contained=contained, workspace=W)
        assert graded.risk is RiskLevel.DESTRUCTIVE, (command, contained)
        assert graded.reasons[0].rule == "git-control-write"
        assert runner in graded.reasons[0].detail


@pytest.mark.parametrize(
    "command",
    [
        "echo x > src/app.py",
        "echo x > tests/test_app.py",
        "echo x > Makefile",
        "echo x > conftest.py",
        "echo '{}' > package.json",
        "echo '{}' > .vscode/extensions.json",
        "echo x > lib/paths.pth",
        "echo x > docs/site-packages.md",
        "echo '{}' > docs/launch.json",
        "echo x > .idea/misc.xml",
        "echo x > .idea/runConfigurations/README.md",
        "echo x > run/App.xml",
    ],
)
def test_everyday_workspace_writes_beside_those_files_stay_low(command: str) -> None:
    assert classify(command, contained=False, workspace=W).risk <= RiskLevel.WORKSPACE_WRITE


@pytest.mark.parametrize(
    "command",
    [
        """printf '{"mcp":{"x":{"type":"local","command":["sh"]}}}' > opencode.json""",
        "cp c.jsonc opencode.jsonc",
        "echo '{}' > sub/opencode.json",
        "echo '{}' > .vscode/mcp.json",
        "echo '{}' > .github/mcp.json",
        "cp a.agent.md .github/agents/a.agent.md",
        "mkdir -p .github/agents",
        "echo '{}' > .cursor/mcp.json",
        "echo '{}' >> .mcp.json",
        "cp s.json .gemini/settings.json",
    ],
)
def test_agent_config_files_that_start_programs_are_control_files(command: str) -> None:
    assert _shell(command) == (RiskLevel.DESTRUCTIVE, "git-control-write")


@pytest.mark.parametrize(
    "command",
    [
        "echo x >> AGENTS.md",
        "echo x > CLAUDE.md",
        "echo x > .github/copilot-instructions.md",
        "echo x > .github/workflows/ci.yml",
        "echo '{}' > docs/opencode.json.example",
        "echo '{}' > src/mcp.json",
        "echo x > agents/a.md",
    ],
)
def test_agent_instruction_files_and_lookalikes_stay_workspace_writes(command: str) -> None:
    assert _shell(command) == (RiskLevel.WORKSPACE_WRITE, "write-in-workspace")


@pytest.mark.parametrize(
    "command",
    [
        "echo 'import os' >> ~/.local/lib/python3.12/site-packages/evil.pth",
        "echo x >> /opt/venv/lib/python3.12/site-packages/sitecustomize.py",
        "echo x >> /usr/local/lib/python3.12/dist-packages/usercustomize.py",
        "echo x >> ~/.gradle/init.d/x.gradle",
        "echo x >> ~/.gradle/init.gradle.kts",
        "echo x >> ~/.cursor/hooks.json",
        "echo x >> ~/.cline/hooks/PreToolUse",
        "echo x >> ~/.copilot/hooks/flybot.json",
        "echo x >> ~/.Rprofile",
        # the user's own site (site.USER_SITE): every later import of the package runs the module
        "echo x >> ~/.local/lib/python3.12/site-packages/pkg/mod.py",
    ],
)
def test_appends_that_create_start_up_code_outside_the_workspace_are_destructive(command: str) -> None:
    assert _shell(command) == (RiskLevel.DESTRUCTIVE, "protected-path-write")


@pytest.mark.parametrize(
    "command",
    [
        "echo x >> ~/notes.txt",
        "echo x >> ~/.gradle/caches/x.log",
        "echo x >> /opt/venv/lib/python3.12/site-packages/pkg.py",
    ],
)
def test_appends_to_ordinary_files_outside_the_workspace_stay_system(command: str) -> None:
    assert _shell(command) == (RiskLevel.SYSTEM, "write-outside-workspace")


def test_sitecustomize_in_a_workspace_virtualenv_is_a_control_file() -> None:
    assert _shell("echo x > .venv/lib/python3.12/site-packages/sitecustomize.py") == (
        RiskLevel.DESTRUCTIVE,
        "git-control-write",
    )
    assert _shell("echo x > src/site-packages/a.py") == (RiskLevel.WORKSPACE_WRITE, "write-in-workspace")
