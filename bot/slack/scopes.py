"""The OAuth scopes each Slack Web API method FlyBot calls needs with a bot token, and what the app's features need.

One table, each row with its source (Slack's method reference page). A method whose page lists one scope per kind
of conversation (``channels:read`` for public channels, ``groups:read`` for private ones, ``im:read`` for DMs,
``mpim:read`` for group DMs) needs only the scope of the conversation it is called on; Slack answers ``missing_scope``
with that one scope in ``needed``. The local emulation (:mod:`bot.localchat.emulator`) enforces this table against
the installed app manifest; the shipped manifests (``deploy/slack-app-manifest*.yaml``) ask for exactly
:func:`required_scopes`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import structlog
from slack_sdk.errors import SlackApiError

log = structlog.get_logger("flybot.slack")

CONVERSATION_KINDS = ("public", "private", "im", "mpim")
"""Slack's kinds of conversation: public channel, private channel, DM, group DM."""

ROOM_KINDS = ("public", "private", "im")
"""The kinds of conversation FlyBot works in: a Bot's room is a public or private channel; owners are reached in
their DM with FlyBot (cards without a room, blocked-host reports, answers to clicks). FlyBot opens no group DM."""


@dataclass(frozen=True, slots=True)
class Required:
    """What one method needs: ``scopes`` on every call, or (``per_kind``) one scope per kind of conversation, in the
    order of :data:`CONVERSATION_KINDS`; ``source`` is Slack's method reference page."""

    source: str
    scopes: tuple[str, ...] = ()
    per_kind: tuple[str, str, str, str] | None = None

    def needed(self, kind: str | None) -> tuple[str, ...]:
        """The scopes a call on a conversation of ``kind`` needs (``kind`` is ignored for a method without
        :attr:`per_kind`; an unknown kind needs nothing more, the method's own error answers it)."""
        if self.per_kind is None:
            return self.scopes
        if kind not in CONVERSATION_KINDS:
            return self.scopes
        return (*self.scopes, self.per_kind[CONVERSATION_KINDS.index(kind)])


def _page(method: str) -> str:
    return f"https://api.slack.com/methods/{method}"


_HISTORY = ("channels:history", "groups:history", "im:history", "mpim:history")

METHOD_SCOPES: dict[str, Required] = {
    "auth.test": Required(_page("auth.test")),
    "chat.postMessage": Required(_page("chat.postMessage"), ("chat:write",)),
    "chat.update": Required(_page("chat.update"), ("chat:write",)),
    "chat.postEphemeral": Required(_page("chat.postEphemeral"), ("chat:write",)),
    "conversations.history": Required(_page("conversations.history"), per_kind=_HISTORY),
    "conversations.replies": Required(_page("conversations.replies"), per_kind=_HISTORY),
    "conversations.info": Required(
        _page("conversations.info"), per_kind=("channels:read", "groups:read", "im:read", "mpim:read")
    ),
    "conversations.open": Required(
        _page("conversations.open"), per_kind=("channels:manage", "groups:write", "im:write", "mpim:write")
    ),
    "users.info": Required(_page("users.info"), ("users:read",)),
    "usergroups.list": Required(_page("usergroups.list"), ("usergroups:read",)),
    "usergroups.users.list": Required(_page("usergroups.users.list"), ("usergroups:read",)),
    "usergroups.users.update": Required(_page("usergroups.users.update"), ("usergroups:write",)),
    "views.open": Required(_page("views.open")),
    "views.push": Required(_page("views.push")),
    "views.update": Required(_page("views.update")),
    "views.publish": Required(_page("views.publish")),
}
"""Slack Web API method -> the bot token scopes it needs (Slack's method reference, "Required scopes")."""

FLYBOT_CALLS: dict[str, tuple[str, ...]] = {
    "auth.test": (),
    "chat.postMessage": ("public", "private", "im"),
    "chat.update": ("public", "private", "im"),
    "chat.postEphemeral": ("public", "private"),
    "conversations.history": ROOM_KINDS,
    "conversations.replies": ROOM_KINDS,
    "conversations.info": ROOM_KINDS,
    "conversations.open": ("im",),
    "users.info": (),
    "usergroups.list": (),
    "usergroups.users.list": (),
    "views.open": (),
    "views.publish": (),
}
"""The methods FlyBot calls (``bot/slack/gateway.py``, ``bot/slack/directory.py``, ``bot/health.py``), each with the
kinds of conversation it calls them on (``conversations.info``: a Bot's room, which may be a DM id;
``conversations.open``: an owner's DM)."""

