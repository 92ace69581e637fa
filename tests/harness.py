"""A real FlyBot on loopback against the Slack Web API emulation, driven over HTTP like a person and a session would.

No FlyBot function is patched: the emulation runs as its own aiohttp server; FlyBot runs in Slack HTTP mode
pointed at it (``FLYBOT_SLACK_API_URL``); clicks reach FlyBot as signed payloads on ``/slack/events``.
"""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import yaml
from aiohttp import web
from yarl import URL

from bot.app import RUNTIME, Runtime, create_app, login_url
from bot.bots import register_bot
from bot.localchat import SlackEmulator
from bot.settings import Settings
from bot.slack.commands import WORKING_TEXT
from bot.store import StandingApproval, Store
from tests.pg import store_settings

SIGNING_SECRET = "test-signing-secret-0123456789"
BOT_TOKEN = "xoxb-test-token"
OWNER, ADMIN, OTHER = "U0OWNER01", "U0ADMIN01", "U0OTHER01"
ROOM = "C0APPROVE"
DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
MANIFESTS = (DEPLOY / "slack-app-manifest.yaml", DEPLOY / "slack-app-manifest.socket-mode.yaml")
"""The Slack app manifests FlyBot ships (HTTP mode, Socket Mode)."""


async def add_standing(store: Store, approval: StandingApproval) -> None:
    """Insert a standing approval without its audit row (set-up; the service writes both together)."""
    async with store.transaction() as tx:
        await tx.add_standing(approval)


def load_manifest(path: Path) -> dict[str, Any]:
    """A shipped Slack app manifest, parsed."""
    manifest = yaml.safe_load(path.read_text())
    assert isinstance(manifest, dict), path
    return manifest


def person_session() -> aiohttp.ClientSession:
    """An HTTP client that keeps cookies for 127.0.0.1 (aiohttp's default jar ignores cookies from IP hosts)."""
    return aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=90), cookie_jar=aiohttp.CookieJar(unsafe=True))


async def log_in(http: aiohttp.ClientSession, emu_url: str, emulator: SlackEmulator) -> None:
    """Log ``http`` in to the emulation's page API with its login key (as a person opening the printed URL)."""
    await page_log_in(http, f"{emu_url}/login", emulator.access.key)


async def log_in_local(http: aiohttp.ClientSession, app: web.Application, base_url: str) -> None:
    """Log ``http`` in to a local-mode FlyBot's page with the key of the login URL ``flybot serve`` prints."""
    url = login_url(app, base_url)
    assert url is not None and "/?key=" in url
    await page_log_in(http, f"{base_url}/local/slack/login", url.split("/?key=", 1)[1])


async def page_log_in(http: aiohttp.ClientSession, login: str, key: str) -> None:
    """What the page's script does: ``POST login`` with the key from the page's origin; then every request of
    ``http`` carries the page credential (``X-FlyBot-Session``) and that ``Origin``, as the page's calls do."""
    origin = str(URL(login).origin())
    async with http.post(login, json={"key": key}, headers={"Origin": origin}) as response:
        assert response.status == 200, response.status
        session = (await response.json())["session"]
    http.headers.update({"X-FlyBot-Session": session, "Origin": origin})


