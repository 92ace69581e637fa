"""Group commit: the creates of concurrent requests share ONE store transaction, written by one task per process.

Issue 10, "one transaction per request on the hot path", measured: a request's own transaction cost seven statements
and a commit (an fsync on SQLite FULL, a WAL flush on PostgreSQL), and on SQLite every concurrent request queued for the
single writer. Here (:meth:`bot.store.Store.grouped`) a request hands its operation (``async def op(tx) -> result``,
the same domain code it would run in its own transaction) to this process's group writer. While one group commits,
the next requests wait together, and before it takes them the writer lets the event loop run a few passes so that
requests already on their way join (:meth:`GroupWriter.gather`); it then runs each one's operation in turn in ONE
transaction and commits once:

- an operation's writes (escalation rows, audit rows, jobs, use counts, notice folds, request counts) are staged
  (:class:`Staged`) and kept only if the operation returns; one that raises (``Refused``, ``Conflict``) leaves
  nothing behind and gets its own exception, the others commit;
- the group's transaction is the group writer's own connection, its statements prebuilt SQL sent straight to the
  driver (:mod:`bot.store.direct`: sqlite3 in the loop's thread, asyncpg), not the ORM: a group's store cost is a
  few statements and one commit;
- the staged writes of the whole group are written at the end, as multi-row inserts and one update per counter row
  (:func:`write_group`), in one fixed order (request counters by Bot, then rows, then standing approvals by id, then
  notices by key), so that two replicas' groups never wait for each other's locks in a cycle;
- reads inside an operation see the group's earlier operations where it matters (a repeated ``Idempotency-Key``, a
  Bot's request count and open escalations: :class:`Group` keeps them);
- every operation of a group is answered only after the commit: nothing is acknowledged that a kill -9 can lose;
- if the group itself fails (a unique key raced another replica, a deadlock, a lost connection), each operation is
  run again alone, in its own group: so an operation may run more than once, and must do nothing but work on its
  ``tx``. A unique key that raced (``IntegrityError``) first gets the whole group run once more, since the other
  replica's row is committed by then and the retry finds it.

On PostgreSQL a group that needs no lock is first run for ONE statement (:func:`write_group_at_once`, issue 10: a
group of auto-answers was 7 round trips, BEGIN to COMMIT, each an event-loop turn and a backend wake-up): no
transaction is opened while its operations run, their reads that need none (an ``Idempotency-Key``, a room's notice
deadline) are statements of their own, as they were statements of their own in the transaction (READ COMMITTED),
and then ``pg_temp.flybot_group`` (:func:`bot.store.direct.group_function`) writes the staged writes with
:func:`write_group`'s statements, in its order, as one implicit transaction. An operation that needs what only a
transaction gives (a Bot's open escalations or a room's card queue read under the group's locks, a refusal by the
request counters: :class:`NotFast`), or counters the store finds over a limit once the group's requests are added
(:class:`bot.store.direct.Unverified`), sends the group back to the transaction, from its first operation: what
was tried wrote nothing. Its retry rules and what a kill -9 can lose are the same (every operation is answered
only after the call returned, and the call commits all or nothing).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import structlog
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from bot.store.direct import (
    AUDIT_TIMES,
    ESCALATION_TIMES,
    JOB_TIMES,
    DirectDb,
    Unverified,
    audit_args,
    escalation_args,
    job_args,
    json_text,
    json_value,
    rows_json,
)
from bot.store.records import Escalation, RoomQueue

if TYPE_CHECKING:
    from bot.store.sql import Store
    from bot.store.tx import Tx

log = structlog.get_logger("flybot.store")

T = TypeVar("T")

MAX_GROUP = 256
"""Most operations one group commits (the rest wait for the next group)."""

GATHER_PASSES = 20
"""Most passes of the event loop the group writer lets run before it takes a group (:meth:`GroupWriter.gather`)."""
GATHER_QUIET = 3
"""The gathering ends after this many passes in a row that brought no new operation."""
GATHER_S = 0.002
"""...and at the latest this many seconds after it began (a loop busy with other work makes each pass long)."""


class NotFast(Exception):  # noqa: N818 - not an error: the group runs again in a transaction
    """A group run for one statement (:attr:`Group.fast`) met what needs its transaction (``str()``: what); raised
    by the group's reads, never answered to an operation."""


