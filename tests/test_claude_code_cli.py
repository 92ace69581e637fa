"""The real Claude Code CLI (npm ``@anthropic-ai/claude-code``, pinned in .ci/run) with FlyBot's hook in
``.claude/settings.json``, against a scripted Messages API on loopback (tests/scripted_models.py) and a real FlyBot
with the Slack emulation. Clicks go through the emulated chat. ``claude -p ... --output-format json`` reports denied
tool calls in ``permission_denials``; the tool result the model receives carries the hook's reason. A slash command's
`` !`cmd` `` reaches the hook as ``PreSkillShellCommand`` (Claude Code 2.1.x), settings as ``flybot hook install``
writes them.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from cards import APPROVE_ACTION
from tests.agents import agent_binary
from tests.harness import OWNER, Harness, free_socket
from tests.scripted_models import MessagesAPI
from tests.test_hooks import ROOT, deny_with, escalations_created, pending_id

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
async def model() -> AsyncIterator[MessagesAPI]:
    api = MessagesAPI()
    await api.start()
    try:
        yield api
    finally:
        await api.close()


def project(tmp: Path, *hook_args: str) -> Path:
    """A project directory whose ``.claude/settings.json`` runs FlyBot's hook on every Bash call."""
    proj = tmp / "proj"
    (proj / ".claude").mkdir(parents=True)
    (proj / "build").mkdir()
    (proj / "build" / "keep.txt").write_text("still here\n")
    hook = " ".join([sys.executable, "-m", "bot", "hook", "claude-code", *hook_args])
    settings = {
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": hook, "timeout": 120}]},
            ]
        }
    }
    (proj / ".claude" / "settings.json").write_text(json.dumps(settings))
    return proj


async def start_claude(
    tmp: Path,
    proj: Path,
    model: MessagesAPI,
    flybot_url: str,
    token: str,
    *args: str,
    prompt: str = "Run the step you are scripted to run.",
    **extra_env: str,
) -> asyncio.subprocess.Process:
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLYBOT_", "SLACK_", "ANTHROPIC_", "CLAUDE"))}
    env.update(
        HOME=str(home),
        PYTHONPATH=str(ROOT),
        ANTHROPIC_BASE_URL=model.url,
        ANTHROPIC_API_KEY="sk-ant-scripted",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
        DISABLE_TELEMETRY="1",
        FLYBOT_URL=flybot_url,
        FLYBOT_TOKEN=token,
        **extra_env,
    )
    return await asyncio.create_subprocess_exec(
        agent_binary("claude"),
        "-p",
        prompt,
        "--output-format",
        "json",
        *args,
        cwd=proj,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def result_of(proc: asyncio.subprocess.Process) -> dict[str, Any]:
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 180)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, err.decode()[-2000:]
    result: dict[str, Any] = json.loads(out)
    assert result["type"] == "result", result
    return result


def denied_commands(result: dict[str, Any]) -> list[str]:
    return [
        str(d.get("tool_input", {}).get("command"))
        for d in result.get("permission_denials", [])
        if d.get("tool_name") == "Bash"
    ]


def the_tool_result(model: MessagesAPI) -> dict[str, Any]:
    results = model.tool_results()
    assert len(results) == 1 and results[0]["tool_use_id"] == model.tool_use_ids[0], results
    return results[0]


