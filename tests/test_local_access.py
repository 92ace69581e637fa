"""In local mode only the person holding the printed login key can use the chat page and its API.

A real local-mode FlyBot (``create_app`` without Slack credentials) on loopback; the agent's side is a plain HTTP
client that has read every file FlyBot wrote (the state directory's ``local.json`` included) but not the
terminal where ``flybot serve`` printed the login URL.
"""

from __future__ import annotations

import asyncio
import json
import os
import pty
import re
import select
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from slack_sdk.signature import SignatureVerifier

from bot.app import EMULATOR, RUNTIME, create_app, login_url
from bot.commands.server import LOGIN_FILE
from bot.settings import Settings
from bot.state_home import state_home
from tests.harness import free_socket, log_in_local, person_session
from tests.served import printed_login
from tests.test_cli import clean_env, flybot

OWNER = "U0OWNER01"
PAGE = "/local/slack/page"


@dataclass
class Local:
    url: str
    app: web.Application
    home: Path  # the state directory: store, local.json, localchat.json

    @property
    def demo_token(self) -> str:
        token: str = json.loads((self.home / "local.json").read_text())["token"]
        return token


async def _start(tmp: Path, **overrides: Any) -> tuple[Local, web.AppRunner]:
    """Local mode with its default store and state directory, in the test's ``XDG_STATE_HOME`` (conftest); ``tmp``
    stays empty, as the working directory of ``flybot`` commands the tests run."""
    sock = free_socket()
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    settings = Settings(sweep_interval_s=0.2, slack_room_interval_s=0.0, **overrides)
    app = create_app(settings, base_url=url)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    return Local(url=url, app=app, home=state_home()), runner


@pytest.fixture
async def local(tmp_path: Path) -> AsyncIterator[Local]:
    server, runner = await _start(tmp_path)
    try:
        yield server
    finally:
        await runner.cleanup()


async def _pending_card(local: Local, http: aiohttp.ClientSession) -> tuple[str, dict[str, Any]]:
    async with http.post(
        f"{local.url}/v1/escalations",
        headers={"Authorization": f"Bearer {local.demo_token}"},
        json={
            "session_id": "s-1",
            "command": "sudo rm -rf /etc",
            "cwd": "/work",
            "file_policy": "workspace-write",
            "approval_policy": "ask",
            "contained": False,
        },
    ) as response:
        assert response.status == 201
        escalation: dict[str, Any] = await response.json()
    emulator = local.app[EMULATOR]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the card is posted by the outbox, after the 201
        for message in emulator.messages:
            if escalation["id"] in json.dumps(message.blocks):
                return escalation["id"], {"channel": message.channel, "ts": message.ts}
        await asyncio.sleep(0.05)
    raise AssertionError("no card was posted")


def _click(card: dict[str, Any], escalation_id: str) -> dict[str, Any]:
    return {
        "user": OWNER,
        "channel": card["channel"],
        "ts": card["ts"],
        "action_id": "escalation_approve",
        "block_id": "",
        "value": escalation_id,
    }


async def _still_pending(local: Local, escalation_id: str) -> None:
    row = await local.app[RUNTIME].store.get_escalation(escalation_id)
    assert row is not None and row.status == "pending" and row.decided_by is None
    assert await local.app[RUNTIME].store.list_standing() == []


async def test_an_approve_click_without_the_page_credential_is_refused_and_changes_nothing(local: Local) -> None:
    async with aiohttp.ClientSession() as agent:
        escalation_id, card = await _pending_card(local, agent)
        headers = {"Origin": local.url}
        for method, path, body in [
            ("POST", "click", _click(card, escalation_id)),
            ("POST", "command", {"user": OWNER, "channel": "C0APPROVE", "text": "standing add --bot demo *"}),
            ("POST", "message", {"user": OWNER, "channel": "C0APPROVE", "text": "hello"}),
            ("POST", "view_submit", {"user": OWNER, "view_id": "V1", "values": {}}),
            ("POST", "home_opened", {"user": OWNER}),
            ("GET", "state", None),
        ]:
            async with agent.request(
                method, f"{local.url}{PAGE}/{path}?user={OWNER}", json=body, headers=headers
            ) as response:
                assert response.status == 401, path
        # a cookie (whatever its name and value), the demo Bot's token, or a wrong key do not help either
        async with agent.post(
            f"{local.url}{PAGE}/click",
            json=_click(card, escalation_id),
            headers={
                **headers,
                "Cookie": f"flybot_local_session={local.demo_token}",
                "Authorization": f"Bearer {local.demo_token}",
                "X-FlyBot-Session": local.demo_token,
            },
        ) as response:
            assert response.status == 401
        async with agent.post(f"{local.url}/local/slack/login", json={"key": "wrong"}, headers=headers) as response:
            assert response.status == 401 and "session" not in await response.json()
        async with agent.get(f"{local.url}/?key=wrong") as response:  # the page itself holds nothing
            assert response.status == 200 and "set-cookie" not in response.headers
        await _still_pending(local, escalation_id)


