"""What Slack knows of people and rooms: does it know a Bot's owners and room (``flybot bots add`` with Slack
credentials), and what are they called (:class:`Names`: ``@Olivia`` rather than ``U0OWNER01``).

One ``users.info`` per owner and one ``conversations.info`` for the room (Slack Web API reference); the answers are
warnings, never refusals: the operator may register first and invite FlyBot later.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager

from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from bot.bots import USER_ID
from bot.errors import plain_cause
from bot.groups import GROUP_ID
from bot.settings import Settings
from bot.slack.scopes import missing_scope_hint, note_missing_scope
from bot.store import Bot

CHANNEL_ID = re.compile(r"^[CGD][A-Z0-9]{2,20}$")


async def registration_warnings(client: AsyncWebClient, owners: Sequence[str], room: str | None) -> list[str]:
    """One line per problem: an owner Slack does not know (or a deactivated one / a bot user), a room that does not
    exist, or a room FlyBot is not a member of. Slack unreachable: one line saying the check was skipped."""
    warnings: list[str] = []
    try:
        for owner in owners:
            try:
                info = (await client.users_info(user=owner)).get("user") or {}
            except SlackApiError as exc:
                warnings.append(f"owner {owner}: Slack says {_error(exc)}; they cannot decide until the ID is right")
                continue
            if info.get("deleted"):
                warnings.append(f"owner {owner}: this Slack account is deactivated")
            elif info.get("is_bot"):
                warnings.append(f"owner {owner}: this is a bot user, not a person")
        if room:
            try:
                channel = (await client.conversations_info(channel=room)).get("channel") or {}
            except SlackApiError as exc:
                fix = "" if missing_scope_hint(exc) else "; invite @flybot to the room, or fix the ID"
                warnings.append(f"room {room}: Slack says {_error(exc)}{fix}")
            else:
                if not channel.get("is_member", False) and not channel.get("is_im", False):
                    warnings.append(f"room {room}: FlyBot is not in #{channel.get('name', room)}; invite @flybot there")
    except (SlackClientError, OSError, TimeoutError) as exc:
        warnings.append(f"could not ask Slack about the owners and room ({plain_cause(exc)}); not checked")
    return warnings


def _error(exc: SlackApiError) -> str:
    """Slack's error code, or for ``missing_scope`` what the operator must add to the app (and how)."""
    hint = missing_scope_hint(exc)
    if hint is not None:
        return f"missing_scope ({hint})"
    response = exc.response
    return str(response.get("error") or "an error") if hasattr(response, "get") else "an error"


# -- names instead of ids ---------------------------------------------------------------------------------------
NAME_MAX = 80
"""A display name is cut to this many characters (after hidden characters are made visible)."""
LOOKUPS_AT_ONCE = 8
"""At most this many ``users.info``/``conversations.info`` calls of one :class:`Names` run at once."""
CACHE_MAX = 10_000
"""Names remembered per process; past it the cache starts again (a workspace's people fit many times over)."""


def shown_name(raw: str) -> str:
    """A name from Slack's directory as FlyBot prints it: one line, hidden characters visible (``⟨U+202E⟩``), at most
    :data:`NAME_MAX` characters. The name is a person's own text: it must not hide anything or break a line."""
    from bot.risk.hidden import reveal

    text = reveal(raw.strip(" "), multiline=False)  # a newline or an odd space is shown as ⟨U+…⟩, never acted on
    return text if len(text) <= NAME_MAX else text[: NAME_MAX - 1] + "\u2026"


def person_name(user: dict[str, object]) -> str | None:
    """The name Slack shows for a ``users.info`` user object: ``profile.display_name``, else ``profile.real_name``,
    ``real_name``, ``name`` (Slack's "User object" reference: the display name may be empty)."""
    profile = user.get("profile")
    candidates: list[object] = []
    if isinstance(profile, dict):
        candidates += [profile.get("display_name"), profile.get("real_name")]
    candidates += [user.get("real_name"), user.get("name")]
    return next((str(c) for c in candidates if isinstance(c, str) and c.strip()), None)


NameLookup = Callable[[str], Awaitable["str | None"]]
"""``async (id) -> name or None``: one ``users.info`` / ``conversations.info`` / ``usergroups.list`` (None: unknown
or Slack failed)."""