@dataclass
class Fold:
    """Auto-answers folded into one room notice (``key``: its ``open_key``, one Bot, room and window) by one
    transaction or group: written once, by :meth:`bot.store.tx.Tx.fold_many`. ``first``/``at``: the earliest and
    latest auto-answer."""

    key: str
    room: str
    bot_id: str
    at: datetime
    first: datetime = field(init=False)
    count: int = 0
    items: list[dict[str, Any]] = field(default_factory=list)
    approvals: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.first = self.at

    def add(self, at: datetime, item: dict[str, Any], approvals: list[dict[str, Any]]) -> None:
        """One more auto-answer."""
        self.first = min(self.first, at)
        self.at = max(self.at, at)
        self.count += 1
        self.items.append(item)
        known = {a["id"] for a in self.approvals}
        self.approvals.extend(a for a in approvals if a["id"] not in known)


def _counter() -> Counter[Any]:
    """An empty :class:`~collections.Counter`, made without ``Counter.__init__`` (which only calls ``update()`` with
    nothing to add, a Python-level call with a type check): a :class:`Staged` makes three per request (issue 10)."""
    return Counter.__new__(Counter)


@dataclass
class Staged:
    """The writes of one operation (or, merged, of a whole group), not yet sent to the database.

    ``requests`` counts admitted requests per ``(bot_id, minute window)``; ``opened`` the pending escalations added per
    Bot; ``keys`` the escalations added per ``(bot_id, Idempotency-Key)``; ``cards`` the cards admitted per
    ``(room, bot_id)`` (:meth:`bot.store.tx.Tx.admit_card`).
    """

    escalations: list[dict[str, Any]] = field(default_factory=list)
    audits: list[dict[str, Any]] = field(default_factory=list)
    jobs: list[dict[str, Any]] = field(default_factory=list)
    uses: dict[str, tuple[int, datetime]] = field(default_factory=dict)
    folds: dict[str, Fold] = field(default_factory=dict)
    requests: Counter[tuple[str, int]] = field(default_factory=_counter)
    opened: Counter[str] = field(default_factory=_counter)
    keys: dict[tuple[str, str], Escalation] = field(default_factory=dict)
    cards: Counter[tuple[str, str]] = field(default_factory=_counter)
    decided: list[str] = field(default_factory=list)

    def merge(self, other: Staged) -> None:
        """Take ``other``'s writes after this one's (an operation that returned joins its group)."""
        self.escalations += other.escalations
        self.audits += other.audits
        self.jobs += other.jobs
        for approval_id, (n, at) in other.uses.items():
            before, last = self.uses.get(approval_id, (0, at))
            self.uses[approval_id] = (before + n, max(last, at))
        for key, fold in other.folds.items():
            mine = self.folds.get(key)
            if mine is None:
                self.folds[key] = fold
                continue
            mine.at = max(mine.at, fold.at)
            mine.first = min(mine.first, fold.first)
            mine.count += fold.count
            mine.items += fold.items
            known = {a["id"] for a in mine.approvals}
            mine.approvals += [a for a in fold.approvals if a["id"] not in known]
        # Only what the operation wrote (an auto-answer: one request counted, no open escalation, key or card), added
        # key by key: Counter.update checks its argument's type on every call (issue 10, one merge per request).
        for window, n in other.requests.items():
            self.requests[window] += n
        for bot_id, n in other.opened.items():
            self.opened[bot_id] += n
        for room_bot, n in other.cards.items():
            self.cards[room_bot] += n
        if other.keys:
            self.keys.update(other.keys)
        if other.decided:
            self.decided += other.decided


