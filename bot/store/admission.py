"""Admission control per Bot, counted in the store so that it holds across replicas (issue 10, item 7).

Run inside the transaction that creates the escalation (:func:`admit`), so a refused request changes nothing (its
count rolls back with it) and an admitted one is counted exactly when it commits.

- Requests a minute: a sliding window over two one-minute counters, ``previous * (1 - elapsed) + current``
  (the "sliding window counter" of rate limiters), bumped with one ``INSERT ... ON CONFLICT DO UPDATE``.
- Open escalations: ``count(*)`` of the Bot's pending, unexpired escalations.
- Across replicas: the counter upsert (done whenever either limit is on) locks the Bot's row of the minute until
  commit (PostgreSQL), and SQLite has one writer at a time, so concurrent creates of one Bot are serialised and the
  open count is exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from bot.errors import RateLimited
from bot.store.models import BotRequestCountRow, EscalationRow

OPEN_RETRY_AFTER_S = 5
"""Retry-After (seconds) when the Bot has too many open escalations (they end by a decision, not by time alone)."""


@dataclass(frozen=True, slots=True)
class AdmissionLimits:
    """Per-Bot limits; 0 turns one off.

    Attributes:
        max_open: pending escalations one Bot may have at once (``FLYBOT_MAX_OPEN_ESCALATIONS``, default 20).
        per_minute: escalation requests one Bot may make in any minute (``FLYBOT_RATE_PER_MINUTE``, default 120).
    """

    max_open: int = 20
    per_minute: int = 120


class Refused(RateLimited):
    """A :class:`~bot.errors.RateLimited` naming which limit refused: ``reason`` is ``rate`` or ``open_escalations``."""

    def __init__(self, detail: str, *, reason: str, retry_after: float) -> None:
        super().__init__(detail, retry_after=retry_after)
        self.reason = reason


async def admit(session: AsyncSession, bot_id: str, now: datetime, limits: AdmissionLimits) -> None:
    """Count one request of ``bot_id`` at ``now`` and check both limits, in ``session``'s transaction.

    Raises:
        Refused: (429 ``rate_limited``, ``Retry-After``) the Bot is over a limit; the caller's transaction must roll
            back (it does when the exception leaves ``async with``), so nothing was counted or created.
    """
    if limits.per_minute <= 0 and limits.max_open <= 0:
        return
    dialect = session.bind.dialect.name if session.bind is not None else "sqlite"
    # Counting first also serialises this Bot's concurrent creates (the row lock / SQLite's write lock) until commit,
    # so the open count below sees every create committed before it.
    await _count_request(session, dialect, bot_id, now, limits.per_minute)
    if limits.max_open > 0:
        stmt = select(func.count()).select_from(EscalationRow).where(
            EscalationRow.bot_id == bot_id, EscalationRow.status == "pending", EscalationRow.expires_at > now
        )
        open_now = int((await session.execute(stmt)).scalar_one())
        if open_now >= limits.max_open:
            raise Refused(
                f"this Bot has {open_now} open escalations, the most it may have ({limits.max_open}): wait for "
                "decisions, or withdraw the ones no longer needed",
                reason="open_escalations", retry_after=OPEN_RETRY_AFTER_S,
            )


async def _count_request(session: AsyncSession, dialect: str, bot_id: str, now: datetime, limit: int) -> None:
    minutes = now.timestamp() / 60
    window = math.floor(minutes)
    elapsed = minutes - window
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    upsert = insert(BotRequestCountRow).values(bot_id=bot_id, window=window, count=1).on_conflict_do_update(
        index_elements=[BotRequestCountRow.bot_id, BotRequestCountRow.window],
        set_={"count": BotRequestCountRow.count + 1},
    ).returning(BotRequestCountRow.count)
    current = int((await session.execute(upsert)).scalar_one())
    if current == 1:  # the first request of a minute clears the Bot's minutes before the previous one
        await session.execute(
            delete(BotRequestCountRow).where(BotRequestCountRow.bot_id == bot_id, BotRequestCountRow.window < window - 1)
        )
    previous_stmt = select(BotRequestCountRow.count).where(
        BotRequestCountRow.bot_id == bot_id, BotRequestCountRow.window == window - 1
    )
    previous = int((await session.execute(previous_stmt)).scalar_one_or_none() or 0)
    if limit <= 0 or previous * (1 - elapsed) + current <= limit:
        return
    raise Refused(
        f"this Bot made more than {limit} escalation requests in the last minute: retry after the Retry-After "
        "seconds",
        reason="rate", retry_after=retry_after_s(previous, current, elapsed, limit),
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