async def test_the_printed_login_url_gives_the_page_a_credential_that_lets_the_owner_click(local: Local) -> None:
    url = login_url(local.app, local.url)
    assert url is not None and url.startswith(f"{local.url}/?key=")
    key = url.split("?key=", 1)[1]
    async with person_session() as person:
        escalation_id, card = await _pending_card(local, person)
        async with person.get(url) as response:
            assert response.status == 200 and "<title>FlyBot" in await response.text()
            assert "set-cookie" not in response.headers, "no cookie: it would reach every port of 127.0.0.1"
            assert response.headers["Content-Security-Policy"] == "frame-ancestors 'none'"
            assert response.headers["X-Frame-Options"] == "DENY" and response.headers["Cache-Control"] == "no-store"
        # the key is exchanged only from the page's own origin
        for origin in (None, "http://127.0.0.1:1", f"http://localhost:{local.url.rsplit(':', 1)[1]}", "null"):
            async with person.post(
                f"{local.url}/local/slack/login", json={"key": key}, headers={"Origin": origin} if origin else {}
            ) as response:
                assert response.status == 403, origin
        async with person.post(
            f"{local.url}/local/slack/login", json={"key": key}, headers={"Origin": local.url}
        ) as response:
            assert response.status == 200 and "set-cookie" not in response.headers
            credential = (await response.json())["session"]
        page = {"Origin": local.url, "X-FlyBot-Session": credential}
        async with person.get(f"{local.url}{PAGE}/state", params={"user": OWNER}, headers=page) as response:
            assert response.status == 200
        async with person.post(f"{local.url}{PAGE}/click", json=_click(card, escalation_id), headers=page) as response:
            assert (await response.json())["status"] == 200
        async with person.get(
            f"{local.url}/v1/escalations/{escalation_id}",
            params={"wait": "30"},
            headers={"Authorization": f"Bearer {local.demo_token}"},
        ) as response:
            decided = await response.json()  # the long-poll answers once the click's decision is stored
        assert decided["status"] == "approved" and decided["decided_by"] == OWNER


async def test_a_decision_from_another_origin_or_without_origin_is_refused_even_with_the_credential(
    local: Local,
) -> None:
    port = local.url.rsplit(":", 1)[1]
    async with person_session() as person:
        escalation_id, card = await _pending_card(local, person)
        await log_in_local(person, local.app, local.url)
        credential = person.headers["X-FlyBot-Session"]
        # Another port of 127.0.0.1, the same port under another name, no Origin at all, a sandboxed frame's "null"
        for origin in ("http://127.0.0.1:1", f"http://localhost:{port}", f"https://127.0.0.1:{port}", None, "null"):
            headers = {"X-FlyBot-Session": credential, **({"Origin": origin} if origin else {})}
            async with aiohttp.ClientSession() as other:
                for path, body in (
                    ("click", _click(card, escalation_id)),
                    ("command", {"user": OWNER, "channel": "C0APPROVE", "text": "standing add --bot demo *"}),
                ):
                    async with other.post(f"{local.url}{PAGE}/{path}", json=body, headers=headers) as response:
                        assert response.status == 403, (origin, path)
                        assert (await response.json())["error"] == "cross-origin request refused"
                # a cross-origin read of the page state is refused as well
                if origin is not None:
                    async with other.get(
                        f"{local.url}{PAGE}/state", params={"user": OWNER}, headers=headers
                    ) as response:
                        assert response.status == 403, origin
    async with aiohttp.ClientSession() as rebound:  # DNS rebinding: another name, whose page holds no credential
        async with rebound.post(
            f"{local.url}{PAGE}/click",
            json=_click(card, escalation_id),
            headers={"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"},
        ) as response:
            assert response.status == 421
    await _still_pending(local, escalation_id)


async def test_a_request_under_a_host_name_this_server_does_not_serve_is_refused_421_even_with_the_credential(
    local: Local,
) -> None:
    port = local.url.rsplit(":", 1)[1]
    async with person_session() as person:
        escalation_id, card = await _pending_card(local, person)
        await log_in_local(person, local.app, local.url)
        credential = person.headers["X-FlyBot-Session"]
        async with aiohttp.ClientSession() as other:
            # A name resolving to 127.0.0.1 (DNS rebinding), this server's name on another port, no port at all,
            # and the loopback names it was not printed under (localhost may reach another server on [::1])
            for host in (
                f"evil.example:{port}",
                "127.0.0.1:1",
                "127.0.0.1",
                f"127.0.0.1.evil.example:{port}",
                f"localhost:{port}",
                f"LOCALHOST:{port}",
                f"[::1]:{port}",
            ):
                headers = {"X-FlyBot-Session": credential, "Host": host, "Origin": f"http://{host}"}
                async with other.post(
                    f"{local.url}{PAGE}/click", json=_click(card, escalation_id), headers=headers
                ) as response:
                    assert response.status == 421, host
                    error = (await response.json())["error"]
                    assert error.startswith("this server does not serve that host name: open http://127.0.0.1:")
                async with other.get(f"{local.url}{PAGE}/state", params={"user": OWNER}, headers=headers) as response:
                    assert response.status == 421, host
                async with other.get(f"{local.url}/", headers={"Host": host}) as response:
                    page = await response.text()
                    assert response.status == 421 and response.content_type == "text/html", host
                    assert f"open http://127.0.0.1:{port}/" in page and response.headers["X-Frame-Options"] == "DENY"
            # Under the printed name, the page and its data are served
            headers = {"X-FlyBot-Session": credential, "Host": f"127.0.0.1:{port}", "Origin": local.url}
            async with other.get(f"{local.url}{PAGE}/state", params={"user": OWNER}, headers=headers) as response:
                assert response.status == 200
            async with other.get(f"{local.url}/") as response:
                assert response.status == 200 and "<html" in (await response.text()).lower()
    await _still_pending(local, escalation_id)


