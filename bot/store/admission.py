"""Admission control per Bot, counted in the store so that it holds across replicas.

Run inside the transaction that creates the escalation (:func:`admit`), so a refused request changes nothing (its
count rolls back with it) and an admitted one is counted exactly when it commits.

- Requests a minute: a sliding window over two one-minute counters, ``previous * (1 - elapsed) + current``
  (the "sliding window counter" of rate limiters), bumped with one ``INSERT ... ON CONFLICT DO UPDATE``.
- Open escalations: ``count(*)`` of the Bot's pending, unexpired escalations.
- Across replicas: the counter upsert (done whenever either limit is on) locks the Bot's row of the minute until
  commit (PostgreSQL), and SQLite has one writer at a time, so concurrent creates of one Bot are serialised and the
  open count is exact.
- An escalation answered at once (a standing approval) never becomes open: it is counted as a request, but the open
  escalations are not counted for it.
- A room's queue (:func:`admit_card`): the room's cards waiting to be posted, per Bot, as the transaction sees the
  store; the room's cap and each Bot's share of it. Exact on SQLite (store transactions begin IMMEDIATE: one writer).
  On PostgreSQL a transaction that may queue a card locks its room first (:meth:`bot.store.Tx.lock_room`), before
  the Bot's counter row, so two replicas' transactions serialise on the room and never wait for each other in a
  cycle; the cap and the shares are exact across replicas (the marks of waiting Bots are written after their
  refusal, outside the lock: a mark counts from the first transaction that reads it). The one request counted
  without the lock is one a standing approval covers whose room's notices are overdue (it falls back to a card).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, cast

from sqlalchemy import Table, bindparam, delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.errors import RateLimited, RoomBusy
from bot.store.models import BotRequestCountRow, EscalationRow
from bot.store.records import RoomQueue

OPEN_RETRY_AFTER_S = 5
"""Retry-After (seconds) when the Bot has too many open escalations (they end by a decision, not by time alone)."""


@dataclass(frozen=True, slots=True)
class AdmissionLimits:
    """Per-Bot limits, and the cap on a room's queue; 0 turns one off.

    Attributes:
        max_open: pending escalations one Bot may have at once (``FLYBOT_MAX_OPEN_ESCALATIONS``, default 20).
        per_minute: escalation requests one Bot may make in any minute (``FLYBOT_RATE_PER_MINUTE``, default 120).
        room_queue: messages for Bots (approval cards, blocked reports' DMs) one room or DM may have waiting to be
            posted (``FLYBOT_ROOM_QUEUE_MAX``, default 200),
            whichever Bots queued them, shared fairly between the Bots that use the room (:func:`admit_card`): one
            Bot cannot keep another's cards out.
        room_interval_s: the room's pace (``FLYBOT_SLACK_ROOM_INTERVAL_S``), for the ``Retry-After`` of a full room.
    """

    max_open: int = 20
    per_minute: int = 120
    room_queue: int = 200
    room_interval_s: float = 1.0


ROOM_WAIT_S = 30.0
"""A Bot refused ``429 room_busy`` stays marked as waiting for a place in the room this many seconds past its
``Retry-After`` (:meth:`bot.store.Store.note_room_wait`): long enough for a client that retries when told to."""


def admit_card(queue: RoomQueue, bot_id: str, limits: AdmissionLimits, what: str = "approval cards") -> None:
    """Check that ``bot_id`` may queue one more message (an approval card, a blocked report's DM: ``what`` names
    them in the refusal) in a room whose ``queue`` the transaction that would queue it just read
    (:meth:`bot.store.Tx.room_queue`). Two rules:

    - the room's cap: at most ``limits.room_queue`` cards wait, whichever Bots queued them;
    - each Bot's share: with ``n`` Bots sharing the room (those with cards waiting, those marked waiting for a place
      because they were refused here, and the asking Bot), a Bot may have at most ``ceil(room_queue / n)`` of them.
      A Bot alone may fill the room; once another Bot is refused, its mark halves the first Bot's share, so the
      places that free up as cards are posted go to the waiting Bot (the shares add up to at least the cap, so a
      room whose Bots all ask still fills up).

    Raises:
        RoomBusy: (429 ``room_busy``, ``Retry-After``: the room's pace times the cards over the cap, or over the
            Bot's share) the room is full, or the Bot holds its share; the caller's operation must raise it, so
            nothing is created.
    """
    cap = limits.room_queue
    if cap <= 0:
        return
    waiting = queue.total
    if waiting >= cap:
        raise RoomBusy(
            f"this room already has {waiting} {what} waiting to be posted, the most it may have "
            f"({cap}): retry after the Retry-After seconds",
            retry_after=_room_retry_after(waiting - cap + 1, limits),
        )
    bots = queue.bots(bot_id)
    share = max(1, math.ceil(cap / bots))
    own = queue.cards.get(bot_id, 0)
    if own >= share:
        raise RoomBusy(
            f"this Bot already has {own} of the {waiting} {what} waiting to be posted in this room, its "
            f"share while {bots} Bots use it ({cap} places shared): retry after the Retry-After seconds",
            retry_after=_room_retry_after(own - share + 1, limits),
        )


def _room_retry_after(over: int, limits: AdmissionLimits) -> float:
    """Seconds until ``over`` cards of the room have been posted at its pace (at least 1)."""
    return max(1.0, math.ceil(over * limits.room_interval_s))


async def admit(
    conn: AsyncConnection, bot_id: str, now: datetime, limits: AdmissionLimits, *, opened: bool = True
) -> None:
    """Count one request of ``bot_id`` at ``now`` and check both limits, in ``conn``'s transaction, which already
    wrote the request's escalation (the last statement before the commit: on PostgreSQL it locks the Bot's counter
    row until then).

    ``opened``: the escalation is pending (it counts as open); False for a request answered at once (the open limit
    does not apply).

    Raises:
        RateLimited: (429 ``rate_limited``, ``Retry-After``) the Bot is over a limit; the caller's transaction must roll
            back (it does when the exception leaves ``async with``), so nothing was counted or created.
    """
    if limits.per_minute <= 0 and limits.max_open <= 0:
        return
    dialect = conn.dialect.name
    # Counting first also serialises this Bot's concurrent creates (the row lock / SQLite's write lock) until commit,
    # so the open count below sees every create committed before it (and this request's own).
    await _count_request(conn, dialect, bot_id, now, limits.per_minute)
    if opened and limits.max_open > 0:
        _check_open(await _open_count(conn, bot_id, now) - 1, limits.max_open)


@cache
def _statements(dialect: str) -> dict[str, Any]:
    """This module's statements, built once per dialect with bind parameters (the hot path runs them per request:
    building an expression and its cache key each time cost more than running it)."""
    counts = cast(Table, BotRequestCountRow.__table__)
    escalations = cast(Table, EscalationRow.__table__)
    count = counts.c["count"]
    before = counts.alias("before")
    previous = (
        select(before.c["count"])
        .where(before.c.bot_id == bindparam("bot"), before.c.window == bindparam("previous_window"))
        .scalar_subquery()
    )
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return {
        "upsert": insert(counts)
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


def _dialect(conn: AsyncConnection) -> str:
    return conn.dialect.name


async def _open_count(conn: AsyncConnection, bot_id: str, now: datetime) -> int:
    stmt = _statements(_dialect(conn))["open"]
    return int((await conn.execute(stmt, {"bot": bot_id, "now": now})).scalar_one())


def _check_open(open_now: int, max_open: int) -> None:
    if open_now >= max_open:
        raise RateLimited(
            f"this Bot has {open_now} open escalations, the most it may have ({max_open}): wait for "
            "decisions, or withdraw the ones no longer needed",
            reason="open_escalations",
            retry_after=OPEN_RETRY_AFTER_S,
        )


async def _count_request(conn: AsyncConnection, dialect: str, bot_id: str, now: datetime, limit: int) -> None:
    minutes = now.timestamp() / 60
    window = math.floor(minutes)
    elapsed = minutes - window
    current, previous = await _upsert_count(conn, dialect, bot_id, window, 1)
    if current == 1:  # the first request of a minute clears the Bot's minutes before the previous one
        await _prune_windows(conn, bot_id, window)
    if limit <= 0 or previous * (1 - elapsed) + current <= limit:
        return
    raise _rate_refusal(previous, current, elapsed, limit)


async def _upsert_count(conn: AsyncConnection, dialect: str, bot_id: str, window: int, add: int) -> tuple[int, int]:
    """Add ``add`` to the Bot's count of ``window`` (creating the row; on PostgreSQL the row stays locked until
    commit); ``(the count after, the count of the minute before)``, in one statement."""
    stmt = _statements(dialect)["upsert"]
    params = {"bot": bot_id, "window": window, "add": add, "add_again": add, "previous_window": window - 1}
    row = (await conn.execute(stmt, params)).one()
    return int(row[0]), int(row[1] or 0)


async def _prune_windows(conn: AsyncConnection, bot_id: str, window: int) -> None:
    await conn.execute(_statements(_dialect(conn))["prune"], {"bot": bot_id, "window": window - 1})


def _rate_refusal(previous: int, current: int, elapsed: float, limit: int) -> RateLimited:
    return RateLimited(
        f"this Bot made more than {limit} escalation requests in the last minute: retry after the Retry-After seconds",
        reason="rate",
        retry_after=retry_after_s(previous, current, elapsed, limit),
    )


def retry_after_s(previous: int, current: int, elapsed: float, limit: int) -> float:
    """Seconds until one more request fits the sliding window (``current`` includes the refused one).

    ``elapsed`` is the fraction of the current minute gone (0..1). Within this minute the previous minute's weight
    shrinks; past it, the current minute becomes the previous one.
    """
    left = 1.0 - elapsed
    if previous > 0 and current <= limit:
        needed = (previous * left + current - limit) / previous  # fraction of a minute for the estimate to fit
        if needed <= left:
            return max(1.0, 60.0 * needed)
    committed = current - 1
    if committed <= 0:
        return max(1.0, 60.0 * left)
    return max(1.0, 60.0 * (left + max(0.0, 1.0 - (limit - 1) / committed)))
