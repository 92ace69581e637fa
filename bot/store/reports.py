"""Blocked-host reports in the store: their records, and their writes inside a store transaction (:class:`bot.store.Tx`
delegates here; :class:`bot.store.Store` reads them).

Concurrency rules, on SQLite and PostgreSQL alike (no read-then-write):

- folding: one OPEN report per Bot and host, enforced by the UNIQUE ``open_key`` column (``"<bot_id> <host>"``
  while open, NULL once decided). A report first tries a conditional ``UPDATE ... SET count = count + 1 WHERE
  open_key = ?``; when no row matched it INSERTs, and an ``IntegrityError`` (a concurrent insert won) sends it back
  to the UPDATE;
- deciding: a compare-and-set on ``status = 'open'`` that also clears ``open_key``; of concurrent deciders exactly
  one gets the report back, the others None.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from bot.store.models import BlockedReportRow, record
from bot.store.notify import notify_at_commit

REPORT_STATUSES = ("open", "approved_turn", "approved_bot", "resolved")
"""``open``, then exactly one of the decided statuses."""

FOLD_ATTEMPTS = 5
"""UPDATE-or-INSERT rounds before giving up (each lost round means another writer just changed the row)."""


@dataclass(frozen=True, slots=True)
class ReportOption:
    """An unlock option as the Bot listed it: ``id`` (FlyBot's catalogue key, ``other`` when unknown), and the
    ``text``/``command`` the Bot sent (its own words: never shown as FlyBot's advice)."""

    id: str
    text: str
    command: str | None = None

    def to_json_dict(self) -> dict[str, Any]:
        """``{"id", "text"}`` plus ``"command"`` when the Bot sent one."""
        out: dict[str, Any] = {"id": self.id, "text": self.text}
        if self.command is not None:
            out["command"] = self.command
        return out


@dataclass(frozen=True, slots=True)
class ReportFinding:
    """Why one backend is missing: ``backend`` wire name, ``cause`` id (``None``: not said), the probe's ``error``
    text and Landlock's ``abi`` when known."""

    backend: str
    cause: str | None = None
    error: str = ""
    abi: int | None = None

    def to_json_dict(self) -> dict[str, Any]:
        """``{"backend", "cause", "error", "abi"}``."""
        return {"backend": self.backend, "cause": self.cause, "error": self.error, "abi": self.abi}


def _iso(value: datetime | None) -> str | None:
    return value.isoformat().replace("+00:00", "Z") if value else None


@dataclass(frozen=True, slots=True)
class Report:
    """One blocked-host report as stored.

    Attributes:
        status: ``open``, ``approved_turn``, ``approved_bot`` or ``resolved``.
        missing: backend wire names the host lacks (``bubblewrap``, ``landlock``, ...); may be empty when the Bot
            did not attach its preflight.
        unlock: the unlock options the Bot's preflight printed (ids as in ``bot.preflight``).
        count: how many times the Bot reported this host while the report was open (1 at first).
        source: ``api`` or ``chat``; ``reported_by``/``channel``: the Slack user and room of a chat report.
        dms: ``(channel, ts)`` of the DM sent to each owner.
        decision_source: ``owner`` or ``admin`` once decided; ``host`` when a later usable preflight from the
            same host resolved it by itself.
        standing_approval_id: the Bot-scoped standing approval an ``approved_bot`` decision created.
        findings: per missing backend, the cause and the probe's error text; may be empty.
        host_os: the host's OS family (``debian``, ``ubuntu``, ``fedora``, ``arch``, ...) when the Bot said it.
        note: text the Bot sent that FlyBot could not read (shown quoted, as the Bot's words).
        grant_on_host: an ``approved_bot`` grant also covers host (not contained) commands: the owner ticked it.
    """

    id: str
    bot_id: str
    host: str
    session_id: str
    mode: str
    missing: tuple[str, ...]
    unlock: tuple[ReportOption, ...]
    status: str
    count: int
    first_seen: datetime
    last_seen: datetime
    source: str
    reported_by: str | None = None
    channel: str | None = None
    dms: tuple[tuple[str, str], ...] = field(default=())
    decided_by: str | None = None
    decided_at: datetime | None = None
    decision_source: str | None = None
    standing_approval_id: str | None = None
    findings: tuple[ReportFinding, ...] = ()
    host_os: str | None = None
    note: str | None = None
    grant_on_host: bool = False

    @property
    def open(self) -> bool:
        """True until an owner or admin decides."""
        return self.status == "open"

    def to_api(self) -> dict[str, Any]:
        """The session API's JSON shape (times ISO 8601 UTC, ``...Z``).

        ``{id, status, bot_id, host, session_id, mode, missing: [str], unlock: [{id, text, command?}], count,
        first_seen, last_seen, decided_by, decided_at, decision_source, standing_approval_id, source, delivered,
        findings: [{backend, cause, error, abi}], host_os, grant_on_host}``; ``delivered`` is how many owner DMs were posted.
        """
        return {
            "id": self.id,
            "status": self.status,
            "bot_id": self.bot_id,
            "host": self.host,
            "session_id": self.session_id,
            "mode": self.mode,
            "missing": list(self.missing),
            "unlock": [option.to_json_dict() for option in self.unlock],
            "count": self.count,
            "first_seen": _iso(self.first_seen),
            "last_seen": _iso(self.last_seen),
            "decided_by": self.decided_by,
            "decided_at": _iso(self.decided_at),
            "decision_source": self.decision_source,
            "standing_approval_id": self.standing_approval_id,
            "source": self.source,
            "delivered": len(self.dms),
            "findings": [finding.to_json_dict() for finding in self.findings],
            "host_os": self.host_os,
            "grant_on_host": self.grant_on_host,
        }


@dataclass(frozen=True, slots=True)
class NewReport:
    """What the service asks the store to record (status starts ``open``, count 1)."""

    id: str
    bot_id: str
    host: str
    session_id: str
    mode: str
    missing: tuple[str, ...]
    unlock: tuple[ReportOption, ...]
    at: datetime
    source: str
    reported_by: str | None = None
    channel: str | None = None
    findings: tuple[ReportFinding, ...] = ()
    host_os: str | None = None
    note: str | None = None


def open_key(bot_id: str, host: str) -> str:
    """The fold key of an open report: ``"<bot_id> <host>"`` (hosts carry no whitespace)."""
    return f"{bot_id} {host}"


def _unlock(raw: Any) -> ReportOption:
    command = raw.get("command")
    return ReportOption(str(raw.get("id", "other")), str(raw.get("text", "")), str(command) if command else None)


def _finding(raw: Any) -> ReportFinding:
    abi = raw.get("abi")
    cause = raw.get("cause")
    return ReportFinding(
        str(raw.get("backend", "")),
        str(cause) if cause else None,
        str(raw.get("error") or ""),
        abi if isinstance(abi, int) else None,
    )


def report_record(row: BlockedReportRow) -> Report:
    """The plain record of a blocked report row."""
    return record(
        Report,
        row,
        missing=tuple(str(m) for m in row.missing),
        unlock=tuple(_unlock(u) for u in row.unlock),
        dms=tuple((str(c), str(t)) for c, t in row.dms),
        findings=tuple(_finding(f) for f in row.findings or ()),
    )


async def record_in(session: Any, new: NewReport) -> tuple[Report, bool]:
    """Fold into the open report of the same Bot and host (``count`` + 1, ``last_seen``; the first report's other
    fields stay), or insert a new one; ``(report, created)``. A savepoint guards the INSERT.

    Raises:
        RuntimeError: still contended after :data:`FOLD_ATTEMPTS` rounds (not expected in practice).
    """
    key = open_key(new.bot_id, new.host)
    for _ in range(FOLD_ATTEMPTS):
        folded = await _fold_in(session, key, new.at)
        if folded is not None:
            return folded, False
        row = BlockedReportRow(
            id=new.id,
            bot_id=new.bot_id,
            host=new.host,
            session_id=new.session_id,
            mode=new.mode,
            missing=list(new.missing),
            unlock=[o.to_json_dict() for o in new.unlock],
            status="open",
            open_key=key,
            count=1,
            first_seen=new.at,
            last_seen=new.at,
            source=new.source,
            reported_by=new.reported_by,
            channel=new.channel,
            dms=[],
            findings=[f.to_json_dict() for f in new.findings],
            host_os=new.host_os,
            note=new.note,
        )
        try:
            async with session.begin_nested():
                session.add(row)
        except IntegrityError:
            continue
        return report_record(row), True
    raise RuntimeError(f"could not record the report of {new.bot_id} on {new.host}: too much contention")


async def _fold_in(session: Any, key: str, at: datetime) -> Report | None:
    result = await session.execute(
        update(BlockedReportRow)
        .where(BlockedReportRow.open_key == key)
        .values(count=BlockedReportRow.count + 1, last_seen=at)
    )
    if result.rowcount != 1:
        return None
    row = (await session.execute(select(BlockedReportRow).where(BlockedReportRow.open_key == key))).scalar_one()
    await session.refresh(row)
    return report_record(row)


async def get_in(session: Any, report_id: str) -> Report | None:
    """The report as ``session``'s transaction sees it."""
    row = await session.get(BlockedReportRow, report_id, populate_existing=True)
    return report_record(row) if row else None


async def decide_in(
    session: Any,
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
    result = await session.execute(
        update(BlockedReportRow)
        .where(BlockedReportRow.id == report_id, BlockedReportRow.status == "open")
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
    if result.rowcount != 1:
        return None
    await notify_at_commit(session, report_id)
    return await get_in(session, report_id)


async def dm_posted_in(session: Any, report_id: str, channel: str, ts: str) -> Report | None:
    """Add one owner's DM ``(channel, ts)`` to the report (the row is locked by the UPDATE first)."""
    await session.execute(
        update(BlockedReportRow).where(BlockedReportRow.id == report_id).values(last_seen=BlockedReportRow.last_seen)
    )
    row = await session.get(BlockedReportRow, report_id, populate_existing=True)
    if row is None:
        return None
    row.dms = [*row.dms, [channel, ts]]
    return report_record(row)


async def open_for_bot_in(session: Any, bot_id: str) -> list[Report]:
    """The Bot's open reports, oldest first (one per host)."""
    rows = (
        (
            await session.execute(
                select(BlockedReportRow)
                .where(BlockedReportRow.bot_id == bot_id, BlockedReportRow.status == "open")
                .order_by(BlockedReportRow.first_seen)
            )
        )
        .scalars()
        .all()
    )
    return [report_record(row) for row in rows]


async def resolve_open_in(session: Any, bot_id: str, host: str, *, at: datetime) -> Report | None:
    """Close the open report of ``bot_id`` on ``host`` as ``resolved`` by the host itself (decision source ``host``,
    decided by the Bot's id): a compare-and-set on the open key, so a concurrent owner's decision and this one never
    both win. Returns the resolved report, or None when none was open."""
    report_id = (
        await session.execute(select(BlockedReportRow.id).where(BlockedReportRow.open_key == open_key(bot_id, host)))
    ).scalar_one_or_none()
    if report_id is None:
        return None
    return await decide_in(session, report_id, status="resolved", at=at, decided_by=bot_id, source="host")
