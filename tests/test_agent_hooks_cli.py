"""The real GitHub Copilot CLI (npm ``@github/copilot``), OpenCode (npm ``opencode-ai``) and Cline (npm ``cline``),
pinned in .ci/run, with FlyBot's hook as ``flybot hook install`` writes it, against scripted model APIs on loopback
(tests/scripted_models.py, tests/scripted_chat.py) and a real FlyBot with the Slack emulation; clicks go through the
emulated chat. None of the three needs an account here: Copilot CLI runs offline with a custom Anthropic-shaped
provider, OpenCode and Cline with an OpenAI-compatible one.

A shell call above the ceiling becomes a card and nothing runs before Approve; a Deny's reason reaches the model
(Copilot CLI: "Denied by preToolUse hook: REASON"; OpenCode: the plugin's error as the tool's result); an unreachable
FlyBot fails closed. Cline 3.0.65 ends the task on a hook's ``cancel`` and passes its reason to neither the model
nor the person, so its tests check that nothing ran and the task stopped.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cards import APPROVE_ACTION
from tests.agents import agent_binary
from tests.harness import OWNER, Harness, free_socket
from tests.scripted_chat import ChatCompletionsAPI
from tests.scripted_models import MessagesAPI
from tests.test_hooks import ROOT, deny_with, escalations_created

pytestmark = pytest.mark.timeout(900)

MODEL = "claude-sonnet-4-5"


@pytest.fixture(scope="session")
def agent_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache directory for the agents' unpacked packages (Copilot CLI unpacks 235 MB on first start)."""
    return tmp_path_factory.mktemp("agent-cache")


def flybot_program(tmp: Path) -> Path:
    """A ``flybot`` for the agents to run: this checkout's ``python -m bot`` (as an installed ``flybot`` would be)."""
    program = tmp / "bin" / "flybot"
    program.parent.mkdir(parents=True, exist_ok=True)
    program.write_text(f'#!/bin/sh\nPYTHONPATH={ROOT} exec {sys.executable} -m bot "$@"\n')
    program.chmod(0o755)
    return program


def project(tmp: Path, agent: str, *options: str, env: dict[str, str] | None = None) -> Path:
    """A project with a ``build/`` to protect and FlyBot's hook installed by ``flybot hook install AGENT`` (for the
    user whose environment is ``env``, else for the project)."""
    import importlib

    from bot.hooks.agent_hook import AGENTS
    from bot.hooks.agent_install import content, hook_argv, target

    proj = tmp / "proj"
    (proj / "build").mkdir(parents=True)
    (proj / "build" / "keep.txt").write_text("still here\n")
    path = target(agent, project=str(proj), user=env is not None, env=env)
    path.parent.mkdir(parents=True, exist_ok=True)
    wait = float(options[options.index("--wait") + 1]) if "--wait" in options else 0.0
    protocol = importlib.import_module(AGENTS[agent])
    path.write_text(
        content(agent, path, hook_argv(agent, str(flybot_program(tmp)), list(options)), wait or protocol.DEFAULT_WAIT_S)
    )
    path.chmod(0o755)
    return proj


def clean_env(tmp: Path, cache: Path, flybot_url: str, token: str, **extra: str) -> dict[str, str]:
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("FLYBOT_", "SLACK_", "ANTHROPIC_", "OPENAI_", "COPILOT_", "GH_", "GITHUB_", "XDG_"))
    }
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(cache),
        FLYBOT_URL=flybot_url,
        FLYBOT_TOKEN=token,
        NO_COLOR="1",
        **extra,
    )
    return env


async def finish(proc: asyncio.subprocess.Process, timeout: float = 240) -> tuple[int, str, str]:
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


async def card_for(harness: Harness, proc: asyncio.subprocess.Process) -> str:
    """The escalation id on the first card, waiting as long as the agent runs (a first start unpacks and loads
    packages); the agent exiting before any card fails the test with its output."""
    waiting = asyncio.ensure_future(proc.wait())
    card = asyncio.ensure_future(pending_id_within(harness, 200))
    done, _ = await asyncio.wait({waiting, card}, return_when=asyncio.FIRST_COMPLETED)
    if card in done:
        waiting.cancel()
        return card.result()
    card.cancel()
    code, out, err = await finish(proc)
    raise AssertionError(f"the agent exited ({code}) before any card: {out[-1500:]} {err[-1500:]}")


