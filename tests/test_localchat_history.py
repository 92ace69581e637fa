"""Local mode keeps its chat history in ``localchat.json`` across restarts, and saving it never holds up a click.

Real ``flybot serve`` processes in local mode (or ``create_app`` on loopback) with the default state directory (the
test's ``XDG_STATE_HOME``); clicks go through the chat page's API with the printed login key, as the page sends them.
"""

from __future__ import annotations

import array
import asyncio
import fcntl
import json
import os
import signal
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bot.app import EMULATOR
from bot.state_home import state_home
from cards import APPROVE_ACTION
from tests.harness import free_socket, log_in_local, page_log_in, person_session
from tests.served import printed_login
from tests.test_cli import clean_env
from tests.test_local_access import _click, _pending_card, _start

OWNER = "U0OWNER01"
PAGE = "/local/slack"
ASK = {
    "session_id": "s-1",
    "command": "sudo apt-get install -y jq",
    "cwd": "/work",
    "file_policy": "workspace-write",
    "approval_policy": "ask",
    "contained": False,
}


@dataclass
class Served:
    """A ``flybot serve`` in local mode: its process, URL and the login key it printed."""

    process: subprocess.Popen[str]
    url: str
    key: str

    @property
    def token(self) -> str:
        token: str = json.loads((state_home() / "local.json").read_text())["token"]
        return token


def _serve(tmp: Path) -> Served:
    """Start ``flybot serve`` (local mode, ``tmp`` its working directory and log file's home) and return it once it
    printed its login URL."""
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    with open(tmp / "serve.log", "ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "serve", "--port", str(port)],
            cwd=tmp,
            env=clean_env(),
            stdout=subprocess.PIPE,
            stderr=log,
            stdin=subprocess.DEVNULL,
            text=True,
        )
    assert process.stdout is not None
    for line in process.stdout:  # the login URL is given once the server is ready (in the state: no terminal here)
        url = printed_login(line, state_home())
        if "/?key=" in url:
            return Served(process, f"http://127.0.0.1:{port}", url.rsplit("/?key=", 1)[1].split()[0])
    raise AssertionError(f"flybot serve printed no login URL: {(tmp / 'serve.log').read_text()[-2000:]}")


def _stop(served: Served, sig: int = signal.SIGTERM) -> None:
    if served.process.poll() is None:
        served.process.send_signal(sig)
    served.process.wait(timeout=30)
    assert served.process.stdout is not None
    served.process.stdout.close()


async def _until(check: Callable[[], bool], what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


def _saved() -> dict[str, Any]:
    """The saved chat history; an empty one while there is no file yet."""
    history = state_home() / "localchat.json"
    if not history.exists():
        return {"messages": []}
    data: dict[str, Any] = json.loads(history.read_text())  # whole: never a part of a file
    return data


def _saved_card(escalation_id: str) -> dict[str, Any] | None:
    return next((m for m in _saved()["messages"] if escalation_id in json.dumps(m["blocks"])), None)


async def _escalate(http: aiohttp.ClientSession, served: Served) -> str:
    async with http.post(
        f"{served.url}/v1/escalations", json=ASK, headers={"Authorization": f"Bearer {served.token}"}
    ) as response:
        assert response.status == 201
        escalation_id: str = (await response.json())["id"]
    return escalation_id


async def _long_poll(http: aiohttp.ClientSession, served: Served, escalation_id: str) -> str:
    """The session's long-poll (30 s): the status it answers."""
    async with http.get(
        f"{served.url}/v1/escalations/{escalation_id}",
        params={"wait": "30"},
        headers={"Authorization": f"Bearer {served.token}"},
    ) as response:
        status: str = (await response.json())["status"]
    return status


async def _card_on_page(person: aiohttp.ClientSession, served: Served, escalation_id: str) -> dict[str, Any]:
    """The Approve click for ``escalation_id``'s card, once the page shows it."""
    deadline = time.monotonic() + 20
    while True:
        async with person.get(f"{served.url}{PAGE}/page/state", params={"user": OWNER}) as response:
            state = await response.json()
        for message in state["messages"]:
            if escalation_id in json.dumps(message["blocks"]):
                return {
                    "user": OWNER,
                    "channel": message["channel"],
                    "ts": message["ts"],
                    "action_id": APPROVE_ACTION,
                    "block_id": "",
                    "value": escalation_id,
                }
        assert time.monotonic() < deadline, "no card on the page"
        await asyncio.sleep(0.05)


async def test_a_restart_right_after_a_click_keeps_the_redrawn_card_in_the_chat_history(tmp_path: Path) -> None:
    server, runner = await _start(tmp_path)
    try:
        async with person_session() as person:
            escalation_id, card = await _pending_card(server, person)
            await _until(lambda: _saved_card(escalation_id) is not None, "the pending card was never saved")
            await log_in_local(person, server.app, server.url)
            async with person.post(f"{server.url}{PAGE}/page/click", json=_click(card, escalation_id)) as response:
                assert (await response.json())["status"] == 200
            async with person.get(
                f"{server.url}/v1/escalations/{escalation_id}",
                params={"wait": "30"},
                headers={"Authorization": f"Bearer {server.demo_token}"},
            ) as response:
                assert (await response.json())["status"] == "approved"
            emulator = server.app[EMULATOR]
            shown = next(m for m in emulator.messages if m.ts == card["ts"])
            await _until(lambda: shown.edited, "the card was not redrawn")
    finally:
        await runner.cleanup()  # within the half second after the redraw: the save at the stop carries it
    saved = _saved_card(escalation_id)
    assert saved is not None and saved["edited"], "the redrawn card, not the pending one the first save wrote"
    assert APPROVE_ACTION not in json.dumps(saved["blocks"])
    server, runner = await _start(tmp_path)
    try:
        restored = next(m for m in server.app[EMULATOR].messages if m.ts == card["ts"])
        assert restored.edited and restored.blocks == saved["blocks"]
    finally:
        await runner.cleanup()


async def test_a_kill_9_keeps_the_chat_history_as_last_saved_and_the_next_start_shows_it(tmp_path: Path) -> None:
    served = await asyncio.to_thread(_serve, tmp_path)
    try:
        async with aiohttp.ClientSession() as http:
            first = await _escalate(http, served)
            await _until(lambda: _saved_card(first) is not None, "the card was never saved")
            await _escalate(http, served)  # its card lands in the last half second before the kill: it may be lost
    finally:
        _stop(served, signal.SIGKILL)
    saved = _saved()  # the file as the last finished save left it
    assert any(first in json.dumps(m["blocks"]) for m in saved["messages"])
    served = await asyncio.to_thread(_serve, tmp_path)
    try:
        async with person_session() as person:
            await page_log_in(person, f"{served.url}{PAGE}/login", served.key)
            click = await _card_on_page(person, served, first)
            async with person.post(f"{served.url}{PAGE}/page/click", json=click) as response:
                assert (await response.json())["status"] == 200, "the restored card still works"
            assert await _long_poll(person, served, first) == "approved"
    finally:
        _stop(served)


async def _redrawn(person: aiohttp.ClientSession, served: Served, ts: str) -> None:
    """Wait until the page shows the message ``ts`` redrawn (``chat.update``: a card after its decision)."""
    deadline = time.monotonic() + 20
    while True:
        async with person.get(f"{served.url}{PAGE}/page/state", params={"user": OWNER}) as response:
            state = await response.json()
        if any(m["ts"] == ts and m["edited"] for m in state["messages"]):
            return
        assert time.monotonic() < deadline, "the card was not redrawn"
        await asyncio.sleep(0.05)


def _pipe_fill(fd: int) -> int:
    """How many bytes wait in the pipe whose read end is ``fd``."""
    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count)
    return count[0]