@dataclass
class NoticeDeadlines:
    """A process's memory of each room's earliest undelivered-notice deadline (:meth:`bot.store.tx.Tx.notices_overdue`
    in a group), so that a group need not read it again for ``keep_s`` seconds (0: never remembered).

    Why the answer stays exact (issue 10, "nothing is approved unseen"; standing approvals stop answering in a room
    whose oldest undelivered notice is past its deadline): a notice job's deadline is set once, when it is first
    claimed, to the claim's time plus the delivery deadline ``D`` (``FLYBOT_DELIVERY_DEADLINE_S``, 120 s by default),
    and never moved earlier. The remembered value is compared with each request's ``now``, so a deadline that existed
    at the read is met to the microsecond; one set after the read lies at least ``D`` after it, later than the
    memory's end as long as ``keep_s`` is well below ``D`` (the app keeps ``min(1 s, D / 4)``, leaving room for a
    claim transaction that began before the read and committed after it). An overdue answer is never reused (the room
    is read again: its notices may have been delivered since), and nothing else is remembered: a Bot's counts and
    a room's card queue are read under the group's locks every time.
    """

    keep_s: float = 0.0
    clock: Callable[[], float] = time.monotonic
    _known: dict[str, tuple[datetime | None, float]] = field(default_factory=dict)

    def recall(self, room: str, now: datetime) -> tuple[bool, datetime | None]:
        """``(True, deadline)`` when ``room``'s deadline (None: no undelivered notice has one) is remembered and not
        passed at ``now``; ``(False, None)`` when the room must be read."""
        entry = self._known.get(room)
        if entry is None or self.clock() - entry[1] >= self.keep_s:
            return False, None
        deadline = entry[0]
        if deadline is not None and deadline < now:
            return False, None
        return True, deadline

    def remember(self, room: str, deadline: datetime | None, read_at: float) -> None:
        """Keep ``room``'s deadline as read by a statement that began at ``read_at`` (this memory's clock)."""
        if self.keep_s > 0:
            if len(self._known) >= 10_000:
                self._known.clear()
            self._known[room] = (deadline, read_at)


@dataclass
class Group:
    """What the operations of one group share: its connection, their merged writes, and what they read once for all.

    ``db``: the group's transaction (:mod:`bot.store.direct`); ``expected``: the group's operations per ``order`` key
    (a Bot id: how many requests its counter row is likely to get); ``counted``: per ``(bot_id, window)``, ``(requests
    in the store when the group locked the counter row, requests in the window before)``; ``prepaid``: requests
    already added to a counter row in advance; ``open_in_store``: a Bot's pending escalations in the store;
    ``deadlines``: per room, the earliest delivery deadline of its undelivered notices (None: none);
    ``remembered``: the process's memory of those across groups (:class:`NoticeDeadlines`);
    ``room_queues``: per room, its queue as the store holds it (:meth:`bot.store.tx.Tx.room_queue`).

    ``fast``: run for one statement (module docstring): no transaction is open, admission assumes no earlier request
    in the store and notes in ``rates`` what the write must check (per ``(bot_id, window)``: the earliest request's
    fraction of its minute gone, and the smallest per-minute limit, 0 for none), and :meth:`needs_transaction`
    raises :class:`NotFast`; ``fell_back``: it did (kept, in case an operation caught it).

    ``keys``: the escalations of the ``(bot_id, Idempotency-Key)`` pairs the group's requests named, as the store
    held them when the group began (None: none), read in one statement (:func:`look_up_keys`).
    """

    db: DirectDb
    merged: Staged = field(default_factory=Staged)
    expected: Counter[str] = field(default_factory=Counter)
    counted: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)
    prepaid: Counter[tuple[str, int]] = field(default_factory=Counter)
    open_in_store: dict[str, int] = field(default_factory=dict)
    deadlines: dict[str, datetime | None] = field(default_factory=dict)
    remembered: NoticeDeadlines = field(default_factory=NoticeDeadlines)
    room_queues: dict[str, RoomQueue] = field(default_factory=dict)
    fast: bool = False
    rates: dict[tuple[str, int], tuple[float, int]] = field(default_factory=dict)
    fell_back: bool = False
    keys: dict[tuple[str, str], Escalation | None] = field(default_factory=dict)

    def needs_transaction(self, what: str) -> None:
        """Before a read or a decision that is exact only under the group's transaction (its locks): raise
        :class:`NotFast` in a group run for one statement; nothing otherwise."""
        if self.fast:
            self.fell_back = True
            raise NotFast(what)

    def rate_checked(self, key: tuple[str, int], elapsed: float, per_minute: int) -> None:
        """A fast group admitted one request of ``key`` (``(bot_id, window)``) at ``elapsed`` (the fraction of its
        minute gone) under ``per_minute`` (0: no limit): what :func:`write_group_at_once` has the store check."""
        first, limit = self.rates.get(key, (elapsed, 0))
        if per_minute > 0:
            limit = per_minute if limit <= 0 else min(limit, per_minute)
        self.rates[key] = (min(first, elapsed), limit)