async def pending_id_within(harness: Harness, timeout: float) -> str:
    def found() -> str | None:
        return next(
            (
                e["value"]
                for m in harness.emulator.messages
                for b in m.blocks
                if b.get("type") == "actions"
                for e in b["elements"]
                if e.get("action_id") == APPROVE_ACTION
            ),
            None,
        )

    await harness.eventually(lambda: found() is not None, timeout=timeout)
    value = found()
    assert value is not None
    return value


@pytest.fixture(autouse=True)
def stop_agents() -> Iterator[None]:
    """After each test, stop what its agents left running (a failed test leaves the agent and its hook waiting):
    each agent runs in a session of its own, stopped whole by its process group id."""
    before = set(_started)
    yield
    for proc in set(_started) - before:
        if proc.returncode is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


_started: list[asyncio.subprocess.Process] = []


async def started(proc: Awaitable[asyncio.subprocess.Process]) -> asyncio.subprocess.Process:
    """Record a started agent for :func:`stop_agents`."""
    running = await proc
    _started.append(running)
    return running


def unreachable_url() -> tuple[str, Any]:
    closed = free_socket()  # bound, never listening
    return f"http://127.0.0.1:{closed.getsockname()[1]}", closed


# -- GitHub Copilot CLI ---------------------------------------------------------------------------------------------
@pytest.fixture
async def messages() -> AsyncIterator[MessagesAPI]:
    api = MessagesAPI(tool="bash", model=MODEL)
    await api.start()
    try:
        yield api
    finally:
        await api.close()


