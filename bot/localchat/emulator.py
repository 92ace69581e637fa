"""An in-memory emulation of the Slack Web API methods FlyBot calls, plus the local chat page's API.

Routes (relative to where the sub-application is mounted, e.g. ``/local/slack/``):

- ``POST api/{method}``: Slack Web API methods (``auth.test``, ``chat.postMessage``, ``chat.update``,
  ``chat.postEphemeral``, ``views.open``, ``views.update``, ``views.push``, ``views.publish``, ``users.info``,
  ``conversations.open``, ``conversations.info``, ``conversations.history``, ``conversations.replies``,
  ``usergroups.list``, ``usergroups.users.list``,
  ``usergroups.users.update``), bearer-token checked, answering as
  Slack does (``{"ok": false, "error": ...}``; HTTP 429 with ``Retry-After`` when rate limited). With an app
  manifest installed, a call lacking a scope its method needs is answered ``{"ok": false, "error": "missing_scope",
  "needed": ..., "provided": ...}`` and every answer carries the granted scopes in ``X-OAuth-Scopes``, as Slack's. Message metadata
  (``metadata: {event_type, event_payload}`` on ``chat.postMessage``) is kept and returned by
  ``conversations.history`` only with ``include_all_metadata`` (Slack's "Message metadata" reference).
- ``GET page/state``: what one viewer sees (long-poll with ``since`` and ``wait``); with ``client`` (the page load's
  random id, also sent with its actions), only a modal that page opened: a modal left open does not come back on a
  reload or in another browser, as in Slack.
- ``POST page/click``, ``page/view_submit``, ``page/view_close``, ``page/command``, ``page/message``: a person's
  actions, delivered to FlyBot's ``/slack/events`` as Slack-signed payloads (``X-Slack-Signature`` v0).
- ``POST control/faults``: answer the next N calls of a method with 429/5xx or an ``ok: false`` error;
  ``DELETE control/faults`` clears them; ``GET control/calls`` lists the API calls received. These routes exist
  only when the emulation is built with ``control=True`` (tests), never in ``flybot serve``'s default local mode.
- ``POST login`` (JSON ``{"key": ...}``, from the page's own origin): exchanges the login key for the page
  credential (``{"ok": true, "session": ...}``, see :mod:`bot.localchat.access`). Every ``page/`` and ``control/``
  route answers 401 without that credential in the ``X-FlyBot-Session`` header, and 403 to a state change whose
  ``Origin`` is missing or foreign; either way it does nothing.
- ``POST response/{token}``: Slack's ``response_url`` for slash commands and actions: at most
  :data:`RESPONSE_URL_USES` posts within :data:`RESPONSE_URL_TTL_S` of the command or click (Slack's "Handling user
  interaction" page: "up to 5 times within 30 minutes"); then 404 ``used_url`` or ``expired_url``.

Source of the payload shapes: Slack's "Interactivity" and "Slash commands" reference pages.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import os
import re
import secrets
import time
import urllib.parse
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import Any

import aiohttp
import structlog
from aiohttp import web
from slack_sdk.signature import SignatureVerifier

from bot.localchat.access import (
    HEADER,
    PAGE_HEADERS,
    STATE_CHANGES,
    PageAccess,
    foreign_origin,
    misdirected,
    own_host,
    printed_host,
    refused,
    same_origin,
)
from bot.refusals import REFUSALS
from bot.slack.scopes import METHOD_SCOPES, manifest_bot_scopes

log = structlog.get_logger("flybot.localchat")

TEAM_ID = "T0LOCAL01"
BOT_USER_ID = "U0FLYBOT1"
BOT_ID = "B0FLYBOT1"

DEFAULT_USERS: dict[str, dict[str, Any]] = {
    "U0OWNER01": {
        "name": "olivia",
        "real_name": "Olivia (owner)",
        "display_name": "Olivia",
        "is_admin": False,
        "is_owner": False,
    },
    "U0ADMIN01": {
        "name": "ada",
        "real_name": "Ada (admin)",
        "display_name": "Ada",
        "is_admin": True,
        "is_owner": False,
    },
    "U0OTHER01": {
        "name": "oscar",
        "real_name": "Oscar (not an owner)",
        "display_name": "Oscar",
        "is_admin": False,
        "is_owner": False,
    },
}
DEFAULT_CHANNELS: dict[str, str] = {"C0APPROVE": "flybot-approvals", "C0GENERAL": "general"}
DEFAULT_USERGROUPS: dict[str, dict[str, Any]] = {
    "S0ONCALL1": {"handle": "flybot-oncall", "name": "FlyBot on-call", "users": ["U0OWNER01", "U0OTHER01"]},
}
"""Local chat's built-in user group: ``flybot bots set demo --owner-group S0ONCALL1`` makes Olivia and Oscar owners
of the demo Bot."""

SAVED_MESSAGES = 2000
"""The chat history keeps this many of the latest messages across restarts (``localchat.json``)."""

RESPONSE_URL_TTL_S = 30 * 60.0
"""How long a ``response_url`` takes posts (Slack: 30 minutes after the command or click)."""
RESPONSE_URL_USES = 5
"""How many posts a ``response_url`` takes (Slack: up to 5)."""

_USER_ID = re.compile(r"^[UW][A-Z0-9]{2,20}$")
_CHANNEL_ID = re.compile(r"^[CG][A-Z0-9]{2,20}$")
_MENTION = re.compile(r"<@([UW][A-Z0-9]{2,20})(?:\|[^>]*)?>")
_GENERATED_NAMES = (
    "Priya",
    "Mateo",
    "Amara",
    "Kenji",
    "Lucia",
    "Tomasz",
    "Noor",
    "Felix",
    "Ines",
    "Dmitri",
    "Zainab",
    "Hugo",
    "Sofia",
    "Kwame",
    "Mei",
    "Rafael",
    "Elif",
    "Jonas",
    "Aiko",
    "Samir",
)
Directory = Callable[[], Awaitable[tuple[list[str], list[str]]]]
"""Where local mode learns the ids FlyBot knows of: ``async () -> (user_ids, channel_ids)`` (the Bots' owners and
rooms, read from the store)."""


def generated_user(user_id: str) -> dict[str, Any]:
    """A learned person: a generated display name (stable for the id), never an admin."""
    name = _GENERATED_NAMES[int(hashlib.sha1(user_id.encode()).hexdigest(), 16) % len(_GENERATED_NAMES)]
    return {
        "name": name.lower(),
        "real_name": f"{name} ({user_id})",
        "display_name": name,
        "is_admin": False,
        "is_owner": False,
        "learned": True,
    }


def local_person_name(user_id: str) -> str:
    """The display name local mode gives ``user_id`` (a built-in person's, else the generated one): what
    ``users.info`` answers as ``profile.display_name``, for commands that run without the server."""
    known = DEFAULT_USERS.get(user_id) or generated_user(user_id)
    return str(known["display_name"])


def local_group_handle(group_id: str) -> str | None:
    """The handle of one of local chat's built-in user groups (``flybot-oncall`` for ``S0ONCALL1``), else None:
    local chat has no other group (it never learns one), so a group id it does not know gives no one a say."""
    group = DEFAULT_USERGROUPS.get(group_id)
    return str(group["handle"]) if group else None


def local_room_name(channel_id: str) -> str:
    """The name local mode gives ``channel_id`` (``flybot-approvals``, or ``room-c0789ijkl`` for a learned one)."""
    return DEFAULT_CHANNELS.get(channel_id) or f"room-{channel_id.lower()}"


@dataclass
class Message:
    """One message as the emulation keeps it; ``ephemeral_to`` set for ephemeral messages."""

    channel: str
    ts: str
    text: str
    blocks: list[dict[str, Any]]
    user: str | None = None
    bot_id: str | None = None
    ephemeral_to: str | None = None
    edited: bool = False
    metadata: dict[str, Any] | None = None
    thread_ts: str | None = None
    """Set on a reply: the ``ts`` of the thread's parent message."""

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        self.__dict__.pop("saved", None)  # changed: encoded again at the next save

    @cached_property
    def saved(self) -> bytes:
        """This message as an entry of the saved chat history: its fields as a JSON object, UTF-8, encoded once
        until a field is set again. A field's value is replaced when it changes (``chat.update`` sets new
        ``blocks``), never changed in place, or the save would keep the old one."""
        return json.dumps({f.name: getattr(self, f.name) for f in fields(self)}).encode()


@dataclass
class _ResponseUrl:
    """Where a ``response_url``'s posts go, until when (``time.monotonic()``) and how many more it takes."""

    user: str
    channel: str
    until: float
    uses_left: int = RESPONSE_URL_USES


@dataclass
class Fault:
    """An injected failure for the next ``count`` calls of ``method`` (``*`` for any)."""

    method: str
    count: int
    status: int = 200
    error: str = "internal_error"
    retry_after: int = 1
    delay_s: float = 0.0
    """With ``delay_s`` > 0 the call is only slowed down (then answered normally): a slow Slack."""
    until: float | None = None
    """With ``for_s`` given: the fault answers every call until this ``time.monotonic()`` (``count`` ignored)."""


@dataclass
class OpenView:
    """A modal or Home tab the emulation shows to one user."""

    id: str
    user: str
    view: dict[str, Any]
    kind: str = "modal"
    errors: dict[str, str] = field(default_factory=dict)
    client: str | None = None
    """The page (one browser tab's load) whose action opened it: only that page shows it, as a Slack modal lives in
    the client that opened it and does not survive a reload. None: opened without a page (tests), shown to any."""


class SlackEmulator:
    """Slack's Web API and a person's clicks, emulated in memory.

    Args:
        bot_token: the token FlyBot must present (``xoxb-...``).
        signing_secret: signs every payload delivered to ``events_url``.
        events_url: FlyBot's ``/slack/events`` (may be set after start, once the port is known).
        users: user id -> ``{name, real_name, is_admin, is_owner}``.
        channels: channel id -> name.
        state_path: where to keep rooms and messages across restarts (local mode); None keeps them in memory only.
        learn_ids: local mode: a user or channel id FlyBot uses that the emulation does not know yet (a Bot's owner,
            its room, a request's room) joins it with a generated display name, instead of ``user_not_found`` /
            ``channel_not_found``; ``directory`` (when set) is asked for more such ids each time the page reads
            its state. Tests leave it off to see Slack's errors.
        app_token: the app-level token (``xapp-...``) that may open a Socket Mode connection
            (``apps.connections.open``). While a Socket Mode client is connected, deliveries go over its WebSocket as
            envelopes (``interactive``, ``slash_commands``, ``events_api``) and wait for its ack, as Slack does;
            otherwise they are POSTed to ``events_url``.
        access: the page's login key and page credential (a fresh one when None).
        manifest: a Slack app manifest to install (:meth:`install`): every Web API call then needs the scopes
            Slack's method reference lists (:mod:`bot.slack.scopes`) and gets ``missing_scope`` without them. None
            (local mode): no app is installed and no scope is checked.
        control: serve the fault-injection ``control/`` routes (tests only).
    """

    def __init__(
        self,
        *,
        bot_token: str,
        signing_secret: str,
        events_url: str | None = None,
        users: dict[str, dict[str, Any]] | None = None,
        channels: dict[str, str] | None = None,
        public_base: str = "",
        state_path: Path | None = None,
        app_token: str | None = None,
        access: PageAccess | None = None,
        control: bool = False,
        learn_ids: bool = False,
        directory: Directory | None = None,
        manifest: Mapping[str, Any] | None = None,
    ) -> None:
        self.access = access or PageAccess()
        self.scopes: frozenset[str] | None = None
        """The installed app's bot token scopes (:meth:`install`); None: no app installed, every method allowed."""
        if manifest is not None:
            self.install(manifest)
        self.control = control
        self._socket_tickets: set[str] = set()
        self.bot_token = bot_token
        self.signer = SignatureVerifier(signing_secret)
        self.events_url = events_url
        self.public_base = public_base
        # Each emulation owns copies of its people: a change to one (a profile edit, a learned name) never reaches
        # DEFAULT_USERS or another emulation in the same process.
        self.users = {uid: dict(info) for uid, info in (users or DEFAULT_USERS).items()}
        self.channels: dict[str, dict[str, Any]] = {
            cid: {"id": cid, "name": name, "is_im": False, "user": None}
            for cid, name in (channels or DEFAULT_CHANNELS).items()
        }
        self.usergroups: dict[str, dict[str, Any]] = {
            gid: {**group, "users": list(group["users"])} for gid, group in DEFAULT_USERGROUPS.items()
        }
        self.messages: list[Message] = []
        self.views: dict[str, OpenView] = {}
        self.home: dict[str, OpenView] = {}
        self.faults: list[Fault] = []
        self.calls: list[dict[str, Any]] = []
        self.version = 0
        self._changed = asyncio.Event()
        self._ts = itertools.count(1)
        self._triggers: OrderedDict[str, tuple[str, float, str | None]] = OrderedDict()
        self._response_urls: OrderedDict[str, _ResponseUrl] = OrderedDict()
        self.response_url_ttl_s = RESPONSE_URL_TTL_S
        """How long a new ``response_url`` takes posts (:data:`RESPONSE_URL_TTL_S`; shorter in tests)."""
        self._http: aiohttp.ClientSession | None = None
        self.state_path = state_path
        self.app_token = app_token
        self.learn_ids = learn_ids
        self.directory = directory
        self._sockets: list[web.WebSocketResponse] = []
        self._acks: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._save_handle: asyncio.TimerHandle | None = None
        self._saving = asyncio.Lock()
        self._saves: set[asyncio.Future[None]] = set()
        self._load()

    def _load(self) -> None:
        if self.state_path is None or not self.state_path.exists():
            return
        try:
            data = json.loads(self.state_path.read_text())
            self.channels.update({c["id"]: c for c in data.get("channels", [])})
            self.users.update({u["id"]: {k: v for k, v in u.items() if k != "id"} for u in data.get("users", [])})
            self.messages = [Message(**m) for m in data.get("messages", [])]
        except (OSError, ValueError, TypeError, KeyError) as exc:
            log.warning("localchat.state_unreadable", path=str(self.state_path), error=type(exc).__name__)
        self._ts = itertools.count(len(self.messages) + 1)
        for message in self.messages[-SAVED_MESSAGES:]:  # before the server serves: no save encodes them all
            message.saved  # noqa: B018 - encodes it once (cached)

    async def save(self) -> None:
        """Write the chat history (channels, learned people, the last :data:`SAVED_MESSAGES` messages) to
        ``state_path``, replacing it whole (a new file renamed over it), readable by its owner only; a failure is
        logged and the file left as it was.

        The event loop only gathers each message's :attr:`Message.saved` encoding (a message is encoded once, at
        the first save after it changed); joining and writing them runs in a worker thread, so a click never waits
        for a save. Saves run one at a time, each taking the state as it is when its turn comes."""
        if self.state_path is None:
            return
        async with self._saving:
            head = json.dumps(
                {
                    "channels": list(self.channels.values()),
                    "users": [{"id": uid, **info} for uid, info in self.users.items() if info.get("learned")],
                }
            ).encode()
            messages = [m.saved for m in self.messages[-SAVED_MESSAGES:]]
            try:
                await asyncio.to_thread(_write_history, self.state_path, head, messages)
            except OSError as exc:
                log.warning("localchat.state_unwritable", path=str(self.state_path), error=type(exc).__name__)

    # -- plumbing ---------------------------------------------------------------------------------------
    def app(self) -> web.Application:
        """The aiohttp sub-application with every route above."""
        app = web.Application(
            client_max_size=4 * 1024 * 1024, middlewares=[_page_guard(self.access, printed_host(self.public_base))]
        )
        app.router.add_post("/login", self._login)
        app.router.add_get("/socket", self._socket)
        app.router.add_post("/api/{method}", self._api)
        app.router.add_get("/api/{method}", self._api)
        app.router.add_get("/page/state", self._page_state)
        app.router.add_post("/page/click", self._page_click)
        app.router.add_post("/page/view_submit", self._page_view_submit)
        app.router.add_post("/page/view_close", self._page_view_close)
        app.router.add_post("/page/command", self._page_command)
        app.router.add_post("/page/message", self._page_message)
        app.router.add_post("/page/home_opened", self._page_home_opened)
        if self.control:
            app.router.add_post("/control/faults", self._control_faults)
            app.router.add_delete("/control/faults", self._control_clear)
            app.router.add_get("/control/calls", self._control_calls)
        app.router.add_post("/response/{token}", self._response_url)
        app.on_shutdown.append(self._wake_pollers)
        app.on_cleanup.append(self._close)
        return app

    async def _wake_pollers(self, _app: web.Application) -> None:
        """On shutdown, answer every page long-poll at once and close Socket Mode connections."""
        self._changed.set()
        for ws in list(self._sockets):
            await ws.close()

    async def _close(self, _app: web.Application) -> None:
        if self._save_handle is not None:
            self._save_handle.cancel()
            self._save_handle = None
        await asyncio.gather(*self._saves, return_exceptions=True)  # saves under way end first,
        await self.save()  # then the last state is written
        if self._http is not None:
            await self._http.close()
            self._http = None

    def _schedule_save(self) -> None:
        """Coalesce saves: one 0.5 s after the first change since the last one started, plus a final one at cleanup
        (a kill -9 loses at most the changes of that last half second)."""
        if self.state_path is None or self._save_handle is not None:
            return

        def run() -> None:
            self._save_handle = None
            task = asyncio.ensure_future(self.save())
            self._saves.add(task)
            task.add_done_callback(self._saves.discard)

        self._save_handle = asyncio.get_running_loop().call_later(0.5, run)

    def _touch(self) -> None:
        self._schedule_save()
        self.version += 1
        self._changed.set()
        self._changed = asyncio.Event()

    def _next_ts(self) -> str:
        return f"{int(time.time())}.{next(self._ts):06d}"

    def _trigger(self, user: str, client: str | None = None) -> str:
        """A ``trigger_id`` for ``user``'s action, valid 3 minutes; a modal it opens shows in ``client`` (the page
        that acted) only."""
        trigger = f"{next(self._ts)}.{secrets.token_hex(8)}"
        now = time.monotonic()
        _drop_expired(self._triggers, now, lambda held: held[1])
        self._triggers[trigger] = (user, now + 3.0 * 60, client)
        return trigger

    # -- Web API ----------------------------------------------------------------------------------------
    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        try:
            args = await _read_args(request)
        except (ValueError, LookupError, UnicodeDecodeError):  # a bogus charset or body: Slack's own answer
            return web.json_response({"ok": False, "error": "invalid_arguments"})
        auth = request.headers.get("Authorization", "")
        token = auth.removeprefix("Bearer ").strip() or str(args.get("token") or "")
        record: dict[str, Any] | None = None
        if self.control and token in (self.bot_token, self.app_token or self.bot_token):
            # Recorded for the tests' /control/calls only, and only calls with a valid token: a local server (no
            # control API) keeps no call log, and no unauthenticated client can grow one without bound.
            record = {"method": method, "args": args}
            self.calls.append(record)
        response = await self._answer(method, args, token)
        if record is not None and isinstance(response.body, bytes) and b'"ok": false' in response.body:
            answer = json.loads(response.body)  # the log also says how Slack refused it
            if isinstance(answer, dict) and not answer.get("ok"):
                record.update(error=answer.get("error"), needed=answer.get("needed"))
        if self.scopes is not None and token == self.bot_token:
            response.headers["X-OAuth-Scopes"] = ",".join(sorted(self.scopes))
        return response

    async def _answer(self, method: str, args: dict[str, Any], token: str) -> web.Response:
        """Slack's answer to one Web API call (the token already read from the request)."""
        fault = self._take_fault(method)
        if fault is not None and fault.delay_s > 0:
            await asyncio.sleep(fault.delay_s)
            fault = None
        if fault is not None:
            if fault.status == 429:
                return web.json_response(
                    {"ok": False, "error": "ratelimited"}, status=429, headers={"Retry-After": str(fault.retry_after)}
                )
            if fault.status >= 500:
                return web.json_response({"ok": False, "error": "internal_error"}, status=fault.status)
            return web.json_response({"ok": False, "error": fault.error})
        if method == "apps.connections.open":
            if not self.app_token or token != self.app_token:
                return web.json_response({"ok": False, "error": "invalid_auth"})
            ws_base = self.public_base.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
            ticket = secrets.token_urlsafe(16)
            self._socket_tickets.add(ticket)
            return web.json_response({"ok": True, "url": f"{ws_base}/socket?ticket={ticket}"})
        if token != self.bot_token:
            return web.json_response({"ok": False, "error": "invalid_auth"})
        handler = _METHODS.get(method)
        if handler is None:
            return web.json_response({"ok": False, "error": "unknown_method"})
        refusal = self._scope_refusal(method, args)
        if refusal is not None:
            return web.json_response(refusal)
        try:
            result = handler(self, args)
        except _SlackError as exc:
            return web.json_response({"ok": False, "error": exc.error})
        self._touch()
        return web.json_response({"ok": True, **result})

    def install(self, manifest: Mapping[str, Any]) -> None:
        """Install a Slack app manifest (a parsed ``deploy/slack-app-manifest*.yaml``): from now on the bot token
        has exactly its ``oauth_config.scopes.bot``. Raises ValueError for a manifest without that list."""
        self.scopes = manifest_bot_scopes(manifest)

    def _scope_refusal(self, method: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """Slack's ``missing_scope`` answer when the installed app lacks a scope ``method`` needs on this call's
        conversation (:data:`bot.slack.scopes.METHOD_SCOPES`); None when it may go on (or no app is installed)."""
        if self.scopes is None:
            return None
        required = METHOD_SCOPES.get(method)
        if required is None:  # a method this emulation answers must be in the table
            return {"ok": False, "error": "unknown_method"}
        lacking = [scope for scope in required.needed(self._kind(method, args)) if scope not in self.scopes]
        if not lacking:
            return None
        return {
            "ok": False,
            "error": "missing_scope",
            "needed": ",".join(lacking),
            "provided": ",".join(sorted(self.scopes)),
        }

    def _kind(self, method: str, args: dict[str, Any]) -> str | None:
        """The kind of conversation a call is on (:data:`bot.slack.scopes.CONVERSATION_KINDS`): ``im`` for a DM,
        ``private`` for a private channel (a ``G`` id, or ``is_private``), ``public`` for other channels;
        ``conversations.open`` with ``users``: ``im`` for one person, ``mpim`` for several."""
        if method == "conversations.open" and not args.get("channel"):
            return "im" if len([u for u in str(args.get("users") or "").split(",") if u]) <= 1 else "mpim"
        channel = str(args.get("channel") or "")
        known = self.channels.get(channel)
        if (known is not None and known.get("is_im")) or channel.startswith("D"):
            return "im"
        if (known is not None and known.get("is_private")) or channel.startswith("G"):
            return "private"
        return "public"

    def _take_fault(self, method: str) -> Fault | None:
        for fault in self.faults:
            if fault.method not in (method, "*"):
                continue
            if fault.until is not None:
                if time.monotonic() < fault.until:
                    return fault
                continue
            if fault.count > 0:
                fault.count -= 1
                return fault
        return None

    def learn(self, users: list[str] | tuple[str, ...] = (), channels: list[str] | tuple[str, ...] = ()) -> bool:
        """Add unknown user and channel ids (well-formed ones only) with generated names; True if any was new."""
        new = False
        for user in users:
            if user not in self.users and _USER_ID.match(user):
                self.users[user] = generated_user(user)
                new = True
        for channel in channels:
            if channel not in self.channels and _CHANNEL_ID.match(channel):
                self.channels[channel] = {"id": channel, "name": local_room_name(channel), "is_im": False, "user": None}
                new = True
        if new:
            log.info("localchat.learned", users=list(users), channels=list(channels))
            self._touch()
        return new

    def _known_user(self, user: str) -> bool:
        if user not in self.users and self.learn_ids:
            self.learn(users=[user])
        return user in self.users

    def _channel(self, channel: str) -> str:
        if self.learn_ids and channel not in self.channels and channel not in self.users:
            self.learn(users=[channel] if _USER_ID.match(channel) else [], channels=[channel])
        if channel in self.channels:
            return channel
        if channel in self.users:
            return self._dm(channel)
        raise _SlackError("channel_not_found")

    def _learn_mentions(self, text: str, blocks: list[dict[str, Any]]) -> None:
        if not self.learn_ids:
            return
        found = _MENTION.findall(text + json.dumps(blocks))
        found += re.findall(r'"user_id": "([UW][A-Z0-9]{2,20})"', json.dumps(blocks))
        self.learn(users=found)

    def _dm(self, user: str) -> str:
        cid = "D" + hashlib.sha1(user.encode()).hexdigest()[:9].upper()
        self.channels.setdefault(cid, {"id": cid, "name": self.users[user]["name"], "is_im": True, "user": user})
        return cid

    def m_auth_test(self, _args: dict[str, Any]) -> dict[str, Any]:
        return {
            "url": "http://localhost/",
            "team": "FlyBot local",
            "user": "flybot",
            "team_id": TEAM_ID,
            "user_id": BOT_USER_ID,
            "bot_id": BOT_ID,
            "is_enterprise_install": False,
        }

    def m_chat_post_message(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(str(args.get("channel") or ""))
        blocks = _blocks(args.get("blocks"))
        text = str(args.get("text") or "")
        if not text and not blocks:
            raise _SlackError("no_text")
        self._learn_mentions(text, blocks)
        metadata = _metadata(args.get("metadata"))
        thread_ts = str(args.get("thread_ts") or "") or None
        if thread_ts is not None and not any(
            m.channel == channel and m.ts == thread_ts and m.ephemeral_to is None for m in self.messages
        ):
            raise _SlackError("thread_not_found")
        message = Message(
            channel=channel,
            ts=self._next_ts(),
            text=text,
            blocks=blocks,
            bot_id=BOT_ID,
            metadata=metadata,
            thread_ts=thread_ts,
        )
        self.messages.append(message)
        return {"channel": channel, "ts": message.ts, "message": _public(message)}

    def m_chat_update(self, args: dict[str, Any]) -> dict[str, Any]:
        channel, ts = str(args.get("channel") or ""), str(args.get("ts") or "")
        for message in self.messages:
            if message.channel == channel and message.ts == ts and message.ephemeral_to is None:
                if "text" in args:
                    message.text = str(args.get("text") or "")
                if "blocks" in args:
                    message.blocks = _blocks(args.get("blocks"))
                message.edited = True
                return {"channel": channel, "ts": ts, "text": message.text}
        raise _SlackError("message_not_found")

    def m_conversations_history(self, args: dict[str, Any]) -> dict[str, Any]:
        """Messages of a channel, newest first: ``oldest``/``latest`` (ts bounds, exclusive), ``limit`` (1-999,
        default 100), ``cursor`` (from ``response_metadata.next_cursor``); metadata only with
        ``include_all_metadata``. Ephemeral messages are never in the history (as in Slack)."""
        channel = str(args.get("channel") or "")
        if channel not in self.channels:
            raise _SlackError("channel_not_found")
        oldest = _float(args.get("oldest"), 0.0)
        latest = _float(args.get("latest"), float("inf"))
        limit = min(max(_int(args.get("limit"), 100), 1), 999)
        offset = _int(args.get("cursor"), 0) if args.get("cursor") else 0
        with_metadata = str(args.get("include_all_metadata", "")).lower() in ("1", "true")
        found = [
            m
            for m in reversed(self.messages)  # a thread's replies are not in the history (Slack's rule)
            if m.channel == channel and m.ephemeral_to is None and m.thread_ts is None and oldest < float(m.ts) < latest
        ]
        return self._page_of(found, offset, limit, with_metadata)

    def m_conversations_replies(self, args: dict[str, Any]) -> dict[str, Any]:
        """A thread: its parent (``ts``) then its replies, oldest first; same paging and metadata rules as
        ``conversations.history``; ``thread_not_found`` when ``ts`` is not a message of the channel."""
        channel, parent = str(args.get("channel") or ""), str(args.get("ts") or "")
        if channel not in self.channels:
            raise _SlackError("channel_not_found")
        found = [
            m
            for m in self.messages
            if m.channel == channel and m.ephemeral_to is None and (m.ts == parent or m.thread_ts == parent)
        ]
        if not found:
            raise _SlackError("thread_not_found")
        limit = min(max(_int(args.get("limit"), 100), 1), 999)
        offset = _int(args.get("cursor"), 0) if args.get("cursor") else 0
        return self._page_of(found, offset, limit, str(args.get("include_all_metadata", "")).lower() in ("1", "true"))

    @staticmethod
    def _page_of(found: list[Message], offset: int, limit: int, with_metadata: bool) -> dict[str, Any]:
        page = found[offset : offset + limit]
        more = offset + limit < len(found)
        messages = []
        for message in page:
            shown: dict[str, Any] = {
                "type": "message",
                "ts": message.ts,
                "text": message.text,
                "blocks": message.blocks,
            }
            shown.update({"bot_id": message.bot_id} if message.bot_id else {"user": message.user})
            if with_metadata and message.metadata is not None:
                shown["metadata"] = message.metadata
            if message.thread_ts is not None:
                shown["thread_ts"] = message.thread_ts
            messages.append(shown)
        return {
            "messages": messages,
            "has_more": more,
            "response_metadata": {"next_cursor": str(offset + limit) if more else ""},
        }

    def m_chat_post_ephemeral(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(str(args.get("channel") or ""))
        user = str(args.get("user") or "")
        if not self._known_user(user):
            raise _SlackError("user_not_found")
        message = Message(
            channel=channel,
            ts=self._next_ts(),
            text=str(args.get("text") or ""),
            blocks=_blocks(args.get("blocks")),
            bot_id=BOT_ID,
            ephemeral_to=user,
        )
        self.messages.append(message)
        return {"message_ts": message.ts}

    def m_views_open(self, args: dict[str, Any]) -> dict[str, Any]:
        trigger = str(args.get("trigger_id") or "")
        user, deadline, client = self._triggers.pop(trigger, ("", 0.0, None))
        if not user or deadline < time.monotonic():
            raise _SlackError("expired_trigger_id")
        view = _view(args.get("view"))
        if client is not None:  # a modal lives in the page that opened it: one left open there closes on its reload
            for stale in [v.id for v in self.views.values() if v.user == user and v.client != client]:
                self.views.pop(stale)
        opened = OpenView(id="V" + secrets.token_hex(5).upper(), user=user, view=view, client=client)
        self.views[opened.id] = opened
        return {"view": {"id": opened.id, **view}}

    def m_views_push(self, args: dict[str, Any]) -> dict[str, Any]:
        return self.m_views_open(args)

    def m_views_update(self, args: dict[str, Any]) -> dict[str, Any]:
        view_id = str(args.get("view_id") or "")
        if view_id not in self.views:
            raise _SlackError("not_found")
        self.views[view_id].view = _view(args.get("view"))
        return {"view": {"id": view_id, **self.views[view_id].view}}

    def m_views_publish(self, args: dict[str, Any]) -> dict[str, Any]:
        user = str(args.get("user_id") or "")
        if not self._known_user(user):
            raise _SlackError("user_not_found")
        view = _view(args.get("view"))
        self.home[user] = OpenView(id="VH" + user, user=user, view=view, kind="home")
        return {"view": {"id": "VH" + user, **view}}

    def m_users_info(self, args: dict[str, Any]) -> dict[str, Any]:
        user = str(args.get("user") or "")
        if not self._known_user(user):
            raise _SlackError("user_not_found")
        info = self.users[user]
        profile = {"display_name": str(info.get("display_name", "")), "real_name": str(info.get("real_name", ""))}
        return {"user": {"id": user, "team_id": TEAM_ID, **info, "profile": profile}}

    def m_usergroups_users_list(self, args: dict[str, Any]) -> dict[str, Any]:
        """Slack's ``usergroups.users.list``: ``{users: [ids]}``; ``no_such_subteam`` for an unknown group."""
        group = self.usergroups.get(str(args.get("usergroup") or ""))
        if group is None:
            raise _SlackError("no_such_subteam")
        return {"users": list(group["users"])}

    def m_usergroups_list(self, args: dict[str, Any]) -> dict[str, Any]:
        """Slack's ``usergroups.list``: ``{usergroups: [{id, team_id, handle, name, user_count}]}`` (with ``users``
        when ``include_users`` is true), every group of the workspace."""
        with_users = str(args.get("include_users") or "").lower() in ("1", "true")
        return {
            "usergroups": [
                {
                    "id": gid,
                    "team_id": TEAM_ID,
                    "handle": g["handle"],
                    "name": g["name"],
                    "user_count": len(g["users"]),
                    **({"users": list(g["users"])} if with_users else {}),
                }
                for gid, g in self.usergroups.items()
            ]
        }

    def m_usergroups_users_update(self, args: dict[str, Any]) -> dict[str, Any]:
        """Slack's ``usergroups.users.update``: replace the members (``users``, comma-separated ids)."""
        gid = str(args.get("usergroup") or "")
        if gid not in self.usergroups:
            raise _SlackError("no_such_subteam")
        users = [u for u in str(args.get("users") or "").split(",") if u]
        if not users or not all(self._known_user(u) for u in users):
            raise _SlackError("invalid_users")
        self.usergroups[gid]["users"] = users
        return {"usergroup": {"id": gid, **self.usergroups[gid]}}

    def m_conversations_open(self, args: dict[str, Any]) -> dict[str, Any]:
        users = [u for u in str(args.get("users") or "").split(",") if u]
        if len(users) != 1 or not self._known_user(users[0]):
            raise _SlackError("user_not_found")
        return {"channel": {"id": self._dm(users[0])}}

    def m_conversations_info(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = str(args.get("channel") or "")
        if self.learn_ids:
            self.learn(channels=[channel])
        if channel not in self.channels:
            raise _SlackError("channel_not_found")
        info = dict(self.channels[channel])
        return {"channel": {"is_member": True, "is_channel": not info["is_im"], **info}}

    # -- the page ---------------------------------------------------------------------------------------
    def snapshot(self, viewer: str, client: str | None = None) -> dict[str, Any]:
        """What ``viewer`` sees: channels (their DMs only), messages incl. their ephemerals, their open modal and Home.
        With ``client`` (a page load's id), only a modal that page opened (or one opened without a page)."""
        channels = [c for c in self.channels.values() if not c["is_im"] or c["user"] == viewer]
        visible = {c["id"] for c in channels}
        messages = [
            _public(m)
            for m in self.messages
            if m.channel in visible and (m.ephemeral_to is None or m.ephemeral_to == viewer)
        ]
        modal = next(
            (
                v
                for v in reversed(list(self.views.values()))
                if v.user == viewer and (client is None or v.client in (None, client))
            ),
            None,
        )
        home = self.home.get(viewer)
        return {
            "version": self.version,
            "viewer": viewer,
            "users": [{"id": uid, **info} for uid, info in self.users.items()],
            "usergroups": [{"id": gid, "handle": g["handle"]} for gid, g in self.usergroups.items()],
            "channels": channels,
            "messages": messages,
            "modal": {"id": modal.id, "view": modal.view, "errors": modal.errors} if modal else None,
            "home": home.view if home else None,
        }

    async def refresh_directory(self) -> None:
        """Learn the ids the directory names (local mode: every Bot's owners and room), best effort."""
        if self.directory is None or not self.learn_ids:
            return
        try:
            users, channels = await self.directory()
        except Exception as exc:  # noqa: BLE001 - the page still works with what is known
            log.warning("localchat.directory_failed", error=type(exc).__name__)
            return
        self.learn(users=users, channels=channels)

    async def _page_state(self, request: web.Request) -> web.Response:
        await self.refresh_directory()
        viewer = request.query.get("user", "")
        if viewer not in self.users:
            return web.json_response({"ok": False, "error": "unknown user"}, status=400)
        since = _int(request.query.get("since"), -1)
        wait = min(max(_int(request.query.get("wait"), 0), 0), 30)
        if since >= self.version and wait > 0:
            try:
                await asyncio.wait_for(self._changed.wait(), timeout=wait)
            except TimeoutError:
                pass
        return web.json_response(self.snapshot(viewer, request.query.get("client") or None))

    async def _page_click(self, request: web.Request) -> web.Response:
        data = await _json(request)
        user, channel, ts = str(data.get("user", "")), str(data.get("channel", "")), str(data.get("ts", ""))
        if user not in self.users:
            return web.json_response({"ok": False, "error": "unknown user"}, status=400)
        source = next((m for m in self.messages if m.channel == channel and m.ts == ts), None)
        action = {
            "type": "button",
            "action_id": str(data.get("action_id", "")),
            "block_id": str(data.get("block_id", "")),
            "value": str(data.get("value", "")),
            "action_ts": self._next_ts(),
        }
        payload: dict[str, Any] = {
            "type": "block_actions",
            "user": self._user_ref(user),
            "api_app_id": "A0FLYBOT1",
            "token": "local-verification-token",
            "team": {"id": TEAM_ID, "domain": "flybot-local"},
            "trigger_id": self._trigger(user, _client(data)),
            "actions": [action],
        }
        if data.get("view_id"):
            opened = self.views.get(str(data["view_id"])) or self.home.get(user)
            payload["container"] = {"type": "view", "view_id": str(data["view_id"])}
            payload["view"] = {"id": str(data["view_id"]), **(opened.view if opened else {})}
        else:
            if source is None:
                return web.json_response({"ok": False, "error": "message_not_found"}, status=404)
            payload["container"] = {"type": "message", "message_ts": ts, "channel_id": channel, "is_ephemeral": False}
            payload["channel"] = {"id": channel, "name": self.channels.get(channel, {}).get("name", "")}
            payload["message"] = {"ts": ts, "text": source.text, "blocks": source.blocks}
            payload["response_url"] = self._new_response_url(user, channel)
        status, body = await self.deliver_form({"payload": json.dumps(payload)})
        return web.json_response({"ok": status == 200, "status": status, "body": body})

    async def _page_view_submit(self, request: web.Request) -> web.Response:
        data = await _json(request)
        user, view_id = str(data.get("user", "")), str(data.get("view_id", ""))
        opened = self.views.get(view_id)
        if opened is None or opened.user != user:
            return web.json_response({"ok": False, "error": "no such view"}, status=404)
        given = data.get("values") or {}
        if not isinstance(given, dict) or not all(isinstance(inputs, dict) for inputs in given.values()):
            return web.json_response(
                {"ok": False, "error": "values: an object of block ids, each an object of its inputs' values"},
                status=400,
            )
        values: dict[str, dict[str, Any]] = {}
        for block_id, inputs in given.items():
            # A string is a plain_text_input's value; a dict is already Slack's state shape
            # (static_select: {"type", "selected_option"}; checkboxes: {"type", "selected_options"}).
            values[str(block_id)] = {
                str(action_id): value if isinstance(value, dict) else {"type": "plain_text_input", "value": value}
                for action_id, value in inputs.items()
            }
        payload = {
            "type": "view_submission",
            "user": self._user_ref(user),
            "api_app_id": "A0FLYBOT1",
            "token": "local-verification-token",
            "team": {"id": TEAM_ID, "domain": "flybot-local"},
            "trigger_id": self._trigger(user, _client(data)),
            "view": {"id": view_id, **opened.view, "state": {"values": values}},
        }
        status, body = await self.deliver_form({"payload": json.dumps(payload)})
        answer = _parse_json(body)
        if status == 200 and isinstance(answer, dict) and answer.get("response_action") == "errors":
            opened.errors = {str(k): str(v) for k, v in dict(answer.get("errors") or {}).items()}
        elif status == 200:
            self.views.pop(view_id, None)
        self._touch()
        return web.json_response({"ok": status == 200, "status": status, "body": body})

    async def _page_view_close(self, request: web.Request) -> web.Response:
        data = await _json(request)
        opened = self.views.get(str(data.get("view_id", "")))
        if opened is not None and opened.user == str(data.get("user", "")):
            self.views.pop(opened.id, None)
            self._touch()
        return web.json_response({"ok": True})

    async def _page_command(self, request: web.Request) -> web.Response:
        data = await _json(request)
        user, channel = str(data.get("user", "")), str(data.get("channel", ""))
        text = str(data.get("text", ""))
        command = str(data.get("command", "/flybot"))
        if user not in self.users or channel not in self.channels:
            return web.json_response({"ok": False, "error": "unknown user or channel"}, status=400)
        if self.scopes is not None and "commands" not in self.scopes:  # Slack offers no command of such an app
            return web.json_response(
                {"ok": False, "error": "missing_scope", "needed": "commands", "provided": ",".join(sorted(self.scopes))}
            )
        form = {
            "token": "local-verification-token",
            "team_id": TEAM_ID,
            "team_domain": "flybot-local",
            "channel_id": channel,
            "channel_name": self.channels[channel]["name"],
            "user_id": user,
            "user_name": self.users[user]["name"],
            "command": command,
            "text": text,
            "api_app_id": "A0FLYBOT1",
            "response_url": self._new_response_url(user, channel),
            "trigger_id": self._trigger(user, _client(data)),
        }
        self.messages.append(
            Message(
                channel=channel,
                ts=self._next_ts(),
                text=f"{command} {text}".strip(),
                blocks=[],
                user=user,
                ephemeral_to=user,
            )
        )
        self._touch()
        started = time.monotonic()
        status, body = await self.deliver_form(form)
        elapsed_s = round(time.monotonic() - started, 3)  # Slack waits 3 s for the app's acknowledgement
        answer = _parse_json(body)
        if status == 200 and isinstance(answer, dict) and (answer.get("text") or answer.get("blocks")):
            self._post_response(user, channel, answer)
        elif status == 200 and body and not isinstance(answer, dict):
            self._post_response(user, channel, {"text": body})
        return web.json_response({"ok": status == 200, "status": status, "body": body, "elapsed_s": elapsed_s})

    async def _page_message(self, request: web.Request) -> web.Response:
        data = await _json(request)
        user, channel, text = str(data.get("user", "")), str(data.get("channel", "")), str(data.get("text", ""))
        if user not in self.users or channel not in self.channels:
            return web.json_response({"ok": False, "error": "unknown user or channel"}, status=400)
        message = Message(channel=channel, ts=self._next_ts(), text=text, blocks=[], user=user)
        self.messages.append(message)
        self._touch()
        kind = self._kind("", {"channel": channel})
        needed = {"public": "channels:history", "private": "groups:history", "im": "im:history"}.get(kind or "")
        if self.scopes is not None and needed not in self.scopes:
            # Slack delivers a message.* event only to an app with that conversation kind's history scope (the
            # message.channels / message.groups / message.im event pages): the message stays, FlyBot never hears.
            return web.json_response(
                {"ok": False, "error": "missing_scope", "needed": needed, "provided": ",".join(sorted(self.scopes))}
            )
        event = {
            "token": "local-verification-token",
            "team_id": TEAM_ID,
            "api_app_id": "A0FLYBOT1",
            "type": "event_callback",
            "event_id": "Ev" + secrets.token_hex(6).upper(),
            "event_time": int(time.time()),
            "event": {
                "type": "message",
                "channel": channel,
                "user": user,
                "text": text,
                "ts": message.ts,
                "channel_type": {"im": "im", "private": "group"}.get(kind or "", "channel"),
            },
        }
        status, body = await self.deliver_json(event)
        return web.json_response({"ok": status == 200, "status": status, "body": body})

    async def _page_home_opened(self, request: web.Request) -> web.Response:
        data = await _json(request)
        user = str(data.get("user", ""))
        if user not in self.users:
            return web.json_response({"ok": False, "error": "unknown user"}, status=400)
        event = {
            "token": "local-verification-token",
            "team_id": TEAM_ID,
            "api_app_id": "A0FLYBOT1",
            "type": "event_callback",
            "event_id": "Ev" + secrets.token_hex(6).upper(),
            "event_time": int(time.time()),
            "event": {
                "type": "app_home_opened",
                "user": user,
                "channel": self._dm(user),
                "tab": str(data.get("tab", "home")),
            },
        }
        status, body = await self.deliver_json(event)
        return web.json_response({"ok": status == 200, "status": status, "body": body})

    def _user_ref(self, user: str) -> dict[str, str]:
        return {"id": user, "username": self.users[user]["name"], "name": self.users[user]["name"], "team_id": TEAM_ID}

    def _new_response_url(self, user: str, channel: str) -> str:
        """A ``response_url`` for ``user`` in ``channel``; the ones run out are forgotten first, so the emulation
        holds at most the URLs of the last :attr:`response_url_ttl_s`."""
        token = secrets.token_hex(12)
        now = time.monotonic()
        _drop_expired(self._response_urls, now, lambda held: held.until)
        self._response_urls[token] = _ResponseUrl(user, channel, now + self.response_url_ttl_s)
        return f"{self.public_base}/response/{token}"

    def _post_response(self, user: str, channel: str, answer: dict[str, Any]) -> None:
        in_channel = answer.get("response_type") == "in_channel"
        self.messages.append(
            Message(
                channel=channel,
                ts=self._next_ts(),
                text=str(answer.get("text") or ""),
                blocks=_blocks(answer.get("blocks")),
                bot_id=BOT_ID,
                ephemeral_to=None if in_channel else user,
            )
        )
        self._touch()

    async def _response_url(self, request: web.Request) -> web.Response:
        """``POST response/{token}``: posts the answer as Slack does, while the URL lasts (404 ``expired_url``
        after :attr:`response_url_ttl_s` or for an unknown token) and has uses left (404 ``used_url`` after
        :data:`RESPONSE_URL_USES` posts). A refused body (400) uses nothing up."""
        token = request.match_info["token"]
        target = self._response_urls.get(token)
        if target is None or target.until <= time.monotonic():
            self._response_urls.pop(token, None)
            return web.Response(status=404, text="expired_url")
        if target.uses_left <= 0:
            return web.Response(status=404, text="used_url")
        answer = await _json(request)
        try:
            self._post_response(target.user, target.channel, answer)
        except _SlackError as exc:  # blocks that are not a list: Slack's answer, nothing posted
            return web.Response(status=400, text=exc.error)
        target.uses_left -= 1
        return web.Response(text="ok")

    # -- delivery to FlyBot -------------------------------------------------------------------------------
    def sign(self, body: str, timestamp: int | None = None) -> dict[str, str]:
        """Slack's signature headers for ``body`` (v0 HMAC-SHA256 over ``v0:{timestamp}:{body}``)."""
        ts = str(int(time.time()) if timestamp is None else timestamp)
        return {
            "X-Slack-Request-Timestamp": ts,
            "X-Slack-Signature": self.signer.generate_signature(timestamp=ts, body=body) or "",
        }

    async def deliver_form(self, form: dict[str, str]) -> tuple[int, str]:
        """Deliver an interaction (``payload=...``) or a slash command: over Socket Mode when connected, else a
        signed form POST to ``events_url``; returns ``(status, body)``."""
        if self._sockets:
            if "payload" in form:
                return await self._over_socket("interactive", json.loads(form["payload"]))
            return await self._over_socket("slash_commands", dict(form))
        body = urllib.parse.urlencode(form, errors="replace")  # an unpaired surrogate typed in the page: "?"
        return await self._deliver(body, "application/x-www-form-urlencoded")

    async def deliver_json(self, event: dict[str, Any]) -> tuple[int, str]:
        """Deliver an Events API payload: over Socket Mode when connected, else a signed JSON POST."""
        if self._sockets:
            return await self._over_socket("events_api", event)
        return await self._deliver(json.dumps(event), "application/json")

    # -- Socket Mode ------------------------------------------------------------------------------------
    async def _login(self, request: web.Request) -> web.Response:
        """``POST login`` with ``{"key": ...}``: the right key gets the page credential (``{"ok": true, "session":
        ...}``, never cached) and is consumed (:meth:`PageAccess.use_key`); a wrong or used key 401. The guard has
        refused it already without this server's ``Origin``."""
        key = (await _json(request)).get("key")
        if not isinstance(key, str) or not self.access.use_key(key):
            _page_refused(request, request.path, "wrong_key", status=401)  # a used key too: it is no longer the key
            return refused()
        return web.json_response({"ok": True, "session": self.access.credential()}, headers=PAGE_HEADERS)

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        ticket = request.query.get("ticket", "")
        if ticket not in self._socket_tickets:  # only a client that presented the app token may take deliveries
            _page_refused(request, request.path, "wrong_ticket", status=401)
            return web.Response(status=401, text="invalid ticket")
        self._socket_tickets.discard(ticket)
        ws = web.WebSocketResponse(heartbeat=None)
        await ws.prepare(request)
        await ws.send_json(
            {
                "type": "hello",
                "num_connections": len(self._sockets) + 1,
                "debug_info": {"host": "flybot-local"},
                "connection_info": {"app_id": "A0FLYBOT1"},
            }
        )
        self._sockets.append(ws)
        try:
            async for message in ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    continue
                try:
                    data = json.loads(message.data)
                except ValueError:
                    continue
                waiter = self._acks.pop(str(data.get("envelope_id", "")), None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(data)
        finally:
            if ws in self._sockets:
                self._sockets.remove(ws)
        return ws

    async def _over_socket(self, kind: str, payload: dict[str, Any]) -> tuple[int, str]:
        """Send one envelope to a connected client and wait (10 s) for its ack; ``(200, ack payload JSON)``."""
        ws = self._sockets[0]
        envelope_id = secrets.token_hex(8)
        waiter: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._acks[envelope_id] = waiter
        try:
            await ws.send_json(
                {
                    "envelope_id": envelope_id,
                    "type": kind,
                    "payload": payload,
                    "accepts_response_payload": kind != "events_api",
                    "retry_attempt": 0,
                    "retry_reason": "",
                }
            )
            ack = await asyncio.wait_for(waiter, timeout=10)
        except (TimeoutError, ConnectionError, RuntimeError) as exc:
            self._acks.pop(envelope_id, None)
            return 502, f"no ack over Socket Mode: {type(exc).__name__}"
        return 200, json.dumps(ack.get("payload") or {})

    @property
    def socket_connected(self) -> bool:
        """True while a Socket Mode client is connected."""
        return bool(self._sockets)

    async def _deliver(self, body: str, content_type: str) -> tuple[int, str]:
        if not self.events_url:
            return 503, "events_url is not set"
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        headers = {"Content-Type": content_type, **self.sign(body)}
        try:
            async with self._http.post(self.events_url, data=body.encode(), headers=headers) as response:
                return response.status, await response.text()
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("localchat.delivery_failed", error=type(exc).__name__)
            return 502, f"FlyBot did not answer: {type(exc).__name__}"

    # -- control ------------------------------------------------------------------------------------------
    async def _control_faults(self, request: web.Request) -> web.Response:
        data = await _json(request)
        fault = Fault(
            method=str(data.get("method", "*")),
            count=_int(data.get("count"), 1),
            status=_int(data.get("status"), 200),
            error=str(data.get("error", "internal_error")),
            retry_after=_int(data.get("retry_after"), 1),
            delay_s=min(max(float(data.get("delay_s") or 0), 0.0), 30.0) if _is_number(data.get("delay_s")) else 0.0,
            until=time.monotonic() + min(float(data["for_s"]), 3600.0) if _is_number(data.get("for_s")) else None,
        )
        self.faults.append(fault)
        return web.json_response({"ok": True, "fault": asdict(fault)})

    async def _control_clear(self, _request: web.Request) -> web.Response:
        self.faults.clear()
        return web.json_response({"ok": True})

    async def _control_calls(self, _request: web.Request) -> web.Response:
        return web.json_response({"ok": True, "calls": self.calls})


def _write_history(path: Path, head: bytes, messages: list[bytes]) -> None:
    """Replace ``path`` with the chat history ``{...head's keys, "messages": [...]}`` (``head``: a JSON object's
    bytes; ``messages``: each message's JSON): written to ``path`` with the suffix ``.tmp`` (mode 0600: it holds
    every command and justification), then renamed over ``path``, so a reader or a restart finds the old file or
    the new one, never a part. Raises OSError."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(head[:-1] + b', "messages": [')
        # In slices: each join holds the GIL (the event loop's thread waits for it) for a few hundred KB only; the
        # writes of the file release it.
        for start in range(0, len(messages), 64):
            handle.write((b", " if start else b"") + b", ".join(messages[start : start + 64]))
        handle.write(b"]}")
    tmp.replace(path)


def _page_refused(request: web.Request, path: str, why: str, *, level: str = "warning", **fields: Any) -> None:
    """Log a refused page, control, login or Socket Mode request as ``page.refused`` through
    :data:`bot.refusals.REFUSALS` (the first of each ``why`` per client address a minute, the rest counted in its
    ``refusals.summary``): a login key being guessed or another origin's page clicking shows in the log. ``path``
    is the route's pattern (at most 200 characters); no header value that carries a credential, no key and no
    ticket is logged."""
    REFUSALS.refused(
        "page.refused",
        why=why,
        who=request.remote or "unknown",
        level=level,
        method=request.method,
        path=path[:200],
        **{name: value for name, value in fields.items() if value is not None},
    )


def _page_guard(access: PageAccess, printed: str) -> Any:
    """The guard on the page, control and login routes (a person's actions, in local mode).

    - Any request to them needs a ``Host`` naming this server (:func:`bot.localchat.access.own_host`: ``printed``,
      the host of the URL ``flybot serve`` printed, or the address connected to, with this server's port): 421
      otherwise (DNS rebinding; ``localhost`` is another name).
    - A state change (``POST``, ``DELETE``) on any of them needs an ``Origin`` header naming this server (scheme,
      host and port, :func:`bot.localchat.access.same_origin`): 403 otherwise. A request that carries an
      ``Origin`` at all (a cross-origin ``fetch()`` does, on ``GET`` too) must name this server as well.
    - ``page/`` and ``control/`` need the page credential in the ``X-FlyBot-Session`` header
      (:class:`PageAccess`): 401 otherwise. No cookie counts: a cookie reaches every port of the host, a web
      server the agent runs on 127.0.0.1 included.
    - A ``POST`` must be ``application/json`` (415 otherwise): a form post from another page cannot be.

    Nothing is done for a refused request. Each refusal is logged as ``page.refused`` (:func:`_page_refused`),
    naming why, never the credential or key sent. Slack API routes (bearer token), ``response/`` URLs (a secret in
    the path) and the Socket Mode route (a ticket) are not affected.
    """

    @web.middleware
    async def guard(request: web.Request, handler: Any) -> web.StreamResponse:
        resource = request.match_info.route.resource
        path = resource.canonical if resource is not None else request.path
        if "/page/" in path or "/control/" in path or path.endswith("/login"):
            if not own_host(request, printed):
                _page_refused(request, path, "misdirected_host", status=421)
                return misdirected(printed)
            if request.method in STATE_CHANGES or "Origin" in request.headers:
                if not same_origin(request, printed):
                    origin = request.headers.get("Origin")
                    _page_refused(
                        request,
                        path,
                        "no_origin" if origin is None else "foreign_origin",
                        status=403,
                        origin=None if origin is None else origin[:200],
                    )
                    return foreign_origin()
            if not path.endswith("/login") and not access.allowed(request):
                why = "no_credential" if request.headers.get(HEADER) is None else "wrong_credential"
                _page_refused(request, path, why, status=401)
                return refused()
            if request.method == "POST" and request.content_type != "application/json":
                _page_refused(request, path, "not_json", status=415, level="info")
                return web.json_response({"ok": False, "error": "send application/json"}, status=415)
        response: web.StreamResponse = await handler(request)
        return response

    return guard


def _drop_expired(held: OrderedDict[str, Any], now: float, until: Callable[[Any], float]) -> None:
    """Forget the oldest entries of ``held`` whose ``until(entry)`` has passed. Entries are added in the order they
    run out (one lifetime for all), so the first one still live ends the sweep: each entry is looked at about once
    (an ``OrderedDict``: taking from the front of a plain ``dict`` rescans the holes left by earlier deletions)."""
    while held:
        first = next(iter(held))
        if until(held[first]) > now:
            return
        held.popitem(last=False)


class _SlackError(Exception):
    def __init__(self, error: str) -> None:
        super().__init__(error)
        self.error = error


_METHODS = {
    "auth.test": SlackEmulator.m_auth_test,
    "chat.postMessage": SlackEmulator.m_chat_post_message,
    "chat.update": SlackEmulator.m_chat_update,
    "chat.postEphemeral": SlackEmulator.m_chat_post_ephemeral,
    "views.open": SlackEmulator.m_views_open,
    "views.push": SlackEmulator.m_views_push,
    "views.update": SlackEmulator.m_views_update,
    "views.publish": SlackEmulator.m_views_publish,
    "users.info": SlackEmulator.m_users_info,
    "conversations.open": SlackEmulator.m_conversations_open,
    "conversations.info": SlackEmulator.m_conversations_info,
    "conversations.history": SlackEmulator.m_conversations_history,
    "conversations.replies": SlackEmulator.m_conversations_replies,
    "usergroups.list": SlackEmulator.m_usergroups_list,
    "usergroups.users.list": SlackEmulator.m_usergroups_users_list,
    "usergroups.users.update": SlackEmulator.m_usergroups_users_update,
}


def _public(message: Message) -> dict[str, Any]:
    return {
        "channel": message.channel,
        "ts": message.ts,
        "text": message.text,
        "blocks": message.blocks,
        "user": message.user,
        "bot_id": message.bot_id,
        "ephemeral": message.ephemeral_to is not None,
        "edited": message.edited,
        "thread_ts": message.thread_ts,
    }


def _metadata(value: Any) -> dict[str, Any] | None:
    """``chat.postMessage``'s ``metadata`` (a JSON string or object): ``{event_type, event_payload}`` or an error."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        value = _parse_json(value)
    if (
        not isinstance(value, dict)
        or not isinstance(value.get("event_type"), str)
        or not isinstance(value.get("event_payload"), dict)
    ):
        raise _SlackError("invalid_metadata_format")
    return {"event_type": value["event_type"], "event_payload": value["event_payload"]}


def _float(value: Any, default: float) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def _blocks(value: Any) -> list[dict[str, Any]]:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        value = _parse_json(value)
    if not isinstance(value, list):
        raise _SlackError("invalid_blocks_format")
    return [b for b in value if isinstance(b, dict)]


def _view(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        value = _parse_json(value)
    if not isinstance(value, dict) or value.get("type") not in ("modal", "home"):
        raise _SlackError("invalid_arguments")
    return value


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return None


def _client(data: dict[str, Any]) -> str | None:
    """The page load an action came from (``client``: the page's random id, at most 64 characters), or None."""
    client = data.get("client")
    return client if isinstance(client, str) and 0 < len(client) <= 64 else None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


async def _json(request: web.Request) -> dict[str, Any]:
    try:
        data = json.loads((await request.read()).decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


async def _read_args(request: web.Request) -> dict[str, Any]:
    args: dict[str, Any] = dict(request.query)
    if request.method == "GET":
        return args
    if request.content_type == "application/json":
        args.update(await _json(request))
    else:
        form = await request.post()
        args.update({k: v for k, v in form.items() if isinstance(v, str)})
    return args
