"""bot/risk/tools.py: the grades, words and card text of tool calls other than shell commands (pure functions)."""

from __future__ import annotations

import pytest

from bot.risk.model import RiskLevel
from bot.risk.rules import ProgramRules, Rule
from bot.risk.tools import describe_tool, grade_tool, tool_words

W = "/work/repo"


@pytest.mark.parametrize(
    ("name", "tool_input", "resolved", "level", "rule"),
    [
        ("Edit", {"file_path": f"{W}/src/a.py"}, None, RiskLevel.WORKSPACE_WRITE, "tool-write-in-workspace"),
        ("Write", {"file_path": f"{W}/.git/hooks/pre-commit"}, None, RiskLevel.DESTRUCTIVE, "git-control-write"),
        ("Edit", {"file_path": f"{W}/link/a"}, "/srv/app/a", RiskLevel.DESTRUCTIVE, "overwrite-outside-workspace"),
        ("Edit", {"file_path": f"{W}/../repo2/a"}, None, RiskLevel.DESTRUCTIVE, "overwrite-outside-workspace"),
        ("MultiEdit", {"file_path": "/etc/sudoers"}, None, RiskLevel.DESTRUCTIVE, "protected-path-write"),
        ("Write", {"file_path": "/root/.ssh/authorized_keys"}, None, RiskLevel.DESTRUCTIVE, "protected-path-write"),
        ("NotebookEdit", {"notebook_path": "nb.ipynb"}, None, RiskLevel.DESTRUCTIVE, "tool-unknown-path"),
        ("WebFetch", {"url": "https://Docs.Python.org/3/"}, None, RiskLevel.NETWORK, "tool-network"),
        ("WebFetch", {"url": "file:///etc/passwd"}, None, RiskLevel.DESTRUCTIVE, "tool-unknown-url"),
        ("WebSearch", {"query": "x"}, None, RiskLevel.NETWORK, "tool-network"),
        ("Monitor", {"ws": {"url": "wss://events.example.com/feed"}}, None, RiskLevel.NETWORK, "tool-network"),
        ("Monitor", {"ws": {"url": "ws://127.0.0.1@evil.example/x"}}, None, RiskLevel.DESTRUCTIVE, "tool-unknown-url"),
        ("Monitor", {"ws": {"url": "https://example.com/"}}, None, RiskLevel.DESTRUCTIVE, "tool-unknown-url"),
        (
            "Monitor",
            {"ws": {"url": "wss://a.example"}, "command": "ls"},
            None,
            RiskLevel.DESTRUCTIVE,
            "tool-unknown-url",
        ),
        ("mcp__github__create_issue", {}, None, RiskLevel.DESTRUCTIVE, "unrecognised"),
        ("Telepathy", {}, None, RiskLevel.DESTRUCTIVE, "unrecognised-tool"),
    ],
)
def test_tool_grades(
    name: str, tool_input: dict[str, object], resolved: str | None, level: RiskLevel, rule: str
) -> None:
    graded = grade_tool(name, tool_input, workspace=W, resolved_path=resolved)
    assert (graded.risk, graded.reasons[0].rule) == (level, rule), graded


def test_a_program_rule_grades_an_mcp_tool_by_its_full_name_only() -> None:
    rules = ProgramRules((Rule("mcp__github__create_issue", None, RiskLevel.NETWORK, "U0ADMIN01"),))
    assert grade_tool("mcp__github__create_issue", {}, workspace=W, rules=rules).risk is RiskLevel.NETWORK
    assert grade_tool("mcp__github__delete_repo", {}, workspace=W, rules=rules).risk is RiskLevel.DESTRUCTIVE
    github = ProgramRules((Rule("github", None, RiskLevel.READ_ONLY, "U0ADMIN01"),))
    assert grade_tool("mcp__github__delete_repo", {}, workspace=W, rules=github).risk is RiskLevel.DESTRUCTIVE


def test_tool_words_name_the_origin_and_the_resolved_path() -> None:
    assert tool_words("WebFetch", {"url": "https://Docs.python.org:443/x?y"}) == (
        "tool:WebFetch",
        "host:https://docs.python.org",
    )
    assert tool_words("Edit", {"file_path": f"{W}/l/a"}, "/srv/./app/a") == ("tool:Edit", "path:/srv/app/a")
    assert tool_words("mcp__s__t", {"host": "x"}) == ("tool:mcp__s__t",)


def test_the_card_text_escapes_hidden_characters_in_arguments_and_shows_the_diff() -> None:
    text = describe_tool("mcp__s__t", {"title": "ok\u202eevil", "n": 1}, workspace=W)
    assert text.startswith("MCP tool t of server s (mcp__s__t)\nArguments:") and "\\u202e" in text
    assert "\u202e" not in text
    diff = describe_tool("Edit", {"file_path": "/srv/a", "old_string": "x\ny", "new_string": "x\nz"}, workspace=W)
    assert diff.splitlines()[0] == "Edit /srv/a (outside the workspace)" and "-y" in diff and "+z" in diff


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://docs.example.com/a", "https://docs.example.com"),
        ("https://docs.example.com:443/a", "https://docs.example.com"),
        ("http://docs.example.com:80/a", "http://docs.example.com"),
        ("http://docs.example.com/a", "http://docs.example.com"),
        ("https://docs.example.com:8443/a", "https://docs.example.com:8443"),
        ("http://docs.example.com:443/a", "http://docs.example.com:443"),
        ("HTTPS://DOCS.Example.COM/a", "https://docs.example.com"),
        ("https://docs.example.com./a", "https://docs.example.com"),
        ("https://xn--dcs-sed.example.com/", "https://xn--dcs-sed.example.com"),  # shown as written, its own origin
        ("https://127.0.0.1:8443/", "https://127.0.0.1:8443"),
        ("https://[::1]:8443/", "https://[::1]:8443"),
        ("https://docs.example.com@evil.example/", None),  # userinfo: parsers disagree on the host
        ("https://docs.example.com:443@evil.example/", None),
        ("https://d\u043ecs.example.com/", None),  # non-ASCII: an IDN look-alike
        ("https://docs..example.com/", None),
        ("https://docs.example.com../", None),
        ("https://2130706433/", None),  # WHATWG reads a numeric host as IPv4: 127.0.0.1
        ("https://0x7f.1/", None),
        ("https://docs.example.com:99999/", None),
        ("https://docs.example.com:0/", None),
        ("https://docs.example.com:+443/", None),
        ("ftp://docs.example.com/", None),
    ],
)
def test_a_web_fetch_is_named_by_its_scheme_host_and_port(url: str, origin: str | None) -> None:
    words = tool_words("WebFetch", {"url": url})
    assert words == (("tool:WebFetch", f"host:{origin}") if origin else ("tool:WebFetch",)), words
    graded = grade_tool("WebFetch", {"url": url}, workspace=W)
    assert graded.risk == (RiskLevel.NETWORK if origin else RiskLevel.DESTRUCTIVE), graded


def test_a_websocket_monitor_is_matched_by_its_origin() -> None:
    """Its words name the socket's origin as a fetch's do: the scheme's default port written as none."""
    assert tool_words("Monitor", {"ws": {"url": "wss://Events.example.com:443/feed"}}) == (
        "tool:Monitor",
        "host:wss://events.example.com",
    )
    assert tool_words("Monitor", {"ws": {"url": "ws://127.0.0.1:8765/x"}})[1] == "host:ws://127.0.0.1:8765"
    assert tool_words("WebFetch", {"url": "wss://events.example.com/"}) == ("tool:WebFetch",)
