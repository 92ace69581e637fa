"""SQLAlchemy 2 table models shared by every backend (SQLite embedded default, PostgreSQL in production)."""

from __future__ import annotations

from dataclasses import MISSING, fields
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, Integer, String, Text, UniqueConstraint, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, column_property, mapped_column
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every backend (SQLite stores naive values; we re-attach UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


R = TypeVar("R")


def record(cls: type[R], row: Any, **values: Any) -> R:
    """The plain record ``cls`` (a dataclass) of a row, an ORM object or a Core ``Row``: each field read by its name
    (a list becomes a tuple, NULL the field's default when it has one other than None), ``values`` overriding."""
    out: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        if f.name in values:
            out[f.name] = values[f.name]
            continue
        value = getattr(row, f.name)
        if isinstance(value, list):
            value = tuple(value)
        elif value is None and f.default not in (MISSING, None):
            value = f.default
        out[f.name] = value
    return cls(**out)


def dialect_insert(dialect: str, table: Any) -> Any:
    """``INSERT`` into ``table`` with the ``ON CONFLICT`` clauses of ``dialect`` (``postgresql`` or ``sqlite``)."""
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


class Base(DeclarativeBase):
    """Declarative base for FlyBot's tables."""

    type_annotation_map: dict[Any, Any] = {datetime: UTCDateTime, dict[str, Any]: JSON, list[Any]: JSON}


class BotRow(Base):
    """A registered Bot (:class:`bot.store.records.Bot`); ``token_hash`` is SHA-256 of its API token."""

    __tablename__ = "bots"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    owners: Mapped[list[Any]] = mapped_column(JSON)
    room: Mapped[str | None] = mapped_column(String(40), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    chat_user: Mapped[str | None] = mapped_column(String(40), nullable=True)
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    owner_groups: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    fallback_owners: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    fallback_groups: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    two_person: Mapped[str | None] = mapped_column(String(30), nullable=True)
    allowed_rooms: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    """NULL for an empty list, as ``owner_groups`` and the fallbacks (:class:`bot.store.records.Bot` says what each
    column means)."""


class EscalationRow(Base):
    """One escalation request and, once decided, its single decision."""

    __tablename__ = "escalations"
    __table_args__ = (
        UniqueConstraint("bot_id", "idempotency_key", name="uq_escalation_idempotency"),
        Index("ix_escalations_status_expires", "status", "expires_at"),
        Index("ix_escalations_bot_status", "bot_id", "status"),
        Index("ix_escalations_standing", "standing_approval_id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    bot_id: Mapped[str] = mapped_column(ForeignKey("bots.id"))
    session_id: Mapped[str] = mapped_column(String(200))
    command: Mapped[str] = mapped_column(Text)
    cwd: Mapped[str] = mapped_column(Text)
    file_policy: Mapped[str] = mapped_column(String(40))
    approval_policy: Mapped[str] = mapped_column(String(20))
    contained: Mapped[bool] = mapped_column(Boolean)
    justification: Mapped[str | None] = mapped_column(Text, nullable=True)
    room: Mapped[str | None] = mapped_column(String(40), nullable=True)
    risk: Mapped[str] = mapped_column(String(20))
    reasons: Mapped[list[Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    decided_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    decision_source: Mapped[str | None] = mapped_column(String(30), nullable=True)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    idempotency_key: Mapped[str | None] = mapped_column(String(200), nullable=True)
    card_channel: Mapped[str | None] = mapped_column(String(40), nullable=True)
    card_ts: Mapped[str | None] = mapped_column(String(40), nullable=True)
    standing_approval_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    card_status: Mapped[str | None] = mapped_column(String(10), nullable=True)
    """``queued``, ``posted`` or ``failed`` once a card job exists; None for an escalation that needed no card."""
    approvals_needed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """2 under the two-person rule (fixed when the escalation is created); None or 1: one approval decides."""
    first_approver: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """Under the two-person rule: who gave the first approval (set once, compare-and-set on NULL)."""
    first_approved_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    fallback_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    """When the fallback approvers were asked; from then on they may decide too."""
    tool: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    """A call of a tool other than a shell (bot/escalations.py ``ToolCall``); SQL NULL for a shell command."""


class CardCopyRow(Base):
    """A copy of an approval card outside its room: a fallback approver's DM. Insert-only, so
    concurrent copies never overwrite each other; every copy is redrawn with the card."""

    __tablename__ = "card_copies"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    escalation_id: Mapped[str] = mapped_column(String(40), index=True)
    user: Mapped[str] = mapped_column(String(40))
    channel: Mapped[str] = mapped_column(String(40))
    ts: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class HomeViewerRow(Base):
    """Someone who opened FlyBot's App Home: their Home is redrawn when an escalation they may see is
    created or decided. ``opened_at``: the last time they opened it."""

    __tablename__ = "home_viewers"

    user: Mapped[str] = mapped_column(String(40), primary_key=True)
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class StandingApprovalRow(Base):
    """A standing approval: answers matching escalations of a session, a Bot or a room without asking."""

    __tablename__ = "standing_approvals"
    __table_args__ = (Index("ix_standing_scope_subject", "scope", "subject"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    scope: Mapped[str] = mapped_column(String(10))
    subject: Mapped[str] = mapped_column(String(200))
    bot_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    pattern: Mapped[str] = mapped_column(Text)
    max_risk: Mapped[str] = mapped_column(String(20))
    contained_only: Mapped[bool] = mapped_column(Boolean)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_by: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    use_count: Mapped[int] = column_property(
        select(func.count()).where(EscalationRow.standing_approval_id == id).scalar_subquery()
    )
    """How many escalations it answered (read from them: an answer writes no row of its own)."""
    last_used_at: Mapped[datetime | None] = column_property(
        select(func.max(EscalationRow.decided_at)).where(EscalationRow.standing_approval_id == id).scalar_subquery()
    )
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    revoked_by: Mapped[str | None] = mapped_column(String(80), nullable=True)


class ProgramRuleRow(Base):
    """A program rule: the organisation's grade for a program (or one of its subcommands), set by an admin.

    ``subcommand`` is ``""`` for a rule on the whole program (the primary key needs a value); ``grade`` is a risk
    level's wire name (``workspace_write``). Removing a rule deletes its row; the audit log keeps its history.
    """

    __tablename__ = "program_rules"

    program: Mapped[str] = mapped_column(String(64), primary_key=True)
    subcommand: Mapped[str] = mapped_column(String(64), primary_key=True)
    grade: Mapped[str] = mapped_column(String(20))
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    set_by: Mapped[str] = mapped_column(String(80))
    set_at: Mapped[datetime] = mapped_column(UTCDateTime)


class BotRequestCountRow(Base):
    """How many escalation requests a Bot made in one minute (``window``: minutes since the Unix epoch, UTC).

    Admission control counts here, in the request's own transaction, so the limit holds across replicas
    (:mod:`bot.store.admission`). Rows older than the previous minute are deleted as new minutes start.
    """

    __tablename__ = "bot_request_counts"

    bot_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    window: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    count: Mapped[int] = mapped_column(Integer)


class AdminTokenRow(Base):
    """An admin API token (hash only), acting as the admin ``user_id``."""

    __tablename__ = "admin_tokens"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class SlackEventRow(Base):
    """Slack Events API deliveries already taken (by ``event_id``): a redelivery is acknowledged, not processed twice."""

    __tablename__ = "slack_events"

    event_id: Mapped[str] = mapped_column(String(80), primary_key=True)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class AuditRow(Base):
    """Append-only audit log: every escalation event, decision and refusal."""

    __tablename__ = "audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    event: Mapped[str] = mapped_column(String(60))
    escalation_id: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)
    actor: Mapped[str | None] = mapped_column(String(80), nullable=True)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)


class BlockedReportRow(Base):
    """A blocked-host report (:class:`bot.store.reports.Report`; ``dms`` as ``[[channel, ts], ...]``, ``unlock`` and
    ``findings`` as their ``to_json_dict()``). ``open_key`` is ``"<bot_id> <host>"`` while the report is ``open`` and
    NULL once decided: its UNIQUE constraint folds concurrent duplicates into one open report per Bot and host (NULLs
    never collide, on SQLite and PostgreSQL)."""

    __tablename__ = "blocked_reports"
    __table_args__ = (UniqueConstraint("open_key", name="uq_blocked_report_open"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    bot_id: Mapped[str] = mapped_column(ForeignKey("bots.id"), index=True)
    host: Mapped[str] = mapped_column(String(200))
    session_id: Mapped[str] = mapped_column(String(200))
    mode: Mapped[str] = mapped_column(String(40))
    missing: Mapped[list[Any]] = mapped_column(JSON)
    unlock: Mapped[list[Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(20))
    open_key: Mapped[str | None] = mapped_column(String(260), nullable=True)
    count: Mapped[int] = mapped_column(Integer, default=1)
    first_seen: Mapped[datetime] = mapped_column(UTCDateTime)
    last_seen: Mapped[datetime] = mapped_column(UTCDateTime)
    source: Mapped[str] = mapped_column(String(10))
    reported_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    channel: Mapped[str | None] = mapped_column(String(40), nullable=True)
    dms: Mapped[list[Any]] = mapped_column(JSON)
    decided_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    decision_source: Mapped[str | None] = mapped_column(String(30), nullable=True)
    standing_approval_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    findings: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    host_os: Mapped[str | None] = mapped_column(String(40), nullable=True)
    note: Mapped[str | None] = mapped_column(String(600), nullable=True)
    grant_on_host: Mapped[bool | None] = mapped_column(Boolean, nullable=True)


class OutboxJobRow(Base):
    """One chat effect to deliver (the outbox): written in the same transaction as the state change that causes it.

    ``status`` is ``queued`` until a worker records the result (``done``) or gives up (``failed``). A worker claims a
    job by setting ``claimed_until`` (a lease): after a crash the lease runs out and the next worker takes it, with
    ``uncertain`` set so that a post whose answer was lost is first looked for in the room's history.
    ``room`` is the pacing key (a channel id, or ``user:<id>`` for a DM not yet opened); ``priority`` orders a
    room's jobs (0 card updates, 1 new cards, 2 notices and DMs).
    """

    __tablename__ = "outbox_jobs"
    __table_args__ = (
        Index("ix_outbox_status_due", "status", "due_at"),
        Index("ix_outbox_ref", "ref"),
        Index("ix_outbox_room_status", "room", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(20))
    priority: Mapped[int] = mapped_column(Integer)
    room: Mapped[str] = mapped_column(String(60))
    ref: Mapped[str] = mapped_column(String(60))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(10))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    uncertain: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    due_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    claimed_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    slot_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    done_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(200), nullable=True)


class RoomWaitRow(Base):
    """A Bot refused ``429 room_busy`` in a room, until ``until``: while the mark lasts it counts as one of the Bots
    sharing the room's queue (:func:`bot.store.admission.admit_card`), so the Bots whose cards fill the room get a
    smaller share and the next free place goes to it."""

    __tablename__ = "room_waits"

    room: Mapped[str] = mapped_column(String(60), primary_key=True)
    bot_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    until: Mapped[datetime] = mapped_column(UTCDateTime)


class RoomPaceRow(Base):
    """A room's shared pace across replicas (GCRA, a token bucket in one timestamp).

    ``tat`` is the theoretical arrival time of the next message; a send is allowed when ``now >= tat - (burst - 1) *
    interval`` and moves ``tat`` to ``max(tat, now) + interval``. ``paused_until`` holds Slack's ``Retry-After``.
    ``ready_at`` = the earliest time the next send is allowed (what the claim query filters on).
    """

    __tablename__ = "room_pace"

    room: Mapped[str] = mapped_column(String(60), primary_key=True)
    tat: Mapped[datetime] = mapped_column(UTCDateTime)
    paused_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    ready_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class RoomNoticeRow(Base):
    """A folded standing-approval notice (:class:`bot.store.records.Notice`). ``open_key`` = ``"<room> <bot_id> <window
    number>"`` (UNIQUE: concurrent folds meet on it)."""

    __tablename__ = "room_notices"
    __table_args__ = (UniqueConstraint("open_key", name="uq_room_notice_open"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    open_key: Mapped[str] = mapped_column(String(140))
    room: Mapped[str] = mapped_column(String(60))
    bot_id: Mapped[str] = mapped_column(String(40))
    window_start: Mapped[datetime] = mapped_column(UTCDateTime)
    count: Mapped[int] = mapped_column(Integer, default=0)
    items: Mapped[list[Any]] = mapped_column(JSON)
    approvals: Mapped[list[Any]] = mapped_column(JSON)
    channel: Mapped[str | None] = mapped_column(String(40), nullable=True)
    ts: Mapped[str | None] = mapped_column(String(40), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
