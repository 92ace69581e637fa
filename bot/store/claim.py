"""The delivery's claim and its record of a job done, each ONE statement on PostgreSQL (issue 10, the p99 at the
notice slot).

At 200 auto-answers a second the room's folded notice is delivered once a second in the event loop that serves the
requests, and the group writer (:mod:`bot.store.group`) is busy most of the time: whatever the delivery does at that
slot queues requests behind it. The claim was an ORM transaction of six round trips (``BEGIN``, the candidates
``FOR UPDATE SKIP LOCKED``, the in-flight check, the room's pace row ``FOR UPDATE``, the updates, ``COMMIT``), and
the record another three. On PostgreSQL both are now one statement on an autocommit connection (a lone statement is
its own transaction, its locks held only while it runs on the server):

- :data:`CLAIM_SQL` does, in one statement, what the first turn of :meth:`bot.store.tx.Tx.claim_job`'s loop does:
  lock up to :data:`~bot.store.tx.CLAIM_SCAN` candidate jobs (``FOR UPDATE SKIP LOCKED``: another worker's are
  skipped), take the first by priority then age, check that no job of the same thing is in flight, take its room's
  slot with a conditional upsert of the pace row (GCRA, as :meth:`bot.store.tx.Tx._take_slot`; a room's first send
  inserts the row as that method does; ``ON CONFLICT DO UPDATE ... WHERE`` locks the row, so a concurrent claim of
  another replica waits, and evaluates the condition on the row as that claim committed it: a room's pace is shared
  exactly as with ``SELECT ... FOR UPDATE``), and lease the job. When there were candidates but the first could not
  be claimed (its room's slot was just taken elsewhere, or a job of the same thing is in flight), the caller runs the
  full claim transaction, which looks further.
- :data:`DONE_SQL` marks a job done, for the deliveries that record nothing else.

Kill -9: a statement either committed or did not; a claim that committed and whose worker died is a lease that
runs out (the next claim marks the job ``uncertain``), as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.store.records import Job

CLAIM_SQL = """
WITH candidates AS MATERIALIZED (
    SELECT j.id, j.room, j.ref, j.priority
    FROM outbox_jobs AS j LEFT OUTER JOIN room_pace AS p ON p.room = j.room
    WHERE j.status = 'queued' AND j.due_at <= $1 AND (j.claimed_until IS NULL OR j.claimed_until < $1)
      AND (p.room IS NULL OR p.ready_at <= $1)
    ORDER BY j.priority, j.id
    LIMIT $6
    FOR UPDATE OF j SKIP LOCKED
), head AS (
    SELECT c.id, c.room, c.ref FROM candidates AS c ORDER BY c.priority, c.id LIMIT 1
), free AS (
    SELECT h.id, h.room FROM head AS h WHERE NOT EXISTS (
        SELECT 1 FROM outbox_jobs AS o
        WHERE o.ref = h.ref AND o.id <> h.id AND o.status = 'queued' AND o.claimed_until >= $1)
), slot AS (
    INSERT INTO room_pace AS p (room, tat, paused_until, ready_at)
    SELECT f.room, $1 + make_interval(secs => $2), NULL,
           greatest($1 + make_interval(secs => $2) - make_interval(secs => $3), $1)
    FROM free AS f
    ON CONFLICT (room) DO UPDATE
    SET tat = greatest(p.tat, $1) + make_interval(secs => $2),
        ready_at = greatest(greatest(p.tat, $1) + make_interval(secs => $2) - make_interval(secs => $3),
                            coalesce(p.paused_until, $1))
    WHERE (p.paused_until IS NULL OR p.paused_until <= $1) AND p.tat - make_interval(secs => $3) <= $1
    RETURNING p.ready_at
), claimed AS (
    UPDATE outbox_jobs AS j
    SET claimed_until = $1 + make_interval(secs => $4), attempts = j.attempts + 1, slot_at = $1,
        uncertain = j.uncertain OR j.claimed_until IS NOT NULL,
        deadline_at = coalesce(j.deadline_at, $1 + make_interval(secs => $5))
    FROM free AS f
    WHERE j.id = f.id AND EXISTS (SELECT 1 FROM slot)
    RETURNING j.id, j.kind, j.room, j.ref, j.payload, j.attempts, j.uncertain, j.created_at, j.deadline_at
)
SELECT (SELECT count(*) FROM candidates), (SELECT s.ready_at FROM slot AS s),
       c.id, c.kind, c.room, c.ref, c.payload, c.attempts, c.uncertain, c.created_at, c.deadline_at
FROM (SELECT 1) AS one LEFT OUTER JOIN claimed AS c ON true
"""
"""PostgreSQL: claim the first due job (see the module docstring). Parameters: ``$1`` now (timestamptz), ``$2`` the
room interval, ``$3`` the burst tolerance ``(burst - 1) * interval``, ``$4`` the lease, ``$5`` the delivery deadline
(seconds, float8), ``$6`` how many candidates to look at. One row: ``(candidates seen, the room's next slot or NULL,
the claimed job's columns or NULLs)``."""

DONE_SQL = "UPDATE outbox_jobs SET status = 'done', done_at = $2, claimed_until = NULL, last_error = NULL WHERE id = $1"
"""PostgreSQL: mark job ``$1`` delivered at ``$2`` (as :meth:`bot.store.tx.Tx.job_done`)."""

NEXT_DUE_SQL = (
    "SELECT min(greatest(j.due_at, coalesce(j.claimed_until, j.due_at), coalesce(p.ready_at, j.due_at))) "
    "FROM outbox_jobs AS j LEFT OUTER JOIN room_pace AS p ON p.room = j.room WHERE j.status = 'queued'"
)
"""PostgreSQL: when the next queued job could be claimed (as :meth:`bot.store.tx.Tx.next_job_due`), NULL when none."""


@dataclass(frozen=True, slots=True)
class Claim:
    """What a claim found (:meth:`bot.store.Store.claim_job`).

    ``job``: the job claimed, or None; ``more_due``: other jobs were due besides it (a backlog: wake another
    worker); ``ready_at``: when the claimed job's room may send next (its pace row's ``ready_at`` after the claim),
    None when nothing was claimed.
    """

    job: Job | None
    more_due: bool = False
    ready_at: datetime | None = None


def claim_args(now: datetime, *, interval_s: float, burst: int, lease_s: float, deadline_s: float,
               scan: int) -> tuple[Any, ...]:
    """:data:`CLAIM_SQL`'s parameters. ``now`` must be aware (raises ValueError otherwise)."""
    if now.tzinfo is None:
        raise ValueError("naive datetime given to a UTC column")
    return (now, float(interval_s), float(max(0, burst - 1) * interval_s), float(lease_s), float(deadline_s), scan)


def claimed(row: Any, now: datetime) -> tuple[int, Claim]:
    """``(candidates seen, the claim)`` from :data:`CLAIM_SQL`'s row (``job`` None: nothing claimed)."""
    from bot.store.direct import json_value

    seen, ready_at, job_id, kind, room, ref, payload, attempts, uncertain, created_at, deadline_at = row
    if job_id is None:
        return int(seen), Claim(None)
    job = Job(id=int(job_id), kind=str(kind), room=str(room), ref=str(ref), payload=dict(json_value(payload) or {}),
              attempts=int(attempts), uncertain=bool(uncertain), created_at=_utc(created_at),
              deadline_at=_utc(deadline_at) if deadline_at is not None else None, slot_at=now)
    return int(seen), Claim(job, more_due=int(seen) > 1, ready_at=_utc(ready_at))


def _utc(value: datetime) -> datetime:
    from datetime import UTC

    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
