"""Slack as it really is: the shipped app manifests, installed into the Slack emulation, grant every Web API method
FlyBot calls; each scope they ask for is needed; without one, Slack's ``missing_scope`` reaches the operator as a
clear error, never a crash."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from slack_sdk.web.async_client import AsyncWebClient

from bot.chat import Refused, Tag
from bot.health import Health
from bot.localchat import SlackEmulator
from bot.slack.directory import registration_warnings, slack_names
from bot.slack.gateway import SlackChat, make_web_client
from bot.slack.scopes import FLYBOT_CALLS, METHOD_SCOPES, manifest_bot_scopes, required_scopes
from bot.store.sql import open_store
from tests.harness import (
    ADMIN,
    BOT_TOKEN,
    MANIFESTS,
    OWNER,
    ROOM,
    SIGNING_SECRET,
    Harness,
    free_socket,
    load_manifest,
)

PRIVATE_ROOM = "G0PRIVATE"
GROUP = "S0ONCALL1"
BOT_DIR = Path(__file__).resolve().parent.parent / "bot"
HOME_VIEW = {"type": "home", "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "hello"}}]}
MODAL = {
    "type": "modal",
    "title": {"type": "plain_text", "text": "FlyBot"},
    "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "hello"}}],
}


def test_the_scope_table_names_every_method_flybot_calls_in_its_code() -> None:
    """Every ``client.<method>(`` call in bot/ is a row of FLYBOT_CALLS, and every row is called somewhere: the table
    the emulation enforces and the manifests follow is the code's own list."""
    called: set[str] = set()
    pattern = re.compile(r"\b(?:client|sender|updater)\.((?:auth|chat|conversations|users|usergroups|views)_\w+)\(")
    for path in BOT_DIR.rglob("*.py"):
        if "localchat" in path.parts:
            continue
        called |= {name.replace("_", ".") for name in pattern.findall(path.read_text())}
    assert called == set(FLYBOT_CALLS)
    assert set(FLYBOT_CALLS) <= set(METHOD_SCOPES)
    assert all(row.source == f"https://api.slack.com/methods/{method}" for method, row in METHOD_SCOPES.items())


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.name)
def test_each_shipped_manifest_asks_for_what_flybot_calls_and_nothing_more(path: Path) -> None:
    assert manifest_bot_scopes(load_manifest(path)) == required_scopes()


def test_conversations_info_needs_the_scope_of_the_rooms_kind() -> None:
    """Slack's conversations.info page lists channels:read, groups:read, im:read, mpim:read for bot tokens: one per
    kind of conversation, not all four at once."""
    info = METHOD_SCOPES["conversations.info"]
    assert info.needed("public") == ("channels:read",)
    assert info.needed("private") == ("groups:read",)
    assert {"channels:read", "groups:read"} <= required_scopes()


def _without(manifest: dict[str, Any], scope: str) -> dict[str, Any]:
    scopes = [s for s in manifest["oauth_config"]["scopes"]["bot"] if s != scope]
    assert len(scopes) == len(manifest["oauth_config"]["scopes"]["bot"]) - 1, scope
    return {**manifest, "oauth_config": {"scopes": {"bot": scopes}}}


class Workspace:
    """The Slack emulation with one app installed, on loopback, and FlyBot's own Slack code pointed at it."""

    def __init__(self, manifest: dict[str, Any]) -> None:
        self.emulator = SlackEmulator(
            bot_token=BOT_TOKEN, signing_secret=SIGNING_SECRET, control=True, manifest=manifest
        )
        self.emulator.channels[PRIVATE_ROOM] = {
            "id": PRIVATE_ROOM,
            "name": "flybot-private",
            "is_im": False,
            "user": None,
            "is_private": True,
        }
        self.runner: web.AppRunner | None = None
        self.url = ""
        self.client: AsyncWebClient | None = None

    async def __aenter__(self) -> Workspace:
        sock = free_socket()
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self.emulator.public_base = self.url
        self.runner = web.AppRunner(self.emulator.app())
        await self.runner.setup()
        await web.SockSite(self.runner, sock).start()
        self.client = make_web_client(BOT_TOKEN, f"{self.url}/api/", max_retries=0)
        return self

    async def __aexit__(self, *_exc: object) -> None:
        if self.client is not None and self.client.session is not None:
            await self.client.session.close()
        if self.runner is not None:
            await self.runner.cleanup()

    def refused(self) -> dict[str, set[str]]:
        """Method -> the scopes Slack said it needed, for every call answered ``missing_scope``."""
        found: dict[str, set[str]] = {}
        for call in self.emulator.calls:
            if call.get("error") == "missing_scope":
                found.setdefault(call["method"], set()).add(call["needed"])
        return found


