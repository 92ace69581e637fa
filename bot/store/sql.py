"""The SQLAlchemy 2 async implementation of FlyBot's store: :class:`Store`, its reads and one-statement writes, and
:func:`open_store`. Changes that commit together go through :class:`bot.store.tx.Tx` (``Store.transaction()``)."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, nullcontext
from dataclasses import fields
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar, cast

import structlog
from sqlalchemy import (
    String,
    Table,
    any_,
    case,
    delete,
    event,
    func,
    literal,
    literal_column,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import defer
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import ColumnElement

from bot.errors import Conflict
from bot.store.cache import StoreCache, watch_writes
from bot.store.coalesce import Coalescer
from bot.store.migrate import StoreMissing, StoreUnreachable, check_current, upgrade
from bot.store.models import (
    AdminTokenRow,
    AuditRow,
    BlockedReportRow,
    BotRow,
    CardCopyRow,
    EscalationRow,
    HomeViewerRow,
    ProgramRuleRow,
    RoomWaitRow,
    SlackEventRow,
    StandingApprovalRow,
    dialect_insert,
    record,
)
from bot.store.notify import pooled
from bot.store.records import AuditEntry, Bot, Claim, Escalation, ProgramRule, StandingApproval
from bot.store.reports import Report, report_record
from bot.store.tx import Tx, insert_new, program_rule_of

log = structlog.get_logger("flybot.store")

SQLITE_BUSY_TIMEOUT_S = 30
"""SQLite: the pooled connections' busy timeout (seconds; ``timeout`` in :func:`_engine`)."""

WRITE_OPTION = "flybot_write"
"""Execution option marking a connection that will write (SQLite then begins IMMEDIATE)."""

V = TypeVar("V")

STORE_BUSY: tuple[type[Exception], ...] = (PoolTimeout,)
"""Exceptions meaning "every store connection is taken right now": the HTTP edge answers 503 with Retry-After."""


def id_among(column: Any, ids: list[str], dialect: str) -> ColumnElement[bool]:
    """``column`` is one of ``ids``, bound as ONE parameter (a PostgreSQL text array, a JSON array on SQLite), so a
    statement for 10,000 ids stays one short statement within every driver's parameter limit."""
    if dialect == "postgresql":
        return cast(ColumnElement[bool], column == any_(literal(list(ids), ARRAY(String))))
    listed: Select[Any] = select(literal_column("value")).select_from(func.json_each(literal(json.dumps(list(ids)))))
    return cast(ColumnElement[bool], column.in_(listed.scalar_subquery()))


def _live_at(now: datetime) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    """A standing approval is neither revoked nor expired at ``now``."""
    row = StandingApprovalRow
    return row.revoked_at.is_(None), or_(row.expires_at.is_(None), row.expires_at > now)