async def start_copilot(
    tmp: Path, proj: Path, model: MessagesAPI, cache: Path, flybot_url: str, token: str
) -> asyncio.subprocess.Process:
    env = clean_env(
        tmp,
        cache,
        flybot_url,
        token,
        COPILOT_PROVIDER_BASE_URL=model.url,
        COPILOT_PROVIDER_TYPE="anthropic",
        COPILOT_PROVIDER_API_KEY="sk-ant-scripted",
        COPILOT_MODEL=MODEL,
        COPILOT_OFFLINE="true",
        COPILOT_AUTO_UPDATE="false",
        # "true" trusts the working directory, so Copilot loads its .github/hooks in prompt mode; it also approves
        # every tool without asking, which leaves FlyBot's hook as the only gate.
        COPILOT_ALLOW_ALL="true",
    )
    return await started(
        asyncio.create_subprocess_exec(
            agent_binary("copilot"),
            "-p",
            "Run the step you are scripted to run.",
            cwd=proj,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
    )


def copilot_result(model: MessagesAPI) -> str:
    results = [r for r in model.tool_results() if r.get("tool_use_id") in model.tool_use_ids]
    assert len(results) == 1, model.tool_results()
    content = results[0].get("content")
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


async def test_copilot_cli_runs_the_command_once_the_owner_approves(
    harness: Harness, messages: MessagesAPI, agent_cache: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = project(tmp_path, "copilot")
    messages.tool_input = {"command": "rm -rf build", "description": "clean the build"}
    copilot = await start_copilot(tmp_path, proj, messages, agent_cache, harness.url, token)
    escalation_id = await card_for(harness, copilot)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.command == "rm -rf build"
    assert stored.session_id.startswith("Copilot CLI "), stored.session_id
    assert (proj / "build" / "keep.txt").exists(), "nothing runs before Approve"
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    code, out, err = await finish(copilot)
    assert code == 0, err[-2000:]
    assert not (proj / "build").exists()


async def test_copilot_cli_gives_the_model_the_owners_reason_and_runs_nothing(
    harness: Harness, messages: MessagesAPI, agent_cache: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = project(tmp_path, "copilot")
    messages.tool_input = {"command": "rm -rf build", "description": "clean the build"}
    copilot = await start_copilot(tmp_path, proj, messages, agent_cache, harness.url, token)
    await deny_with(harness, await card_for(harness, copilot), "keep the build, we ship from it")
    code, _out, err = await finish(copilot)
    assert code == 0, err[-2000:]
    result = copilot_result(messages)
    assert "Denied by preToolUse hook" in result and "keep the build, we ship from it" in result, result
    assert (proj / "build" / "keep.txt").exists()


async def test_copilot_cli_runs_a_read_only_command_without_a_card(
    harness: Harness, messages: MessagesAPI, agent_cache: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = project(tmp_path, "copilot")
    messages.tool_input = {"command": "ls build", "description": "look"}
    code, _out, err = await finish(await start_copilot(tmp_path, proj, messages, agent_cache, harness.url, token))
    assert code == 0, err[-2000:]
    assert "keep.txt" in copilot_result(messages)
    assert await escalations_created(harness) == []


async def test_copilot_cli_does_not_run_the_command_when_flybot_is_unreachable(
    messages: MessagesAPI, agent_cache: Path, tmp_path: Path
) -> None:
    proj = project(tmp_path, "copilot", "--wait", "3")
    messages.tool_input = {"command": "rm -rf build", "description": "clean the build"}
    url, closed = unreachable_url()
    try:
        code, _out, err = await finish(await start_copilot(tmp_path, proj, messages, agent_cache, url, "fbt_whatever"))
    finally:
        closed.close()
    assert code == 0, err[-2000:]
    result = copilot_result(messages)
    assert "Denied by preToolUse hook" in result and "unreachable" in result, result
    assert (proj / "build" / "keep.txt").exists()


async def test_copilot_cli_asks_before_its_create_tool_writes_a_hook(
    harness: Harness, messages: MessagesAPI, agent_cache: Path, tmp_path: Path
) -> None:
    # a hook file in .github/hooks/ would answer Copilot's later tool calls itself: the create tool asks FlyBot
    token = await harness.add_bot()
    proj = project(tmp_path, "copilot")
    written = proj / ".github" / "hooks" / "allow-all.json"
    messages.tool, messages.tool_input = "create", {"path": str(written), "file_text": '{"version": 1}'}
    copilot = await start_copilot(tmp_path, proj, messages, agent_cache, harness.url, token)
    escalation_id = await card_for(harness, copilot)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "destructive" and str(written) in stored.command, stored
    await deny_with(harness, escalation_id, "hooks are the operator's")
    code, _out, err = await finish(copilot)
    assert code == 0, err[-2000:]
    assert "hooks are the operator's" in copilot_result(messages)
    assert not written.exists()


def secret_key(tmp: Path) -> Path:
    """A private key in the agent's home (``clean_env``'s HOME), whose content must not reach the model unasked."""
    key = tmp / "home" / ".ssh" / "id_rsa"
    key.parent.mkdir(parents=True, exist_ok=True)
    key.write_text("-----BEGIN OPENSSH PRIVATE KEY----- sk-live-secret\n")
    return key


def workspace_file(proj: Path) -> Path:
    source = proj / "src" / "app.py"
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text("def main():\n    return 'scripted-app'\n")
    return source


async def test_copilot_cli_asks_before_its_view_tool_reads_a_private_key(
    harness: Harness, messages: MessagesAPI, agent_cache: Path, tmp_path: Path
) -> None:
    # what view reads goes to the model provider: a private key asks, and a denial sends the model no key
    token = await harness.add_bot()
    proj = project(tmp_path, "copilot")
    key = secret_key(tmp_path)
    messages.tool, messages.tool_input = "view", {"path": str(key)}
    copilot = await start_copilot(tmp_path, proj, messages, agent_cache, harness.url, token)
    escalation_id = await card_for(harness, copilot)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "network" and str(key) in stored.command, stored
    await deny_with(harness, escalation_id, "keys stay home")
    code, _out, err = await finish(copilot)
    assert code == 0, err[-2000:]
    result = copilot_result(messages)
    assert "keys stay home" in result and "sk-live-secret" not in result, result


async def test_copilot_cli_views_a_workspace_file_without_a_card(
    harness: Harness, messages: MessagesAPI, agent_cache: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = project(tmp_path, "copilot")
    messages.tool, messages.tool_input = "view", {"path": str(workspace_file(proj))}
    code, _out, err = await finish(await start_copilot(tmp_path, proj, messages, agent_cache, harness.url, token))
    assert code == 0, err[-2000:]
    assert "scripted-app" in copilot_result(messages)
    assert await escalations_created(harness) == []


# -- OpenCode -------------------------------------------------------------------------------------------------------
@pytest.fixture
async def chat() -> AsyncIterator[ChatCompletionsAPI]:
    api = ChatCompletionsAPI()
    await api.start()
    try:
        yield api
    finally:
        await api.close()


@pytest.fixture(scope="session")
def opencode_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One ``XDG_CONFIG_HOME`` for every OpenCode run: OpenCode installs its plugin package (from npm, minutes on a
    busy machine) into each configuration directory that has plugins on its first start there, so FlyBot's plugin
    is installed for the user (``flybot hook install opencode --user``) and one start here, against a model that
    only answers with text, pays for that install before the tests' own runs."""
    import subprocess
    import threading

    config = tmp_path_factory.mktemp("opencode-config")
    home = tmp_path_factory.mktemp("opencode-home")
    opencode_project(home, config)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    model = ChatCompletionsAPI(tool="none")  # answers with text: the start ends as soon as the install is done
    asyncio.run_coroutine_threadsafe(model.start(), loop).result(30)
    settings = {
        "provider": {
            "scripted": {
                "npm": "@ai-sdk/openai-compatible",
                "options": {"baseURL": model.url, "apiKey": "sk-none"},
                "models": {model.model: {"name": "Scripted"}},
            }
        },
        "model": f"scripted/{model.model}",
    }
    env = clean_env(home, home / "cache", "http://127.0.0.1:9", "none", XDG_CONFIG_HOME=str(config),
                    OPENCODE_DISABLE_AUTOUPDATE="1", OPENCODE_DISABLE_MODELS_FETCH="1",
                    OPENCODE_CONFIG_CONTENT=json.dumps(settings), PWD=str(home / "proj"))  # fmt: skip
    try:
        subprocess.run([agent_binary("opencode"), "run", "hello"], cwd=home / "proj", env=env, timeout=600,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)  # fmt: skip
    finally:
        asyncio.run_coroutine_threadsafe(model.close(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
    return config


def opencode_project(tmp: Path, config: Path, *options: str) -> Path:
    return project(tmp, "opencode", *options, env={"HOME": str(tmp / "home"), "XDG_CONFIG_HOME": str(config)})


async def start_opencode(
    tmp: Path, proj: Path, model: ChatCompletionsAPI, cache: Path, flybot_url: str, token: str, config: Path
) -> asyncio.subprocess.Process:
    settings = {
        "$schema": "https://opencode.ai/config.json",
        "provider": {
            "scripted": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Scripted",
                "options": {"baseURL": model.url, "apiKey": "sk-scripted"},
                "models": {model.model: {"name": "Scripted", "tool_call": True}},
            }
        },
        "model": f"scripted/{model.model}",
        "permission": {"bash": "allow"},  # OpenCode's own prompt stays out of it: FlyBot's plugin is the gate
        "autoupdate": False,
        "share": "disabled",
    }
    home = tmp / "home"
    env = clean_env(
        tmp,
        cache,
        flybot_url,
        token,
        XDG_CONFIG_HOME=str(config),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        OPENCODE_DISABLE_AUTOUPDATE="1",
        OPENCODE_DISABLE_MODELS_FETCH="1",
        # Inline configuration: OpenCode's first start in a configuration directory installs its plugin package and
        # may drop a project's opencode.json meanwhile; the inline layer always holds.
        OPENCODE_CONFIG_CONTENT=json.dumps(settings),
        PWD=str(proj),  # OpenCode takes its directory from $PWD, which a child started with cwd= does not update
    )
    return await started(
        asyncio.create_subprocess_exec(
            agent_binary("opencode"),
            "run",
            "Run the step you are scripted to run.",
            cwd=proj,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
    )


def the_output(model: ChatCompletionsAPI) -> str:
    outputs = model.tool_outputs()
    assert len(outputs) == 1, model.tool_outputs()
    return outputs[0]


async def test_opencode_runs_the_command_once_the_owner_approves(
    harness: Harness, chat: ChatCompletionsAPI, agent_cache: Path, opencode_config: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = opencode_project(tmp_path, opencode_config)
    chat.arguments = {"command": "rm -rf build", "description": "clean the build"}
    opencode = await start_opencode(tmp_path, proj, chat, agent_cache, harness.url, token, opencode_config)
    escalation_id = await card_for(harness, opencode)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.command == "rm -rf build" and stored.session_id.startswith("OpenCode ")
    assert stored.cwd == str(proj), stored.cwd
    assert (proj / "build" / "keep.txt").exists(), "nothing runs before Approve"
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    code, out, err = await finish(opencode)
    assert code == 0, err[-2000:]
    assert not (proj / "build").exists(), (chat.tool_outputs(), out[-2000:], err[-2000:])


async def test_opencode_gives_the_model_the_owners_reason_and_runs_nothing(
    harness: Harness, chat: ChatCompletionsAPI, agent_cache: Path, opencode_config: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = opencode_project(tmp_path, opencode_config)
    chat.arguments = {"command": "rm -rf build", "description": "clean the build"}
    opencode = await start_opencode(tmp_path, proj, chat, agent_cache, harness.url, token, opencode_config)
    await deny_with(harness, await card_for(harness, opencode), "keep the build, we ship from it")
    code, _out, err = await finish(opencode)
    assert code == 0, err[-2000:]
    assert "keep the build, we ship from it" in the_output(chat)
    assert (proj / "build" / "keep.txt").exists()


async def test_opencode_does_not_run_the_command_when_flybot_is_unreachable(
    chat: ChatCompletionsAPI, agent_cache: Path, opencode_config: Path, tmp_path: Path
) -> None:
    proj = opencode_project(tmp_path, opencode_config, "--wait", "3")
    chat.arguments = {"command": "rm -rf build", "description": "clean the build"}
    url, closed = unreachable_url()
    try:
        code, _out, err = await finish(
            await start_opencode(tmp_path, proj, chat, agent_cache, url, "fbt_whatever", opencode_config)
        )
    finally:
        closed.close()
    assert code == 0, err[-2000:]
    assert "unreachable" in the_output(chat)
    assert (proj / "build" / "keep.txt").exists()


async def test_opencode_stops_the_call_when_the_hook_cannot_start(
    chat: ChatCompletionsAPI, agent_cache: Path, opencode_config: Path, tmp_path: Path
) -> None:
    proj = opencode_project(tmp_path, opencode_config)
    (tmp_path / "bin" / "flybot").unlink()  # the plugin's program is gone
    chat.arguments = {"command": "rm -rf build", "description": "clean the build"}
    code, _out, err = await finish(
        await start_opencode(tmp_path, proj, chat, agent_cache, "http://127.0.0.1:9", "t", opencode_config)
    )
    assert code == 0, err[-2000:]
    assert "FlyBot's hook could not start" in the_output(chat)
    assert (proj / "build" / "keep.txt").exists()


async def test_opencode_asks_before_its_write_tool_adds_a_plugin(
    harness: Harness, chat: ChatCompletionsAPI, agent_cache: Path, opencode_config: Path, tmp_path: Path
) -> None:
    # OpenCode loads .opencode/plugins/*.js as code at its next start: the write tool asks FlyBot, and a denial
    # leaves no file
    token = await harness.add_bot()
    proj = opencode_project(tmp_path, opencode_config)
    plugin = proj / ".opencode" / "plugins" / "helper.js"
    chat.tool, chat.arguments = "write", {"filePath": str(plugin), "content": "export const X = async () => ({})\n"}
    opencode = await start_opencode(tmp_path, proj, chat, agent_cache, harness.url, token, opencode_config)
    escalation_id = await card_for(harness, opencode)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "destructive" and str(plugin) in stored.command, stored
    await deny_with(harness, escalation_id, "no plugins from the agent")
    code, _out, err = await finish(opencode)
    assert code == 0, err[-2000:]
    assert "no plugins from the agent" in the_output(chat)
    assert not plugin.exists()


async def test_opencode_asks_before_its_read_tool_reads_a_private_key(
    harness: Harness, chat: ChatCompletionsAPI, agent_cache: Path, opencode_config: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = opencode_project(tmp_path, opencode_config)
    key = secret_key(tmp_path)
    chat.tool, chat.arguments = "read", {"filePath": str(key)}
    opencode = await start_opencode(tmp_path, proj, chat, agent_cache, harness.url, token, opencode_config)
    escalation_id = await card_for(harness, opencode)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "network" and str(key) in stored.command, stored
    await deny_with(harness, escalation_id, "keys stay home")
    code, _out, err = await finish(opencode)
    assert code == 0, err[-2000:]
    output = the_output(chat)
    assert "keys stay home" in output and "sk-live-secret" not in output, output


async def test_opencode_reads_a_workspace_file_without_a_card(
    harness: Harness, chat: ChatCompletionsAPI, agent_cache: Path, opencode_config: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = opencode_project(tmp_path, opencode_config)
    chat.tool, chat.arguments = "read", {"filePath": str(workspace_file(proj))}
    code, _out, err = await finish(
        await start_opencode(tmp_path, proj, chat, agent_cache, harness.url, token, opencode_config)
    )
    assert code == 0, err[-2000:]
    assert "scripted-app" in the_output(chat)
    assert await escalations_created(harness) == []


# -- Cline ----------------------------------------------------------------------------------------------------------
async def start_cline(
    tmp: Path, proj: Path, model: ChatCompletionsAPI, cache: Path, flybot_url: str, token: str
) -> asyncio.subprocess.Process:
    port = free_socket()
    # A hub port of its own: a hub daemon another run left listening must not serve this one.
    env = clean_env(tmp, cache, flybot_url, token, CLINE_HUB_PORT=str(port.getsockname()[1]))
    port.close()
    cline = agent_binary("cline")
    auth = await asyncio.create_subprocess_exec(
        cline,
        "auth",
        "-p",
        "openai",
        "-k",
        "sk-scripted",
        "-m",
        model.model,
        "-b",
        model.url,
        cwd=proj,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    code, out, err = await finish(auth, 60)
    assert code == 0, (out, err)
    return await started(
        asyncio.create_subprocess_exec(
            cline,
            "--json",
            "Run the step you are scripted to run.",
            cwd=proj,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
    )


def run_result(out: str) -> dict[str, Any]:
    results = [json.loads(line) for line in out.splitlines() if line.startswith("{") and '"run_result"' in line]
    assert results, out[-2000:]
    result: dict[str, Any] = results[-1]
    return result


@pytest.fixture
async def cline_chat(tmp_path: Path) -> AsyncIterator[ChatCompletionsAPI]:
    """The scripted model for Cline; afterwards, the hub daemon Cline leaves running for this test's project (it
    detaches from the CLI) is stopped, by its process id."""
    api = ChatCompletionsAPI(tool="run_commands")
    await api.start()
    try:
        yield api
    finally:
        await api.close()
        for pid in cline_daemons(tmp_path):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass


def cline_daemons(tmp: Path) -> list[int]:
    """Process ids of Cline hub daemons started for a project under ``tmp``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--cline-hub-daemon" in args and any(str(tmp).encode() in a for a in args):
            found.append(int(entry.name))
    return found


async def test_cline_runs_the_command_once_the_owner_approves(
    harness: Harness, cline_chat: ChatCompletionsAPI, agent_cache: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = project(tmp_path, "cline")
    cline_chat.arguments = {"commands": ["rm -rf build"]}
    cline = await start_cline(tmp_path, proj, cline_chat, agent_cache, harness.url, token)
    escalation_id = await card_for(harness, cline)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.command == "rm -rf build" and stored.session_id.startswith("Cline ")
    assert (proj / "build" / "keep.txt").exists(), "nothing runs before Approve"
    await harness.click(OWNER, escalation_id, APPROVE_ACTION)
    code, out, err = await finish(cline)
    assert code == 0, err[-2000:]
    assert run_result(out)["finishReason"] == "completed"
    assert not (proj / "build").exists()


async def test_cline_stops_the_task_on_a_deny_and_runs_nothing(
    harness: Harness, cline_chat: ChatCompletionsAPI, agent_cache: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = project(tmp_path, "cline")
    cline_chat.arguments = {"commands": ["rm -rf build"]}
    cline = await start_cline(tmp_path, proj, cline_chat, agent_cache, harness.url, token)
    await deny_with(harness, await card_for(harness, cline), "keep the build, we ship from it")
    code, out, err = await finish(cline)
    assert code == 0, err[-2000:]
    assert run_result(out)["finishReason"] == "aborted"
    assert cline_chat.tool_outputs() == []
    assert (proj / "build" / "keep.txt").exists()


async def test_cline_does_not_run_the_command_when_flybot_is_unreachable(
    cline_chat: ChatCompletionsAPI, agent_cache: Path, tmp_path: Path
) -> None:
    proj = project(tmp_path, "cline", "--wait", "3")
    cline_chat.arguments = {"commands": ["rm -rf build"]}
    url, closed = unreachable_url()
    try:
        code, out, err = await finish(await start_cline(tmp_path, proj, cline_chat, agent_cache, url, "fbt_whatever"))
    finally:
        closed.close()
    assert code == 0, err[-2000:]
    assert run_result(out)["finishReason"] == "aborted"
    assert (proj / "build" / "keep.txt").exists()


async def test_cline_asks_before_its_editor_rewrites_flybots_hook(
    harness: Harness, cline_chat: ChatCompletionsAPI, agent_cache: Path, tmp_path: Path
) -> None:
    # Cline runs .clinerules/hooks/PreToolUse afresh on every call: the editor asks FlyBot before rewriting it, and a
    # denial leaves FlyBot's hook as it was
    token = await harness.add_bot()
    proj = project(tmp_path, "cline")
    hook = proj / ".clinerules" / "hooks" / "PreToolUse"
    before = hook.read_text()
    cline_chat.tool = "editor"
    cline_chat.arguments = {
        "path": str(hook),
        "old_text": "exec ",
        "new_text": "echo '{\"cancel\": false}'; exit 0; exec ",
    }
    cline = await start_cline(tmp_path, proj, cline_chat, agent_cache, harness.url, token)
    escalation_id = await card_for(harness, cline)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "destructive" and str(hook) in stored.command, stored
    await deny_with(harness, escalation_id, "FlyBot's hook stays")
    code, out, err = await finish(cline)
    assert code == 0, err[-2000:]
    assert run_result(out)["finishReason"] == "aborted"
    assert hook.read_text() == before


async def test_cline_asks_before_read_files_reads_a_private_key(
    harness: Harness, cline_chat: ChatCompletionsAPI, agent_cache: Path, tmp_path: Path
) -> None:
    # Cline ends the task on a hook's cancel: after the denial the task stops, and no tool result holds the key
    token = await harness.add_bot()
    proj = project(tmp_path, "cline")
    key = secret_key(tmp_path)
    cline_chat.tool, cline_chat.arguments = "read_files", {"files": [{"path": str(key)}]}
    cline = await start_cline(tmp_path, proj, cline_chat, agent_cache, harness.url, token)
    escalation_id = await card_for(harness, cline)
    stored = await harness.runtime.store.get_escalation(escalation_id)
    assert stored is not None and stored.risk == "network" and str(key) in stored.command, stored
    await deny_with(harness, escalation_id, "keys stay home")
    code, out, err = await finish(cline)
    assert code == 0, err[-2000:]
    assert run_result(out)["finishReason"] == "aborted"
    assert "sk-live-secret" not in json.dumps(cline_chat.tool_outputs())


async def test_cline_reads_a_workspace_file_without_a_card(
    harness: Harness, cline_chat: ChatCompletionsAPI, agent_cache: Path, tmp_path: Path
) -> None:
    token = await harness.add_bot()
    proj = project(tmp_path, "cline")
    cline_chat.tool, cline_chat.arguments = "read_files", {"files": [{"path": str(workspace_file(proj))}]}
    code, out, err = await finish(await start_cline(tmp_path, proj, cline_chat, agent_cache, harness.url, token))
    assert code == 0, err[-2000:]
    assert run_result(out)["finishReason"] == "completed"
    assert "scripted-app" in json.dumps(cline_chat.tool_outputs())
    assert await escalations_created(harness) == []
