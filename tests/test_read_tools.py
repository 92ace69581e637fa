"""Claude Code's Read, Grep and Glob through the hook: graded as ``cat FILE``, ``grep -r PATTERN PATH`` and ``ls
GLOB`` would be. A secret's read asks (``network``: its output goes to the model); a read in the workspace is
answered at once, with no card."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from bot.hooks.claude_code import DEFAULT_TOOLS
from bot.hooks.install import TOOL_MATCHER
from bot.standing import StandingSpec
from tests.harness import OWNER, Harness
from tests.test_hooks import decision, deny_with, escalations_created, no_traceback, pending_id, posts, start_hook
from tests.test_tool_calls import tool_body


def tool_event(tool: str, tool_input: dict[str, Any], cwd: Path, tool_use_id: str) -> dict[str, Any]:
    """A PreToolUse event for a tool other than Bash, as Claude Code sends it."""
    return {
        "session_id": "4f1c2d3e-cc-session",
        "transcript_path": "/home/dev/.claude/projects/repo/4f1c2d3e-cc-session.jsonl",
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": tool_use_id,
    }


def project(tmp: Path) -> tuple[Path, Path]:
    """A home with an ssh key and AWS credentials, and a project with source and an ``.env``."""
    home, proj = tmp / "home", tmp / "proj"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("[default]\naws_secret_access_key = x\n")
    (proj / "src").mkdir(parents=True)
    (proj / "src" / "main.py").write_text("print('hi')\n")
    (proj / ".env").write_text("API_KEY=x\n")
    return home, proj


async def hook(
    harness: Harness, token: str, tool: str, tool_input: dict[str, Any], proj: Path, home: Path, *args: str
) -> Any:
    call_id = "toolu_01" + hashlib.sha256(json.dumps([tool, tool_input]).encode()).hexdigest()[:16]
    return await start_hook(
        json.dumps(tool_event(tool, tool_input, proj, call_id)).encode(),
        proj,
        *args,
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
        HOME=str(home),
    )


def test_the_installed_matcher_and_the_default_tools_send_read_grep_and_glob() -> None:
    import re

    for name in ("Read", "Grep", "Glob"):
        assert re.fullmatch(TOOL_MATCHER, name) and name in DEFAULT_TOOLS.split(","), name


async def test_reading_a_secret_asks_and_says_its_output_goes_to_the_model(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    home, proj = project(tmp_path)
    run = await hook(harness, token, "Read", {"file_path": str(home / ".ssh" / "id_rsa")}, proj, home)
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "network" and stored.tool is not None, stored
    assert stored.command.startswith(f"Read {home}/.ssh/id_rsa (outside the workspace)"), stored.command
    assert any("goes to the model" in str(r) for r in stored.reasons), stored.reasons
    await deny_with(harness, escalation_id, "no keys for the model")
    code, out, err = await run.finish()
    verdict, reason = decision(out)
    assert code == 0 and verdict == "deny" and "no keys for the model" in reason, out
    no_traceback(err)


async def test_grep_and_glob_of_secrets_ask_and_a_link_is_followed(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    home, proj = project(tmp_path)
    (proj / "creds").symlink_to(home / ".aws" / "credentials")
    calls: list[tuple[str, dict[str, Any]]] = [
        ("Grep", {"pattern": "aws_secret", "path": str(home / ".aws")}),
        ("Grep", {"pattern": "PRIVATE", "path": "/home/dev", "output_mode": "content"}),  # a whole home
        ("Read", {"file_path": str(proj / "creds")}),  # in the workspace, leading to the credentials
        ("Read", {"file_path": str(proj / ".env")}),
    ]
    for tool, tool_input in calls:
        before = await escalations_created(harness)
        run = await hook(harness, token, tool, tool_input, proj, home, "--wait", "1")
        code, out, err = await run.finish()
        assert code == 0 and decision(out)[0] == "ask", (tool, tool_input, out, err)  # no decision in time
        (escalation_id,) = [e for e in await escalations_created(harness) if e not in before]
        stored = await harness.runtime.store.get_escalation(escalation_id)
        assert stored is not None and stored.risk == "network", (tool, tool_input, stored)


async def test_reading_and_searching_the_workspace_is_answered_without_a_card(harness: Harness, tmp_path: Path) -> None:
    token = await harness.add_bot()
    home, proj = project(tmp_path)
    for tool, tool_input in (
        ("Read", {"file_path": str(proj / "src" / "main.py")}),
        ("Read", {"file_path": "src/main.py", "offset": 1, "limit": 20}),
        # (a search of the whole workspace reads its .env too: a secret read, as grep -r . is)
        ("Grep", {"pattern": "print", "path": "src", "output_mode": "content", "-n": True}),
        ("Grep", {"pattern": "print", "path": "src", "glob": "*.py"}),
        ("Glob", {"pattern": "**/*.py"}),
        ("Glob", {"pattern": "*.py", "path": str(proj / "src")}),
    ):
        run = await hook(harness, token, tool, tool_input, proj, home)
        code, out, err = await run.finish()
        assert code == 0 and decision(out)[0] == "allow", (tool, tool_input, out, err)
        no_traceback(err)
    assert await escalations_created(harness) == [] and posts(harness) == 0


async def test_no_standing_approval_answers_a_secret_read_by_a_tool(harness: Harness) -> None:
    token = await harness.add_bot()
    (bot,) = await harness.runtime.store.list_bots()
    await harness.runtime.standing.create(
        OWNER,
        StandingSpec(scope="bot", subject=bot.id, pattern="tool:Read", max_risk="network", contained_only=False),
    )
    status, secret = await harness.post(token, tool_body(harness, "Read", {"file_path": "/home/dev/.ssh/id_ed25519"}))
    assert status == 201 and secret["risk"] == "network" and secret["status"] == "pending", secret
    # the path as written is graded too: a resolved path inside the workspace does not hide the key's name
    status, hidden = await harness.post(
        token,
        tool_body(harness, "Read", {"file_path": "/home/dev/.ssh/id_ed25519"}, resolved_path="/work/repo/notes.txt"),
    )
    assert status == 201 and hidden["risk"] == "network" and hidden["status"] == "pending", hidden