async def look_up_keys(group: Group, keys: list[tuple[str, str]]) -> None:
    """PostgreSQL: read the escalations of a group's ``(bot_id, Idempotency-Key)`` pairs in ONE statement into
    ``group.keys`` (issue 10: the clients send a key with every request, and each request's own lookup was a round
    trip of its own, one after another). Exact as those lookups were: a read of what is committed (READ COMMITTED),
    before the group's insert; a key another replica commits after it makes the insert fail on the unique key, and
    the group runs again (:class:`GroupWriter`), finding it. SQLite: nothing (a lookup is a call in this thread)."""
    from bot.store.direct import escalation_fields
    from bot.store.tx import _Fields, escalation_record

    db = group.db
    if not db.postgres or not keys:
        return
    pairs = sorted(set(keys))
    found = await db.rows("by_keys", ([bot_id for bot_id, _ in pairs], [key for _, key in pairs]))
    group.keys.update(dict.fromkeys(pairs))
    for row in found:
        record = escalation_record(_Fields(escalation_fields(db, row)))  # type: ignore[arg-type]
        group.keys[(record.bot_id, record.idempotency_key or "")] = record


async def write_group(group: Group) -> tuple[list[str], list[str]]:
    """Write a group's staged writes (``group.merged``) in its transaction, in the fixed lock order (module docstring);
    ``(the room of each job written, ids decided)``.

    The request counter rows were created (and, on PostgreSQL, locked) when the group first counted each Bot
    (:func:`bot.store.admission.admit_staged`), with the requests expected then; here they get the difference.
    """
    db, staged, prepaid = group.db, group.merged, group.prepaid
    for bot_id, window in sorted(set(staged.requests) | set(prepaid)):
        add = staged.requests[(bot_id, window)] - prepaid[(bot_id, window)]
        if add:  # 0 for the common group whose requests were all admitted (added in advance)
            await db.run("count_add", (add, bot_id, window))
    if db.postgres:
        if staged.escalations or staged.audits or staged.jobs:  # one round trip for the three tables
            ascii_only = db.ascii_rows
            await db.run("rows", (rows_json(staged.escalations, ESCALATION_TIMES, ascii_only=ascii_only),
                                  rows_json(staged.jobs, JOB_TIMES, ascii_only=ascii_only),
                                  rows_json(staged.audits, AUDIT_TIMES, ascii_only=ascii_only)))
    else:
        for name, rows in (("escalations", [escalation_args(db, values) for values in staged.escalations]),
                           ("audits", [audit_args(db, values) for values in staged.audits]),
                           ("jobs", [job_args(db, values) for values in staged.jobs])):
            if rows:
                await db.run_many(name, rows)
    rooms = [str(job["room"]) for job in staged.jobs]
    for approval_id, (n, at) in sorted(staged.uses.items()):
        await db.run("use", (n, db.time(at), approval_id))
    for _key, fold in sorted(staged.folds.items()):
        rooms += [fold.room] * await fold_notice(db, fold)
    return rooms, staged.decided