async def _no_name(_key: str) -> str | None:
    return None


class Names:
    """Display names for people (``@Olivia``), rooms (``#flybot-approvals``) and user groups (``@flybot-oncall``),
    asked of chat once and remembered.

    What a person reads says who, not which id: the CLI (``flybot ask``: "approved by @Olivia"), the hook's message to
    the agent and the operator commands (through the session API's ``decided_by_name`` or directly).

    Args:
        user_name: looks a user id up (``users.info``); None when unknown.
        room_name: looks a channel id up (``conversations.info``); None when unknown.
        group_name: looks a user group id up (its handle, from ``usergroups.list``); None when unknown. Without it,
            groups are shown as their ids.
        ttl_s: how long a name found is fresh (seconds); after that it is still answered, and looked up again in the
            background.
        miss_ttl_s: how long "unknown" is remembered, so a Slack outage costs one wait per id and minute, not one per
            request.
        timeout_s: the longest one Slack call may take; a slower answer counts as unknown (the caller shows the id).
            At most :data:`LOOKUPS_AT_ONCE` calls run at once; the people an answer names are few (who decided).
    """

    def __init__(
        self,
        user_name: NameLookup,
        room_name: NameLookup,
        *,
        group_name: NameLookup = _no_name,
        ttl_s: float = 3600.0,
        miss_ttl_s: float = 60.0,
        timeout_s: float = 1.0,
    ) -> None:
        self._lookups = {"user": user_name, "room": room_name, "group": group_name}
        self._ttl_s, self._miss_ttl_s, self._timeout_s = ttl_s, miss_ttl_s, timeout_s
        self._cache: dict[tuple[str, str], tuple[float, str | None]] = {}
        self._inflight: dict[tuple[str, str], asyncio.Future[str | None]] = {}
        self._slots = asyncio.Semaphore(LOOKUPS_AT_ONCE)

    async def person(self, user_id: str) -> str:
        """``@Olivia`` for a Slack user id FlyBot can name; anything else (``operator:alice``, an id Slack does not
        know, Slack down) is returned as it is."""
        if not USER_ID.match(user_id):
            return user_id
        name = await self._name("user", user_id)
        return f"@{name}" if name else user_id

    async def room(self, channel_id: str) -> str:
        """``#flybot-approvals`` for a channel id FlyBot can name; else the id as it is."""
        if not CHANNEL_ID.match(channel_id):
            return channel_id
        name = await self._name("room", channel_id)
        return f"#{name}" if name else channel_id

    async def group(self, group_id: str) -> str:
        """``@flybot-oncall`` (the handle) for a user group id (``S…``) chat can name; else the id as it is."""
        if not GROUP_ID.match(group_id):
            return group_id
        name = await self._name("group", group_id)
        return f"@{name}" if name else group_id

    async def groups(self, group_ids: Iterable[str]) -> dict[str, str]:
        """:meth:`group` for each distinct id, looked up concurrently: ``{id: shown}``."""
        distinct = list(dict.fromkeys(group_ids))
        shown = await asyncio.gather(*(self.group(g) for g in distinct))
        return dict(zip(distinct, shown, strict=True))

    async def people(self, user_ids: Iterable[str]) -> dict[str, str]:
        """:meth:`person` for each distinct id, looked up concurrently: ``{id: shown}``."""
        distinct = list(dict.fromkeys(user_ids))
        shown = await asyncio.gather(*(self.person(u) for u in distinct))
        return dict(zip(distinct, shown, strict=True))

    async def rooms(self, channel_ids: Iterable[str]) -> dict[str, str]:
        """:meth:`room` for each distinct id, looked up concurrently: ``{id: shown}``."""
        distinct = list(dict.fromkeys(channel_ids))
        shown = await asyncio.gather(*(self.room(c) for c in distinct))
        return dict(zip(distinct, shown, strict=True))

    async def _name(self, kind: str, key: str) -> str | None:
        cached = self._cache.get((kind, key))
        if cached is not None:
            # Past its time, a name is still answered at once while a lookup refreshes it in the background: a
            # request (an auto-answer's 201 names its approval's author) never waits for chat once a name is known
            # (nothing on the hot path awaits Slack).
            if cached[0] <= time.monotonic():
                self._pending(kind, key)
            return cached[1]
        return await asyncio.shield(self._pending(kind, key))

    def _pending(self, kind: str, key: str) -> asyncio.Future[str | None]:
        pending = self._inflight.get((kind, key))
        if pending is None:  # concurrent requests for one id share one lookup
            pending = asyncio.ensure_future(self._lookup(kind, key))
            self._inflight[(kind, key)] = pending
            pending.add_done_callback(lambda _f: self._inflight.pop((kind, key), None))
        return pending

    async def _limited(self, kind: str, key: str) -> str | None:
        async with self._slots:  # an audit naming 500 people asks Slack a few at a time (its rate limits)
            return await asyncio.wait_for(self._lookups[kind](key), self._timeout_s)

    async def _lookup(self, kind: str, key: str) -> str | None:
        try:
            raw = await self._limited(kind, key)
        except (TimeoutError, SlackClientError, OSError):
            raw = None
        name = shown_name(raw) if raw else None
        ttl = self._ttl_s if name else self._miss_ttl_s
        if len(self._cache) >= CACHE_MAX:
            self._cache.clear()
        self._cache[(kind, key)] = (time.monotonic() + ttl, name)
        return name


