"""One store transaction (:class:`Tx`): a state change, its audit rows and the chat jobs it causes commit together.

Open one with :meth:`bot.store.Store.transaction`::

    async with store.transaction() as tx:
        decided = await tx.decide(escalation_id, status="approved", ...)
        await tx.audit("escalation.approved", ...)
        await tx.enqueue("card.update", ref=escalation_id, room=room, at=now)

Everything commits at the end of the block, or nothing does (an exception rolls back). This is the outbox (DESIGN.md,
"Chat effects are durable jobs"): domain services write job rows here and never call chat; ``bot/delivery`` claims
the jobs (:meth:`Tx.claim_job`), sends them and records the result in the transaction that marks them done.
Decisions are compare-and-set updates; PostgreSQL claims jobs ``FOR UPDATE SKIP LOCKED`` and locks a room's pace row
while a slot is taken (SQLite transactions are ``BEGIN IMMEDIATE``: one writer at a time).
"""

from __future__ import annotations

import uuid
from dataclasses import fields
from datetime import UTC, datetime, timedelta
from functools import cache
from types import SimpleNamespace
from typing import Any, cast

from sqlalchemy import Table, and_, bindparam, case, delete, exists, func, insert, or_, select, union_all, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import ColumnElement

from bot.store.admission import AdmissionLimits, admit, admit_card
from bot.store.models import (
    AuditRow,
    Base,
    BlockedReportRow,
    CardCopyRow,
    EscalationRow,
    OutboxJobRow,
    ProgramRuleRow,
    RoomNoticeRow,
    RoomPaceRow,
    RoomWaitRow,
    StandingApprovalRow,
    dialect_insert,
    record,
)
from bot.store.notify import notify_at_commit
from bot.store.records import (
    JOB_KINDS,
    Decision,
    Escalation,
    Job,
    NewEscalation,
    Notice,
    ProgramRule,
    RoomQueue,
    StandingApproval,
)
from bot.store.reports import REPORT_STATUSES, NewReport, Report, open_key, report_record

NOTICE_ITEMS = 5
"""How many of a folded notice's latest auto-answers it lists."""

CLAIM_SCAN = 20
"""Candidate jobs looked at per claim (from rooms whose pace allows a send now)."""

STARVED_AFTER_S = 5.0
"""A reminder, notice or fallback job still waiting this many seconds after it was due is claimed with the cards'
priority (then by age): a Bot keeping its room's pace busy with cards and their redraws cannot hold back another
Bot's reminders (due while its escalation can still be decided) or the room's notice (standing approvals stop
answering while it is overdue) for longer."""
_AGING_KINDS = ("reminder", "notice", "fallback")


def program_rule_of(row: ProgramRuleRow) -> ProgramRule:
    """The record of a ``program_rules`` row (``""`` subcommand: the whole program)."""
    return record(ProgramRule, row, subcommand=row.subcommand or None)


def _rule_key(program: str, subcommand: str | None) -> tuple[ColumnElement[bool], ColumnElement[bool]]:
    return ProgramRuleRow.program == program, ProgramRuleRow.subcommand == (subcommand or "")


