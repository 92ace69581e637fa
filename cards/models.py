"""Typed inputs of the card builders. Plain strings for levels and statuses keep ``cards`` independent of ``bot``.

Adapters from the store's records live with the caller; :meth:`CardReason.from_mapping` accepts the store's
JSON-ready reason dicts (``{subject, rule, level, detail, downgraded}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

RISK_LEVELS = ("read_only", "workspace_write", "network", "system", "destructive")
"""Risk labels, lowest first (``bot.risk.model.RiskLevel.label``)."""

STATUSES = ("pending", "approved", "denied", "expired", "withdrawn", "undeliverable")
"""``pending`` and then exactly one final status."""

DECISION_SOURCES = ("owner", "admin", "standing_approval", "timeout", "session", "delivery_failure", "fallback")


@dataclass(frozen=True, slots=True)
class CardReason:
    """Why one part of the command got its level (mirrors ``bot.risk.model.Reason``).

    Attributes:
        subject: the simple command or redirect as written (user text: rendered literally).
        rule: stable rule id, e.g. ``deletion``.
        level: the level label that rule gave the subject, e.g. ``system``.
        detail: one human sentence.
        downgraded: True when it runs in the sandbox and so was lowered (its effect is discarded).
    """

    subject: str
    rule: str
    level: str
    detail: str
    downgraded: bool = False

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> CardReason:
        """Build from a ``{subject, rule, level, detail, downgraded}`` dict; ``level`` may be an enum (``str()``-ed)."""
        return cls(
            subject=str(data.get("subject", "")),
            rule=str(data.get("rule", "")),
            level=str(data.get("level", "")),
            detail=str(data.get("detail", "")),
            downgraded=bool(data.get("downgraded", False)),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class CardEscalation:
    """Everything an approval card shows about one escalation request (keyword-only constructor).

    User-supplied text (``bot_name``, ``session_id``, ``command``, ``cwd``, ``justification``, ``reason``, reason
    subjects/details) is always rendered inert. ``room`` is a channel id (shown as a channel link only when it
    looks like one). ``decided_by`` is a Slack user id such as ``U0123ABC`` (mentioned only when it matches
    ``^[UW][A-Z0-9]{2,}$``, otherwise shown as text). ``created_at``/``expires_at``/``decided_at`` are shown in
    UTC; naive datetimes are taken to be UTC. ``status`` is one of :data:`STATUSES`, ``decision_source`` one of
    :data:`DECISION_SOURCES` (unknown values are shown literally). ``reason`` is the deny reason or an outcome note.
    """

    id: str
    bot_id: str
    bot_name: str
    session_id: str
    room: str
    command: str
    cwd: str
    contained: bool
    risk: str
    reasons: tuple[CardReason, ...]
    justification: str | None
    file_policy: str
    requested_policy: str = "danger-full-access"
    status: str
    created_at: datetime
    expires_at: datetime
    decided_at: datetime | None = None
    decided_by: str | None = None
    decision_source: str | None = None
    reason: str | None = None
    approvals_needed: int = 1
    """2 under the two-person rule: the card counts the approvals."""
    fallback_at: datetime | None = None
    """When the fallback approvers were asked: the card says so while pending."""
    fallback_copy: bool = False
    """A fallback approver's DM copy: the card says why they have it, and offers only what a fallback
    approver may do (Approve or Review and approve, Deny): no standing choices, which only owners and admins make."""
    approvers: tuple[str, ...] = ()
    """Slack user ids who approved, in order (under the two-person rule, the first one while pending)."""
    unknown_programs: tuple[str, ...] = ()
    """Programs FlyBot does not know, when they alone made the command destructive (plain names): the card says so
    and, while pending, offers "Grade `PROGRAM` …" (a program rule; admins only, checked when clicked)."""
    tool: str | None = None
    """The tool of a tool call (``Edit``, ``WebFetch``, ``mcp__SERVER__TOOL`` ...; bot/risk/tools.py), whose
    ``command`` is then what FlyBot shows of the call (its target and diff or arguments); None: a shell command."""
    session_patterns: tuple[str, ...] = ()
    """What "Approve for this session" saves: one pattern per part that needs cover; the card names
    them. Empty: not named (and the button says nothing more)."""

    @property
    def pending(self) -> bool:
        """True while no decision has been taken (the card shows Approve / Deny)."""
        return self.status == "pending"
