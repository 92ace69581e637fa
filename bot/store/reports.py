"""Blocked-host reports: their records (written in a store transaction, :meth:`bot.store.Tx.record_report` and the
rest; no read-then-write: an open report per Bot and host by a UNIQUE key, decisions by compare-and-set)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.preflight.model import UnlockOption
from bot.store.models import record

REPORT_STATUSES = ("open", "approved_turn", "approved_bot", "resolved")
"""``open``, then exactly one of the decided statuses."""


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


@dataclass(frozen=True, slots=True)
class Report:
    """One blocked-host report as stored.

    Attributes:
        status: ``open``, ``approved_turn``, ``approved_bot`` or ``resolved``.
        missing: backend wire names the host lacks (``bubblewrap``, ``landlock``, ...); may be empty when the Bot
            did not attach its preflight.
        unlock: the unlock options the Bot's preflight printed, as the Bot sent them (ids as in ``bot.preflight``;
            the text and command are the Bot's own words, never shown as FlyBot's advice).
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
    unlock: tuple[UnlockOption, ...]
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


@dataclass(frozen=True, slots=True)
class NewReport:
    """What the service asks the store to record (status starts ``open``, count 1)."""

    id: str
    bot_id: str
    host: str
    session_id: str
    mode: str
    missing: tuple[str, ...]
    unlock: tuple[UnlockOption, ...]
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


def _unlock(raw: Any) -> UnlockOption:
    command = raw.get("command")
    return UnlockOption(str(raw.get("id", "other")), str(raw.get("text", "")), str(command) if command else None)


def _finding(raw: Any) -> ReportFinding:
    abi = raw.get("abi")
    cause = raw.get("cause")
    return ReportFinding(
        str(raw.get("backend", "")),
        str(cause) if cause else None,
        str(raw.get("error") or ""),
        abi if isinstance(abi, int) else None,
    )


def report_record(row: Any) -> Report:
    """The plain record of a blocked report row (an ORM object, or any object with its columns as attributes)."""
    return record(
        Report,
        row,
        missing=tuple(str(m) for m in row.missing),
        unlock=tuple(_unlock(u) for u in row.unlock),
        dms=tuple((str(c), str(t)) for c, t in row.dms),
        findings=tuple(_finding(f) for f in row.findings or ()),
    )