FEATURE_SCOPES: dict[str, tuple[str, ...]] = {
    "slash command /flybot": ("commands",),
    "event message.channels": ("channels:history",),
    "event message.groups": ("groups:history",),
    "event message.im": ("im:history",),
    "event app_home_opened": (),
}
"""What the manifest's features need beyond the Web API calls: a slash command needs ``commands``
(https://api.slack.com/scopes/commands); each ``message.*`` event needs its conversation kind's ``history`` scope
(https://api.slack.com/events/message.channels, message.groups, message.im); ``app_home_opened`` needs none
(https://api.slack.com/events/app_home_opened). The blocked-host reports a Bot posts in its room or DM arrive as
these events."""


def method_needs(method: str) -> frozenset[str]:
    """Every scope a FlyBot call of ``method`` may need, over the kinds of conversation FlyBot calls it on."""
    required = METHOD_SCOPES[method]
    kinds: Iterable[str | None] = FLYBOT_CALLS.get(method) or (None,)
    return frozenset(scope for kind in kinds for scope in required.needed(kind))


def required_scopes() -> frozenset[str]:
    """The bot token scopes FlyBot's Slack app needs: every method it calls, and its features."""
    needed = {scope for method in FLYBOT_CALLS for scope in method_needs(method)}
    needed.update(scope for scopes in FEATURE_SCOPES.values() for scope in scopes)
    return frozenset(needed)


def manifest_bot_scopes(manifest: Mapping[str, Any]) -> frozenset[str]:
    """``oauth_config.scopes.bot`` of a Slack app manifest (a parsed YAML or JSON document).

    Raises ValueError when the manifest has no such list of strings."""
    scopes = ((manifest.get("oauth_config") or {}).get("scopes") or {}).get("bot")
    if not isinstance(scopes, list) or not all(isinstance(s, str) for s in scopes):
        raise ValueError("the manifest has no oauth_config.scopes.bot list")
    return frozenset(scopes)


def scope_hint(method: str, needed: str | None) -> str:
    """What an operator reads when Slack answers ``missing_scope``: which scope, for which call, and the fix."""
    if not needed and method in FLYBOT_CALLS:
        needed = " or ".join(sorted(method_needs(method)))
    return (
        f"the Slack app lacks the scope {needed or '(Slack did not say which)'} that {method} needs: add it under "
        "oauth_config.scopes.bot in the app manifest (deploy/slack-app-manifest.yaml), then reinstall the app "
        "to the workspace"
    )


def missing(granted: Iterable[str]) -> list[str]:
    """The scopes of :func:`required_scopes` that ``granted`` lacks, sorted."""
    return sorted(required_scopes() - set(granted))


def missing_scope_hint(exc: BaseException) -> str | None:
    """For Slack's ``missing_scope`` answer (a slack-sdk ``SlackApiError``), what the operator reads
    (:func:`scope_hint`: the scope, the method, the fix); None for any other exception."""
    if not isinstance(exc, SlackApiError) or not hasattr(exc.response, "get"):
        return None
    if exc.response.get("error") != "missing_scope":
        return None
    method = str(getattr(exc.response, "api_url", "") or "").rstrip("/").rsplit("/", 1)[-1]
    needed = exc.response.get("needed")
    return scope_hint(method, str(needed) if needed else None)


def note_missing_scope(exc: BaseException) -> bool:
    """Log Slack's ``missing_scope`` answer as the operator's to fix (:func:`missing_scope_hint`); True when ``exc``
    was one. The call's caller still treats it as a refusal (fail closed)."""
    hint = missing_scope_hint(exc)
    if hint is None:
        return False
    assert isinstance(exc, SlackApiError)
    log.error(
        "slack.missing_scope", needed=exc.response.get("needed"), provided=exc.response.get("provided"), detail=hint
    )
    return True