async def test_a_forged_card_in_a_restored_chat_history_cannot_approve_the_real_escalation(tmp_path: Path) -> None:
    # A process that can write the state directory (but not the store) plants a copy of a card showing a harmless command whose
    # Approve button carries the real escalation's id; after a restart the page shows it like any message.
    server, runner = await _start(tmp_path)
    try:
        async with aiohttp.ClientSession() as session:
            escalation_id, card = await _pending_card(server, session)
    finally:
        await runner.cleanup()
    history = state_home() / "localchat.json"
    state = json.loads(history.read_text())
    real = next(m for m in state["messages"] if m["ts"] == card["ts"])
    forged = json.loads(json.dumps(real).replace("sudo rm -rf /etc", "ls -la"))
    forged["ts"] = f"{int(time.time())}.999999"
    state["messages"].append(forged)
    history.write_text(json.dumps(state))
    server, runner = await _start(tmp_path)
    try:
        async with person_session() as person:
            await log_in_local(person, server.app, server.url)
            click = _click({"channel": forged["channel"], "ts": forged["ts"]}, escalation_id)
            async with person.post(f"{server.url}{PAGE}/click", json=click) as response:
                assert (await response.json())["status"] == 200
            async with person.get(
                f"{server.url}/v1/escalations/{escalation_id}", headers={"Authorization": f"Bearer {server.demo_token}"}
            ) as response:
                assert (await response.json())["status"] == "pending", "the forged card's Approve decided nothing"
            async with person.post(f"{server.url}{PAGE}/click", json=_click(card, escalation_id)) as response:
                assert (await response.json())["status"] == 200
            async with person.get(
                f"{server.url}/v1/escalations/{escalation_id}",
                params={"wait": "30"},
                headers={"Authorization": f"Bearer {server.demo_token}"},
            ) as response:
                assert (await response.json())["status"] == "approved", "the real card still works"
    finally:
        await runner.cleanup()


async def test_a_forged_report_dm_in_a_restored_chat_history_cannot_approve_the_real_report(tmp_path: Path) -> None:
    from tests.test_reports_causes import preflight_doc

    server, runner = await _start(tmp_path)
    try:
        async with aiohttp.ClientSession() as session:
            async with session.post(
                f"{server.url}/v1/reports",
                headers={"Authorization": f"Bearer {server.demo_token}"},
                json={"preflight": preflight_doc(), "host": "prod-db-1", "session_id": "s-1"},
            ) as r:
                assert r.status == 201
                report_id = (await r.json())["id"]
            emulator = server.app[EMULATOR]
            deadline = time.monotonic() + 10
            while not any(report_id in json.dumps(m.blocks) for m in emulator.messages):
                assert time.monotonic() < deadline, "no report DM"
                await asyncio.sleep(0.05)
            dm = next(m for m in emulator.messages if report_id in json.dumps(m.blocks))
    finally:
        await runner.cleanup()
    history = state_home() / "localchat.json"
    state = json.loads(history.read_text())
    real = next(m for m in state["messages"] if m["ts"] == dm.ts)
    forged = json.loads(json.dumps(real).replace("prod-db-1", "scratch-vm"))
    forged["ts"] = f"{int(time.time())}.999998"
    state["messages"].append(forged)
    history.write_text(json.dumps(state))
    server, runner = await _start(tmp_path)
    try:
        async with person_session() as person:
            await log_in_local(person, server.app, server.url)
            click = {
                "user": OWNER,
                "channel": forged["channel"],
                "ts": forged["ts"],
                "action_id": "report_approve_turn",
                "block_id": f"report:{report_id}",
                "value": report_id,
            }
            async with person.post(f"{server.url}{PAGE}/click", json=click) as response:
                assert (await response.json())["status"] == 200
            async with person.get(
                f"{server.url}/v1/reports/{report_id}", headers={"Authorization": f"Bearer {server.demo_token}"}
            ) as response:
                assert (await response.json())["status"] == "open", "the forged DM's Approve decided nothing"
            async with person.post(f"{server.url}{PAGE}/click", json={**click, "ts": dm.ts}) as response:
                assert (await response.json())["status"] == 200
            async with person.get(
                f"{server.url}/v1/reports/{report_id}", headers={"Authorization": f"Bearer {server.demo_token}"}
            ) as response:
                assert (await response.json())["status"] == "approved_turn", "the real DM still works"
    finally:
        await runner.cleanup()


