"""Tool calls other than shell commands through the session API (bot/risk/tools.py): the server grades the call it
receives, stores it with the escalation, shows it on the card, refuses malformed calls, and standing approvals and
program rules apply to tool words only as they say."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.errors import InvalidRequest
from bot.standing import StandingSpec
from cards import TEACH_ACTION
from tests.harness import ADMIN, OWNER, Harness
from tests.pg import migrated_store

WORKSPACE = "/work/repo"


def tool_body(harness: Harness, name: str, tool_input: dict[str, Any], **tool: Any) -> dict[str, Any]:
    return harness.body(command=name, cwd=WORKSPACE, tool={"name": name, "input": tool_input, **tool})


async def test_a_file_edit_is_graded_by_where_the_resolved_path_leads(harness: Harness) -> None:
    token = await harness.add_bot()
    edit = {"file_path": f"{WORKSPACE}/link/hosts", "old_string": "a", "new_string": "b"}
    status, inside = await harness.post(token, tool_body(harness, "Edit", edit))
    assert status == 201 and inside["risk"] == "workspace_write", inside
    status, outside = await harness.post(token, tool_body(harness, "Edit", edit, resolved_path="/srv/app/hosts"))
    assert status == 201 and outside["risk"] == "destructive"  # an overwrite outside the workspace
    assert outside["command"].startswith("Edit /srv/app/hosts (outside the workspace), written as /work/repo/link")
    assert outside["tool"] == {"name": "Edit", "input": edit, "resolved_path": "/srv/app/hosts"}
    status, protected = await harness.post(
        token, tool_body(harness, "Write", {"file_path": "/etc/hosts", "content": "x"})
    )
    assert status == 201 and protected["risk"] == "destructive"
    stored = await harness.runtime.store.get_escalation(outside["id"])
    assert stored is not None and stored.tool == outside["tool"]


@pytest.mark.parametrize(
    "body_change",
    [
        {"command": "rm -rf /"},  # the command must be the tool's name
        {"tool": {"name": "Edit", "input": {"file_path": "/x", "content": "y" * 70_000}}},  # input too large
        {"tool": {"name": "Edit; rm", "input": {}}},  # not a tool name
        {"tool": {"name": "Edit", "input": {}, "resolved_path": "relative/path"}},
        {"tool": {"name": "Edit", "input": {}, "extra": 1}},
    ],
)
async def test_a_malformed_tool_call_is_refused_and_creates_nothing(
    harness: Harness, body_change: dict[str, Any]
) -> None:
    token = await harness.add_bot()
    body = {**tool_body(harness, "Edit", {"file_path": "/x"}), **body_change}
    if body_change.get("tool"):
        body["command"] = "Edit"
    status, problem = await harness.post(token, body)
    assert status == 422, problem
    assert all(e.event != "escalation.created" for e in await harness.runtime.store.audit_log())


async def test_an_mcp_tool_is_destructive_until_a_program_rule_grades_it(harness: Harness) -> None:
    token = await harness.add_bot()
    name = "mcp__github__create_issue"
    unknown = await harness.escalate(token, command=name, cwd=WORKSPACE, tool={"name": name, "input": {"title": "x"}})
    assert unknown["risk"] == "destructive"
    teach = [
        e["value"]
        for b in harness.card_for(unknown["id"])["blocks"]
        if b.get("type") == "actions"
        for e in b["elements"]
        if e.get("action_id") == TEACH_ACTION
    ]
    assert teach == [f"{unknown['id']} {name}"], "the card offers an admin to grade the tool"
    (bot,) = await harness.runtime.store.list_bots()
    spec = StandingSpec(scope="bot", subject=bot.id, pattern=f"tool:{name}", max_risk="network", contained_only=False)
    with pytest.raises(InvalidRequest, match="program rule"):
        await harness.runtime.standing.create(OWNER, spec)
    await harness.slash(ADMIN, f"rule set {name} network")
    status, graded = await harness.post(token, tool_body(harness, name, {"title": "x"}))
    assert status == 201 and graded["risk"] == "network" and graded["status"] == "pending"
    await harness.runtime.standing.create(OWNER, spec)
    status, answered = await harness.post(token, tool_body(harness, name, {"title": "y"}))
    assert status == 201 and answered["status"] == "approved" and answered["card"] is None
    status, other = await harness.post(token, tool_body(harness, "mcp__github__delete_repo", {}))
    assert status == 201 and other["status"] == "pending" and other["risk"] == "destructive"


async def test_a_web_fetch_standing_approval_covers_its_host_only(harness: Harness) -> None:
    token = await harness.add_bot()
    (bot,) = await harness.runtime.store.list_bots()
    await harness.runtime.standing.create(
        OWNER,
        StandingSpec(
            scope="bot",
            subject=bot.id,
            pattern="tool:WebFetch host:https://docs.python.org",
            max_risk="network",
            contained_only=False,
        ),
    )
    status, covered = await harness.post(token, tool_body(harness, "WebFetch", {"url": "https://docs.python.org/3/"}))
    assert status == 201 and covered["status"] == "approved"
    for url in (
        "https://docs.python.org.evil.example/",
        "https://evil.example/?docs.python.org",
        "ftp://docs.python.org/",
    ):
        status, asked = await harness.post(token, tool_body(harness, "WebFetch", {"url": url}))
        assert status == 201 and asked["status"] == "pending", url
    status, search = await harness.post(token, tool_body(harness, "WebSearch", {"query": "docs.python.org"}))
    assert status == 201 and search["status"] == "pending"


async def test_a_web_fetch_standing_approval_covers_its_scheme_and_port_only(harness: Harness) -> None:
    # an approval made for https://docs.example.com (port 443): the same origin however it is spelled is covered;
    # another scheme or port, userinfo, an IDN or look-alike host is asked
    token = await harness.add_bot()
    (bot,) = await harness.runtime.store.list_bots()
    await harness.runtime.standing.create(
        OWNER,
        StandingSpec(
            scope="bot",
            subject=bot.id,
            pattern="tool:WebFetch host:https://docs.example.com",
            max_risk="network",
            contained_only=False,
        ),
    )
    for url in (
        "https://docs.example.com/guide",
        "https://docs.example.com:443/guide",
        "HTTPS://DOCS.EXAMPLE.COM/guide",
        "https://docs.example.com./guide",
        "https://docs.example.com:/guide",
    ):
        status, covered = await harness.post(token, tool_body(harness, "WebFetch", {"url": url}))
        assert status == 201 and covered["status"] == "approved", url
    for url in (
        "http://docs.example.com/guide",
        "http://docs.example.com:443/guide",
        "https://docs.example.com:8443/guide",
        "http://docs.example.com:8080/guide",
        "https://docs.example.com@evil.example/",
        "https://docs.example.com:443@evil.example/",
        "https://evil.example\\@docs.example.com/",
        "https://d\u043ecs.example.com/",  # Cyrillic o
        "https://xn--dcs-sed.example.com/",  # the same name in punycode
        "https://docs.example.com../",
        "https://docs.example.com.evil.example/",
    ):
        status, asked = await harness.post(token, tool_body(harness, "WebFetch", {"url": url}))
        assert status == 201 and asked["status"] == "pending", url
    status, shown = await harness.post(token, tool_body(harness, "WebFetch", {"url": "http://docs.example.com:8080/x"}))
    assert shown["command"].startswith("WebFetch http://docs.example.com:8080/x\nHost: http://docs.example.com:8080")
    assert any("http://docs.example.com:8080" in r["detail"] for r in shown["reasons"]), shown["reasons"]


async def test_a_web_fetch_approval_on_another_port_covers_that_port_only(harness: Harness) -> None:
    token = await harness.add_bot()
    (bot,) = await harness.runtime.store.list_bots()
    await harness.runtime.standing.create(
        OWNER,
        StandingSpec(
            scope="bot",
            subject=bot.id,
            pattern="tool:WebFetch host:http://localhost:8000",
            max_risk="network",
            contained_only=False,
        ),
    )
    status, covered = await harness.post(token, tool_body(harness, "WebFetch", {"url": "http://LOCALHOST:8000/api"}))
    assert status == 201 and covered["status"] == "approved"
    for url in ("http://localhost/api", "https://localhost:8000/api", "http://localhost:8001/api"):
        status, asked = await harness.post(token, tool_body(harness, "WebFetch", {"url": url}))
        assert status == 201 and asked["status"] == "pending", url


async def test_tool_patterns_say_what_they_cover_or_are_refused(harness: Harness) -> None:
    await harness.add_bot()
    (bot,) = await harness.runtime.store.list_bots()
    for pattern in (
        "tool:WebFetch docs.python.org",
        "tool:WebFetch host:",
        "tool:Edit host:x",
        "tool:Telepathy",
        "tool:WebFetch host:a host:b",
        "tool:WebFetch host:docs.python.org",  # no scheme: which one it covers is not said
        "tool:WebFetch host:https://docs.python.org:443",  # the default port is written as none
        "tool:WebFetch host:https://Docs.Python.org",
        "tool:WebFetch host:https://docs.python.org/3/",
        "tool:WebFetch host:ftp://docs.python.org",
        "tool:Monitor host:https://events.example.com",
        "tool:Monitor host:wss://events.example.com:443",
        "tool:ReadMcpResourceTool host:x",
    ):
        with pytest.raises(InvalidRequest):
            await harness.runtime.standing.create(
                OWNER,
                StandingSpec(scope="bot", subject=bot.id, pattern=pattern, max_risk="system", contained_only=False),
            )


@pytest.fixture(params=["sqlite", "postgresql"])
async def h(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    async with migrated_store(request.param, tmp_path) as url:
        harness = Harness(tmp=tmp_path, settings_overrides={"database_url": url})
        await harness.start()
        try:
            yield harness
        finally:
            await harness.close()


async def test_the_tool_call_is_kept_with_the_escalation_on_either_store(h: Harness) -> None:
    """An escalation that waits for a card and one a standing approval answers both keep the call, non-ASCII
    included."""
    token = await h.add_bot()
    (bot,) = await h.runtime.store.list_bots()
    call = {
        "name": "WebFetch",
        "input": {"url": "https://docs.python.org/3/", "prompt": "r\u00e9sum\u00e9 \u00ab\u00bb"},
        "resolved_path": None,
    }
    asked = await h.escalate(token, command="WebFetch", cwd=WORKSPACE, tool=call)
    await h.runtime.standing.create(
        OWNER,
        StandingSpec(
            scope="bot",
            subject=bot.id,
            pattern="tool:WebFetch host:https://docs.python.org",
            max_risk="network",
            contained_only=False,
        ),
    )
    status, answered = await h.post(token, h.body(command="WebFetch", cwd=WORKSPACE, tool=call))
    assert status == 201 and answered["status"] == "approved"
    for escalation_id in (asked["id"], answered["id"]):
        stored = await h.runtime.store.get_escalation(escalation_id)
        assert stored is not None and stored.tool == call, stored
    plain = await h.escalate(token)
    stored = await h.runtime.store.get_escalation(plain["id"])
    assert stored is not None and stored.tool is None


async def test_a_websocket_monitor_and_an_mcp_resource_read_can_be_covered(harness: Harness) -> None:
    """The tools the Claude Code hook grades network: a standing approval names a Monitor's WebSocket origin (that
    scheme and port only) or every MCP resource read; a credential named in a resource read still asks."""
    token = await harness.add_bot()
    (bot,) = await harness.runtime.store.list_bots()
    for pattern in ("tool:Monitor host:wss://events.example.com", "tool:ReadMcpResourceTool"):
        await harness.runtime.standing.create(
            OWNER,
            StandingSpec(scope="bot", subject=bot.id, pattern=pattern, max_risk="network", contained_only=False),
        )
    covered = [
        ("Monitor", {"description": "w", "timeout_ms": 1000, "ws": {"url": "wss://events.example.com/feed"}}),
        ("ReadMcpResourceTool", {"server": "notes", "uri": "notes://team"}),
    ]
    for name, tool_input in covered:
        status, answered = await harness.post(token, tool_body(harness, name, tool_input))
        assert status == 201 and answered["status"] == "approved", (name, answered)
    asked = [
        ("Monitor", {"description": "w", "timeout_ms": 1000, "ws": {"url": "ws://events.example.com/feed"}}),
        ("ReadMcpResourceTool", {"server": "fs", "uri": "file:///home/dev/.ssh/id_rsa"}),
    ]
    for name, tool_input in asked:
        status, answered = await harness.post(token, tool_body(harness, name, tool_input))
        assert status == 201 and answered["status"] == "pending", (name, answered)