def slack_names(client: AsyncWebClient, **options: float) -> Names:
    """:class:`Names` over Slack's ``users.info``, ``conversations.info`` and ``usergroups.list`` (scope
    ``usergroups:read``; the emulation answers them too). One ``usergroups.list`` answers every group named at once.
    A ``missing_scope`` answer is logged for the operator (:func:`bot.slack.scopes.note_missing_scope`) and the id
    shown as it is."""
    listing: list[tuple[float, asyncio.Future[dict[str, str]]]] = []  # the last usergroups.list, shared a minute

    async def handles() -> dict[str, str]:
        try:
            groups = (await client.usergroups_list()).get("usergroups") or []
        except SlackApiError as exc:
            note_missing_scope(exc)
            return {}
        return {
            str(g.get("id")): str(g.get("handle"))
            for g in groups
            if isinstance(g, dict) and g.get("id") and g.get("handle")
        }

    async def group_name(group_id: str) -> str | None:
        if not listing or listing[0][0] <= time.monotonic():
            listing[:] = [(time.monotonic() + 60.0, asyncio.ensure_future(handles()))]
        found = listing[0][1]
        try:
            known = await asyncio.shield(found)
        except (SlackClientError, OSError, TimeoutError):
            listing.clear()  # Slack unreachable: the next lookup asks again
            raise
        return known.get(group_id)

    async def user_name(user_id: str) -> str | None:
        try:
            info = (await client.users_info(user=user_id)).get("user") or {}
        except SlackApiError as exc:
            note_missing_scope(exc)
            return None
        return person_name(info) if isinstance(info, dict) else None

    async def room_name(channel_id: str) -> str | None:
        try:
            info = (await client.conversations_info(channel=channel_id)).get("channel") or {}
        except SlackApiError as exc:
            note_missing_scope(exc)
            return None
        name = info.get("name") if isinstance(info, dict) else None
        return str(name) if name else None

    return Names(user_name, room_name, group_name=group_name, **options)


def local_names() -> Names:
    """:class:`Names` as local mode's emulated Slack gives them (built-in people and rooms, generated names for the
    ids it learned), computed without the server: for operator commands run next to ``flybot serve``."""
    from bot.localchat.emulator import local_group_handle, local_person_name, local_room_name

    async def user_name(user_id: str) -> str | None:
        return local_person_name(user_id)

    async def room_name(channel_id: str) -> str | None:
        return local_room_name(channel_id)

    async def group_name(group_id: str) -> str | None:
        return local_group_handle(group_id)

    return Names(user_name, room_name, group_name=group_name)