class Tx:
    """The operations of one transaction (see the module docstring). Made by ``Store.transaction()`` only.

    After the commit the store wakes this replica's delivery workers for ``job_rooms`` (the rooms of the jobs
    written) and the long-polls of ``decided`` (the escalations and reports changed); ``more_due`` and ``ready_at``
    are what :meth:`claim_job` saw (:class:`~bot.store.records.Claim`)."""

    def __init__(self, connection: AsyncConnection) -> None:
        self.job_rooms: list[str] = []
        self.decided: list[str] = []
        self.more_due = False
        self.ready_at: datetime | None = None
        self._connection = connection
        self._session: AsyncSession | None = None
        self._audit: list[dict[str, Any]] = []

    async def connection(self) -> AsyncConnection:
        """This transaction's connection, for Core statements (no ORM work per statement)."""
        return self._connection

    @property
    def session(self) -> AsyncSession:
        """An ORM session in this transaction's connection, made at first use; ``Store.transaction`` commits."""
        if self._session is None:
            self._session = AsyncSession(bind=self._connection, expire_on_commit=False)
        return self._session

    @property
    def postgres(self) -> bool:
        """True on PostgreSQL (row locks, ``SKIP LOCKED``, NOTIFY)."""
        return self._connection.dialect.name == "postgresql"

    async def finish(self) -> None:
        """Write the audit rows (:meth:`write_audit`), then the session's pending objects; called before the commit."""
        await self.write_audit()
        if self._session is not None:
            await self._session.flush()

    async def close(self) -> None:
        """Close the session, if one was made."""
        if self._session is not None:
            await self._session.close()

    # -- escalations -------------------------------------------------------------------------------------
    async def add_escalation(
        self, new: NewEscalation, *, card_status: str | None = None, decision: Decision | None = None
    ) -> tuple[Escalation, bool]:
        """Insert an escalation, pending or (``decision``) already decided; ``(escalation, created)``. ``card_status``:
        ``queued`` when its card job is written with it. A repeated ``idempotency_key`` of the Bot inserts nothing and
        returns the first one (``ON CONFLICT DO NOTHING``: on PostgreSQL a concurrent insert of the key is waited for).
        """
        conn = self._connection
        values = {f.name: getattr(new, f.name) for f in fields(new)} | {"status": "pending", "card_status": card_status}
        values |= {
            "reasons": list(new.reasons),
            "approvals_needed": new.approvals_needed if new.approvals_needed > 1 else None,
        }
        if decision is not None:
            values |= {"status": decision.status, "decided_at": decision.at, "decided_by": decision.decided_by}
            values |= {"decision_source": decision.source, "reason": decision.reason}
            values["standing_approval_id"] = decision.standing_approval_id
        inserted = await conn.execute(insert_new(conn.dialect.name, "escalations"), values)
        if inserted.rowcount == 1 or new.idempotency_key is None:
            return Escalation(
                **values | {"reasons": new.reasons, "approvals_needed": max(new.approvals_needed, 1)}
            ), True
        table = cast(Table, EscalationRow.__table__)
        first = select(table).where(table.c.bot_id == new.bot_id, table.c.idempotency_key == new.idempotency_key)
        row = (await conn.execute(first)).one()
        return record(Escalation, row), False

    async def admit(self, bot_id: str, now: datetime, limits: AdmissionLimits, *, opened: bool) -> None:
        """:func:`bot.store.admission.admit`, after the escalation was written (``opened``: pending). Call it last: on
        PostgreSQL it locks the Bot's counter row until the commit. Raises RateLimited (429): roll back."""
        await admit(self._connection, bot_id, now, limits, opened=opened)

    async def get_escalation(self, escalation_id: str) -> Escalation | None:
        """The escalation as this transaction sees it, or None."""
        row = await self.session.get(EscalationRow, escalation_id, populate_existing=True)
        return record(Escalation, row) if row else None

    async def decide(
        self,
        escalation_id: str,
        *,
        status: str,
        at: datetime,
        decided_by: str | None,
        source: str,
        reason: str | None = None,
        standing_approval_id: str | None = None,
    ) -> Escalation | None:
        """Move a pending escalation to a final ``status``, exactly once (compare-and-set on ``pending``); the decided
        escalation, or None when it was not pending (already decided, or unknown)."""
        values: dict[str, Any] = dict(
            status=status, decided_at=at, decided_by=decided_by, decision_source=source, reason=reason
        )
        if not await self._set(escalation_id, standing_approval_id=standing_approval_id, **values):
            return None
        return await self._ended(escalation_id)

    async def _set(self, escalation_id: str, *where: Any, pending: bool = True, **values: Any) -> bool:
        """Update the escalation where ``where`` holds (and it is pending, with ``pending``); True when it did."""
        row = EscalationRow
        condition = (row.id == escalation_id, *where, *((row.status == "pending",) if pending else ()))
        result = await self.session.execute(update(row).where(*condition).values(**values))
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    async def _ended(self, escalation_id: str) -> Escalation | None:
        """The escalation just ended (in this transaction): delete its ``card.post`` job if no worker has it, so the
        card is never posted and no longer counts against its room's queue (:meth:`room_queue`), and mark the card
        ``cancelled``; delete its ``reminder``, ``fallback`` and ``card.dm`` jobs likewise (they do nothing once it
        ended, yet each would take a slot of its room or DM when claimed, delaying the other Bots' messages there).
        A job a worker holds (``claimed_until`` set) or one whose earlier attempt may have landed (``uncertain``)
        stays: the worker posts nothing for an ended escalation, and records and redraws a card an earlier attempt
        did post (:mod:`bot.delivery.worker`). On PostgreSQL the DELETE waits for a claim holding the row and then
        sees it claimed (READ COMMITTED re-checks the condition), so it never deletes a job in flight.
        Returns the escalation as :meth:`_changed` does."""
        job = OutboxJobRow
        idle = (job.ref == escalation_id, job.status == "queued", job.claimed_until.is_(None), job.uncertain.is_(False))
        deleted = await self.session.execute(delete(job).where(job.kind == "card.post", *idle))
        if deleted.rowcount:  # type: ignore[attr-defined]
            queued = EscalationRow.card_status == "queued"
            await self._set(escalation_id, queued, pending=False, card_status="cancelled")
        await self.session.execute(delete(job).where(job.kind.in_(("reminder", "fallback", "card.dm")), *idle))
        return await self._changed(escalation_id)

    async def _changed(self, escalation_id: str) -> Escalation | None:
        """The escalation changed: its long-polls wake at commit (:meth:`_notify`); the escalation as it is now."""
        await self._notify(escalation_id)
        return await self.get_escalation(escalation_id)

    async def _notify(self, key: str) -> None:
        """At commit, every replica drops its long-poll snapshot of ``key`` (an escalation or report id: NOTIFY on
        PostgreSQL, :attr:`decided` here; :meth:`bot.waiters.WaiterHub.read_through`)."""
        await notify_at_commit(self.session, key)
        self.decided.append(key)

    async def approve(
        self, escalation_id: str, *, actor: str, at: datetime, source: str, reason: str | None = None
    ) -> tuple[str, Escalation | None]:
        """One person's Approve, exactly once, whatever the rule (compare-and-set; no read-then-write).

        Returns ``(outcome, escalation)``:

        - ``("approved", e)``: this approval decided it (one was needed, or it is the second of two from a different
          person): the escalation is ``approved`` with ``decided_by`` = ``actor``.
        - ``("first", e)``: the first of two approvals is recorded (``first_approver`` = ``actor``); still pending.
        - ``("same_person", e)``: ``actor`` already gave the first approval; a second person must approve.
        - ``("not_pending", e)``: it was already decided (``e`` as it is now), or ``e`` is None: no such escalation.

        Races (two replicas, two people at once) end in exactly one decision: each step is a conditional UPDATE on
        the row (SQLite serialises writers; PostgreSQL re-checks the condition after a concurrent update commits), so
        of two first approvals one sets ``first_approver`` and the other then completes the pair.
        """
        row = EscalationRow
        second = or_(
            func.coalesce(row.approvals_needed, 1) <= 1, row.first_approver.is_not(None) & (row.first_approver != actor)
        )
        decision: dict[str, Any] = dict(
            status="approved", decided_at=at, decided_by=actor, decision_source=source, reason=reason
        )
        for _ in range(3):
            if await self._set(escalation_id, second, **decision):
                return "approved", await self._ended(escalation_id)
            first = (row.approvals_needed > 1, row.first_approver.is_(None))
            if await self._set(escalation_id, *first, first_approver=actor, first_approved_at=at):
                return "first", await self._changed(escalation_id)
            current = await self.get_escalation(escalation_id)
            if current is None or not current.pending:
                return "not_pending", current
            if current.first_approver == actor:
                return "same_person", current
        return "not_pending", await self.get_escalation(escalation_id)

    async def mark_fallback(self, escalation_id: str, at: datetime) -> Escalation | None:
        """Record that the fallback approvers are asked now, once (compare-and-set on a pending escalation whose
        ``fallback_at`` is NULL); the escalation, or None when it was decided or already marked."""
        if not await self._set(escalation_id, EscalationRow.fallback_at.is_(None), fallback_at=at):
            return None
        return await self._changed(escalation_id)

    async def add_card_copy(self, escalation_id: str, *, user: str, channel: str, ts: str, at: datetime) -> None:
        """Remember one copy of the card outside its room (a fallback approver's DM), for its redraws."""
        self.session.add(CardCopyRow(escalation_id=escalation_id, user=user, channel=channel, ts=ts, created_at=at))

    async def set_card(
        self, escalation_id: str, *, status: str, channel: str | None = None, ts: str | None = None
    ) -> Escalation | None:
        """Record the card's delivery state (``queued``, ``posted`` with its channel and ts, or ``failed``)."""
        values = {"card_status": status, "card_channel": channel, "card_ts": ts}
        await self._set(escalation_id, pending=False, **{k: v for k, v in values.items() if v is not None})
        return await self._changed(escalation_id)

    # -- standing approvals ------------------------------------------------------------------------------
    async def add_standing(self, approval: StandingApproval) -> None:
        """Insert a standing approval (commit it with its ``standing.created`` audit row)."""
        derived = ("use_count", "last_used_at")
        values = {f.name: getattr(approval, f.name) for f in fields(approval) if f.name not in derived}
        self.session.add(StandingApprovalRow(**values))
        await self.session.flush()

    async def revoke_standing(self, approval_id: str, *, by: str, at: datetime) -> bool:
        """Revoke once (compare-and-set on ``revoked_at IS NULL``); False if unknown or already revoked."""
        result = await self.session.execute(
            update(StandingApprovalRow)
            .where(StandingApprovalRow.id == approval_id, StandingApprovalRow.revoked_at.is_(None))
            .values(revoked_at=at, revoked_by=by)
        )
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    # -- program rules ----------------------------------------------------------------------------------------
    async def get_program_rule(self, program: str, subcommand: str | None) -> ProgramRule | None:
        """The rule on ``program`` (and ``subcommand``, None: the whole program), or None."""
        found = select(ProgramRuleRow).where(*_rule_key(program, subcommand))
        row = (await self.session.execute(found)).scalar_one_or_none()
        return program_rule_of(row) if row is not None else None

    async def set_program_rule(self, rule: ProgramRule) -> None:
        """Store ``rule``, replacing the rule on the same program and subcommand (commit it with its
        ``program_rule.set`` audit row)."""
        await self.remove_program_rule(rule.program, rule.subcommand)
        values = {f.name: getattr(rule, f.name) for f in fields(rule)} | {"subcommand": rule.subcommand or ""}
        await self.session.execute(insert(ProgramRuleRow).values(**values))

    async def remove_program_rule(self, program: str, subcommand: str | None) -> bool:
        """Delete the rule on ``program`` (and ``subcommand``); False when there was none."""
        result = await self.session.execute(delete(ProgramRuleRow).where(*_rule_key(program, subcommand)))
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    # -- audit ----------------------------------------------------------------------------------------------
    async def audit(
        self,
        event_name: str,
        *,
        at: datetime,
        escalation_id: str | None = None,
        actor: str | None = None,
        **detail: Any,
    ) -> None:
        """Append one audit row (never updated or deleted by FlyBot), committed with the change it records: the
        transaction's audit rows are written together, in the order of these calls, in one statement at its end
        (:meth:`finish`), whatever happens in a savepoint after this call."""
        self._audit.append(
            {"at": at, "event": event_name, "escalation_id": escalation_id, "actor": actor, "detail": detail}
        )

    async def write_audit(self) -> None:
        """Write the audit rows of :meth:`audit` not written yet (one INSERT, one row per call)."""
        if self._audit:
            rows, self._audit = self._audit, []
            await self._connection.execute(_hot()["audit"], rows)

    # -- the outbox: writing ------------------------------------------------------------------------------
    async def enqueue(
        self,
        kind: str,
        *,
        ref: str,
        room: str,
        at: datetime,
        payload: dict[str, Any] | None = None,
        deadline_at: datetime | None = None,
        due_at: datetime | None = None,
    ) -> None:
        """Write one job of ``kind`` (:data:`~bot.store.records.JOB_KINDS`, which gives its priority) about ``ref``
        (an escalation, report or notice id), paced by ``room`` (a channel id, or ``user:<id>`` for a DM); due at
        ``due_at`` (default ``at``), given up at ``deadline_at`` (None: never). Raises ValueError for an unknown kind.
        """
        if kind not in JOB_KINDS:
            raise ValueError(f"unknown job kind {kind!r}")
        values = dict(kind=kind, priority=JOB_KINDS[kind], room=room, ref=ref, payload=payload or {}, status="queued")
        values.update(attempts=0, uncertain=False, created_at=at, due_at=due_at or at, deadline_at=deadline_at)
        await self._connection.execute(_hot()["job"], values)
        self.job_rooms.append(room)

    async def enqueue_redraw(self, kind: str, *, ref: str, room: str, at: datetime) -> None:
        """Write a redraw job unless one of ``kind`` for ``ref`` already waits unclaimed (it draws the state then)."""
        job = OutboxJobRow
        waiting = select(job.id).where(job.ref == ref, job.kind == kind, job.status == "queued")
        if (await self.session.execute(waiting.where(job.claimed_until.is_(None)).limit(1))).first() is None:
            await self.enqueue(kind, ref=ref, room=room, at=at)

    async def refresh_homes(self, at: datetime) -> None:
        """:meth:`enqueue_redraw` of the App Homes (``home.refresh``, ref and room ``home``)."""
        await self.enqueue_redraw("home.refresh", ref="home", room="home", at=at)

    async def fold_notice(
        self,
        *,
        room: str,
        bot_id: str,
        at: datetime,
        window_s: float,
        item: dict[str, Any],
        approvals: list[dict[str, Any]],
    ) -> str:
        """Fold one auto-answer into the room's notice of this Bot and window (inserted if none), and write the
        notice's job unless one waits unclaimed (it will show this one too). Returns the notice's key ``"<room>
        <bot_id> <window number>"`` (its ``open_key``).

        The transaction's audit rows are written first (:meth:`write_audit`): on PostgreSQL the notice row stays
        locked from its update to the commit, and that lock orders concurrent folds, so of two folds the second sees
        the first's job (read by the statement after the lock, with a snapshot taken after the first's commit).
        """
        key = f"{room} {bot_id} {int(at.timestamp() // window_s)}"
        await self.write_audit()
        conn = self._connection
        bumped = await self._bump_notice(conn, key, at, item, approvals)
        if bumped is None:
            notice_id = "ntc_" + uuid.uuid4().hex[:20]
            row = {"id": notice_id, "open_key": key, "room": room, "bot_id": bot_id, "window_start": at, "count": 1}
            try:
                async with conn.begin_nested():
                    await conn.execute(
                        insert(RoomNoticeRow).values(**row, items=[item], approvals=approvals, updated_at=at)
                    )
                bumped = notice_id, False  # a notice just made has no job yet
            except IntegrityError:  # a concurrent fold made it
                bumped = await self._bump_notice(conn, key, at, item, approvals)
                if bumped is None:
                    raise
        notice_id, waiting = bumped
        if not waiting:
            await self.enqueue("notice", ref=notice_id, room=room, at=at)
        return key

    @staticmethod
    async def _bump_notice(
        conn: AsyncConnection, key: str, at: datetime, item: dict[str, Any], approvals: list[dict[str, Any]]
    ) -> tuple[str, bool] | None:
        """Add one auto-answer to the notice row of ``key``: ``(the notice's id, whether a job of it waits
        unclaimed)``, or None when there is no such row."""
        row = (await conn.execute(_hot()["bump"], {"p_key": key, "p_at": at})).first()
        if row is None:
            return None
        bumped = row._mapping  # by name: a Row's own .count/.index are tuple methods
        known = {a["id"] for a in bumped["approvals"]}
        folded = await conn.execute(
            _hot()["fold"],
            {
                "p_id": bumped["id"],
                "p_items": [*bumped["items"], item][-NOTICE_ITEMS:],
                "p_approvals": [*bumped["approvals"], *(a for a in approvals if a["id"] not in known)],
            },
        )
        return str(bumped["id"]), bool(folded.scalar_one())

    async def notices_overdue(self, room: str, now: datetime) -> bool:
        """True when the room's oldest undelivered notice is past its delivery deadline (standing approvals in that
        room then stop answering until delivery recovers: "nothing is approved unseen")."""
        overdue = await self._connection.execute(_hot()["overdue"], {"p_room": room, "p_now": now})
        return overdue.first() is not None

    # -- the outbox: delivering -----------------------------------------------------------------------------
    async def claim_job(
        self, now: datetime, *, interval_s: float, burst: int, lease_s: float, deadline_s: float
    ) -> Job | None:
        """Claim the next due job whose room may send now, taking the room's slot; None when there is none.

        Order: within the rooms that may send, by priority then age; a reminder, notice or fallback job waiting
        :data:`STARVED_AFTER_S` past its time ranks with the cards. The claim is a lease (``claimed_until``) so
        that a crashed worker's job comes back; a job of a thing already in flight (same ``ref``) waits. The first
        claim starts the job's delivery deadline (``deadline_s``): waiting for the room's pace is not failing.
        """
        job = OutboxJobRow
        starved = and_(job.kind.in_(_AGING_KINDS), job.due_at <= now - timedelta(seconds=STARVED_AFTER_S))
        rank = case((starved, JOB_KINDS["card.post"]), else_=job.priority)
        stmt = _candidates(now).order_by(rank, job.id).limit(CLAIM_SCAN)
        if self.postgres:
            stmt = stmt.with_for_update(skip_locked=True, of=OutboxJobRow)
        rows = (await self.session.execute(stmt)).scalars().all()
        tried: set[str] = set()
        for row in rows:
            if row.room in tried:
                continue
            tried.add(row.room)
            if await self._in_flight(row, now):
                continue
            if not await self._take_slot(row.room, now, interval_s=interval_s, burst=burst):
                continue
            was_claimed = row.claimed_until is not None
            row.claimed_until = now + timedelta(seconds=lease_s)
            row.attempts += 1
            row.slot_at = now
            row.uncertain = row.uncertain or was_claimed
            if row.deadline_at is None:
                row.deadline_at = now + timedelta(seconds=deadline_s)
            self.more_due = len(rows) > 1
            return record(Job, row, payload=dict(row.payload))
        return None

    async def may_claim(self, now: datetime) -> bool:
        """True when some job is due in a room whose pace allows a send now (a read: run it in a read-only
        transaction before :meth:`claim_job`, so an idle worker woken by every new job does not take the writer's
        turn on SQLite just to find that the room must wait)."""
        return (
            await self.session.execute(_candidates(now).with_only_columns(OutboxJobRow.id).limit(1))
        ).first() is not None

    async def next_job_due(self, now: datetime) -> datetime | None:
        """When the next queued job could be claimed (the latest of its due time, its room's next slot and its
        lease's end); None when nothing is queued. One aggregate query (PostgreSQL ``GREATEST``, SQLite's scalar
        ``max``)."""
        job, pace = OutboxJobRow, RoomPaceRow
        greatest = func.greatest if self.postgres else func.max
        ready = greatest(
            job.due_at, func.coalesce(job.claimed_until, job.due_at), func.coalesce(pace.ready_at, job.due_at)
        )
        stmt = (
            select(func.min(ready))
            .select_from(job)
            .outerjoin(pace, pace.room == job.room)
            .where(job.status == "queued")
        )
        value: Any = (await self.session.execute(stmt)).scalar_one_or_none()
        if value is None:
            return None
        if isinstance(value, str):  # SQLite's scalar max() hands back the stored text
            value = datetime.fromisoformat(value)
        when: datetime = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return when

    async def queue_stats(self, now: datetime) -> dict[str, tuple[int, float]]:
        """Per job kind: ``(jobs waiting, age of the oldest in seconds)`` (for the metrics). A job scheduled for
        later and never tried (a reminder before its time) is not waiting yet."""
        stmt = (
            select(OutboxJobRow.kind, func.count(), func.min(OutboxJobRow.created_at))
            .where(OutboxJobRow.status == "queued", or_(OutboxJobRow.due_at <= now, OutboxJobRow.attempts > 0))
            .group_by(OutboxJobRow.kind)
        )
        stats: dict[str, tuple[int, float]] = {}
        for kind, count, oldest in await self.session.execute(stmt):
            stats[str(kind)] = (int(count), max(0.0, (now - oldest).total_seconds()) if oldest else 0.0)
        return stats

    async def room_queue(self, room: str, now: datetime) -> RoomQueue:
        """``room``'s :class:`~bot.store.records.RoomQueue` at ``now``, as this transaction sees the store (its own
        jobs too): a card or its DM copy counts while its job is queued and its escalation pending, a blocked report's
        DM or redraw while its job is queued. Exact across replicas after :meth:`lock_room`."""
        count, waits = _room_queue_statements()  # the session flushes this transaction's own rows first (autoflush)
        cards: dict[str, int] = {}
        for bot_id, n in await self.session.execute(count, {"p_room": room}):
            cards[str(bot_id)] = cards.get(str(bot_id), 0) + int(n)
        marked = (await self.session.execute(waits, {"p_room": room, "p_now": now})).scalars()
        return RoomQueue(cards, frozenset(str(bot_id) for bot_id in marked))

    async def admit_card(
        self, room: str, bot_id: str, limits: AdmissionLimits, now: datetime, what: str = "approval cards"
    ) -> None:
        """:func:`bot.store.admission.admit_card` on ``room``'s queue. Raises RoomBusy (429): roll back."""
        if limits.room_queue > 0:
            admit_card(await self.room_queue(room, now), bot_id, limits, what)

    async def lock_room(self, room: str) -> None:
        """PostgreSQL: hold ``room``'s lock until this transaction ends (``pg_advisory_xact_lock``), so that every
        replica's transactions that may queue a card there count its queue one after the other. Take it before
        anything else that locks (a Bot's request counter: no cycle). SQLite: nothing (one writer at a time)."""
        if self.postgres:
            await self.session.execute(select(func.pg_advisory_xact_lock(func.hashtext(f"flybot-room:{room}"))))

    # -- blocked reports ------------------------------------------------------------------------------------
    async def record_report(self, new: NewReport) -> tuple[Report, bool]:
        """Fold into the open report of the same Bot and host (``count`` + 1, ``last_seen``; the first report's other
        fields stay), or insert a new one; ``(report, created)``. One ``INSERT ... ON CONFLICT DO UPDATE`` on the
        UNIQUE ``open_key``, so concurrent reports of one Bot and host fold into one."""
        table = cast(Table, BlockedReportRow.__table__)
        values = {f.name: getattr(new, f.name) for f in fields(new) if f.name != "at"} | {"missing": list(new.missing)}
        values |= {
            "unlock": [o.to_json_dict() for o in new.unlock],
            "findings": [f.to_json_dict() for f in new.findings],
        }
        values |= {"status": "open", "open_key": open_key(new.bot_id, new.host), "count": 1, "dms": []}
        insert_or_fold = dialect_insert(self._connection.dialect.name, table).values(
            **values, first_seen=new.at, last_seen=new.at
        )
        folded = {"count": table.c["count"] + 1, "last_seen": insert_or_fold.excluded.last_seen}
        stmt = insert_or_fold.on_conflict_do_update(index_elements=[table.c.open_key], set_=folded)
        row = (await self._connection.execute(stmt.returning(*table.c))).one()
        report = report_record(SimpleNamespace(**row._mapping))  # by name: a Row's own .count is a tuple method
        return report, report.count == 1

    async def get_report(self, report_id: str) -> Report | None:
        """The report as this transaction sees it, or None."""
        row = await self.session.get(BlockedReportRow, report_id, populate_existing=True)
        return report_record(row) if row else None

    async def decide_report(
        self,
        report_id: str,
        *,
        status: str,
        at: datetime,
        decided_by: str,
        source: str,
        standing_approval_id: str | None = None,
        grant_on_host: bool = False,
    ) -> Report | None:
        """Move an open report to ``status``, exactly once (compare-and-set on ``status = 'open'``, clearing its open
        key); ``standing_approval_id`` (an ``approved_bot`` decision's approval) is written in the same statement.
        Returns the decided report, or None when it was not open. Raises ValueError for a status not decided."""
        if status not in REPORT_STATUSES[1:]:
            raise ValueError(f"not a decided report status: {status!r}")
        report = BlockedReportRow
        result = await self.session.execute(
            update(report)
            .where(report.id == report_id, report.status == "open")
            .values(
                status=status,
                open_key=None,
                decided_by=decided_by,
                decided_at=at,
                decision_source=source,
                standing_approval_id=standing_approval_id,
                grant_on_host=grant_on_host,
            )
        )
        if result.rowcount != 1:  # type: ignore[attr-defined]
            return None
        await self._notify(report_id)
        return await self.get_report(report_id)

    async def open_reports(self, bot_id: str) -> list[Report]:
        """The Bot's open reports, oldest first (one per host), as this transaction sees them."""
        report = BlockedReportRow
        stmt = select(report).where(report.bot_id == bot_id, report.status == "open").order_by(report.first_seen)
        return [report_record(row) for row in (await self.session.execute(stmt)).scalars().all()]

    async def resolve_open_report(self, bot_id: str, host: str, *, at: datetime) -> Report | None:
        """Close the Bot's open report on ``host`` as ``resolved`` by the host itself (decision source ``host``,
        decided by the Bot's id), a compare-and-set as any decision; None when none was open."""
        found = select(BlockedReportRow.id).where(BlockedReportRow.open_key == open_key(bot_id, host))
        report_id = (await self.session.execute(found)).scalar_one_or_none()
        if report_id is None:
            return None
        return await self.decide_report(report_id, status="resolved", at=at, decided_by=bot_id, source="host")

    async def report_dm_posted(self, report_id: str, channel: str, ts: str) -> Report | None:
        """Add one owner's DM ``(channel, ts)`` to the report, for its redraws (the row is locked by the UPDATE
        first); the report as it is now."""
        report = BlockedReportRow
        await self.session.execute(update(report).where(report.id == report_id).values(last_seen=report.last_seen))
        row = await self.session.get(report, report_id, populate_existing=True)
        if row is None:
            return None
        row.dms = [*row.dms, [channel, ts]]
        return report_record(row)

    async def _in_flight(self, row: OutboxJobRow, now: datetime) -> bool:
        stmt = (
            select(OutboxJobRow.id)
            .where(
                OutboxJobRow.ref == row.ref,
                OutboxJobRow.id != row.id,
                OutboxJobRow.status == "queued",
                OutboxJobRow.claimed_until >= now,
            )
            .limit(1)
        )
        return (await self.session.execute(stmt)).first() is not None

    async def _pace_row(self, room: str, now: datetime) -> RoomPaceRow:
        stmt = select(RoomPaceRow).where(RoomPaceRow.room == room)
        if self.postgres:
            stmt = stmt.with_for_update()
        row = (await self.session.execute(stmt)).scalar_one_or_none()
        if row is not None:
            return row
        try:
            async with self.session.begin_nested():
                self.session.add(RoomPaceRow(room=room, tat=now, paused_until=None, ready_at=now))
        except IntegrityError:
            pass
        return (await self.session.execute(stmt)).scalar_one()

    async def _take_slot(self, room: str, now: datetime, *, interval_s: float, burst: int) -> bool:
        """GCRA: allowed when ``now >= tat - (burst-1)*interval`` and the room is not paused; moves ``tat`` on."""
        row = await self._pace_row(room, now)
        tolerance = timedelta(seconds=max(0, burst - 1) * interval_s)
        paused = row.paused_until
        if paused is not None and now < paused:
            return False
        if now < row.tat - tolerance:
            row.ready_at = row.tat - tolerance
            return False
        row.tat = max(row.tat, now) + timedelta(seconds=interval_s)
        row.ready_at = max(row.tat - tolerance, paused or now)
        self.ready_at = row.ready_at
        return True

    async def pause_room(self, room: str, until: datetime, now: datetime) -> None:
        """Slack said to wait (``Retry-After``): no job of this room is sent before ``until``, on any replica."""
        row = await self._pace_row(room, now)
        row.paused_until = max(row.paused_until or until, until)
        row.ready_at = max(row.ready_at, row.paused_until)

    async def job_done(self, job_id: int, at: datetime) -> None:
        """Mark a job delivered (in the transaction that records its result)."""
        await self._set_job(job_id, status="done", done_at=at, claimed_until=None, last_error=None)

    async def job_retry(self, job_id: int, *, due_at: datetime, error: str, uncertain: bool) -> None:
        """Give a claimed job back, due again at ``due_at`` (``uncertain``: the last attempt may have landed)."""
        more = {"uncertain": True} if uncertain else {}
        await self._set_job(job_id, due_at=due_at, claimed_until=None, last_error=error[:200], **more)

    async def job_failed(self, job_id: int, at: datetime, error: str) -> None:
        """Give up on a job for good (its deadline passed, or Slack refused it)."""
        await self._set_job(job_id, status="failed", done_at=at, claimed_until=None, last_error=error[:200])

    async def _set_job(self, job_id: int, **values: Any) -> None:
        await self.session.execute(update(OutboxJobRow).where(OutboxJobRow.id == job_id).values(**values))

    async def get_notice(self, notice_id: str) -> Notice | None:
        """The folded notice, or None. On PostgreSQL the row is locked until this transaction ends: a fold in
        progress (which found this notice's job still unclaimed, so wrote no new one) commits first, and the delivery
        that claimed that job reads its count (SQLite's single writer orders them anyway)."""
        row = await self.session.get(
            RoomNoticeRow, notice_id, populate_existing=True, with_for_update=True if self.postgres else None
        )
        return record(Notice, row) if row else None

    async def notice_posted(self, notice_id: str, channel: str, ts: str) -> None:
        """Remember where a folded notice was posted (later folds edit it there)."""
        await self.session.execute(
            update(RoomNoticeRow).where(RoomNoticeRow.id == notice_id).values(channel=channel, ts=ts)
        )

    async def prune_jobs(self, before: datetime) -> None:
        """Delete finished jobs older than ``before`` (the audit log keeps the history)."""
        await self.session.execute(
            delete(OutboxJobRow).where(OutboxJobRow.status.in_(("done", "failed")), OutboxJobRow.done_at < before)
        )


