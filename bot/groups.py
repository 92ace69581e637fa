"""Owner groups: a Bot's owners may include Slack user groups, resolved when someone decides.

:class:`OwnerGroups` asks the chat side for a group's members (``usergroups.users.list`` in Slack, through the
callable it is given, so the domain imports no chat port) and keeps each answer for ``ttl_s`` seconds: a member
removed from the group can no longer decide once that copy is older than ``ttl_s``. Failures fail closed: a group
that cannot be read has no members for that decision (and is asked again next time; failures are not kept).

A lookup runs while a click waits for its acknowledgement (the decision is stored first), and Slack
gives a click 3 seconds: one call of :meth:`OwnerGroups.member_of_any` waits for Slack at most ``timeout_s`` seconds
in all. A group not read in time is not taken for "not a member": a decision's check (``in_time=True``) raises
:class:`GroupCheckTooSlow` ("click again"; nothing changes, and the lookup goes on for the next click to share or
find cached), while a listing (App Home, ``/flybot pending``) leaves that group's Bots out. Concurrent clicks
share one lookup per group (``usergroups.users.list`` is rate limited: Slack's Tier 2, about 20 a minute).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING

import structlog

from bot.errors import FlyBotError

if TYPE_CHECKING:
    from bot.store import Bot

log = structlog.get_logger("flybot.groups")

GROUP_ID = re.compile(r"^S[A-Z0-9]{2,}\Z")
"""A Slack user group ID (``S0123ABCD``; Slack's "usergroups" reference calls them subteams)."""

LOOKUP_BUDGET_S = 1.5
"""Seconds one decision may wait for Slack to name groups' members (Slack allows a click 3 seconds in all)."""

TOO_SLOW_TEXT = "FlyBot could not check your group in time; click again. Nothing was decided or changed."


class GroupCheckTooSlow(FlyBotError):
    """Slack did not name a group's members within the lookup budget, and the person is in none of the groups that
    were read: whether they may act is not known yet (503, retry in a second). Nothing was changed."""

    code = "group_check_too_slow"
    status = 503
    title = "Group check too slow"
    retry_after = 1

    def __init__(self, detail: str = TOO_SLOW_TEXT) -> None:
        super().__init__(detail)


MemberLookup = Callable[[str], Awaitable[frozenset[str] | None]]
"""``async (group_id) -> member user ids``, or None when the group cannot be read (unknown, Slack error)."""


class OwnerGroups:
    """Members of Slack user groups, cached per group for ``ttl_s`` seconds (0: asked every time).

    Args:
        lookup: reads one group's members (:data:`MemberLookup`); give one that does not retry (the budget below is
            all a click can spend).
        ttl_s: how long one answer is reused, seconds.
        clock: monotonic seconds (tests may pass their own).
        timeout_s: how long one :meth:`members` or :meth:`member_of_any` call may wait for Slack, seconds, well
            inside Slack's 3 seconds for a click; 0: no bound.
    """

    def __init__(
        self,
        lookup: MemberLookup,
        ttl_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        timeout_s: float = LOOKUP_BUDGET_S,
    ) -> None:
        self.lookup = lookup
        self.ttl_s = ttl_s
        self.clock = clock
        self.timeout_s = timeout_s
        self._cache: dict[str, tuple[float, frozenset[str]]] = {}
        self._reading: dict[str, asyncio.Future[frozenset[str] | None]] = {}

    async def members(self, group: str, *, budget_s: float | None = None) -> frozenset[str]:
        """The group's members (empty when it cannot be read, or not within ``budget_s`` seconds, default
        ``timeout_s``: fail closed)."""
        return await self._members(group, budget_s) or frozenset()

    async def _members(self, group: str, budget_s: float | None) -> frozenset[str] | None:
        """The group's members (empty when Slack says it cannot be read); None when not read within ``budget_s``
        seconds (default ``timeout_s``)."""
        now = self.clock()
        cached = self._cache.get(group)
        if cached is not None and now - cached[0] < self.ttl_s:
            return cached[1]
        reading = self._reading.get(group)
        if reading is None:  # one lookup per group at a time, shared by every click waiting on it
            reading = self._reading[group] = asyncio.ensure_future(self._read(group, now))
            reading.add_done_callback(lambda _done: self._reading.pop(group, None))
        budget = self.timeout_s if budget_s is None else budget_s
        try:
            if budget_s is None and self.timeout_s <= 0:
                found = await asyncio.shield(reading)
            else:  # the lookup goes on when this click stops waiting: its answer serves the next one
                found = await asyncio.wait_for(asyncio.shield(reading), max(0.0, budget))
        except TimeoutError:
            log.warning("owner_group.too_slow", group=group, budget_s=round(budget, 3))
            return None
        return found or frozenset()

    async def _read(self, group: str, asked_at: float) -> frozenset[str] | None:
        """Ask Slack once and keep the answer (``asked_at``: when, for the cache's age); None: unreadable."""
        found = await self.lookup(group)
        if found is None:
            log.warning("owner_group.unreadable", group=group)
            self._cache.pop(group, None)
        elif self.ttl_s > 0:
            self._cache[group] = (asked_at, found)
        return found

    async def member_of_any(self, user: str, groups: Iterable[str], *, in_time: bool = False) -> str | None:
        """The first of ``groups`` that ``user`` belongs to, or None. Slack is asked for ``timeout_s`` seconds in all;
        groups not read by then count as empty, or, with ``in_time``, make the answer unknown.

        Raises:
            GroupCheckTooSlow: with ``in_time``, when ``user`` is in none of the groups read and some group was not
                read within the budget (a group Slack refused to show is read: it has no members).
        """
        deadline = self.clock() + self.timeout_s
        slow: list[str] = []
        for group in groups:
            budget = deadline - self.clock() if self.timeout_s > 0 else None
            found = await self._members(group, budget)
            if found is None:
                slow.append(group)
            elif user in found:
                return group
        if slow and in_time:
            raise GroupCheckTooSlow()
        return None


async def owns(bot: Bot, user: str, groups: OwnerGroups | None, *, in_time: bool = False) -> bool:
    """``user`` owns ``bot``: listed with ``--owner``, or a member now of one of its ``--owner-group``s (None
    ``groups``: only the listed owners). The one rule for escalations, standing approvals and blocked reports.

    Raises:
        GroupCheckTooSlow: with ``in_time`` (a decision), when an owner group could not be read in time.
    """
    if user in bot.owners:
        return True
    if not bot.owner_groups or groups is None:
        return False
    return await groups.member_of_any(user, bot.owner_groups, in_time=in_time) is not None