@asynccontextmanager
async def names_for(settings: Settings) -> AsyncIterator[Names]:
    """The :class:`Names` an operator command uses: Slack's directory with Slack credentials (one try per id, at most
    3 s each), else local mode's names."""
    if settings.slack_bot_token is None:
        yield local_names()
        return
    from bot.slack.gateway import make_web_client

    client = make_web_client(
        settings.slack_bot_token.get_secret_value(),
        settings.slack_api_url,
        max_retries=0,
        timeout_s=min(settings.slack_timeout_s, 3.0),
    )
    try:
        yield slack_names(client, timeout_s=3.0)
    finally:
        session = getattr(client, "session", None)
        if session is not None:
            await session.close()


async def bot_summary(bot: Bot, names: Names) -> str:
    """A Bot's people and room as an operator reads them: ``owners @Olivia, @Priya and the members of @flybot-oncall;
    room #flybot-approvals; chat user @ci-bot`` (``--json`` carries the ids)."""
    owners = await names.people(bot.owners)
    shown = await names.groups(bot.owner_groups)
    groups = f" and the members of {', '.join(shown[g] for g in bot.owner_groups)}" if bot.owner_groups else ""
    room = await names.room(bot.room) if bot.room else "(a DM to the first owner)"
    chat_user = await names.person(bot.chat_user) if bot.chat_user else "(none: reports through the API only)"
    return f"owners {', '.join(owners[o] for o in bot.owners)}{groups}; room {room}; chat user {chat_user}"


async def fallback_summary(bot: Bot, names: Names) -> str:
    """A Bot's fallback approvers as an operator reads them (``@Ada, @flybot-oncall``); empty when it names none."""
    people = await names.people(bot.fallback_owners)
    groups = await names.groups(bot.fallback_groups)
    return ", ".join([people[u] for u in bot.fallback_owners] + [groups[g] for g in bot.fallback_groups])


async def bot_line(bot: Bot, names: Names) -> str:
    """Everything ``bots add``, ``bots set`` and ``bots list`` say of a Bot, in the same words: :func:`bot_summary`,
    then ``two-person rule: destructive commands on the host`` (or ``(the deployment setting)``), then
    ``fallback: @Ada, @flybot-oncall`` (or ``(the admins)``), then, when the operator allowed any,
    ``may also use rooms #ops, #deploys`` (``--allow-room``)."""
    rule = "destructive commands on the host" if bot.two_person else "(the deployment setting)"
    fallback = await fallback_summary(bot, names) or "(the admins)"
    line = f"{await bot_summary(bot, names)}; two-person rule: {rule}; fallback: {fallback}"
    if bot.allowed_rooms:
        line += f"; may also use rooms {', '.join([await names.room(r) for r in bot.allowed_rooms])}"
    return line


async def group_warnings(settings: Settings, groups: Sequence[str]) -> list[str]:
    """One line per user group FlyBot cannot read, so its members would have no say: with Slack
    credentials, ``usergroups.users.list`` per group (``no_such_subteam``, ``missing_scope``, Slack unreachable);
    in local mode, a group local chat does not have (it has only ``DEFAULT_USERGROUPS``; it learns none)."""
    distinct = list(dict.fromkeys(groups))
    if not distinct:
        return []
    if settings.slack_bot_token is None:
        from bot.localchat.emulator import DEFAULT_USERGROUPS

        built_in = ", ".join(f"{gid} (@{g['handle']})" for gid, g in DEFAULT_USERGROUPS.items())
        return [
            f"group {g}: local chat has no such group (it has {built_in}); no one is asked as its member"
            for g in distinct
            if g not in DEFAULT_USERGROUPS
        ]
    from bot.slack.gateway import make_web_client

    client = make_web_client(
        settings.slack_bot_token.get_secret_value(),
        settings.slack_api_url,
        max_retries=0,
        timeout_s=min(settings.slack_timeout_s, 3.0),
    )
    warnings: list[str] = []
    try:
        for group in distinct:
            try:
                await client.usergroups_users_list(usergroup=group)
            except SlackApiError as exc:
                warnings.append(
                    f"group {group}: Slack says {_error(exc)}; its members cannot decide until that is fixed"
                )
    except (SlackClientError, OSError, TimeoutError) as exc:
        warnings.append(f"could not ask Slack about the groups ({plain_cause(exc)}); not checked")
    finally:
        session = getattr(client, "session", None)
        if session is not None:
            await session.close()
    return warnings