async def exercise(workspace: Workspace, tmp_path: Path) -> tuple[dict[str, Any], list[str]]:
    """Every Web API call FlyBot makes, through FlyBot's own Slack code, on each kind of conversation it uses (a
    public room, a private room, an owner's DM); returns what FlyBot made of each answer, and what it logged for the
    operator. Never raises: a refusal is an outcome."""
    assert workspace.client is not None
    chat = SlackChat(workspace.client)
    outcome: dict[str, Any] = {}
    dm = await chat.dm_channel(OWNER)
    outcome["dm"] = dm
    since = datetime.now(UTC) - timedelta(minutes=1)
    for name, channel in (("public", ROOM), ("private", PRIVATE_ROOM), ("im", dm or "D0NONE")):
        tag = Tag("flybot_card", f"card-{name}")
        try:
            _, ts = await chat.post(channel, "card", [], tag)
            await chat.update(channel, ts, "card, decided", [])
            await chat.post(channel, "a reply", [], Tag("flybot_notice", f"reply-{name}"), thread_ts=ts)
            outcome[f"found {name}"] = await chat.find(channel, tag, since=since)
            outcome[f"found reply {name}"] = await chat.find(
                channel, Tag("flybot_notice", f"reply-{name}"), since=since, thread_ts=ts
            )
        except Refused as exc:
            outcome[f"post {name}"] = exc.error
    try:
        await chat.tell(ROOM, OWNER, "only you see this")
        await chat.tell(None, OWNER, "in your DM")
        outcome["tell"] = "told"
    except Refused as exc:
        outcome["tell"] = exc.error
    outcome["ephemeral"] = await chat.ephemeral(PRIVATE_ROOM, OWNER, "only you see this")
    outcome["admin"] = await chat.is_workspace_admin(ADMIN)
    outcome["group"] = await chat.usergroup_members(GROUP)
    outcome["home"] = await chat.publish_home(OWNER, HOME_VIEW)
    outcome["modal"] = await chat.open_view(workspace.emulator._trigger(OWNER), MODAL)
    rooms = (ROOM, PRIVATE_ROOM, dm or "D0NONE")
    warnings = [w for room in rooms for w in await registration_warnings(workspace.client, [OWNER], room)]
    names = slack_names(workspace.client, timeout_s=3.0)
    outcome["names"] = (
        await names.person(OWNER),
        *[await names.room(room) for room in rooms],
        await names.group(GROUP),
    )
    store = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'health.db'}")
    try:
        outcome["health"] = (await Health(store=store, client=workspace.client).check())["slack"]
    finally:
        await store.close()
    return outcome, warnings


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.name)
async def test_every_method_flybot_calls_works_under_the_shipped_manifest(path: Path, tmp_path: Path) -> None:
    async with Workspace(load_manifest(path)) as workspace:
        outcome, warnings = await exercise(workspace, tmp_path)
        called = {call["method"] for call in workspace.emulator.calls}
        assert set(FLYBOT_CALLS) <= called, set(FLYBOT_CALLS) - called
        assert workspace.refused() == {}
    assert warnings == []
    assert outcome["admin"] is True and outcome["group"] == frozenset({"U0OWNER01", "U0OTHER01"})
    assert outcome["home"] is None and outcome["modal"] is None and outcome["tell"] == "told"
    assert outcome["ephemeral"] is True
    assert all(outcome[f"found {kind}"] and outcome[f"found reply {kind}"] for kind in ("public", "private", "im"))
    assert outcome["names"] == ("@Olivia", "#flybot-approvals", "#flybot-private", "#olivia", "@flybot-oncall")
    assert outcome["health"]["ok"] and "lacks" not in outcome["health"]["detail"]


WEB_API_SCOPES = sorted(required_scopes() - {"commands"})


@pytest.mark.parametrize("scope", WEB_API_SCOPES)
async def test_a_manifest_without_a_needed_scope_gets_missing_scope_and_flybot_says_which(
    scope: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Removing any scope the manifest asks for makes some call FlyBot makes fail with ``missing_scope``, naming
    that scope; FlyBot goes on (fail closed) and tells the operator which scope to add, in its log and in /readyz."""
    async with Workspace(_without(load_manifest(MANIFESTS[0]), scope)) as workspace:
        outcome, warnings = await exercise(workspace, tmp_path)
        needed = {call["needed"] for call in workspace.emulator.calls if call.get("error") == "missing_scope"}
    assert scope in needed
    logged = capsys.readouterr()
    assert f"the Slack app lacks the scope {scope}" in logged.out + logged.err
    assert scope in outcome["health"]["detail"] and "reinstall" in outcome["health"]["detail"]
    if scope in ("channels:read", "groups:read"):
        assert any(f"lacks the scope {scope} that conversations.info needs" in w for w in warnings), warnings


@pytest.mark.parametrize("scope", ["commands", "channels:history", "im:history"])
async def test_without_its_scope_slack_delivers_no_command_or_message_event(scope: str, tmp_path: Path) -> None:
    """A slash command needs ``commands``; a message event in a room or DM needs that kind's history scope: without
    it Slack never delivers it, so the manifest must ask for it."""
    room = ROOM if scope != "im:history" else None
    for manifest, delivered in (
        (load_manifest(MANIFESTS[0]), True),
        (_without(load_manifest(MANIFESTS[0]), scope), False),
    ):
        harness = Harness(tmp=tmp_path / str(delivered), manifest=manifest)
        (tmp_path / str(delivered)).mkdir()
        await harness.start()
        try:
            channel = room or harness.emulator._dm(OWNER)
            if scope == "commands":
                path, body = "page/command", {"user": OWNER, "channel": channel, "text": "help", "command": "/flybot"}
            else:
                path, body = "page/message", {"user": OWNER, "channel": channel, "text": "hello"}
            async with harness.http.post(f"{harness.emu_url}/{path}", json=body) as response:
                answer = await response.json()
            assert answer["ok"] is delivered, answer
            if not delivered:
                assert answer["error"] == "missing_scope" and answer["needed"] == scope
        finally:
            await harness.close()
