"""The real Claude Code CLI's ``Monitor`` tool (2.1.x: a background watch of a shell command's output, or of a
WebSocket) with the hook settings ``flybot hook install claude-code`` writes, a scripted Messages API
(tests/scripted_models.py) and a real FlyBot with the Slack emulation. A WebSocket watch reaches hooks only as
``Monitor`` (no ``Bash`` call), so it is in the matcher: its URL is network egress, asked before anything connects.
A watch of a shell command is graded as that Bash command."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.harness import Harness, free_socket
from tests.scripted_models import MessagesAPI
from tests.test_claude_code_cli import model, result_of, start_claude, text_of
from tests.test_claude_code_tools import card_text, result_for, stored_command, tools_project
from tests.test_hooks import deny_with, escalations_created, pending_id, start_hook

__all__ = ["model"]
pytestmark = pytest.mark.timeout(240)


@pytest.fixture
async def listener() -> AsyncIterator[tuple[str, list[bytes]]]:
    """A loopback TCP server that records the first bytes of each connection (a WebSocket handshake would show its
    request line) and answers nothing."""
    seen: list[bytes] = []

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seen.append(await reader.read(200))
        writer.close()

    sock = free_socket()
    server = await asyncio.start_server(accept, sock=sock)
    try:
        yield f"ws://127.0.0.1:{sock.getsockname()[1]}", seen
    finally:
        server.close()
        await server.wait_closed()


async def test_a_websocket_monitor_waits_for_the_card_and_a_deny_keeps_it_closed(
    harness: Harness, model: MessagesAPI, tmp_path: Path, listener: tuple[str, list[bytes]]
) -> None:
    base, seen = listener
    token = await harness.add_bot()
    proj = tools_project(tmp_path)
    model.tool = "Monitor"
    model.tool_input = {"description": "watch", "timeout_ms": 5000, "ws": {"url": f"{base}/events?data=x"}}
    claude = await start_claude(tmp_path, proj, model, harness.url, token)
    escalation_id = await pending_id(harness)
    assert (await stored_command(harness, escalation_id)).startswith("Tool Monitor")
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "network", stored
    assert f"tool:Monitor host:{base}" in card_text(harness)
    assert seen == [], "nothing connects before a decision"
    await deny_with(harness, escalation_id, "no sockets to there")
    await result_of(claude)
    block = result_for(model)
    assert block.get("is_error") and "no sockets to there" in text_of(block)
    await asyncio.sleep(0.5)
    assert seen == []


def monitor_request(tool_input: dict[str, object], cwd: Path) -> bytes:
    """Claude Code 2.1.332's ``PermissionRequest`` for a ``Monitor`` call (no ``tool_use_id``)."""
    return json.dumps({
        "session_id": "sess-monitor", "transcript_path": "/tmp/t.jsonl", "cwd": str(cwd),
        "permission_mode": "default", "hook_event_name": "PermissionRequest", "tool_name": "Monitor",
        "tool_input": tool_input, "permission_suggestions": [],
    }).encode()  # fmt: skip


@pytest.mark.parametrize(
    ("command", "behavior"), [("echo monitored", "allow"), ("echo x > /etc/cron.d/flybot-probe", "deny")]
)
async def test_a_monitor_of_a_command_is_answered_as_that_bash_command(
    harness: Harness, tmp_path: Path, command: str, behavior: str
) -> None:
    """A watch of ``echo`` in the workspace is read_only, allowed without a card; a watch whose command writes a
    system file is that command's grade (destructive), asked with the command as the escalation's."""
    token = await harness.add_bot()
    run = await start_hook(
        monitor_request({"description": "watch", "timeout_ms": 5000, "command": command}, tmp_path),
        tmp_path,
        "--wait",
        "2",
        "--on-no-decision",
        "deny",
        HOME=str(tmp_path / "home"),
        FLYBOT_STATE_DIR=str(tmp_path / "agent-state"),
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )
    code, out, err = await run.finish()
    assert code == 0, err
    assert json.loads(out)["hookSpecificOutput"]["decision"]["behavior"] == behavior, out
    created = await escalations_created(harness)
    if behavior == "allow":
        assert created == []
    else:
        (escalation_id,) = created
        stored = await harness.runtime.store.get_escalation(escalation_id)
        assert stored is not None and stored.command == command and stored.risk == "destructive", stored