def _drain(fd: int) -> bytes:
    """Read the pipe until its writer closes it (blocking)."""
    os.set_blocking(fd, True)
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


async def test_a_click_is_answered_while_a_save_of_the_chat_history_cannot_finish_writing(tmp_path: Path) -> None:
    """A slow disk: the save's new file is a pipe nobody reads, so the save waits there until the test reads it.
    The owner's click must still reach FlyBot and the session be answered meanwhile."""
    home = state_home()
    home.mkdir(mode=0o700, parents=True)
    messages = [
        {
            "channel": "C0GENERAL",
            "ts": f"1700000000.{i:06d}",
            "text": f"note {i} " + "x" * 1000,
            "blocks": [],
            "user": OWNER,
        }
        for i in range(1, 201)
    ]  # 200 KB: more than a pipe holds
    (home / "localchat.json").write_text(json.dumps({"channels": [], "users": [], "messages": messages}))
    (home / "localchat.json").chmod(0o600)
    os.mkfifo(home / "localchat.tmp", 0o600)
    reader = os.open(home / "localchat.tmp", os.O_RDONLY | os.O_NONBLOCK)
    capacity = fcntl.fcntl(reader, fcntl.F_GETPIPE_SZ)
    served = await asyncio.to_thread(_serve, tmp_path)
    written = b""
    try:
        async with person_session() as person, asyncio.timeout(60):
            await page_log_in(person, f"{served.url}{PAGE}/login", served.key)
            escalation_id = await _escalate(person, served)
            click = await _card_on_page(person, served, escalation_id)
            # The card's post started a save: it has filled the pipe and now waits for the test to read on.
            await _until(lambda: _pipe_fill(reader) >= capacity - 4096, "no save began")
            waiting = asyncio.create_task(_long_poll(person, served, escalation_id))
            try:
                async with asyncio.timeout(15):
                    async with person.post(f"{served.url}{PAGE}/page/click", json=click) as response:
                        assert (await response.json())["status"] == 200
                    assert await waiting == "approved"
            except TimeoutError:
                raise AssertionError("the click waited for the chat's save") from None
            finally:
                waiting.cancel()
            assert _pipe_fill(reader) >= capacity - 4096, "the save was still waiting meanwhile"
            written = await asyncio.to_thread(_drain, reader)
            await _redrawn(person, served, click["ts"])
    finally:
        if not written:
            await asyncio.to_thread(_drain, reader)  # lets a stuck save end, so the server can stop
        os.close(reader)
        _stop(served)
    stalled = json.loads(written)  # the save that waited is whole
    assert [m["ts"] for m in stalled["messages"][:200]] == [m["ts"] for m in messages]
    final = _saved_card(escalation_id)  # the save at the stop: the state after the click
    assert (home / "localchat.json").is_file() and final is not None and final["edited"]
    assert [m["ts"] for m in _saved()["messages"][:200]] == [m["ts"] for m in messages]