def _candidates(now: datetime) -> Select[OutboxJobRow]:
    """Queued jobs due at ``now``, unclaimed (or their lease over), in rooms whose pace allows a send now."""
    job, pace = OutboxJobRow, RoomPaceRow
    return (
        select(job)
        .outerjoin(pace, pace.room == job.room)
        .where(
            job.status == "queued",
            job.due_at <= now,
            or_(job.claimed_until.is_(None), job.claimed_until < now),
            or_(pace.room.is_(None), pace.ready_at <= now),
        )
    )


#: The outbox job kinds a Bot's requests put in a room's queue (:meth:`Tx.room_queue`), by the row their ``ref``
#: names: approval cards and their DM copies (while the escalation is pending), and blocked reports' DMs and redraws.
#: Card redraws (``card.update``), the room's notice, reminders and one person's ``tell`` are FlyBot's own follow-ups.
_QUEUED_FOR_ESCALATIONS = ("card.post", "card.dm")
_QUEUED_FOR_REPORTS = ("report.dm", "report.update")


@cache
def _room_queue_statements() -> tuple[Any, Any]:
    """:meth:`Tx.room_queue`'s two statements: ``(bot_id, messages waiting)`` per Bot of room ``p_room`` (one row per
    Bot and kind of ref, :data:`_QUEUED_FOR_ESCALATIONS` and :data:`_QUEUED_FOR_REPORTS`), and the Bots marked waiting
    there at ``p_now``."""
    job, escalation, report, wait = OutboxJobRow, EscalationRow, BlockedReportRow, RoomWaitRow

    def queued(row: Any, kinds: tuple[str, ...], *where: Any) -> Select[Any]:
        return (
            select(row.bot_id, func.count())
            .select_from(job)
            .join(row, row.id == job.ref)
            .where(job.room == bindparam("p_room"), job.kind.in_(kinds), job.status == "queued", *where)
            .group_by(row.bot_id)
        )

    cards = queued(escalation, _QUEUED_FOR_ESCALATIONS, escalation.status == "pending")
    reports = queued(report, _QUEUED_FOR_REPORTS)
    count = union_all(cards, reports)
    waits = select(wait.bot_id).where(wait.room == bindparam("p_room"), wait.until > bindparam("p_now"))
    return count, waits


