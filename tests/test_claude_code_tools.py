"""The real Claude Code CLI asking FlyBot about tools other than Bash: an ``Edit`` of a file outside the workspace, a
``WebFetch`` of a loopback server and an MCP tool of a tiny stdio MCP server (``--mcp-config``), with the hook
settings ``flybot hook install claude-code`` writes, a scripted Messages API (tests/scripted_models.py) and a real
FlyBot with the Slack emulation. Each makes a card; nothing happens before Approve; a Deny's reason reaches the
model; a standing approval answers a repeat without a card."""

from __future__ import annotations

import asyncio
import json
import ssl
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.standing import StandingSpec
from cards import APPROVE_ACTION
from tests.harness import ADMIN, OWNER, Harness, free_socket
from tests.scripted_models import MessagesAPI
from tests.test_claude_code_cli import model, result_of, start_claude, text_of
from tests.test_hooks import deny_with, escalations_created, pending_id

__all__ = ["model"]
pytestmark = pytest.mark.timeout(240)


def tools_project(tmp: Path) -> Path:
    """A project with the hook settings ``flybot hook install claude-code`` writes (every tool it gates)."""
    from bot.hooks.install import merged

    proj = tmp / "proj"
    (proj / ".claude").mkdir(parents=True)
    hook = " ".join([sys.executable, "-m", "bot", "hook", "claude-code"])
    # skipWebFetchPreflight: Claude Code otherwise asks claude.ai whether the host is safe before a WebFetch.
    (proj / ".claude" / "settings.json").write_text(
        json.dumps(merged({"skipWebFetchPreflight": True}, "claude-code", hook))
    )
    return proj


async def bot_id(harness: Harness) -> str:
    (bot,) = await harness.runtime.store.list_bots()
    return bot.id


async def stored_command(harness: Harness, escalation_id: str) -> str:
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None
    return stored.command


def result_for(model: MessagesAPI) -> dict[str, Any]:
    """The tool result of the scripted model's gated call (its reads before it are not counted)."""
    found = [r for r in model.tool_results() if r.get("tool_use_id") in model.tool_use_ids]
    assert len(found) == 1, model.tool_results()
    return found[0]


def card_text(harness: Harness) -> str:
    return json.dumps([m.blocks for m in harness.emulator.messages])


# -- Edit outside the workspace ----------------------------------------------------------------------------------


def edit_outside(tmp: Path, model: MessagesAPI) -> Path:
    outside = tmp / "elsewhere" / "notes.txt"
    outside.parent.mkdir()
    outside.write_text("alpha\nbeta\n")
    # Claude Code edits only a file it has read: the scripted model reads it first (Read allowed by --allowedTools).
    model.before = [("Read", {"file_path": str(outside)})]
    model.tool, model.tool_input = "Edit", {"file_path": str(outside), "old_string": "beta", "new_string": "gamma"}
    return outside