def text_of(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return str(content)


async def test_claude_code_runs_a_locally_allowed_command_without_asking_flybot(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = project(tmp_path)
    model.command = "ls build"
    result = await result_of(await start_claude(tmp_path, proj, model, harness.url, token))
    assert result["permission_denials"] == []
    block = the_tool_result(model)
    assert not block.get("is_error") and "keep.txt" in text_of(block)
    assert await escalations_created(harness) == []


async def test_claude_code_runs_the_command_once_the_owner_approves(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = project(tmp_path)
    target = tmp_path / "home" / "keep.txt"  # the session's home (start_claude sets HOME), outside the workspace
    target.parent.mkdir()
    target.write_text("still here\n")
    target.chmod(0o644)
    model.command = "chmod 600 ~/keep.txt"  # a system command on the host: above the default ceiling
    claude = await start_claude(tmp_path, proj, model, harness.url, token)
    escalation_id = await pending_id(harness)
    assert target.stat().st_mode & 0o777 == 0o644
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    result = await result_of(claude)
    assert result["permission_denials"] == [] and target.stat().st_mode & 0o777 == 0o600
    assert not the_tool_result(model).get("is_error")


async def test_claude_code_reports_a_denial_with_the_owners_reason_and_does_not_run_it(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = project(tmp_path)
    model.command = "rm -rf build"
    claude = await start_claude(tmp_path, proj, model, harness.url, token)
    escalation_id = await pending_id(harness)
    await deny_with(harness, escalation_id, "keep the build, we ship from it")
    result = await result_of(claude)
    assert denied_commands(result) == ["rm -rf build"]
    block = the_tool_result(model)
    assert block.get("is_error") and "keep the build, we ship from it" in text_of(block)
    assert (proj / "build" / "keep.txt").exists()


async def test_claude_code_does_not_run_the_command_when_nobody_decides_within_the_wait(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = project(tmp_path, "--wait", "3")
    model.command = "rm -rf build"
    claude = await start_claude(tmp_path, proj, model, harness.url, token)
    escalation_id = await pending_id(harness)
    result = await result_of(claude)  # ask in -p mode: Claude Code refuses the call (nobody to ask)
    assert denied_commands(result) == ["rm -rf build"]
    assert "no decision within" in text_of(the_tool_result(model))
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.status == "withdrawn"
    assert (proj / "build" / "keep.txt").exists()


async def test_claude_code_does_not_run_the_command_when_flybot_is_unreachable(
    model: MessagesAPI, tmp_path: Path
) -> None:
    proj = project(tmp_path, "--wait", "3", "--on-no-decision", "deny")
    model.command = "rm -rf build"
    closed = free_socket()  # bound, never listening
    try:
        result = await result_of(
            await start_claude(tmp_path, proj, model, f"http://127.0.0.1:{closed.getsockname()[1]}", "fbt_whatever")
        )
    finally:
        closed.close()
    assert denied_commands(result) == ["rm -rf build"]
    block = the_tool_result(model)
    assert block.get("is_error") and "unreachable" in text_of(block)
    assert (proj / "build" / "keep.txt").exists()


async def test_claude_code_in_bypass_permissions_gets_deny_with_the_reason_instead_of_ask(
    model: MessagesAPI, tmp_path: Path
) -> None:
    proj = project(tmp_path, "--wait", "3")  # --on-no-decision left at ask: the permission mode turns it into deny
    model.command = "rm -rf build"
    closed = free_socket()
    try:
        # IS_SANDBOX=1: Claude Code refuses bypassPermissions as root otherwise (CI runs as root).
        result = await result_of(
            await start_claude(
                tmp_path,
                proj,
                model,
                f"http://127.0.0.1:{closed.getsockname()[1]}",
                "fbt_whatever",
                "--permission-mode",
                "bypassPermissions",
                IS_SANDBOX="1",
            )
        )
    finally:
        closed.close()
    assert denied_commands(result) == ["rm -rf build"]
    assert "permission mode bypassPermissions" in text_of(the_tool_result(model))
    assert (proj / "build" / "keep.txt").exists()


def slash_command_project(tmp: Path) -> Path:
    """A project whose slash command ``/x`` runs `` !`rm -rf build` `` as it loads (allowed by its own
    ``allowed-tools``), with the hook configured for every event ``flybot hook install claude-code`` writes."""
    from bot.hooks.install import merged

    proj = project(tmp)
    hook = " ".join([sys.executable, "-m", "bot", "hook", "claude-code"])
    (proj / ".claude" / "settings.json").write_text(json.dumps(merged({}, "claude-code", hook)))
    (proj / ".claude" / "commands").mkdir()
    (proj / ".claude" / "commands" / "x.md").write_text(
        "---\nallowed-tools: Bash(rm -rf build)\ndescription: clean the build\n---\n"
        "Cleaned: !`rm -rf build`\n\nSay what was cleaned.\n"
    )
    return proj


async def test_a_slash_commands_shell_command_waits_for_the_card_and_runs_on_approve(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = slash_command_project(tmp_path)
    model.command = "ls"
    claude = await start_claude(tmp_path, proj, model, harness.url, token, prompt="/x")
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.command == "rm -rf build", stored
    assert stored.justification is not None and "/x" in stored.justification
    assert (proj / "build" / "keep.txt").exists(), "nothing is deleted before Approve"
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    await result_of(claude)
    assert not (proj / "build").exists()


async def test_a_slash_commands_shell_command_denied_leaves_the_build_in_place(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = slash_command_project(tmp_path)
    model.command = "ls"
    claude = await start_claude(tmp_path, proj, model, harness.url, token, prompt="/x")
    await deny_with(harness, await pending_id(harness), "we ship from build/")
    try:
        out, err = await asyncio.wait_for(claude.communicate(), 180)
    finally:
        if claude.returncode is None:
            claude.kill()
            await claude.wait()
    assert (proj / "build" / "keep.txt").exists()
    assert "we ship from build/" in (out + err).decode() or any(
        "we ship from build/" in json.dumps(body) for body in model.requests
    ), (out[-2000:], err[-2000:])


def permission_request_project(tmp: Path) -> Path:
    """A project with the hook under PermissionRequest only: Claude Code asks it where it would show its dialog."""
    proj = project(tmp)
    hook = " ".join([sys.executable, "-m", "bot", "hook", "claude-code"])
    settings = {
        "hooks": {
            "PermissionRequest": [{"matcher": "Bash", "hooks": [{"type": "command", "command": hook, "timeout": 120}]}]
        }
    }
    (proj / ".claude" / "settings.json").write_text(json.dumps(settings))
    return proj


async def test_a_permission_request_becomes_a_card_and_a_deny_reaches_the_model(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = permission_request_project(tmp_path)
    model.command = "rm -rf build"
    claude = await start_claude(tmp_path, proj, model, harness.url, token)
    escalation_id = await pending_id(harness)
    assert (proj / "build" / "keep.txt").exists()
    await deny_with(harness, escalation_id, "we ship from build/")
    result = await result_of(claude)
    assert denied_commands(result) == ["rm -rf build"]
    assert "we ship from build/" in text_of(the_tool_result(model))
    assert (proj / "build" / "keep.txt").exists()


async def test_a_permission_request_approved_runs_the_command(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = permission_request_project(tmp_path)
    model.command = "rm -rf build"
    claude = await start_claude(tmp_path, proj, model, harness.url, token)
    escalation_id = await pending_id(harness)
    assert (proj / "build" / "keep.txt").exists(), "nothing runs before Approve"
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    result = await result_of(claude)
    assert result["permission_denials"] == [] and not (proj / "build").exists()
