"""Admission control per Bot, counted in the store so that it holds across replicas.

Run inside the transaction that creates the escalation (:func:`admit`), so a refused request changes nothing (its
count rolls back with it) and an admitted one is counted exactly when it commits.

- Requests a minute: a sliding window over two one-minute counters, ``previous * (1 - elapsed) + current``,
  bumped with one ``INSERT ... ON CONFLICT DO UPDATE``. Open escalations: the Bot's pending, unexpired ones.
- Across replicas: the counter upsert locks the Bot's row of the minute until commit (PostgreSQL; SQLite has one
  writer at a time), so concurrent creates of one Bot are serialised and the open count is exact. An escalation
  answered at once (a standing approval) is counted as a request, never as open.
- A room's queue (:func:`admit_card`): the room's cap and each Bot's share of it, as the transaction sees the store.
  On PostgreSQL a transaction that may queue a card locks its room first (:meth:`bot.store.Tx.lock_room`), before
  the Bot's counter row, so replicas serialise on the room and never wait for each other in a cycle (the marks of
  waiting Bots are written after their refusal, outside the lock). The one request counted without the lock is one a
  standing approval covers whose room's notices are overdue (it falls back to a card).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.errors import RateLimited, RoomBusy
from bot.store.models import BotRequestCountRow, EscalationRow, dialect_insert
from bot.store.records import RoomQueue

OPEN_RETRY_AFTER_S = 5
"""Retry-After (seconds) when the Bot has too many open escalations (they end by a decision, not by time alone)."""

ROOM_WAIT_S = 30.0
"""A Bot refused ``429 room_busy`` stays marked as waiting for a place in the room this many seconds past its
``Retry-After`` (:meth:`bot.store.Store.note_room_wait`): long enough for a client that retries when told to."""


@dataclass(frozen=True, slots=True)
class AdmissionLimits:
    """Per-Bot limits, and the cap on a room's queue; 0 turns one off.

    Attributes:
        max_open: pending escalations one Bot may have at once (``FLYBOT_MAX_OPEN_ESCALATIONS``, default 20).
        per_minute: escalation requests one Bot may make in any minute (``FLYBOT_RATE_PER_MINUTE``, default 120).
        room_queue: messages for Bots (approval cards, blocked reports' DMs) one room or DM may have waiting to be
            posted (``FLYBOT_ROOM_QUEUE_MAX``, default 200), shared fairly between the Bots that use the room.
        room_interval_s: the room's pace (``FLYBOT_SLACK_ROOM_INTERVAL_S``), for the ``Retry-After`` of a full room.
    """

    max_open: int = 20
    per_minute: int = 120
    room_queue: int = 200
    room_interval_s: float = 1.0


def admit_card(queue: RoomQueue, bot_id: str, limits: AdmissionLimits, what: str = "approval cards") -> None:
    """Check that ``bot_id`` may queue one more message (``what`` names them in the refusal) in a room whose
    ``queue`` the transaction that would queue it just read (:meth:`bot.store.Tx.room_queue`):

    - the room's cap: at most ``limits.room_queue`` wait, whichever Bots queued them;
    - each Bot's share: with ``n`` Bots sharing the room (those with messages waiting, those marked waiting because
      they were refused here, and the asking Bot), at most ``ceil(room_queue / n)`` each. A Bot alone may fill the
      room; a refused Bot's mark halves the first Bot's share, so the places that free up go to the waiting Bot.

    Raises:
        RoomBusy: (429 ``room_busy``, ``Retry-After``: the room's pace times the messages over the cap or share);
            the caller's operation must raise it, so nothing is created.
    """
    cap = limits.room_queue
    if cap <= 0:
        return
    waiting = queue.total
    if waiting >= cap:
        raise RoomBusy(
            f"this room already has {waiting} {what} waiting to be posted, the most it may have "
            f"({cap}): retry after the Retry-After seconds",
            retry_after=max(1.0, math.ceil((waiting - cap + 1) * limits.room_interval_s)),
        )
    bots = queue.bots(bot_id)
    share = max(1, math.ceil(cap / bots))
    own = queue.cards.get(bot_id, 0)
    if own >= share:
        raise RoomBusy(
            f"this Bot already has {own} of the {waiting} {what} waiting to be posted in this room, its "
            f"share while {bots} Bots use it ({cap} places shared): retry after the Retry-After seconds",
            retry_after=max(1.0, math.ceil((own - share + 1) * limits.room_interval_s)),
        )


async def admit(
    conn: AsyncConnection, bot_id: str, now: datetime, limits: AdmissionLimits, *, opened: bool = True
) -> None:
    """Count one request of ``bot_id`` at ``now`` and check both limits, in ``conn``'s transaction, which already
    wrote the request's escalation (``opened``: it is pending, so it counts as open).

    Raises:
        RateLimited: (429 ``rate_limited``, ``Retry-After``) the Bot is over a limit; the caller's transaction must roll
            back (it does when the exception leaves ``async with``), so nothing was counted or created.
    """
    if limits.per_minute <= 0 and limits.max_open <= 0:
        return
    statements = _statements(conn.dialect.name)
    # Counting first also serialises this Bot's creates (row lock / SQLite's write lock) until commit, so the open
    # count below sees every create committed before it (and this request's own).
    minutes = now.timestamp() / 60
    window = math.floor(minutes)
    elapsed = minutes - window
    params = {"bot": bot_id, "window": window, "add": 1, "add_again": 1, "previous_window": window - 1}
    row = (await conn.execute(statements["upsert"], params)).one()
    current, previous = int(row[0]), int(row[1] or 0)
    if current == 1:  # the first request of a minute clears the Bot's minutes before the previous one
        await conn.execute(statements["prune"], {"bot": bot_id, "window": window - 1})
    limit = limits.per_minute
    if limit > 0 and previous * (1 - elapsed) + current > limit:
        raise RateLimited(
            f"this Bot made more than {limit} escalation requests in the last minute: retry after the Retry-After "
            "seconds",
            reason="rate",
            retry_after=retry_after_s(previous, current, elapsed, limit),
        )
    if opened and limits.max_open > 0:
        open_now = int((await conn.execute(statements["open"], {"bot": bot_id, "now": now})).scalar_one()) - 1
        if open_now >= limits.max_open:
            raise RateLimited(
                f"this Bot has {open_now} open escalations, the most it may have ({limits.max_open}): wait for "
                "decisions, or withdraw the ones no longer needed",
                reason="open_escalations",
                retry_after=OPEN_RETRY_AFTER_S,
            )


@cache
def _statements(dialect: str) -> dict[str, Any]:
    """This module's statements, built once per dialect with bind parameters (the hot path runs them per request:
    building an expression and its cache key each time cost more than running it). ``upsert`` returns the count
    after it and the count of the minute before, and on PostgreSQL leaves the row locked until commit."""
    counts = cast(Table, BotRequestCountRow.__table__)
    escalations = cast(Table, EscalationRow.__table__)
    count = counts.c["count"]
    before = counts.alias("before")
    previous = (
        select(before.c["count"])
        .where(before.c.bot_id == bindparam("bot"), before.c.window == bindparam("previous_window"))
        .scalar_subquery()
    )
    return {
        "upsert": dialect_insert(dialect, counts)
        .values(bot_id=bindparam("bot"), window=bindparam("window"), count=bindparam("add"))
        .on_conflict_do_update(
            index_elements=[counts.c.bot_id, counts.c.window], set_={"count": count + bindparam("add_again")}
        )
        .returning(count, previous),
        "prune": delete(counts).where(counts.c.bot_id == bindparam("bot"), counts.c.window < bindparam("window")),
        "open": select(func.count())
        .select_from(escalations)
        .where(
            escalations.c.bot_id == bindparam("bot"),
            escalations.c.status == "pending",
            escalations.c.expires_at > bindparam("now"),
        ),
    }


def retry_after_s(previous: int, current: int, elapsed: float, limit: int) -> float:
    """Seconds until one more request fits the sliding window (``current`` includes the refused one; ``elapsed``:
    the fraction of the current minute gone). Within this minute the previous minute's weight shrinks; past it, the
    current minute becomes the previous one."""
    left = 1.0 - elapsed
    if previous > 0 and current <= limit:
        needed = (previous * left + current - limit) / previous  # fraction of a minute for the estimate to fit
        if needed <= left:
            return max(1.0, 60.0 * needed)
    committed = current - 1
    if committed <= 0:
        return max(1.0, 60.0 * left)
    return max(1.0, 60.0 * (left + max(0.0, 1.0 - (limit - 1) / committed)))