async def test_an_edit_outside_the_workspace_waits_for_the_card_and_is_made_on_approve(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = tools_project(tmp_path)
    outside = edit_outside(tmp_path, model)
    claude = await start_claude(tmp_path, proj, model, harness.url, token, "--allowedTools", "Read")
    escalation_id = await pending_id(harness)
    command = await stored_command(harness, escalation_id)
    assert command.startswith(f"Edit {outside} (outside the workspace)") and "-beta" in command and "+gamma" in command
    assert "change a file" in card_text(harness)
    assert outside.read_text() == "alpha\nbeta\n", "nothing is written before Approve"
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    await result_of(claude)
    assert not result_for(model).get("is_error"), result_for(model)
    assert outside.read_text() == "alpha\ngamma\n"


async def test_an_edit_outside_the_workspace_denied_tells_the_model_why_and_changes_nothing(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = tools_project(tmp_path)
    outside = edit_outside(tmp_path, model)
    claude = await start_claude(tmp_path, proj, model, harness.url, token, "--allowedTools", "Read")
    await deny_with(harness, await pending_id(harness), "that file belongs to another team")
    await result_of(claude)
    block = result_for(model)
    assert block.get("is_error") and "that file belongs to another team" in text_of(block)
    assert outside.read_text() == "alpha\nbeta\n"


async def test_a_standing_approval_for_the_file_answers_an_edit_outside_the_workspace_without_a_card(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = tools_project(tmp_path)
    outside = edit_outside(tmp_path, model)
    await harness.runtime.standing.create(
        OWNER,
        StandingSpec(
            scope="bot",
            subject=await bot_id(harness),
            pattern=f"tool:Edit path:{outside.resolve()}",
            max_risk="system",
            contained_only=False,
        ),
    )
    await result_of(await start_claude(tmp_path, proj, model, harness.url, token, "--allowedTools", "Read"))
    (escalation_id,) = await escalations_created(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.status == "approved" and stored.card_status is None
    assert outside.read_text() == "alpha\ngamma\n"


async def test_an_edit_inside_the_workspace_is_answered_without_asking_flybot(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = tools_project(tmp_path)
    inside = proj / "notes.txt"
    inside.write_text("alpha\nbeta\n")
    model.before = [("Read", {"file_path": str(inside)})]
    model.tool, model.tool_input = "Edit", {"file_path": str(inside), "old_string": "beta", "new_string": "gamma"}
    await result_of(await start_claude(tmp_path, proj, model, harness.url, token))
    assert await escalations_created(harness) == []
    assert inside.read_text() == "alpha\ngamma\n"


# -- WebFetch ----------------------------------------------------------------------------------------------------


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[tuple[str, list[str]]]:
    """A loopback HTTPS server (Claude Code's WebFetch upgrades http to https) with a certificate for 127.0.0.1 that
    the CLI trusts through ``NODE_EXTRA_CA_CERTS`` (:func:`start`); yields its base URL and the paths it served."""
    served: list[str] = []
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    async def page(request: web.Request) -> web.Response:
        served.append(request.path)
        return web.Response(text="<html><body><p>The answer is 42.</p></body></html>", content_type="text/html")

    app = web.Application()
    app.router.add_get("/{tail:.*}", page)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    sock = free_socket()
    await web.SockSite(runner, sock, ssl_context=context).start()
    try:
        yield f"https://127.0.0.1:{sock.getsockname()[1]}", served
    finally:
        await runner.cleanup()


async def start(tmp: Path, proj: Path, model: MessagesAPI, url: str, token: str) -> asyncio.subprocess.Process:
    """Claude Code trusting the loopback site's certificate (:func:`site`)."""
    return await start_claude(tmp, proj, model, url, token, NODE_EXTRA_CA_CERTS=str(tmp / "cert.pem"))


async def test_a_web_fetch_waits_for_the_card_and_a_deny_reaches_the_model(
    harness: Harness, model: MessagesAPI, tmp_path: Path, site: tuple[str, list[str]]
) -> None:
    base, served = site
    token = await harness.add_bot()
    proj = tools_project(tmp_path)
    model.tool, model.tool_input = "WebFetch", {"url": f"{base}/docs", "prompt": "What is the answer?"}
    claude = await start(tmp_path, proj, model, harness.url, token)
    escalation_id = await pending_id(harness)
    command = await stored_command(harness, escalation_id)
    assert command.startswith(f"WebFetch {base}/docs\nHost: {base}"), command
    assert f"tool:WebFetch host:{base}" in card_text(harness), "what Approve for this session would save"
    assert served == [], "nothing is fetched before a decision"
    await deny_with(harness, escalation_id, "no fetching from that host")
    await result_of(claude)
    block = result_for(model)
    assert block.get("is_error") and "no fetching from that host" in text_of(block)
    assert served == []


async def test_a_standing_approval_for_a_host_answers_a_web_fetch_without_a_card(
    harness: Harness, model: MessagesAPI, tmp_path: Path, site: tuple[str, list[str]]
) -> None:
    base, served = site
    token = await harness.add_bot()
    await harness.runtime.standing.create(
        OWNER,
        StandingSpec(
            scope="bot",
            subject=await bot_id(harness),
            pattern=f"tool:WebFetch host:{base}",
            max_risk="network",
            contained_only=False,
        ),
    )
    proj = tools_project(tmp_path)
    model.tool, model.tool_input = "WebFetch", {"url": f"{base}/docs", "prompt": "What is the answer?"}
    await result_of(await start(tmp_path, proj, model, harness.url, token))
    (escalation_id,) = await escalations_created(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.status == "approved" and stored.standing_approval_id is not None
    assert stored.card_status is None, "no card"
    assert served == ["/docs"], model.tool_results()


async def test_a_standing_approval_for_one_host_does_not_cover_another(
    harness: Harness, model: MessagesAPI, tmp_path: Path, site: tuple[str, list[str]]
) -> None:
    base, served = site
    token = await harness.add_bot()
    await harness.runtime.standing.create(
        OWNER,
        StandingSpec(
            scope="bot",
            subject=await bot_id(harness),
            pattern="tool:WebFetch host:https://docs.python.org",
            max_risk="network",
            contained_only=False,
        ),
    )
    proj = tools_project(tmp_path)
    model.tool, model.tool_input = "WebFetch", {"url": f"{base}/docs", "prompt": "What is the answer?"}
    claude = await start(tmp_path, proj, model, harness.url, token)
    escalation_id = await pending_id(harness)
    assert served == []
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    await result_of(claude)
    assert served == ["/docs"], model.tool_results()


# -- an MCP tool -------------------------------------------------------------------------------------------------

MCP_SERVER = textwrap.dedent("""
    import json, sys
    LOG = sys.argv[1]
    def send(obj):
        sys.stdout.write(json.dumps(obj) + "\\n"); sys.stdout.flush()
    for line in sys.stdin:
        msg = json.loads(line)
        method, mid = msg.get("method"), msg.get("id")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": msg["params"]["protocolVersion"],
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "flytest", "version": "1"}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [{"name": "note", "description": "Write a note",
                  "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                                  "required": ["text"]}}]}})
        elif method == "tools/call":
            with open(LOG, "a") as f:
                f.write(json.dumps(msg["params"]["arguments"]) + "\\n")
            send({"jsonrpc": "2.0", "id": mid, "result": {"content": [{"type": "text", "text": "noted"}]}})
        elif mid is not None:
            send({"jsonrpc": "2.0", "id": mid, "result": {}})
""")


def mcp_config(tmp: Path) -> tuple[Path, Path]:
    script, log = tmp / "mcp_server.py", tmp / "mcp_calls.log"
    script.write_text(MCP_SERVER)
    config = tmp / "mcp.json"
    config.write_text(
        json.dumps(
            {"mcpServers": {"flytest": {"type": "stdio", "command": sys.executable, "args": [str(script), str(log)]}}}
        )
    )
    return config, log


TOOL = "mcp__flytest__note"


async def test_an_mcp_tool_call_waits_for_the_card_and_a_deny_reaches_the_model(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = tools_project(tmp_path)
    config, log = mcp_config(tmp_path)
    model.tool, model.tool_input = TOOL, {"text": "ship it \u202e"}
    claude = await start_claude(tmp_path, proj, model, harness.url, token, "--mcp-config", str(config))
    escalation_id = await pending_id(harness)
    command = await stored_command(harness, escalation_id)
    assert command.startswith(f"MCP tool note of server flytest ({TOOL})"), command
    assert '"text": "ship it \\u202e"' in command, "arguments escaped"
    assert "call an MCP tool" in card_text(harness)
    assert not log.exists(), "the tool is not called before a decision"
    await deny_with(harness, escalation_id, "no notes today")
    await result_of(claude)
    block = result_for(model)
    assert block.get("is_error") and "no notes today" in text_of(block)
    assert not log.exists()


async def test_an_mcp_tool_graded_by_a_program_rule_is_answered_by_a_standing_approval(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    await harness.slash(ADMIN, f"rule set {TOOL} network")
    await harness.runtime.standing.create(
        OWNER,
        StandingSpec(
            scope="bot", subject=await bot_id(harness), pattern=f"tool:{TOOL}", max_risk="network", contained_only=False
        ),
    )
    proj = tools_project(tmp_path)
    config, log = mcp_config(tmp_path)
    model.tool, model.tool_input = TOOL, {"text": "hello"}
    await result_of(await start_claude(tmp_path, proj, model, harness.url, token, "--mcp-config", str(config)))
    (escalation_id,) = await escalations_created(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.status == "approved" and stored.standing_approval_id is not None
    assert stored.risk == "network" and stored.card_status is None
    assert log.read_text().strip() == '{"text": "hello"}'
    assert "noted" in text_of(result_for(model))


async def test_an_mcp_tool_approved_on_the_card_is_called(harness: Harness, model: MessagesAPI, tmp_path: Path) -> None:
    token = await harness.add_bot()
    proj = tools_project(tmp_path)
    config, log = mcp_config(tmp_path)
    model.tool, model.tool_input = TOOL, {"text": "hello"}
    claude = await start_claude(tmp_path, proj, model, harness.url, token, "--mcp-config", str(config))
    escalation_id = await pending_id(harness)
    assert not log.exists()
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    await result_of(claude)
    assert log.read_text().strip() == '{"text": "hello"}'