class Store:
    """Persistence for Bots, escalations and the audit log (:func:`open_store`); every method is a short transaction."""

    def __init__(self, engine: AsyncEngine, cache: StoreCache | None = None) -> None:
        self.engine = engine
        self.cache = cache or StoreCache()
        watch_writes(engine, self.cache)
        self._reads = self._by_ids(EscalationRow.id, lambda row: record(Escalation, row))
        self._token_reads = self._by_ids(BotRow.token_hash, lambda row: record(Bot, row), BotRow.removed_at.is_(None))
        self._live_reads: Coalescer[list[StandingApproval]] = Coalescer(self._read_live_standing)
        self._report_reads = self._by_ids(BlockedReportRow.id, report_record)
        self._session = async_sessionmaker(engine, expire_on_commit=False)
        self._writer = engine.execution_options(**{WRITE_OPTION: True})
        self._on_jobs: list[Callable[[Sequence[str]], None]] = []
        self._on_decided: list[Callable[[str], None]] = []
        self._sqlite = engine.dialect.name == "sqlite"
        self._write_lock: asyncio.Lock | None = None
        self._write_lock_loop: asyncio.AbstractEventLoop | None = None
        self._events_pruned_at: datetime | None = None

    def _by_ids(self, key: Any, to_record: Callable[[Any], V], *where: Any) -> Coalescer[V]:
        """Reads of records by ``key`` (a unique column) where ``where`` holds, concurrent ones sharing a query
        (:mod:`bot.store.coalesce`)."""

        async def read(ids: list[str]) -> dict[str, V]:
            found = select(key.class_).where(id_among(key, ids, self.engine.dialect.name), *where)
            return {getattr(row, key.key): to_record(row) for row in await self._all(found)}

        return Coalescer(read)

    async def _read(self, stmt: Any) -> Any:
        """A read's buffered result, in a session of its own."""
        async with self._session() as session:
            return await session.execute(stmt)

    async def _all(self, stmt: Any) -> list[Any]:
        """A read's ORM objects (or first column)."""
        return list((await self._read(stmt)).scalars().all())

    async def _one(self, stmt: Any) -> Any:
        """A read's one ORM object (or value), or None."""
        return (await self._read(stmt)).scalar_one_or_none()

    def on_jobs(self, callback: Callable[[Sequence[str]], None]) -> None:
        """Call ``callback(rooms)`` after every commit that wrote outbox jobs, with the room of each (wakes this
        replica's delivery workers)."""
        self._on_jobs.append(callback)

    def on_decided(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(id)`` after every commit that decided or changed an escalation or report (:attr:`Tx.decided`:
        wakes this replica's long-polls)."""
        self._on_decided.append(callback)

    def writer_lock(self) -> asyncio.Lock | None:
        r"""SQLite: the lock this process's write transactions take in turn (None on PostgreSQL).

        SQLite has one writer at a time; without this lock, concurrent ``BEGIN IMMEDIATE``\ s of one process meet in
        SQLite's busy handler, which sleeps with a backoff (up to 100 ms a try) instead of queueing: the p99 of the
        request path was seconds. Taking turns in the event loop first makes the wait exactly as long as
        the transactions ahead; other processes (operator commands) still meet the busy timeout as before.
        """
        if not self._sqlite:
            return None
        loop = asyncio.get_running_loop()
        if self._write_lock is None or self._write_lock_loop is not loop:
            self._write_lock, self._write_lock_loop = asyncio.Lock(), loop
        return self._write_lock

    @asynccontextmanager
    async def transaction(self, *, write: bool = True) -> AsyncIterator[Tx]:
        """One transaction (:class:`~bot.store.tx.Tx`), committed at the end of the block or rolled back when it
        raises. ``write=False``: reads alone (SQLite: a deferred ``BEGIN``, outside this process's writer turn)."""
        lock = self.writer_lock() if write else None
        async with lock if lock is not None else nullcontext():
            async with (self._writer if write else self.engine).connect() as connection, connection.begin():
                tx = Tx(connection)
                try:
                    yield tx
                    await tx.finish()
                finally:
                    await tx.close()
        if tx.job_rooms:  # wake this replica's delivery workers, and the long-polls of what changed
            for wake in self._on_jobs:
                wake(tx.job_rooms)
        for escalation_id in tx.decided:
            for callback in self._on_decided:
                callback(escalation_id)

    async def claim_job(
        self, now: datetime, *, interval_s: float, burst: int, lease_s: float, deadline_s: float
    ) -> Claim:
        """:meth:`bot.store.Tx.claim_job` in a transaction of its own, after a read-only one found a job to claim
        (:meth:`bot.store.Tx.may_claim`: an idle worker never takes the writer's turn); ``Claim(None)``: none now."""
        async with self.transaction(write=False) as tx:
            if not await tx.may_claim(now):
                return Claim(None)
        async with self.transaction() as tx:
            job = await tx.claim_job(now, interval_s=interval_s, burst=burst, lease_s=lease_s, deadline_s=deadline_s)
        return Claim(job, more_due=tx.more_due, ready_at=tx.ready_at)

    async def next_job_due(self, now: datetime) -> datetime | None:
        """:meth:`bot.store.Tx.next_job_due` in a read-only transaction."""
        async with self.transaction(write=False) as tx:
            return await tx.next_job_due(now)

    async def job_done(self, job_id: int, at: datetime) -> None:
        """:meth:`bot.store.Tx.job_done`, for a delivery that records nothing else."""
        async with self.transaction() as tx:
            await tx.job_done(job_id, at)

    async def close(self) -> None:
        """Dispose of the connection pool."""
        await self.engine.dispose()

    # -- Bots -------------------------------------------------------------------------------------
    async def add_bot(self, bot: Bot, token_hash: str, *, actor: str | None = None) -> Bot:
        """Insert a Bot and its ``bot.created`` audit row (by ``actor``; its id, name, owners, room and chat user,
        never the token or its hash), committed together. Raises :class:`Conflict` when the name is taken (then
        nothing is written)."""
        values = {f.name: list(v) if isinstance(v := getattr(bot, f.name), tuple) else v for f in fields(bot)}
        hidden = ("id", "name", "owners", "created_at", "removed_at")
        shown: dict[str, Any] = {k: v for k, v in values.items() if v and k not in hidden}
        row = {k: (v or None) if isinstance(v, list) else v for k, v in values.items()} | {"owners": values["owners"]}
        async with self.transaction() as tx:
            tx.session.add(BotRow(token_hash=token_hash, **row))
            try:
                await tx.session.flush()
            except IntegrityError:
                raise Conflict(f"a Bot named {bot.name!r} already exists", field="name") from None
            owners = values["owners"]
            await tx.audit(
                "bot.created", at=bot.created_at, actor=actor, bot_id=bot.id, bot=bot.name, owners=owners, **shown
            )
        return bot

    async def bot_by_token_hash(self, token_hash: str) -> Bot | None:
        """The Bot whose token hashes to ``token_hash`` (hex SHA-256), or None (served from :attr:`cache` when
        it holds a fresh copy; concurrent misses share one query)."""
        return await self._cached_bot(token_hash, lambda: self._token_reads.get(token_hash))

    async def get_bot(self, bot_id: str) -> Bot | None:
        """The Bot with this id (a removed one too, its ``removed_at`` set), or None; served from :attr:`cache` as
        :meth:`bot_by_token_hash` is (any write to ``bots`` drops every copy at once)."""
        # beside the token hashes' copies: a hash is hex, so never this key
        return await self._cached_bot("id " + bot_id, lambda: self._bot(BotRow.id == bot_id))

    async def _cached_bot(self, key: str, read: Callable[[], Awaitable[Bot | None]]) -> Bot | None:
        cached = self.cache.bot(key)
        if cached is not None:
            return cached
        generation = self.cache.generation("bots")
        bot = await read()
        if bot is not None:
            self.cache.put_bot(key, bot, generation)
        return bot

    async def _bot(self, *where: Any) -> Bot | None:
        row = await self._one(select(BotRow).where(*where))
        return record(Bot, row) if row else None

    async def bot_by_name(self, name: str, *, removed: bool = False) -> Bot | None:
        """The Bot with this name, or None. A removed Bot is found only with ``removed=True`` (its name stays taken,
        so it is still the one Bot of that name: the audit trail and escalation list name it)."""
        return await self._bot(BotRow.name == name, *(() if removed else (BotRow.removed_at.is_(None),)))

    async def set_token_hash(self, bot_id: str, token_hash: str) -> None:
        """Replace a Bot's token (the old one stops working at once)."""
        async with self.transaction() as tx:
            await tx.session.execute(update(BotRow).where(BotRow.id == bot_id).values(token_hash=token_hash))

    async def list_bots(self, *, removed: bool = False) -> list[Bot]:
        """All Bots not removed, by name; with ``removed=True`` the removed ones too (their ``removed_at`` set)."""
        stmt = select(BotRow).where(*(() if removed else (BotRow.removed_at.is_(None),))).order_by(BotRow.name)
        return [record(Bot, row) for row in await self._all(stmt)]

    async def update_bot(self, bot_id: str, **changes: Any) -> Bot | None:
        """Set a Bot's ``owners``, ``room``, ``chat_user`` and/or ``two_person`` (None: none; for ``two_person`` the
        deployment's setting), or replace its ``owner_groups``, ``fallback_owners``, ``fallback_groups`` or
        ``allowed_rooms`` (``[]``: none); the Bot as stored, or None when it does not exist or was removed."""
        lists = ("owner_groups", "fallback_owners", "fallback_groups", "allowed_rooms")
        values = {k: (list(v) or None) if k in lists else v for k, v in changes.items()}
        async with self.transaction(write=bool(values)) as tx:
            session = tx.session
            if values:
                await session.execute(
                    update(BotRow).where(BotRow.id == bot_id, BotRow.removed_at.is_(None)).values(**values)
                )
            row = await session.get(BotRow, bot_id, populate_existing=True)
            return record(Bot, row) if row is not None and row.removed_at is None else None

    async def remove_bot(self, bot_id: str, *, token_hash: str, at: datetime) -> bool:
        """Mark a Bot removed and replace its token hash with ``token_hash`` (of a token nobody holds): the old
        token stops at once; history stays. True when this call removed it (False: unknown or already removed)."""
        async with self.transaction() as tx:
            result = await tx.session.execute(
                update(BotRow)
                .where(BotRow.id == bot_id, BotRow.removed_at.is_(None))
                .values(removed_at=at, token_hash=token_hash)
            )
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    async def pending_of_removed_bots(self, limit: int = 100) -> list[Escalation]:
        """Pending escalations whose Bot was removed (oldest first): the sweeper withdraws them."""
        stmt = (
            select(EscalationRow)
            .join(BotRow, BotRow.id == EscalationRow.bot_id)
            .where(EscalationRow.status == "pending", BotRow.removed_at.is_not(None))
            .order_by(EscalationRow.created_at)
            .limit(limit)
        )
        return [record(Escalation, row) for row in await self._all(stmt)]

    async def list_escalations(
        self, *, status: str | None = None, bot_id: str | None = None, since: datetime | None = None, limit: int = 200
    ) -> list[Escalation]:
        """Escalations, newest first, filtered by status, Bot and creation time; at most ``limit``."""
        stmt = select(EscalationRow)
        if status is not None:
            stmt = stmt.where(EscalationRow.status == status)
        if bot_id is not None:
            stmt = stmt.where(EscalationRow.bot_id == bot_id)
        if since is not None:
            stmt = stmt.where(EscalationRow.created_at >= since)
        stmt = stmt.order_by(EscalationRow.created_at.desc()).limit(limit)
        return [record(Escalation, row) for row in await self._all(stmt)]

    # -- Escalations ------------------------------------------------------------------------------
    async def get_escalation(self, escalation_id: str) -> Escalation | None:
        """The escalation with this id, or None."""
        row = await self._one(select(EscalationRow).where(EscalationRow.id == escalation_id))
        return record(Escalation, row) if row else None

    async def get_escalation_shared(self, escalation_id: str) -> Escalation | None:
        """Like :meth:`get_escalation`, but concurrent callers share queries (:mod:`bot.store.coalesce`): for
        long-polls, which arrive and wake in bursts."""
        return await self._reads.get(escalation_id)

    async def note_room_wait(self, room: str, bot_id: str, *, until: datetime, now: datetime) -> None:
        """Mark ``bot_id`` as waiting for a place in ``room``'s queue of cards until ``until`` (a later mark is kept;
        the room's marks that ran out by ``now`` are deleted). Written after a ``429 room_busy``, in a transaction of
        its own: the refused request itself wrote nothing. See :func:`bot.store.admission.admit_card`."""
        wait = cast(Table, RoomWaitRow.__table__)
        mark = dialect_insert(self.engine.dialect.name, wait).values(room=room, bot_id=bot_id, until=until)
        later = case((wait.c.until > mark.excluded.until, wait.c.until), else_=mark.excluded.until)
        async with self.transaction() as tx:
            connection = await tx.connection()
            await connection.execute(
                delete(wait).where(wait.c.room == room, wait.c.until <= now, wait.c.bot_id != bot_id)
            )
            await connection.execute(
                mark.on_conflict_do_update(index_elements=[wait.c.room, wait.c.bot_id], set_={"until": later})
            )

    async def note_home_viewer(self, user: str, at: datetime) -> None:
        """Remember that ``user`` opened FlyBot's App Home at ``at`` (insert, or move ``opened_at`` on)."""
        viewer = cast(Table, HomeViewerRow.__table__)
        opened = dialect_insert(self.engine.dialect.name, viewer).values(user=user, opened_at=at)
        async with self.transaction() as tx:
            upsert = opened.on_conflict_do_update(index_elements=[viewer.c.user], set_={"opened_at": at})
            await (await tx.connection()).execute(upsert)

    async def home_viewers(self, since: datetime) -> list[str]:
        """Who opened FlyBot's App Home at or after ``since``, most recent first."""
        stmt = (
            select(HomeViewerRow.user).where(HomeViewerRow.opened_at >= since).order_by(HomeViewerRow.opened_at.desc())
        )
        return [str(u) for u in await self._all(stmt)]

    async def card_copies(self, escalation_id: str) -> list[tuple[str, str]]:
        """``(channel, ts)`` of every copy of the escalation's card outside its room (fallback DMs), oldest first."""
        stmt = (
            select(CardCopyRow.channel, CardCopyRow.ts)
            .where(CardCopyRow.escalation_id == escalation_id)
            .order_by(CardCopyRow.id)
        )
        return [(str(c), str(t)) for c, t in (await self._read(stmt)).all()]

    async def settled_escalations(self, ids: list[str], now: datetime) -> set[str]:
        """Of ``ids``, those no longer pending or past their expiry: ONE query, however many ids (the long-polls'
        safety net, :meth:`bot.waiters.WaiterHub.recheck_once`)."""
        stmt = select(EscalationRow.id).where(
            id_among(EscalationRow.id, ids, self.engine.dialect.name),
            or_(EscalationRow.status != "pending", EscalationRow.expires_at <= now),
        )
        return set(await self._all(stmt))

    async def due_for_expiry(self, now: datetime, limit: int = 100) -> list[Escalation]:
        """Pending escalations whose ``expires_at`` is at or before ``now`` (oldest first)."""
        stmt = (
            select(EscalationRow)
            .where(EscalationRow.status == "pending", EscalationRow.expires_at <= now)
            .order_by(EscalationRow.expires_at)
            .limit(limit)
        )
        return [record(Escalation, row) for row in await self._all(stmt)]

    async def pending_escalations(self, bot_ids: list[str] | None = None) -> list[Escalation]:
        """Pending escalations, oldest first; only those of ``bot_ids`` when given."""
        stmt = select(EscalationRow).where(EscalationRow.status == "pending")
        if bot_ids is not None:
            stmt = stmt.where(EscalationRow.bot_id.in_(bot_ids))
        stmt = stmt.order_by(EscalationRow.created_at)
        return [record(Escalation, row) for row in await self._all(stmt)]

    # -- Program rules ---------------------------------------------------------------------------
    async def program_rules(self) -> list[ProgramRule]:
        """Every program rule, by program and subcommand; served from :attr:`cache` when it holds a copy (any
        change, by any replica or tool, drops the copy: bot/store/cache.py)."""
        found = self.cache.program_rules()
        if found is not None:
            return found
        generation = self.cache.generation("rules")
        stmt = select(ProgramRuleRow).order_by(ProgramRuleRow.program, ProgramRuleRow.subcommand)
        rules = [program_rule_of(row) for row in await self._all(stmt)]
        self.cache.put_program_rules(rules, generation)
        return rules

    # -- Standing approvals ----------------------------------------------------------------------
    async def get_standing(self, approval_id: str) -> StandingApproval | None:
        """The standing approval with this id, or None."""
        row = await self._one(select(StandingApprovalRow).where(StandingApprovalRow.id == approval_id))
        return record(StandingApproval, row) if row else None

    async def list_standing(
        self, *, scope: str | None = None, subject: str | None = None, live_at: datetime | None = None
    ) -> list[StandingApproval]:
        """Standing approvals, newest first; only live ones at ``live_at`` when given."""
        stmt = select(StandingApprovalRow)
        if scope is not None:
            stmt = stmt.where(StandingApprovalRow.scope == scope)
        if subject is not None:
            stmt = stmt.where(StandingApprovalRow.subject == subject)
        if live_at is not None:
            stmt = stmt.where(*_live_at(live_at))
        stmt = stmt.order_by(StandingApprovalRow.created_at.desc())
        return [record(StandingApproval, row) for row in await self._all(stmt)]

    async def live_standing_for(
        self, *, bot_id: str, session_id: str, room: str | None, now: datetime
    ) -> list[StandingApproval]:
        """Live standing approvals that may answer an escalation of this session, Bot and room (oldest first).

        Every live approval is loaded (kept by :attr:`cache` when it is on) and filtered here, expiry against ``now``
        on each call, so a kept approval still stops answering the moment it expires. Their ``use_count`` is 0 and
        their ``last_used_at`` None (the cover lookup does not count uses).
        """
        live = self.cache.standing()
        if live is None:
            # Concurrent misses (every request in flight when the copy's TTL ends) share one query: each was a
            # thread hand-off on SQLite, hundreds a second under load.
            generation = self.cache.generation("standing")
            live = await self._live_reads.get(now.isoformat()) or []
            self.cache.put_standing(live, generation)
        return [
            a
            for a in live
            if a.live(now)
            and (
                (a.scope == "session" and a.subject == session_id and a.bot_id == bot_id)
                or (a.scope == "bot" and a.subject == bot_id)
                or (bool(room) and a.scope == "room" and a.subject == room)
            )
        ]

    async def _read_live_standing(self, keys: list[str]) -> dict[str, list[StandingApproval]]:
        """Every standing approval live at the earliest of ``keys`` (ISO times: the callers' ``now``), all scopes,
        oldest first: ONE list for every key (:attr:`_live_reads`; each caller filters by its own ``now`` again)."""
        now = min(datetime.fromisoformat(key) for key in keys)
        row = StandingApprovalRow
        stmt = select(row).where(*_live_at(now)).order_by(row.created_at)
        stmt = stmt.options(defer(row.use_count), defer(row.last_used_at))
        unused = {"use_count": 0, "last_used_at": None}
        live = [record(StandingApproval, a, **unused) for a in await self._all(stmt)]
        return dict.fromkeys(keys, live)

    # -- Slack event de-duplication ------------------------------------------------------------------
    async def claim_event(self, event_id: str, *, at: datetime) -> bool:
        """Record a Slack ``event_id``; True the first time (process it), False for a redelivery (any replica).

        One ``INSERT ... ON CONFLICT DO NOTHING``. Rows older than a day are pruned in the same transaction, at most
        once a minute per process (Slack retries within minutes). On PostgreSQL its commit does not wait for the
        WAL flush (``synchronous_commit`` off for this transaction alone): every request that changes anything
        commits that change afterwards with the flush, which makes the claim durable too (WAL is flushed in
        order); a claim lost to a database crash belongs to a request that stored nothing.
        """
        table = cast(Table, SlackEventRow.__table__)
        async with self.transaction() as tx:
            connection = await tx.connection()
            if connection.dialect.name == "postgresql":
                await connection.execute(text("SET LOCAL synchronous_commit TO OFF"))
            inserted = await connection.execute(
                insert_new(connection.dialect.name, "slack_events"), {"event_id": event_id, "received_at": at}
            )
            if self._events_pruned_at is None or at - self._events_pruned_at >= timedelta(minutes=1):
                self._events_pruned_at = at
                await connection.execute(delete(table).where(table.c.received_at < at - timedelta(days=1)))
            return inserted.rowcount == 1

    # -- Blocked reports (written in transactions: Tx.record_report and the rest) -------------------------------------
    async def get_report(self, report_id: str) -> Report | None:
        """The blocked report with this id, or None."""
        row = await self._one(select(BlockedReportRow).where(BlockedReportRow.id == report_id))
        return report_record(row) if row else None

    async def get_report_shared(self, report_id: str) -> Report | None:
        """Like :meth:`get_report`, but concurrent callers share queries (:mod:`bot.store.coalesce`), for long-polls."""
        return await self._report_reads.get(report_id)

    async def open_reports(self, bot_id: str) -> list[Report]:
        """:meth:`bot.store.Tx.open_reports` in a read-only transaction."""
        async with self.transaction(write=False) as tx:
            return await tx.open_reports(bot_id)

    async def reports_decided_among(self, ids: list[str]) -> set[str]:
        """Of ``ids``, the reports no longer open: ONE query however many ids (the long-polls' safety net)."""
        stmt = select(BlockedReportRow.id).where(
            id_among(BlockedReportRow.id, ids, self.engine.dialect.name), BlockedReportRow.status != "open"
        )
        return set(await self._all(stmt))

    # -- Admin tokens -------------------------------------------------------------------------------
    async def add_admin_token(
        self, token_id: str, token_hash: str, user_id: str, at: datetime, *, actor: str | None = None
    ) -> None:
        """Store an admin API token's hash, acting as ``user_id``, with its ``admin_token.created`` audit row (by
        ``actor``; the token's id and user, never the token or its hash), committed together."""
        async with self.transaction() as tx:
            tx.session.add(AdminTokenRow(id=token_id, token_hash=token_hash, user_id=user_id, created_at=at))
            await tx.audit("admin_token.created", at=at, actor=actor, token_id=token_id, user=user_id)

    async def list_admin_tokens(self) -> list[tuple[str, str, datetime]]:
        """Admin tokens as ``(id, user_id, created_at)``, oldest first (never the hashes)."""
        stmt = select(AdminTokenRow.id, AdminTokenRow.user_id, AdminTokenRow.created_at).order_by(
            AdminTokenRow.created_at
        )
        return [(r[0], r[1], r[2]) for r in (await self._read(stmt)).all()]

    async def revoke_admin_token(self, token_id: str) -> bool:
        """Delete an admin token (it stops at once); True when it existed."""
        async with self.transaction() as tx:
            result = await tx.session.execute(delete(AdminTokenRow).where(AdminTokenRow.id == token_id))
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    async def admin_by_token_hash(self, token_hash: str) -> str | None:
        """The admin user id of an admin token, or None."""
        user: str | None = await self._one(select(AdminTokenRow.user_id).where(AdminTokenRow.token_hash == token_hash))
        return user

    # -- Audit ------------------------------------------------------------------------------------
    async def audit(
        self,
        event_name: str,
        *,
        at: datetime,
        escalation_id: str | None = None,
        actor: str | None = None,
        **detail: Any,
    ) -> None:
        """Append one audit row in its own transaction (a change's own rows go through :meth:`Tx.audit`)."""
        async with self.transaction() as tx:
            await tx.audit(event_name, at=at, escalation_id=escalation_id, actor=actor, **detail)

    async def audit_page(
        self,
        *,
        after_id: int = 0,
        since: datetime | None = None,
        until: datetime | None = None,
        bot_id: str | None = None,
        limit: int = 100,
    ) -> list[AuditEntry]:
        """Audit rows with ``id > after_id`` (a page: pass the last id back), oldest first, at or after ``since`` and
        before ``until``, only those of ``bot_id`` when given (rows of its escalations, and its own rows such as
        ``bot.created`` and ``bot.removed``, whose detail names it); at most ``limit``."""
        stmt = select(AuditRow).where(AuditRow.id > after_id)
        if since is not None:
            stmt = stmt.where(AuditRow.at >= since)
        if until is not None:
            stmt = stmt.where(AuditRow.at < until)
        if bot_id is not None:
            stmt = stmt.outerjoin(EscalationRow, EscalationRow.id == AuditRow.escalation_id).where(
                or_(EscalationRow.bot_id == bot_id, AuditRow.detail["bot_id"].as_string() == bot_id)
            )
        rows = await self._all(stmt.order_by(AuditRow.id).limit(limit))
        return [record(AuditEntry, r) for r in rows]

    async def audit_log(self, escalation_id: str | None = None) -> list[AuditEntry]:
        """Audit rows in insertion order, only those of one escalation when given."""
        stmt = select(AuditRow).order_by(AuditRow.id)
        if escalation_id is not None:
            stmt = stmt.where(AuditRow.escalation_id == escalation_id)
        rows = await self._all(stmt)
        return [record(AuditEntry, r) for r in rows]


def shown_url(database_url: str) -> str:
    """``database_url`` with its password hidden, for messages."""
    try:
        return make_url(database_url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        return "(unparsable URL)"


def missing_store_hint(database_url: str) -> str:
    """How to point an operator command at the server's store (one sentence)."""
    return (
        f"no FlyBot store at {sqlite_path(database_url) or shown_url(database_url)}; operator commands never create "
        "one (`flybot serve` does): run this as the user and with the settings `flybot serve` runs with, or set "
        "FLYBOT_DATABASE_URL to the server's store"
    )


def sqlite_path(database_url: str) -> Path | None:
    """The absolute file path of a SQLite URL, or None (PostgreSQL, or an in-memory database)."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database).expanduser().resolve()


def unreachable(database_url: str, exc: BaseException) -> StoreUnreachable:
    """A one-line :class:`StoreUnreachable` for a driver or OS error met while opening ``database_url``.

    The database's own first line is kept (e.g. ``database "x" does not exist``, ``Connection refused``); no
    traceback, and the password is never shown.
    """
    cause: BaseException = getattr(exc, "orig", None) or exc
    if isinstance(cause, OSError) and cause.strerror:
        why = cause.strerror
    else:
        why = (str(cause).strip().splitlines() or [type(cause).__name__])[0][:200]
    return StoreUnreachable(
        f"FLYBOT_DATABASE_URL: cannot open the store at {shown_url(database_url)} ({why}); "
        "start the database or fix the URL"
    )


def _unnamed() -> str:
    """asyncpg's name for the unnamed prepared statement."""
    return ""


def _engine(database_url: str, *, create: bool, prepared: bool = False) -> AsyncEngine:
    """An engine for ``database_url``; SQLite files get WAL mode, foreign keys and a busy timeout. PostgreSQL:
    ``prepared`` keeps asyncpg's named prepared statements (a connection to PostgreSQL itself); otherwise every
    statement is the unnamed one (a pooler in transaction mode may be in between).

    Raises:
        StoreMissing: ``create`` is False and the SQLite file does not exist (nothing is created).
        StoreUnreachable: the SQLite file's directory cannot be created.
    """
    url = make_url(database_url)
    kwargs: dict[str, Any] = {}
    path = sqlite_path(database_url)
    if path is not None:
        if not create and not path.is_file():
            raise StoreMissing(missing_store_hint(database_url))
        if create:
            try:
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                # A new store is readable by its owner only (it holds every command, justification and audit row),
                # and so is a directory made for it; SQLite gives its -wal and -shm files the database file's mode.
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
            except OSError as exc:
                raise unreachable(database_url, exc) from None
        kwargs["connect_args"] = {"timeout": SQLITE_BUSY_TIMEOUT_S}
    if url.get_backend_name() == "postgresql" and not prepared:
        # No prepared statement outlives its statement, so that a pooler in transaction mode (PgBouncer), which gives
        # each transaction any server connection, never meets a name another connection prepared: asyncpg's and
        # SQLAlchemy's statement caches are off and every statement is the unnamed one, parsed and run back to back.
        # Source: asyncpg FAQ, "Why am I getting prepared statement errors?"; SQLAlchemy docs, asyncpg dialect.
        kwargs["connect_args"] = {
            "statement_cache_size": 0,
            "prepared_statement_cache_size": 0,
            "prepared_statement_name_func": _unnamed,
        }
    engine = create_async_engine(url, **kwargs)
    if url.get_backend_name() == "sqlite":

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            # The driver's own BEGIN is off: SQLAlchemy's "begin" below emits BEGIN IMMEDIATE for a store transaction
            # (Store.transaction), so one that reads then writes (claiming a job, folding a notice) holds the write
            # lock from its start and never fails to upgrade; plain reads BEGIN deferred and never wait for a writer
            # (WAL). Sources: SQLite docs, "BEGIN TRANSACTION"; SQLAlchemy docs, "Serializable isolation".
            dbapi_conn.isolation_level = None
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            # WAL + synchronous=NORMAL: a commit is written to the WAL (the OS has it) but not fsynced; the WAL is
            # fsynced at checkpoints. A process crash or kill -9 loses nothing committed; a power loss or OS crash
            # may roll back the last commits, and never corrupts the file. FULL fsynced every commit (2-10 ms here,
            # the bulk of the hot path). Source: SQLite docs, "PRAGMA synchronous" (WAL mode paragraphs).
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        @event.listens_for(engine.sync_engine, "begin")
        def _sqlite_begin(conn: Any) -> None:
            write = conn.get_execution_options().get(WRITE_OPTION)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


async def open_engine(database_url: str, *, create: bool) -> AsyncEngine:
    """Connect once to check the store is reachable; the caller disposes of the engine. On PostgreSQL that first
    connection also tells whether a pooler answers in between (:func:`bot.store.notify.pooled`); when none does,
    the engine keeps asyncpg's prepared statements (each statement parsed once per connection, not per run).

    Raises:
        StoreMissing: ``create`` is False and there is no SQLite file.
        StoreUnreachable: the database cannot be reached or opened.
    """
    engine = _engine(database_url, create=create)
    direct = False
    try:
        async with engine.connect() as connection:
            if engine.dialect.name == "postgresql":
                raw = await connection.get_raw_connection()
                direct = not await pooled(raw.driver_connection)
    except (OSError, SQLAlchemyError, TypeError, ValueError) as exc:  # TypeError/ValueError: a bad URL query option
        # such as ?sslmode=require (asyncpg takes ssl=...), refused by the driver's connect()
        await engine.dispose()
        raise unreachable(database_url, exc) from None
    if direct:  # PostgreSQL itself answered: each connection keeps its prepared statements (parsed once)
        await engine.dispose()
        engine = _engine(database_url, create=create, prepared=True)
    return engine


async def open_store(
    database_url: str, *, migrate: bool | None = None, create: bool = True, cache_ttl_s: float = 0.0
) -> Store:
    """Connect to ``database_url`` (SQLAlchemy async URL) and bring or check its schema.

    ``migrate``: True applies the Alembic migrations up to head; False only checks that the schema is current;
    None (default) migrates an embedded SQLite file (one process owns it) and only checks PostgreSQL, where
    operators run ``flybot db upgrade`` once before starting replicas. ``create``: False for operator commands,
    which never create a store (one run from another directory must not split it). ``cache_ttl_s``: how long
    :class:`~bot.store.cache.StoreCache` may serve a copy (0, the default: never; the CLI and tools read each time).

    Raises:
        StoreMissing: no SQLite file and ``create`` is False.
        StoreUnreachable: the database cannot be reached or opened (one line naming FLYBOT_DATABASE_URL).
        SchemaBehind: the schema is not current and ``migrate`` was not asked for.
    """
    engine = await open_engine(database_url, create=create)
    if migrate is None:
        migrate = make_url(database_url).get_backend_name() == "sqlite"
    try:
        if migrate:
            await upgrade(engine)
        else:
            await check_current(engine)
    except (OSError, SQLAlchemyError) as exc:
        await engine.dispose()
        raise unreachable(database_url, exc) from None
    except BaseException:
        await engine.dispose()
        raise
    # PostgreSQL: nothing is served from memory until the app's LISTEN connection is up (StoreCache.set_live).
    url = make_url(database_url)
    postgres = url.get_backend_name() == "postgresql"
    sqlite_file = url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:")
    change_file = Path(f"{url.database}-changes") if sqlite_file else None
    return Store(engine, StoreCache(ttl_s=cache_ttl_s, live=not postgres, change_file=change_file))
