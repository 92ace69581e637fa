"""The chat port: what the delivery workers (``bot/delivery``) need from chat. Implemented over Slack's Web API in
``bot/slack/gateway.py``. Domain services never import this module: they write outbox jobs through the store.

Errors say what a retry may do, which is all the workers need to know:

- :class:`RateLimited`: Slack said wait (HTTP 429, ``Retry-After`` seconds); nothing was delivered;
- :class:`Unsure`: the call may or may not have taken effect (a timeout, a lost connection, a 5xx, Slack's own
  ``internal_error``); retrying a post must first look for it in the room's history;
- :class:`Refused`: Slack refused for good (``channel_not_found``, ``not_in_channel``, ``invalid_blocks``...).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol


class ChatError(Exception):
    """A chat call failed; ``error`` is Slack's error code or the exception's type name."""

    def __init__(self, error: str) -> None:
        super().__init__(error)
        self.error = error


class RateLimited(ChatError):
    """HTTP 429: wait ``retry_after_s`` seconds before the next message into this room (Slack's ``Retry-After``)."""

    def __init__(self, retry_after_s: float) -> None:
        super().__init__("ratelimited")
        self.retry_after_s = retry_after_s


class Unsure(ChatError):
    """The call's outcome is unknown: it may have reached Slack (retry, after looking in the history for a post)."""


class Refused(ChatError):
    """Slack refused the call for good; retrying will not help."""


@dataclass(frozen=True, slots=True)
class Tag:
    """Slack message metadata FlyBot puts on every message it posts: ``event_type`` (e.g. ``flybot_card``) and the
    ``key`` of the thing it shows (escalation, notice or report id) in ``event_payload``. A retried post whose
    earlier answer was lost finds its message by this tag (``conversations.history``, ``include_all_metadata``)."""

    event_type: str
    key: str

    def metadata(self) -> dict[str, Any]:
        """Slack's ``metadata`` argument of ``chat.postMessage``."""
        return {"event_type": self.event_type, "event_payload": {"key": self.key}}


class ChatPort(Protocol):
    """Post, edit and find messages. Implementations raise :class:`RateLimited`, :class:`Unsure` or
    :class:`Refused`, never a transport's own exceptions."""

    async def post(
        self, channel: str, text: str, blocks: list[dict[str, Any]], tag: Tag, *, thread_ts: str | None = None
    ) -> tuple[str, str]:
        """``chat.postMessage`` with ``tag`` as message metadata (``thread_ts``: as a reply in that message's
        thread); returns ``(channel, ts)``."""
        ...

    async def update(self, channel: str, ts: str, text: str, blocks: list[dict[str, Any]]) -> None:
        """``chat.update``: redraw a message in place."""
        ...

    async def find(self, channel: str, tag: Tag, *, since: datetime, thread_ts: str | None = None) -> str | None:
        """The ``ts`` of FlyBot's message in ``channel`` (``thread_ts``: in that thread) carrying ``tag``, posted at
        or after ``since``; or None."""
        ...

    async def open_dm(self, user: str) -> str:
        """The DM channel between FlyBot and ``user`` (``conversations.open``)."""
        ...

    async def usergroup_members(self, group: str, *, retries: bool = True) -> frozenset[str] | None:
        """The members of a user group (``usergroups.users.list``); None when they cannot be read (``retries``
        False: at once, without retrying a failure or waiting out a rate limit)."""
        ...

    async def tell(self, channel: str | None, user: str, text: str) -> None:
        """Show ``text`` to ``user`` only: ``chat.postEphemeral`` in ``channel``; when there is none or Slack refuses
        it there (FlyBot or the person not in it), a message in their DM with FlyBot."""
        ...
