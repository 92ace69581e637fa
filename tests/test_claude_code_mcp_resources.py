"""The real Claude Code CLI reading a resource of an MCP server (``ReadMcpResourceTool``, which Claude Code runs
without asking anyone) with the hook settings ``flybot hook install claude-code`` writes, a tiny stdio MCP server
offering one resource (``--mcp-config``), a scripted Messages API and a real FlyBot with the Slack emulation. What
the resource holds goes to the model provider: the read is ``network``, asked before the server is read."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from bot.risk.model import RiskLevel
from bot.risk.tools import grade_tool
from tests.harness import Harness
from tests.scripted_models import MessagesAPI
from tests.test_claude_code_cli import model, result_of, start_claude, text_of
from tests.test_claude_code_tools import result_for, stored_command, tools_project
from tests.test_hooks import deny_with, pending_id

__all__ = ["model"]
pytestmark = pytest.mark.timeout(240)

RESOURCE_SERVER = textwrap.dedent("""
    import json, sys
    LOG = sys.argv[1]
    def send(obj):
        sys.stdout.write(json.dumps(obj) + "\\n"); sys.stdout.flush()
    for line in sys.stdin:
        msg = json.loads(line)
        method, mid = msg.get("method"), msg.get("id")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": msg["params"]["protocolVersion"],
                  "capabilities": {"tools": {}, "resources": {}}, "serverInfo": {"name": "flytest", "version": "1"}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": mid, "result": {"tools": []}})
        elif method == "resources/list":
            send({"jsonrpc": "2.0", "id": mid, "result": {"resources": [{"uri": "notes://team", "name": "team"}]}})
        elif method == "resources/read":
            with open(LOG, "a") as f:
                f.write(json.dumps(msg["params"]) + "\\n")
            send({"jsonrpc": "2.0", "id": mid, "result": {"contents": [{"uri": "notes://team", "text": "held"}]}})
        elif mid is not None:
            send({"jsonrpc": "2.0", "id": mid, "result": {}})
""")


def resource_server(tmp: Path) -> tuple[Path, Path]:
    script, log = tmp / "resource_server.py", tmp / "resource_reads.log"
    script.write_text(RESOURCE_SERVER)
    config = tmp / "mcp.json"
    server = {"type": "stdio", "command": sys.executable, "args": [str(script), str(log)]}
    config.write_text(json.dumps({"mcpServers": {"flytest": server}}))
    return config, log


async def test_an_mcp_resource_read_waits_for_the_card_and_a_deny_keeps_it_unread(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = tools_project(tmp_path)
    config, log = resource_server(tmp_path)
    model.tool, model.tool_input = "ReadMcpResourceTool", {"server": "flytest", "uri": "notes://team"}
    claude = await start_claude(tmp_path, proj, model, harness.url, token, "--mcp-config", str(config))
    escalation_id = await pending_id(harness)
    assert (await stored_command(harness, escalation_id)).startswith("Tool ReadMcpResourceTool")
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "network", stored
    assert not log.exists(), "nothing is read before a decision"
    await deny_with(harness, escalation_id, "not that resource")
    await result_of(claude)
    block = result_for(model)
    assert block.get("is_error") and "not that resource" in text_of(block)
    assert not log.exists()


@pytest.mark.parametrize(
    ("uri", "level", "rule"),
    [
        ("notes://team", RiskLevel.NETWORK, "tool-network"),
        ("file:///home/dev/.ssh/id_rsa", RiskLevel.NETWORK, "secret-read"),
    ],
)
def test_a_resource_read_is_network_and_a_named_credential_a_secret_read(uri: str, level: RiskLevel, rule: str) -> None:
    """Both sides grade it with bot/risk/tools.py: network, so a standing approval may answer it, unless it names a
    credential file (which no standing approval answers)."""
    graded = grade_tool("ReadMcpResourceTool", {"server": "fs", "uri": uri}, workspace="/w")
    assert graded.risk is level and rule in [r.rule for r in graded.reasons], graded