async def write_group_at_once(group: Group) -> tuple[list[str], list[str]]:
    """:func:`write_group` for a group run for one statement (``group.fast``): ONE call of ``pg_temp.flybot_group``
    (:func:`bot.store.direct.group_function`), one implicit transaction; ``(the room of each job written, ids
    decided)``. The function counts the notice jobs it wrote without naming them: when it wrote any, every folded
    room is listed (a room too many only wakes a delivery worker that finds nothing, :meth:`bot.store.Store.committed`).

    Raises :class:`bot.store.direct.Unverified` when a Bot's counts in the store put the group's requests over its
    limit (nothing written: run the group in a transaction), or the store's error as :func:`write_group`.
    """
    from bot.store.tx import NOTICE_ITEMS

    db, staged = group.db, group.merged
    counters = sorted(staged.requests)
    rates = [group.rates.get(key, (0.0, 0)) for key in counters]
    uses = sorted(staged.uses.items())
    folds = [fold for _key, fold in sorted(staged.folds.items())]
    ascii_only = db.ascii_rows
    time = db.time
    notices = await db.one("group", (
        [bot_id for bot_id, _ in counters], [window for _, window in counters],
        [staged.requests[key] for key in counters], [elapsed for elapsed, _ in rates], [limit for _, limit in rates],
        rows_json(staged.escalations, ESCALATION_TIMES, ascii_only=ascii_only) if staged.escalations else None,
        rows_json(staged.jobs, JOB_TIMES, ascii_only=ascii_only) if staged.jobs else None,
        rows_json(staged.audits, AUDIT_TIMES, ascii_only=ascii_only) if staged.audits else None,
        [approval_id for approval_id, _ in uses], [n for _, (n, _at) in uses], [time(at) for _, (_n, at) in uses],
        [fold.key for fold in folds], ["ntc_" + uuid.uuid4().hex[:20] for _ in folds], [fold.room for fold in folds],
        [fold.bot_id for fold in folds], [time(fold.first) for fold in folds], [time(fold.at) for fold in folds],
        [fold.count for fold in folds], [json_text(fold.items[-NOTICE_ITEMS:]) for fold in folds],
        [json_text(fold.approvals) for fold in folds],
    ))
    assert notices is not None  # a SELECT of one function call returns one row
    rooms = [str(job["room"]) for job in staged.jobs]
    if int(notices[0]):
        rooms += [fold.room for fold in folds]
    return rooms, staged.decided


async def fold_notice(db: DirectDb, fold: Fold) -> int:
    """:meth:`bot.store.tx.Tx.fold_many` in a group: fold ``fold.count`` auto-answers into their notice row (inserted
    if none) and write its notice job unless one waits unclaimed; the jobs written (0 or 1).

    The notice row is updated first (its row lock orders concurrent folds), and the job lookup after it is a new
    statement (on PostgreSQL it sees the job of a fold that committed while this one waited for the row), so of two
    folds the second sees the first's job. A concurrent insert of the same notice (``ON CONFLICT DO NOTHING``) is
    bumped instead. PostgreSQL: the items' update and the job (``INSERT ... WHERE NOT EXISTS``) are one statement.
    """
    from bot.store.tx import NOTICE_ITEMS, job_values

    bumped = await _bump_notice(db, fold)
    if bumped is None:
        created = "ntc_" + uuid.uuid4().hex[:20]
        args = (created, fold.key, fold.room, fold.bot_id, db.time(fold.first), fold.count,
                json_text(fold.items[-NOTICE_ITEMS:]), json_text(fold.approvals), db.time(fold.at))
        if await db.one("notice_insert", args) is not None:  # a notice just made has no job yet
            await db.run_many("jobs", [job_args(db, job_values("notice", ref=created, room=fold.room, at=fold.at))])
            return 1
        bumped = await _bump_notice(db, fold)
        if bumped is None:
            raise IntegrityError("notice_insert", args, RuntimeError(f"notice {fold.key!r} conflicted, then vanished"))
    notice_id, items, approvals = bumped
    folded = (json_text([*items, *fold.items][-NOTICE_ITEMS:]), json_text(approvals), notice_id)
    job = job_args(db, job_values("notice", ref=notice_id, room=fold.room, at=fold.at))
    if db.postgres:
        return 1 if await db.one("notice_fold_job", (*folded, *job, notice_id)) is not None else 0
    await db.run("notice_fold", folded)
    if await db.one("notice_waiting", (notice_id,)) is not None:
        return 0
    await db.run_many("jobs", [job])
    return 1


async def _bump_notice(db: DirectDb, fold: Fold) -> tuple[str, list[Any], list[Any]] | None:
    """Add the fold's count to its notice row (locking it); ``(id, its items, its approvals with the fold's new
    ones)``, or None when there is no such row."""
    row = await db.one("notice_bump", (fold.count, db.time(fold.at), fold.key))
    if row is None:
        return None
    items, approvals = json_value(row[1]), json_value(row[2])
    known = {a["id"] for a in approvals}
    return str(row[0]), items, [*approvals, *(a for a in fold.approvals if a["id"] not in known)]


@dataclass
class _Waiting(Generic[T]):
    op: Callable[[Tx], Awaitable[T]]
    order: str
    future: asyncio.Future[T]
    lock: str | None = None
    key: tuple[str, str] | None = None