def free_socket(port: int = 0) -> socket.socket:
    """A bound loopback socket on ``port`` (0: a free one), kept open so no other process can take it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    return sock


@dataclass
class Harness:
    """Starts/stops the emulation and FlyBot; offers the session's and the person's actions over HTTP."""

    tmp: Path
    settings_overrides: dict[str, Any] = field(default_factory=dict)
    manifest: dict[str, Any] | None = field(default_factory=lambda: load_manifest(MANIFESTS[0]))
    """The Slack app installed into the emulation (its scopes are checked on every call); None: none installed."""
    emulator: SlackEmulator = field(init=False)
    emu_url: str = ""
    url: str = ""
    http: aiohttp.ClientSession = field(init=False)
    _emu_runner: web.AppRunner | None = None
    _runner: web.AppRunner | None = None
    _app: web.Application | None = None
    _port: int = 0

    async def start(self) -> None:
        self.http = person_session()
        self.emulator = SlackEmulator(
            bot_token=BOT_TOKEN, signing_secret=SIGNING_SECRET, control=True, manifest=self.manifest
        )
        sock = free_socket()
        self.emu_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self.emulator.public_base = self.emu_url
        self._emu_runner = web.AppRunner(self.emulator.app())
        await self._emu_runner.setup()
        await web.SockSite(self._emu_runner, sock).start()
        await log_in(self.http, self.emu_url, self.emulator)
        await self.start_flybot()

    def settings(self) -> Settings:
        values: dict[str, Any] = {
            "database_url": f"sqlite+aiosqlite:///{self.tmp / 'flybot.db'}",
            "slack_bot_token": BOT_TOKEN,
            "slack_signing_secret": SIGNING_SECRET,
            "slack_api_url": f"{self.emu_url}/api/",
            "sweep_interval_s": 0.2,
            "slack_room_interval_s": 0.0,
            "delivery_deadline_s": 3.0,
            "admins": (ADMIN,),
            "state_dir": str(self.tmp / ".flybot"),
        }
        values.update(self.settings_overrides)
        values = {**store_settings(values["database_url"]), **values}
        return Settings(**values)

    async def start_flybot(self) -> None:
        """Start FlyBot (again on the same port after a stop, so clients can re-poll it)."""
        sock = free_socket(self._port)
        self._port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self._port}"
        self._app = create_app(self.settings(), base_url=self.url)
        self._runner = web.AppRunner(self._app)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        self.emulator.events_url = f"{self.url}/slack/events"

    async def stop_flybot(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def restart_flybot(self) -> None:
        await self.stop_flybot()
        await self.start_flybot()

    async def close(self) -> None:
        await self.stop_flybot()
        if self._emu_runner is not None:
            await self._emu_runner.cleanup()
        await self.http.close()

    @property
    def runtime(self) -> Runtime:
        assert self._app is not None
        return self._app[RUNTIME]

    async def add_bot(
        self,
        name: str = "ci-bot",
        owners: tuple[str, ...] = (OWNER,),
        room: str | None = ROOM,
        chat_user: str | None = None,
    ) -> str:
        _bot, token = await register_bot(self.runtime.store, name, list(owners), room, chat_user=chat_user)
        return token

    # -- the session's side -------------------------------------------------------------------------
    def body(self, **overrides: Any) -> dict[str, Any]:
        body: dict[str, Any] = {
            "session_id": "sess-1",
            "command": "sudo apt-get install -y jq",
            "cwd": "/work/repo",
            "file_policy": "workspace-write",
            "approval_policy": "ask",
            "contained": False,
            "justification": "need jq to parse the API output",
        }
        body.update(overrides)
        return {k: v for k, v in body.items() if v is not None}

    async def post(self, token: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
        hdrs = {"Authorization": f"Bearer {token}", **(headers or {})}
        async with self.http.post(f"{self.url}/v1/escalations", json=body, headers=hdrs) as response:
            return response.status, await response.json(content_type=None)

    async def escalate(self, token: str, **overrides: Any) -> dict[str, Any]:
        """POST an escalation (201 at once) and wait until its card is posted or failed (the outbox delivers it
        after the answer); returns the escalation as it is then."""
        status, data = await self.post(token, self.body(**overrides))
        assert status == 201, data
        return await self.card_settled(token, data)

    async def outbox_drained(self, timeout: float = 30.0) -> None:
        """Wait until every queued chat job (cards, updates, notices, DMs) was delivered or given up."""
        import asyncio

        from bot.app import utcnow

        deadline = time.monotonic() + timeout
        while True:
            async with self.runtime.store.transaction() as tx:
                if not await tx.queue_stats(utcnow()):
                    return
            assert time.monotonic() < deadline, f"chat jobs still queued after {timeout}s"
            await asyncio.sleep(0.02)

    def notices(self, room: str = ROOM) -> list[Any]:
        """FlyBot's folded standing-approval notices in ``room`` (messages tagged ``flybot_notice``)."""
        return [
            m
            for m in self.emulator.messages
            if m.channel == room and (m.metadata or {}).get("event_type") == "flybot_notice"
        ]

    async def card_settled(self, token: str, data: dict[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        """Poll the escalation (as a session would) until its card is no longer ``queued``."""
        import asyncio

        deadline = time.monotonic() + timeout
        while data.get("card") and data["card"]["status"] == "queued":
            assert time.monotonic() < deadline, f"card still queued after {timeout}s: {data}"
            await asyncio.sleep(0.02)
            _, data = await self.get(token, data["id"])
        return data

    async def get(self, token: str, escalation_id: str, wait: float = 0) -> tuple[int, dict[str, Any]]:
        async with self.http.get(
            f"{self.url}/v1/escalations/{escalation_id}",
            params={"wait": str(wait)},
            headers={"Authorization": f"Bearer {token}"},
        ) as response:
            return response.status, await response.json(content_type=None)

    async def eventually(self, check: Any, timeout: float = 5.0) -> None:
        """Wait until ``check()`` is truthy (card updates happen after Slack's ack, asynchronously)."""
        import asyncio
        import time

        deadline = time.monotonic() + timeout
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError(f"condition not met within {timeout}s")
            await asyncio.sleep(0.05)

    # -- the person's side (through the emulation's page API, over HTTP) -------------------------------
    def channel_messages(self, channel: str = ROOM, *, viewer: str = OWNER) -> list[dict[str, Any]]:
        return [m for m in self.emulator.snapshot(viewer)["messages"] if m["channel"] == channel]

    def card_for(self, escalation_id: str) -> dict[str, Any]:
        for message in self.emulator.messages:
            if message.ephemeral_to is None and escalation_id in _button_values(message.blocks):
                return {"channel": message.channel, "ts": message.ts, "blocks": message.blocks, "text": message.text}
        for message in self.emulator.messages:
            if message.ephemeral_to is None and any(escalation_id in str(b) for b in message.blocks):
                return {"channel": message.channel, "ts": message.ts, "blocks": message.blocks, "text": message.text}
        raise AssertionError(f"no card for {escalation_id}")

    def ephemerals(self, user: str) -> list[str]:
        return [m.text for m in self.emulator.messages if m.ephemeral_to == user]

    async def click(self, user: str, escalation_id: str, action_id: str) -> dict[str, Any]:
        card = self.card_for(escalation_id)
        block_id = next((b.get("block_id", "") for b in card["blocks"] if b.get("type") == "actions"), "")
        async with self.http.post(
            f"{self.emu_url}/page/click",
            json={
                "user": user,
                "channel": card["channel"],
                "ts": card["ts"],
                "action_id": action_id,
                "block_id": block_id,
                "value": escalation_id,
            },
        ) as response:
            return await response.json()

    async def slash(self, user: str, text: str, channel: str = ROOM) -> str:
        """Type ``/flybot TEXT`` as ``user``; returns FlyBot's ephemeral answer."""
        async with self.http.post(
            f"{self.emu_url}/page/command", json={"user": user, "channel": channel, "text": text, "command": "/flybot"}
        ) as response:
            data = await response.json()
        assert data["status"] == 200, data
        # An answer slower than the command's budget follows the acknowledgement through the response_url.
        await self.eventually(lambda: self.ephemerals(user)[-1] != WORKING_TEXT, timeout=40)
        return self.ephemerals(user)[-1]

    async def open_home(self, user: str) -> dict[str, Any]:
        """Deliver ``app_home_opened`` for ``user`` and return the published Home view."""
        self.emulator.home.pop(user, None)
        status, _body = await self.emulator.deliver_json(
            {
                "type": "event_callback",
                "team_id": "T0LOCAL01",
                "api_app_id": "A0FLYBOT1",
                "event_id": f"Ev{time.monotonic_ns()}",
                "event_time": 1,
                "event": {"type": "app_home_opened", "user": user, "channel": "D0HOME", "tab": "home"},
            }
        )
        assert status == 200
        await self.eventually(lambda: user in self.emulator.home)
        return self.emulator.home[user].view

    async def click_in_view(self, user: str, view_id: str, action_id: str, value: str) -> dict[str, Any]:
        async with self.http.post(
            f"{self.emu_url}/page/click",
            json={"user": user, "view_id": view_id, "action_id": action_id, "block_id": "", "value": value},
        ) as response:
            return await response.json()

    def open_modal(self, user: str) -> dict[str, Any] | None:
        modal = self.emulator.snapshot(user)["modal"]
        return modal

    async def submit_modal(self, user: str, view_id: str, values: dict[str, dict[str, str]]) -> dict[str, Any]:
        async with self.http.post(
            f"{self.emu_url}/page/view_submit", json={"user": user, "view_id": view_id, "values": values}
        ) as response:
            return await response.json()

    async def fault(
        self, method: str, status: int = 500, count: int = 100, error: str = "internal_error", delay_s: float = 0.0
    ) -> None:
        async with self.http.post(
            f"{self.emu_url}/control/faults",
            json={"method": method, "status": status, "count": count, "error": error, "delay_s": delay_s},
        ) as response:
            assert response.status == 200


def _button_values(blocks: list[dict[str, Any]]) -> set[str]:
    values: set[str] = set()
    for block in blocks:
        for element in block.get("elements", []) if block.get("type") == "actions" else []:
            if "value" in element:
                values.add(str(element["value"]))
    return values


def block_text(blocks: list[dict[str, Any]]) -> str:
    """All text in a card, flattened (for assertions on what a person reads)."""
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("text"), str):
                out.append(node["text"])
            for key in ("text", "elements", "fields", "accessory", "title"):
                if key in node and not isinstance(node[key], str):
                    walk(node[key])
            if node.get("type") == "user" and "user_id" in node:
                out.append(f"<@{node['user_id']}>")
            if node.get("type") == "channel" and "channel_id" in node:
                out.append(f"<#{node['channel_id']}>")
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(blocks)
    return "\n".join(out)
