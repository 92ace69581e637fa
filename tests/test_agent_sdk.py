"""The Claude Agent SDK (PyPI ``claude-agent-sdk``) with FlyBot's permission callback and ``PreToolUse`` hook
(bot/sdk.py), driving the real Claude Code CLI pinned in .ci/run (``cli_path``) against a scripted Messages API on
loopback (tests/scripted_models.py) and a real FlyBot with the Slack emulation. Clicks go through the emulated chat;
what the model was told is read from the scripted API's requests.
"""

from __future__ import annotations

import asyncio
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
from tests.test_claude_code_cli import text_of
from tests.test_hooks import ROOT, deny_with, escalations_created, pending_id

sdk = pytest.importorskip("claude_agent_sdk")
from bot.sdk import FlyBotPermissions  # noqa: E402 - after the SDK is known to be installed

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
async def model() -> AsyncIterator[MessagesAPI]:
    api = MessagesAPI()
    await api.start()
    try:
        yield api
    finally:
        await api.close()


def workspace(tmp: Path) -> Path:
    proj = tmp / "proj"
    (proj / "build").mkdir(parents=True)
    (proj / "build" / "keep.txt").write_text("still here\n")
    (tmp / "home").mkdir()
    return proj


def options(tmp: Path, proj: Path, model: MessagesAPI, **extra: Any) -> Any:
    """Options for one scripted turn: the pinned CLI, the scripted model, no settings read from disk."""
    return sdk.ClaudeAgentOptions(
        cwd=str(proj),
        cli_path=agent_binary("claude"),
        setting_sources=[],
        max_turns=4,
        env={
            "HOME": str(tmp / "home"),
            "ANTHROPIC_BASE_URL": model.url,
            "ANTHROPIC_API_KEY": "sk-ant-scripted",
            "ANTHROPIC_AUTH_TOKEN": "",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK": "1",
            "IS_SANDBOX": "1",  # bypassPermissions is refused as root otherwise (CI runs as root)
        },
        **extra,
    )


async def run_turn(opts: Any, prompt: str = "Run the step you are scripted to run.") -> Any:
    """Run one query to its end; its ResultMessage."""
    result = None
    async for message in sdk.query(prompt=prompt, options=opts):
        if isinstance(message, sdk.ResultMessage):
            result = message
    assert result is not None
    return result


def the_tool_result(model: MessagesAPI) -> dict[str, Any]:
    results = model.tool_results()
    assert len(results) == 1 and results[0]["tool_use_id"] == model.tool_use_ids[0], results
    return results[0]


def permissions(harness_url: str, token: str, proj: Path, **extra: Any) -> FlyBotPermissions:
    return FlyBotPermissions(cwd=proj, server=harness_url, token=token, env={}, **extra)