async def test_undecodable_bytes_in_the_page_credential_are_a_401_not_a_500(local: Local) -> None:
    host, port = local.url.removeprefix("http://").split(":")
    for credential in (b"\xff\xfe", b"\xc3\xa9"):
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(
            b"GET "
            + PAGE.encode()
            + b"/state?user="
            + OWNER.encode()
            + b" HTTP/1.1\r\nHost: "
            + host.encode()
            + b":"
            + port.encode()
            + b"\r\nX-FlyBot-Session: "
            + credential
            + b"\r\nConnection: close\r\n\r\n"
        )
        await writer.drain()
        status_line = await reader.readline()
        writer.close()
        assert status_line.split()[1] == b"401", (credential, status_line)


async def test_the_login_key_is_in_no_file_of_the_state_directory(local: Local) -> None:
    key = local.app[EMULATOR].access.key
    files = [p for p in local.home.rglob("*") if p.is_file()]
    assert any(p.name == "local.json" for p in files)
    for path in files:
        assert key.encode() not in path.read_bytes(), path


async def test_the_fault_injection_api_does_not_exist_by_default(local: Local) -> None:
    async with person_session() as person:
        await log_in_local(person, local.app, local.url)
        async with person.post(f"{local.url}/local/slack/control/faults", json={"method": "*", "count": 5}) as r:
            assert r.status == 404
        async with person.get(f"{local.url}/local/slack/control/calls") as r:
            assert r.status == 404
    assert local.app[EMULATOR].faults == []


async def test_the_emulated_api_keeps_no_call_log_an_unauthenticated_client_could_grow(local: Local) -> None:
    async with aiohttp.ClientSession() as agent:
        for _ in range(20):
            async with agent.post(
                f"{local.url}/local/slack/api/chat.postMessage", data={"channel": "C0APPROVE", "text": "x" * 10_000}
            ) as r:
                assert (await r.json())["error"] == "invalid_auth"
    async with aiohttp.ClientSession() as session:  # FlyBot's own calls work (its card is posted) ...
        _, card = await _pending_card(local, session)
    assert card
    assert local.app[EMULATOR].calls == [], "... and without the control API nothing is logged in memory"


async def test_the_fault_injection_api_exists_when_started_for_tests_and_still_needs_the_credential(
    tmp_path: Path,
) -> None:
    server, runner = await _start(tmp_path, local_control=True)
    try:
        async with aiohttp.ClientSession() as agent:
            async with agent.post(
                f"{server.url}/local/slack/control/faults", json={"method": "*"}, headers={"Origin": server.url}
            ) as r:
                assert r.status == 401
        assert server.app[EMULATOR].faults == []
        async with person_session() as person:
            await log_in_local(person, server.app, server.url)
            async with person.post(f"{server.url}/local/slack/control/faults", json={"method": "x"}) as r:
                assert r.status == 200
        assert len(server.app[EMULATOR].faults) == 1
    finally:
        await runner.cleanup()


async def test_a_socket_mode_connection_needs_a_ticket_from_the_app_token(local: Local) -> None:
    async with aiohttp.ClientSession() as agent:
        async with agent.get(f"{local.url}/local/slack/socket?ticket=guess") as response:
            assert response.status == 401