class GroupWriter:
    """One per :class:`~bot.store.Store`: runs the operations handed to :meth:`run` in groups (module docstring)."""

    def __init__(self, store: Store, *, max_group: int = MAX_GROUP, gather_passes: int = GATHER_PASSES,
                 gather_quiet: int = GATHER_QUIET, gather_s: float = GATHER_S) -> None:
        self._store = store
        self._max_group = max_group
        self._gather_passes = gather_passes
        self._gather_quiet = gather_quiet
        self._gather_s = gather_s
        self._waiting: list[_Waiting[Any]] = []
        self._writing: asyncio.Task[None] | None = None
        self.groups = 0
        """Groups committed (for tests and benchmarks)."""
        self.at_once = 0
        """Of those, groups written in one statement (:func:`write_group_at_once`)."""

    async def run(self, op: Callable[[Tx], Awaitable[T]], *, order: str = "", lock: str | None = None,
                  key: tuple[str, str] | None = None) -> T:
        """Run ``op(tx)`` in the next group and return its result once the group committed.

        ``order``: operations of a group run sorted by it (pass the Bot id: request counters are then locked in one
        order by every replica). ``lock``: a key the group locks for its whole transaction BEFORE any operation runs
        (PostgreSQL: ``pg_advisory_xact_lock``; the group's keys in sorted order, so that two replicas' groups never
        wait for each other in a cycle; SQLite's transaction is already the only writer): a room, whose queue cap
        is then exact across replicas (:func:`bot.store.admission.admit_card`). ``key``: the ``(bot_id,
        Idempotency-Key)`` that ``op`` will look up (:meth:`bot.store.tx.Tx.add_escalation`), read with the group's
        others in one statement (:func:`look_up_keys`). Raises what ``op`` raised (nothing of it was written), or the
        store's error when even its own group could not commit.
        """
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Waiting(op, order, future, lock, key))
        if self._writing is None:
            self._writing = asyncio.create_task(self._write(), name="flybot-group-writer")
        return await future

    async def _write(self) -> None:
        try:
            while self._waiting:
                await self.gather()
                group = self._waiting[: self._max_group]
                del self._waiting[: self._max_group]
                await self._commit(group)
        except BaseException as exc:  # cancelled at shutdown: nobody waits forever
            for waiting in self._waiting:
                if not waiting.future.done():
                    waiting.future.set_exception(exc if isinstance(exc, Exception) else asyncio.CancelledError())
            self._waiting.clear()
            raise
        finally:
            self._writing = None

    async def gather(self) -> None:
        """Let the requests already on their way join the next group before it is taken: yield to the event loop for
        up to ``gather_passes`` passes, ending early after ``gather_quiet`` passes in a row that added no operation,
        once a full group waits, or ``gather_s`` seconds after it began.

        Why (issue 10, measured with the benchmark's 16 clients): a request reaches :meth:`run` only after its bytes
        were read, parsed, checked and graded, and a closed-loop client sends its next request only after the last
        answer, so requests arrive spread over a pass or two each. Taking the group at the first chance made groups
        of 5 (SQLite) and 7 (PostgreSQL) on average, and a group's fixed work (BEGIN, COMMIT and its WAL write or
        flush, the notice fold, the counter rows, and on PostgreSQL the round trip) was paid by few requests. With the
        gathering they were 11 to 14. ``bench_auto_answer --compare``, median of 5 interleaved rounds: SQLite 2,957
        -> 4,593 requests a second (337 -> 215 us of CPU each), PostgreSQL 2,146 -> 2,337. A request alone
        (the fixed-rate phase, 200 a second) waits ``gather_quiet`` idle passes, microseconds. Nothing is answered
        earlier or later than its group's commit, so what a kill -9 can lose is unchanged."""
        loop = asyncio.get_running_loop()
        ends = loop.time() + self._gather_s
        quiet = 0
        for _ in range(self._gather_passes):
            before = len(self._waiting)
            await asyncio.sleep(0)
            after = len(self._waiting)
            if after >= self._max_group or loop.time() >= ends:
                return
            quiet = quiet + 1 if after == before else 0
            if quiet >= self._gather_quiet:
                return

    async def _commit(self, waiting: list[_Waiting[Any]], *, again: bool = False) -> None:
        waiting = sorted((w for w in waiting if not w.future.done()), key=lambda w: w.order)
        if not waiting:
            return
        try:
            outcomes = await self._attempt(waiting)
        except asyncio.CancelledError:
            for w in waiting:
                if not w.future.done():
                    w.future.cancel()
            raise
        except Exception as exc:  # noqa: BLE001 - the group as a whole failed: each alone, or hand over the error
            if not again and isinstance(exc, IntegrityError):
                # A unique key raced another replica (the same Idempotency-Key): that row is committed now, so the
                # group's second run finds it. Not each alone at once: one racing pair of requests would otherwise
                # turn a group of 256 into 256 transactions (admission counters off, PostgreSQL). A group of one runs
                # again too (review: a client's retry on another replica, alone in its group, was a 500).
                log.info("store.group_retried", operations=len(waiting), error=type(exc).__name__)
                await self._commit(waiting, again=True)
                return
            if len(waiting) > 1:
                log.info("store.group_retried_alone", operations=len(waiting), error=type(exc).__name__)
                for w in waiting:
                    await self._commit([w])
                return
            if not waiting[0].future.done():
                waiting[0].future.set_exception(exc)
            return
        self.groups += 1
        for w, (ok, value) in zip(waiting, outcomes, strict=True):
            if w.future.done():
                continue
            if ok:
                w.future.set_result(value)
            else:
                w.future.set_exception(value)

    async def _attempt(self, waiting: list[_Waiting[Any]]) -> list[tuple[bool, Any]]:
        from bot.store.tx import Tx

        store = self._store
        db = await store.group_db()
        if all(w.lock is None for w in waiting) and await db.one_statement():
            answered = await self._attempt_at_once(db, waiting)
            if answered is not None:
                return answered
        outcomes: list[tuple[bool, Any]] = []
        lock = store.writer_lock()
        async with lock if lock is not None else nullcontext():
            await db.begin()
            try:
                group = Group(db, expected=Counter(w.order for w in waiting), remembered=store.notice_deadlines)
                if db.postgres:
                    for key in sorted({w.lock for w in waiting if w.lock is not None}):
                        await db.one("advisory_lock", (key,))
                await look_up_keys(group, [w.key for w in waiting if w.key is not None])
                for w in waiting:
                    tx = Tx(None, group=group)
                    try:
                        value = await w.op(tx)
                    except SQLAlchemyError:
                        raise  # the transaction may be unusable now: the whole group is retried, each alone
                    except Exception as exc:  # noqa: BLE001 - this operation's own answer (Refused, Conflict...)
                        outcomes.append((False, exc))
                        continue
                    assert tx.staged is not None
                    group.merged.merge(tx.staged)
                    outcomes.append((True, value))
                rooms, decided = await write_group(group)
                await db.commit()
            except BaseException:
                await db.rollback()
                raise
        store.committed(rooms=rooms, decided=decided, wrote=True)
        return outcomes

    async def _attempt_at_once(self, db: DirectDb, waiting: list[_Waiting[Any]]) -> list[tuple[bool, Any]] | None:
        """:meth:`_attempt` for one statement (module docstring): the outcomes, or None when the group must run in a
        transaction (nothing was written)."""
        from bot.store.tx import Tx

        store = self._store
        group = Group(db, expected=Counter(w.order for w in waiting), remembered=store.notice_deadlines, fast=True)
        await look_up_keys(group, [w.key for w in waiting if w.key is not None])
        outcomes: list[tuple[bool, Any]] = []
        for w in waiting:
            tx = Tx(None, group=group)
            try:
                value = await w.op(tx)
            except NotFast:
                return None
            except SQLAlchemyError:
                raise  # a read failed: the group's retry rules, as in a transaction
            except Exception as exc:  # noqa: BLE001 - this operation's own answer (Conflict...)
                outcomes.append((False, exc))
                continue
            assert tx.staged is not None
            group.merged.merge(tx.staged)
            outcomes.append((True, value))
        if group.fell_back:  # an operation caught NotFast: what it decided without the transaction is not used
            return None
        merged = group.merged
        rooms: list[str] = []
        decided = merged.decided
        if merged.escalations or merged.audits or merged.jobs or merged.uses or merged.folds or merged.requests:
            try:
                rooms, decided = await write_group_at_once(group)
            except Unverified:
                return None
        self.at_once += 1
        store.committed(rooms=rooms, decided=decided, wrote=True)
        return outcomes
