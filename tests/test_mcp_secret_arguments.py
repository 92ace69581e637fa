"""An MCP tool graded by a program rule keeps the finding about secrets its arguments name, as a ruled program's
operands do (docs/standing-approvals.md "Program rules"): ``mcp__fs__read_file {"path": "~/.ssh/id_rsa"}`` is a
secret read, which no standing approval answers; the same tool with plain arguments is answered. Real server."""

from __future__ import annotations

from typing import Any

from bot.risk import RiskLevel
from bot.risk.rules import ProgramRules, Rule
from bot.risk.tools import grade_tool
from tests.harness import ADMIN, Harness
from tests.test_standing import cards_posted

TOOL = "mcp__fs__read_file"
HOSTILE: list[dict[str, Any]] = [
    {"path": "/home/u/.ssh/id_rsa"},
    {"path": "~/.aws/credentials"},
    {"paths": ["README.md", "/home/u/proj/.env"]},
    {"options": {"source": "file:///root/.netrc"}},
    {"body": "see ~/.kube/config please"},
    {"url": "http://169.254.169.254/latest/meta-data/iam/security-credentials/"},
]
HARMLESS: list[dict[str, Any]] = [
    {"path": "/home/u/proj/README.md"},
    {"path": "src/app.py"},
    {"query": "id_rsa rotation"},
]


def test_a_ruled_mcp_tool_naming_a_secret_is_a_secret_read() -> None:
    rules = ProgramRules((Rule(TOOL, None, RiskLevel.READ_ONLY, "U0ADMIN01"),))
    for arguments in HOSTILE:
        verdict = grade_tool(TOOL, arguments, workspace="/home/u/proj", rules=rules)
        assert verdict.risk is RiskLevel.NETWORK, (arguments, verdict.reasons)
        assert [r.rule for r in verdict.reasons] == ["program-rule", "secret-read"], verdict.reasons
    for arguments in HARMLESS:
        verdict = grade_tool(TOOL, arguments, workspace="/home/u/proj", rules=rules)
        assert verdict.risk is RiskLevel.READ_ONLY and [r.rule for r in verdict.reasons] == ["program-rule"], arguments


async def test_no_standing_approval_answers_an_mcp_call_naming_a_secret(harness: Harness) -> None:
    token = await harness.add_bot()
    assert "saved" in (await harness.slash(ADMIN, f"rule set {TOOL} read_only")).lower()
    reply = await harness.slash(ADMIN, f"standing add --bot ci-bot tool:{TOOL} --max-risk system --host-ok")
    assert reply.startswith("Saved"), reply
    for arguments in HARMLESS:
        esc = await harness.escalate(token, command=TOOL, cwd="/home/u/proj", tool={"name": TOOL, "input": arguments})
        assert esc["status"] == "approved" and esc["decision_source"] == "standing_approval", esc
    for arguments in HOSTILE:
        before = cards_posted(harness)
        esc = await harness.escalate(token, command=TOOL, cwd="/home/u/proj", tool={"name": TOOL, "input": arguments})
        assert esc["status"] == "pending" and esc["risk"] == "network", (arguments, esc)
        assert any(r["rule"] == "secret-read" for r in esc["reasons"]), esc["reasons"]
        assert cards_posted(harness) == before + 1