_UNIQUE_KEYS = {"escalations": ("bot_id", "idempotency_key"), "slack_events": ("event_id",)}


@cache
def insert_new(dialect: str, table_name: str) -> Any:
    """An INSERT into ``table_name`` that inserts nothing (row count 0) when a row with the same unique key
    (:data:`_UNIQUE_KEYS`: an escalation's Bot and Idempotency-Key, a Slack event's id) is already there."""
    table = Base.metadata.tables[table_name]
    return dialect_insert(dialect, table).on_conflict_do_nothing(
        index_elements=[table.c[key] for key in _UNIQUE_KEYS[table_name]]
    )


@cache
def _hot() -> dict[str, Any]:
    """The hot path's statements, built once with bind parameters (building an expression and its cache key per
    call cost more than running it)."""
    job = cast(Table, OutboxJobRow.__table__)
    notice = cast(Table, RoomNoticeRow.__table__)
    return {
        "audit": insert(cast(Table, AuditRow.__table__)),
        "job": insert(job),
        "overdue": select(job.c.id)
        .where(
            job.c.room == bindparam("p_room"),
            job.c.kind == "notice",
            job.c.status == "queued",
            job.c.deadline_at < bindparam("p_now"),
        )
        .limit(1),
        "bump": update(notice)
        .where(notice.c.open_key == bindparam("p_key"))
        .values(count=notice.c["count"] + 1, updated_at=bindparam("p_at"))
        .returning(notice.c.id, notice.c["items"], notice.c.approvals),
        "fold": update(notice)
        .where(notice.c.id == bindparam("p_id"))
        .values(items=bindparam("p_items"), approvals=bindparam("p_approvals"))
        .returning(
            exists().where(job.c.ref == bindparam("p_id"), job.c.status == "queued", job.c.claimed_until.is_(None))
        ),
    }