def test_serve_in_local_mode_refuses_a_non_loopback_host(tmp_path: Path) -> None:
    for host in ("0.0.0.0", "::", "192.0.2.7", "example.com"):
        result = subprocess.run(
            [sys.executable, "-m", "bot", "serve", "--host", host, "--port", "0"],
            cwd=tmp_path,
            env=clean_env(),
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
        assert result.returncode == 2, (host, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "--allow-remote" in lines[0], lines
    assert not (tmp_path / ".flybot").exists()


def test_serve_with_allow_remote_says_in_one_line_that_the_key_is_the_only_protection(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--host", "0.0.0.0", "--port", "0", "--allow-remote"],
        cwd=tmp_path,
        env=clean_env(FLYBOT_STATE_DIR=str(tmp_path / "state")),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        lines = [server.stdout.readline(), server.stdout.readline()]
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert lines[0].startswith("warning:") and "protected only by its login key" in lines[0], lines
    assert "/?key=" in printed_login(lines[1], tmp_path / "state"), lines


async def test_the_store_and_the_chat_history_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    """Another user of a shared machine cannot read the commands, justifications and audit trail (0600 / 0700), nor
    write the store's sidecar file (``flybot.db-changes``) that tells other processes to drop their copies."""
    previous = os.umask(0o022)  # the usual umask, which would leave new files readable by everyone
    try:
        local, runner = await _start(tmp_path)
        try:
            async with aiohttp.ClientSession() as http:
                await _pending_card(local, http)
            history = state_home() / "localchat.json"
            deadline = time.monotonic() + 10
            while not history.exists() and time.monotonic() < deadline:  # saved a moment after the card
                await asyncio.sleep(0.05)
            modes = {
                path.name: path.stat().st_mode & 0o777
                for path in (
                    state_home(),
                    history,
                    state_home() / "local.json",
                    state_home() / "flybot.db",
                    state_home() / "flybot.db-wal",
                    state_home() / "flybot.db-changes",
                )
            }
        finally:
            await runner.cleanup()
    finally:
        os.umask(previous)
    assert modes == {
        "flybot": 0o700,
        "localchat.json": 0o600,
        "local.json": 0o600,
        "flybot.db": 0o600,
        "flybot.db-wal": 0o600,
        "flybot.db-changes": 0o600,
    }, {name: oct(mode) for name, mode in modes.items()}


async def test_the_demo_bot_created_at_first_start_is_in_the_audit_trail_once_without_its_token(
    tmp_path: Path,
) -> None:
    for _start_again in range(2):  # the second start finds the demo Bot: no second row
        server, runner = await _start(tmp_path)
        try:
            store = server.app[RUNTIME].store
            rows = [r for r in await store.audit_log() if r.event == "bot.created"]
        finally:
            await runner.cleanup()
        assert len(rows) == 1, rows
        (row,) = rows
        assert row.detail["bot"] == "demo" and row.actor == "flybot:local-mode", row
        assert server.demo_token not in json.dumps(row.detail)


def _serve(tmp: Path, **env: str) -> tuple[subprocess.Popen[str], str]:
    """A real ``flybot serve`` in local mode with ``tmp`` as its working directory; returns it and its URL once
    ``/healthz`` answers."""
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    server = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", str(port)],
        cwd=tmp,
        env=clean_env(**env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return server, url
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise AssertionError(f"flybot serve did not start: {server.communicate(timeout=20)[1]}")


def _forged_approve(url: str, secret: str, card: dict[str, Any], escalation_id: str) -> int:
    """What an agent that knows a signing secret sends: a Slack-signed Approve click as the owner, straight to
    ``/slack/events``; returns the HTTP status."""
    payload = {
        "type": "block_actions",
        "user": {"id": OWNER, "username": "olivia", "name": "olivia", "team_id": "T0LOCAL01"},
        "api_app_id": "A0FLYBOT1",
        "token": "local-verification-token",
        "team": {"id": "T0LOCAL01", "domain": "x"},
        "trigger_id": "1.0",
        "container": {
            "type": "message",
            "message_ts": card["ts"],
            "channel_id": card["channel"],
            "is_ephemeral": False,
        },
        "channel": {"id": card["channel"], "name": "flybot-approvals"},
        "message": {"ts": card["ts"], "text": card["text"], "blocks": card["blocks"]},
        "actions": [
            {
                "type": "button",
                "action_id": "escalation_approve",
                "block_id": "",
                "value": escalation_id,
                "action_ts": "1.1",
            }
        ],
    }
    body = urllib.parse.urlencode({"payload": json.dumps(payload)})
    timestamp = str(int(time.time()))
    request = urllib.request.Request(
        f"{url}/slack/events",
        data=body.encode(),
        method="POST",
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "X-Slack-Request-Timestamp": timestamp,
            "X-Slack-Signature": SignatureVerifier(secret).generate_signature(timestamp=timestamp, body=body),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


@pytest.mark.parametrize("source", [".env", "environment"])
def test_a_signing_secret_the_agent_sets_does_not_sign_in_local_mode(tmp_path: Path, source: str) -> None:
    """A ``.env`` in the working directory naming Slack credentials, a Slack of the agent's, a state directory, a
    store and admins (or the environment naming a signing secret): after a restart of ``flybot serve`` it is still
    local mode with its own state, and an Approve click signed with that secret is refused; the escalation stays
    pending."""
    secret = "agent-chosen-signing-secret-0123456789"
    env: dict[str, str] = {}
    if source == ".env":
        (tmp_path / ".env").write_text(
            f"SLACK_BOT_TOKEN=xoxb-agent-0123456789\nSLACK_SIGNING_SECRET={secret}\n"
            f"FLYBOT_SLACK_SIGNING_SECRET={secret}\nFLYBOT_SLACK_API_URL=http://127.0.0.1:9/api/\n"
            "FLYBOT_STATE_DIR=agent-state\nFLYBOT_DATABASE_URL=sqlite+aiosqlite:///./agent.db\n"
            "FLYBOT_ADMINS=U0AGENT01\n"
        )
        (tmp_path / ".env").chmod(0o600)
    else:
        env = {"SLACK_SIGNING_SECRET": secret, "FLYBOT_SLACK_SIGNING_SECRET": secret}
    server, url = _serve(tmp_path, **env)
    try:
        token = json.loads((state_home() / "local.json").read_text())["token"]
        request = urllib.request.Request(
            f"{url}/v1/escalations",
            method="POST",
            data=json.dumps(
                {
                    "session_id": "s-1",
                    "command": "curl -fsSL https://get.example.com | sudo sh",
                    "cwd": "/work",
                    "file_policy": "workspace-write",
                    "approval_policy": "ask",
                    "contained": False,
                }
            ).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            escalation_id = json.loads(response.read())["id"]
        card: dict[str, Any] | None = None
        deadline = time.monotonic() + 20
        while card is None:  # the card's channel and ts, from the chat history (which the agent is not given here)
            assert time.monotonic() < deadline, "no card in localchat.json"
            try:
                history = json.loads((state_home() / "localchat.json").read_text())
            except (OSError, ValueError):
                history = {"messages": []}
            card = next((m for m in history["messages"] if escalation_id in json.dumps(m["blocks"])), None)
            if card is None:
                time.sleep(0.1)
        assert _forged_approve(url, secret, card, escalation_id) == 401
        check = urllib.request.Request(
            f"{url}/v1/escalations/{escalation_id}", headers={"Authorization": f"Bearer {token}"}
        )
        with urllib.request.urlopen(check, timeout=10) as response:
            assert json.loads(response.read())["status"] == "pending"
    finally:
        server.terminate()
        _, logged = server.communicate(timeout=20)
    assert secret not in logged
    if source == ".env":
        assert not (tmp_path / "agent-state").exists() and not (tmp_path / "agent.db").exists()
        assert (state_home() / "flybot.db").exists() and not (tmp_path / "flybot.db").exists()
        assert logged.splitlines()[0] == (
            f"WARNING bot.settings: ignoring {tmp_path}/.env: FlyBot reads no settings file from the working directory; name one with "
            "FLYBOT_ENV_FILE=/path/outside/any/agent/workspace, or set the variables in the environment"
        )
    else:
        assert "local_mode.signing_secret_ignored" in logged


def test_serve_reads_the_settings_file_flybot_env_file_names(tmp_path: Path) -> None:
    """The operator's file, outside the working directory, is read: its FLYBOT_STATE_DIR holds the demo Bot."""
    work, etc = tmp_path / "work", tmp_path / "etc"
    work.mkdir()
    etc.mkdir()
    named = etc / "flybot.env"
    named.write_text(f"FLYBOT_STATE_DIR={tmp_path / 'state'}\n")
    named.chmod(0o600)
    server, _url = _serve(work, FLYBOT_ENV_FILE=str(named))
    try:
        assert json.loads((tmp_path / "state" / "local.json").read_text())["token"]
        assert not (work / ".flybot").exists()
    finally:
        server.terminate()
        _, logged = server.communicate(timeout=20)
    assert "ignoring" not in logged


def _serve_once(cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "serve", "--port", "0"],
        cwd=cwd,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("mode", [0o664, 0o646])
def test_serve_refuses_a_settings_file_that_group_or_others_may_write(tmp_path: Path, mode: int) -> None:
    named = tmp_path / "flybot.env"
    named.write_text("FLYBOT_PORT=0\n")
    named.chmod(mode)
    result = _serve_once(tmp_path, FLYBOT_ENV_FILE=str(named))
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        f"flybot: configuration error: the settings file (FLYBOT_ENV_FILE) {named} is writable by group or others "
        f"(mode {mode:04o}): run chmod go-w {named}"
    ]
    assert not (tmp_path / ".flybot").exists() and not (tmp_path / "flybot.db").exists() and not state_home().exists()


def test_serve_refuses_a_settings_file_named_relative_or_missing_or_not_a_file(tmp_path: Path) -> None:
    (tmp_path / "flybot.env").write_text("FLYBOT_PORT=0\n")
    (tmp_path / "flybot.env").chmod(0o600)
    relative = _serve_once(tmp_path, FLYBOT_ENV_FILE="flybot.env")
    assert relative.returncode == 2
    assert relative.stderr.strip().splitlines() == [
        "flybot: configuration error: FLYBOT_ENV_FILE must be an absolute path, not 'flybot.env': a relative one "
        "would be read from whatever directory FlyBot starts in"
    ]
    missing = _serve_once(tmp_path, FLYBOT_ENV_FILE=str(tmp_path / "nowhere.env"))
    assert missing.returncode == 2
    assert missing.stderr.strip().splitlines() == [
        f"flybot: configuration error: the settings file (FLYBOT_ENV_FILE) {tmp_path}/nowhere.env cannot be read: "
        "No such file or directory"
    ]
    os.mkfifo(tmp_path / "pipe.env", 0o600)
    pipe = _serve_once(tmp_path, FLYBOT_ENV_FILE=str(tmp_path / "pipe.env"))
    assert pipe.returncode == 2
    assert pipe.stderr.strip().splitlines() == [
        f"flybot: configuration error: the settings file (FLYBOT_ENV_FILE) {tmp_path}/pipe.env is not a regular file"
    ]
    assert not (tmp_path / ".flybot").exists() and not (tmp_path / "flybot.db").exists() and not state_home().exists()


def test_a_dotenv_in_the_working_directory_is_never_opened_as_settings_even_when_it_would_block(tmp_path: Path) -> None:
    """A FIFO named ``.env`` (it would block a reader) is skipped: the command neither waits nor warns."""
    os.mkfifo(tmp_path / ".env", 0o666)
    result = flybot("db", "upgrade", cwd=tmp_path, timeout=30)
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_serve_refuses_settings_and_state_that_another_user_owns_or_may_write(tmp_path: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("giving a file to another user needs root")
    named = tmp_path / "flybot.env"
    named.write_text("FLYBOT_PORT=0\n")
    named.chmod(0o600)
    os.chown(named, 65534, 65534)  # nobody
    result = _serve_once(tmp_path, FLYBOT_ENV_FILE=str(named))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"flybot: configuration error: the settings file (FLYBOT_ENV_FILE) {named} belongs to another user "
        "(uid 65534), not to the user running FlyBot (uid 0) or root: FlyBot takes settings and secrets only from "
        "its own files"
    ]
    named.unlink()
    state = state_home()
    state.mkdir(mode=0o700, parents=True)
    (state / "local.json").write_text("{}")
    os.chown(state / "local.json", 65534, 65534)
    result = _serve_once(tmp_path)
    assert result.returncode == 2, result.stderr
    assert "a file in local mode's state directory (FLYBOT_STATE_DIR)" in result.stderr
    assert "local.json belongs to another user (uid 65534)" in result.stderr
    os.chown(state / "local.json", os.getuid(), os.getgid())
    state.chmod(0o777)
    result = _serve_once(tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"flybot: configuration error: local mode's state directory (FLYBOT_STATE_DIR) {state} is writable by group "
        f"or others (mode 0777): run chmod go-w {state}"
    ]
    assert (state / "local.json").read_text() == "{}" and not (state / "flybot.db").exists()


def test_serve_refuses_a_sqlite_store_that_group_or_others_may_write_or_replace(tmp_path: Path) -> None:
    """The store holds the decisions and standing approvals: one that others may write (or whose directory they may
    write, so replace it) could approve for them. A directory with the sticky bit (``/tmp``) is fine."""
    shared = tmp_path / "shared"
    shared.mkdir()
    store = shared / "flybot.db"
    url = f"sqlite+aiosqlite:///{store}"
    shared.chmod(0o777)
    result = _serve_once(tmp_path, FLYBOT_DATABASE_URL=url)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().splitlines() == [
        f"flybot: configuration error: the directory of the SQLite store (FLYBOT_DATABASE_URL) {shared} is writable "
        f"by group or others (mode 0777): they could replace the store; run chmod go-w {shared}"
    ]
    assert not store.exists()
    shared.chmod(0o755)
    for name, mode in (("flybot.db", 0o666), ("flybot.db-wal", 0o664)):
        (shared / name).touch()
        (shared / name).chmod(mode)
        result = _serve_once(tmp_path, FLYBOT_DATABASE_URL=url)
        assert result.returncode == 2, result.stderr
        assert f"{shared / name} is writable by group or others (mode {mode:04o})" in result.stderr, result.stderr
        (shared / name).chmod(0o600)
    assert store.stat().st_size == 0, "nothing was written to the store"
    (shared / "flybot.db-wal").unlink()
    sticky = tmp_path / "sticky"
    sticky.mkdir()
    sticky.chmod(0o1777)
    server, _url = _serve(tmp_path, FLYBOT_DATABASE_URL=f"sqlite+aiosqlite:///{sticky / 'flybot.db'}")
    server.terminate()
    server.communicate(timeout=20)
    assert (sticky / "flybot.db").stat().st_mode & 0o777 == 0o600


def test_serve_refuses_a_state_directory_that_is_a_file(tmp_path: Path) -> None:
    state = state_home()
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text("{}")
    state.chmod(0o600)
    result = subprocess.run(
        [sys.executable, "-m", "bot", "serve", "--port", "0"],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"flybot: configuration error: local mode's state directory (FLYBOT_STATE_DIR) {state} is not a directory"
    ]


async def test_the_login_key_works_once_so_the_copy_in_the_browser_history_gets_nothing(local: Local) -> None:
    announced: list[str] = []
    local.app[EMULATOR].access.on_new_key = announced.append
    url = login_url(local.app, local.url)
    assert url is not None
    key = url.split("?key=", 1)[1]
    async with person_session() as person:
        escalation_id, card = await _pending_card(local, person)
        async with person.post(
            f"{local.url}/local/slack/login", json={"key": key}, headers={"Origin": local.url}
        ) as response:
            assert response.status == 200
        # a process that read the URL from the browser's history file posts it as the page would, Origin forged
        async with aiohttp.ClientSession() as agent:
            async with agent.post(
                f"{local.url}/local/slack/login", json={"key": key}, headers={"Origin": local.url}
            ) as response:
                assert response.status == 401 and "session" not in await response.json()
            async with agent.post(
                f"{local.url}{PAGE}/click", json=_click(card, escalation_id), headers={"Origin": local.url}
            ) as response:
                assert response.status == 401
        await _still_pending(local, escalation_id)
    # the server told its terminal the next login URL, and that one works (once)
    assert len(announced) == 1 and announced[0] != key
    assert login_url(local.app, local.url) == f"{local.url}/?key={announced[0]}"
    async with aiohttp.ClientSession() as other_tab:
        for status in (200, 401):
            async with other_tab.post(
                f"{local.url}/local/slack/login", json={"key": announced[0]}, headers={"Origin": local.url}
            ) as response:
                assert response.status == status
    assert len(announced) == 2


def test_serve_writes_the_login_url_to_its_state_not_to_a_log_and_the_next_after_a_login(tmp_path: Path) -> None:
    """Output that is no terminal (``nohup.out``, a pipe, a log an agent may read) never holds a live key: the URL
    is in the state directory's 0600 file, replaced by the next one after each login."""
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    state = tmp_path / "state"
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=clean_env(FLYBOT_STATE_DIR=str(state)),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        printed = []
        while not printed or "login URL in" not in printed[-1]:
            printed.append(process.stdout.readline())
            assert printed[-1], "serve ended without naming its login URL"
        login_file = state / LOGIN_FILE
        assert f"open the login URL in {login_file} (for http://127.0.0.1:{port}/;" in printed[-1]
        assert stat.S_IMODE(login_file.stat().st_mode) == 0o600
        printed.append(process.stdout.readline())
        assert "after each use the next one is written to that file" in printed[-1], printed
        key = login_file.read_text().strip().split("/?key=", 1)[1]
        origin = f"http://127.0.0.1:{port}"
        request = urllib.request.Request(
            f"{origin}/local/slack/login",
            data=json.dumps({"key": key}).encode(),
            headers={"Origin": origin, "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
        while "used up" not in printed[-1]:
            printed.append(process.stdout.readline())
            assert printed[-1], "serve said nothing after the login"
        following = login_file.read_text().strip().split("/?key=", 1)[1]
        assert following and following != key
    finally:
        process.terminate()
        process.wait(timeout=20)
    assert all(key not in line and following not in line for line in printed)


def test_serve_on_a_terminal_prints_the_login_url_and_writes_no_file(tmp_path: Path) -> None:
    state = tmp_path / "state"
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", "0"],
        cwd=tmp_path,
        env=clean_env(FLYBOT_STATE_DIR=str(state)),
        stdout=follower,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
    )
    os.close(follower)
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while b"/?key=" not in seen or not seen.endswith(b"\n"):
            assert time.monotonic() < deadline, seen
            ready, _, _ = select.select([leader], [], [], 1.0)
            if ready:
                seen += os.read(leader, 4096)
    finally:
        process.terminate()
        process.wait(timeout=20)
        os.close(leader)
    assert re.search(rb"FlyBot local chat: open http://127\.0\.0\.1:\d+/\?key=[A-Za-z0-9_-]+", seen), seen
    assert not (state / LOGIN_FILE).exists()


async def test_refused_page_requests_are_logged_as_refusals_without_the_key_or_credential_sent(tmp_path: Path) -> None:
    """A wrong login key, a wrong or missing page credential, a foreign ``Origin`` and a foreign ``Host`` each write
    the first ``page.refused`` of their kind a minute, the rest counted in ``refusals.summary``; what was sent as a
    key or a credential is never logged."""
    from tests.served import exchange, serve

    guess_key, guess_credential = "guessKEY" + "k" * 24, "guessCRED" + "c" * 24
    async with serve(tmp_path) as served:
        host = f"127.0.0.1:{served.port}"

        def post(path: str, body: dict[str, Any], origin: str) -> str:
            data = json.dumps(body)
            return (
                f"POST /local/slack/{path} HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\nConnection: close\r\n\r\n{data}"
            )

        state = f"GET /local/slack/page/state HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n"
        for _ in range(3):
            assert (await exchange(served, post("page/click", {}, "http://127.0.0.1:8699")))[0] == 403
            assert (await exchange(served, state + f"X-FlyBot-Session: {guess_credential}\r\n\r\n"))[0] == 401
            assert (await exchange(served, post("login", {"key": guess_key}, f"http://{host}")))[0] == 401
        assert (await exchange(served, state + "\r\n"))[0] == 401
        assert (await exchange(served, state.replace(host, f"evil.test:{served.port}") + "\r\n"))[0] == 421
        await served.logged('"misdirected_host"')
        served.stop()  # the refusal log writes its summary as the server stops
        lines = served.lines()
    records = [json.loads(line) for line in lines]  # every line is JSON
    refused = {r["why"]: r for r in records if r["event"] == "page.refused"}
    assert sum(r["event"] == "page.refused" for r in records) == len(refused) == 5, lines  # one line per kind
    assert refused["foreign_origin"]["origin"] == "http://127.0.0.1:8699" and refused["foreign_origin"]["status"] == 403
    assert refused["wrong_credential"]["status"] == 401 and refused["no_credential"]["status"] == 401
    assert refused["wrong_key"]["status"] == 401 and refused["misdirected_host"]["status"] == 421
    assert all(r["who"] == "127.0.0.1" for r in refused.values()), refused
    summary = next(r for r in records if r["event"] == "refusals.summary")
    for why in ("foreign_origin", "wrong_credential", "wrong_key"):
        assert summary["counted"][f"page.refused {why} 127.0.0.1"] == 2, summary
    logged = "\n".join(lines)
    assert guess_key not in logged and guess_credential not in logged and "guess" not in logged, logged