async def test_a_command_at_or_below_the_ceiling_runs_without_a_card(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = workspace(tmp_path)
    model.command = "ls build"
    flybot = permissions(harness.url, token, proj)
    await run_turn(options(tmp_path, proj, model, can_use_tool=flybot.can_use_tool))
    block = the_tool_result(model)
    assert not block.get("is_error") and "keep.txt" in text_of(block)
    assert await escalations_created(harness) == []


async def test_can_use_tool_runs_the_command_only_once_the_owner_approves(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = workspace(tmp_path)
    model.command = "rm -rf build"
    flybot = permissions(harness.url, token, proj)
    turn = asyncio.ensure_future(run_turn(options(tmp_path, proj, model, can_use_tool=flybot.can_use_tool)))
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.command == "rm -rf build", stored
    await asyncio.sleep(0.5)
    assert (proj / "build" / "keep.txt").exists(), "nothing runs before Approve"
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    await asyncio.wait_for(turn, 180)
    assert not (proj / "build").exists()
    assert not the_tool_result(model).get("is_error")


async def test_can_use_tool_passes_the_owners_deny_reason_to_the_model(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = workspace(tmp_path)
    model.command = "rm -rf build"
    flybot = permissions(harness.url, token, proj)
    turn = asyncio.ensure_future(run_turn(options(tmp_path, proj, model, can_use_tool=flybot.can_use_tool)))
    await deny_with(harness, await pending_id(harness), "keep the build, we ship from it")
    result = await asyncio.wait_for(turn, 180)
    block = the_tool_result(model)
    assert block.get("is_error") and "keep the build, we ship from it" in text_of(block), block
    assert [d.get("tool_name") for d in result.permission_denials or []] == ["Bash"]
    assert (proj / "build" / "keep.txt").exists()


async def test_the_pre_tool_use_hook_guards_even_in_bypass_permissions(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = workspace(tmp_path)
    model.command = "rm -rf build"
    flybot = permissions(harness.url, token, proj)
    opts = options(
        tmp_path, proj, model, permission_mode="bypassPermissions", hooks={"PreToolUse": [flybot.hook_matcher()]}
    )
    turn = asyncio.ensure_future(run_turn(opts))
    escalation_id = await pending_id(harness)
    await asyncio.sleep(0.5)
    assert (proj / "build" / "keep.txt").exists(), "nothing runs before a decision"
    await deny_with(harness, escalation_id, "not on a Friday")
    await asyncio.wait_for(turn, 180)
    block = the_tool_result(model)
    assert block.get("is_error") and "not on a Friday" in text_of(block), block
    assert (proj / "build" / "keep.txt").exists()


async def test_the_pre_tool_use_hook_lets_an_approved_command_run(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = workspace(tmp_path)
    model.command = "rm -rf build"
    flybot = permissions(harness.url, token, proj)
    opts = options(tmp_path, proj, model, hooks={"PreToolUse": [flybot.hook_matcher()]})
    turn = asyncio.ensure_future(run_turn(opts))
    escalation_id = await pending_id(harness)
    assert (proj / "build" / "keep.txt").exists()
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    await asyncio.wait_for(turn, 180)
    assert not (proj / "build").exists()


@pytest.mark.parametrize("where", ["can_use_tool", "hook"])
async def test_an_unreachable_flybot_fails_closed(model: MessagesAPI, tmp_path: Path, where: str) -> None:
    proj = workspace(tmp_path)
    model.command = "rm -rf build"
    closed = free_socket()  # bound, never listening
    try:
        flybot = permissions(f"http://127.0.0.1:{closed.getsockname()[1]}", "fbt_whatever", proj, wait_s=3)
        extra: dict[str, Any] = (
            {"can_use_tool": flybot.can_use_tool}
            if where == "can_use_tool"
            else {"permission_mode": "bypassPermissions", "hooks": {"PreToolUse": [flybot.hook_matcher()]}}
        )
        await run_turn(options(tmp_path, proj, model, **extra))
    finally:
        closed.close()
    block = the_tool_result(model)
    assert block.get("is_error") and "unreachable" in text_of(block), block
    assert (proj / "build" / "keep.txt").exists()


async def test_an_interrupted_turn_withdraws_the_pending_card(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = workspace(tmp_path)
    model.command = "rm -rf build"
    flybot = permissions(harness.url, token, proj)
    async with sdk.ClaudeSDKClient(options(tmp_path, proj, model, can_use_tool=flybot.can_use_tool)) as client:
        await client.query("Run the step you are scripted to run.")
        escalation_id = await pending_id(harness)
        await client.interrupt()

        async def withdrawn() -> bool:
            stored = await harness.runtime.store.get_escalation(escalation_id)
            return stored is not None and stored.status == "withdrawn"

        for _ in range(100):
            if await withdrawn():
                break
            await asyncio.sleep(0.1)
        assert await withdrawn()
    assert (proj / "build" / "keep.txt").exists()


def docs_example() -> str:
    """The example program of docs/agents/claude-agent-sdk.md (its first Python block)."""
    text = (ROOT / "docs" / "agents" / "claude-agent-sdk.md").read_text()
    return text.split("```python\n", 1)[1].split("```", 1)[0]


async def test_the_docs_example_program_asks_flybot_and_passes_the_deny_on(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = workspace(tmp_path)
    model.command = "rm -rf build"
    (tmp_path / "agent.py").write_text(docs_example())
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FLYBOT_", "SLACK_", "ANTHROPIC_", "CLAUDE"))}
    env.update(
        HOME=str(tmp_path / "home"),
        PYTHONPATH=str(ROOT),
        ANTHROPIC_BASE_URL=model.url,
        ANTHROPIC_API_KEY="sk-ant-scripted",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
        FLYBOT_URL=harness.url,
        FLYBOT_TOKEN=token,
    )
    agent = await asyncio.create_subprocess_exec(
        sys.executable,
        str(tmp_path / "agent.py"),
        "clean the build",
        cwd=proj,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        escalation_id = await pending_id(harness)
        assert (proj / "build" / "keep.txt").exists()
        await deny_with(harness, escalation_id, "we ship from build/")
        out, err = await asyncio.wait_for(agent.communicate(), 180)
    finally:
        if agent.returncode is None:
            agent.kill()
            await agent.wait()
    assert agent.returncode == 0, err.decode()[-2000:]
    assert "Done." in out.decode()
    assert "we ship from build/" in text_of(the_tool_result(model))
    assert (proj / "build" / "keep.txt").exists()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"ceiling": "destructive"}, "highest is system"),
        ({"ceiling": "everything"}, "everything"),
        ({"wait_s": 0}, "between 1 and 590"),
        ({"wait_s": float("nan")}, "between 1 and 590"),
        ({"on_no_decision": "allow"}, "'ask' or 'deny'"),
        ({"tools": "Bash,Nope"}, "Nope"),
    ],
)
def test_bad_options_are_refused_before_anything_is_asked(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FlyBotPermissions(env={}, **kwargs)


async def test_can_use_tool_asks_about_a_write_outside_the_workspace(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = workspace(tmp_path)
    target = tmp_path / "elsewhere.txt"
    model.tool, model.tool_input = "Write", {"file_path": str(target), "content": "hello\n"}
    flybot = permissions(harness.url, token, proj)
    turn = asyncio.ensure_future(run_turn(options(tmp_path, proj, model, can_use_tool=flybot.can_use_tool)))
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.command.startswith(f"Write {target}"), stored
    assert not target.exists(), "nothing is written before Approve"
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    await asyncio.wait_for(turn, 180)
    assert target.read_text() == "hello\n"


async def test_a_hook_the_cli_gives_up_on_withdraws_its_card_and_blocks_the_call(
    harness: Harness, model: MessagesAPI, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = workspace(tmp_path)
    model.command = "rm -rf build"
    flybot = permissions(harness.url, token, proj)
    # hook_matcher()'s own timeout stays above the wait; a shorter one shows what happens when the CLI gives up
    matcher = sdk.HookMatcher(matcher="Bash", hooks=[flybot.pre_tool_use], timeout=3, on_failure="block")
    opts = options(tmp_path, proj, model, permission_mode="bypassPermissions", hooks={"PreToolUse": [matcher]})
    turn = asyncio.ensure_future(run_turn(opts))
    escalation_id = await pending_id(harness)

    async def status() -> str | None:
        stored = await harness.runtime.store.get_escalation(escalation_id)
        return None if stored is None else str(stored.status)

    for _ in range(150):
        if await status() == "withdrawn":
            break
        await asyncio.sleep(0.1)
    assert await status() == "withdrawn"
    await asyncio.wait_for(turn, 180)
    assert the_tool_result(model).get("is_error")
    assert (proj / "build" / "keep.txt").exists()


async def test_the_hook_grades_a_call_after_a_cd_out_of_the_workspace_there(harness: Harness, tmp_path: Path) -> None:
    """The workspace is the agent's ``cwd``; the event's ``cwd`` follows the agent's ``cd``: from ``/etc/cron.d`` a
    relative write is a write there, while one in a subdirectory of the workspace is still answered at once."""
    token = await harness.add_bot()
    proj = workspace(tmp_path)
    flybot = permissions(harness.url, token, proj)

    def event(command: str, cwd: str) -> dict[str, Any]:
        return {"session_id": "s1", "cwd": cwd, "hook_event_name": "PreToolUse", "permission_mode": "default",
                "tool_name": "Bash", "tool_input": {"command": command}}  # fmt: skip

    out = await flybot.pre_tool_use(event("mkdir -p out && echo x > out/x.txt", str(proj / "build")), "toolu_1")
    assert out["hookSpecificOutput"]["permissionDecision"] == "allow", out
    assert await escalations_created(harness) == []
    answer = asyncio.ensure_future(flybot.pre_tool_use(event("printf x > flybot-job", "/etc/cron.d"), "toolu_2"))
    escalation_id = await pending_id(harness)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.cwd == str(proj), stored
    assert stored.command == "cd -- /etc/cron.d || exit 1\nprintf x > flybot-job", stored.command
    await deny_with(harness, escalation_id, "not there")
    out = await asyncio.wait_for(answer, 60)
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny", out
