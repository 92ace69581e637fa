"""The JSON shapes of the store's records, as the HTTP APIs return them and the CLI's ``--json`` prints them.

Times are ISO 8601 UTC strings ending in ``Z`` (None stays None). The audit trail's shape is
:func:`bot.audit.entry_to_api`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.store import Escalation, ProgramRule, StandingApproval
from bot.store.reports import Report


def iso(value: datetime | None) -> str | None:
    """``2026-12-01T10:00:00Z``, or None."""
    return value.isoformat().replace("+00:00", "Z") if value else None


def escalation_to_api(escalation: Escalation) -> dict[str, Any]:
    """The session API's shape of an escalation; ``card`` is its approval card's delivery state ``{status:
    queued|posted|failed|cancelled, channel, ts}``, None when it needed no card (a standing approval answered)."""
    e = escalation
    card = None if e.card_status is None else {"status": e.card_status, "channel": e.card_channel, "ts": e.card_ts}
    return {
        "id": e.id,
        "status": e.status,
        "bot_id": e.bot_id,
        "session_id": e.session_id,
        "command": e.command,
        "cwd": e.cwd,
        "file_policy": e.file_policy,
        "approval_policy": e.approval_policy,
        "contained": e.contained,
        "justification": e.justification,
        "risk": e.risk,
        "reasons": list(e.reasons),
        "room": e.room,
        "created_at": iso(e.created_at),
        "expires_at": iso(e.expires_at),
        "decided_at": iso(e.decided_at),
        "decided_by": e.decided_by,
        "decision_source": e.decision_source,
        "reason": e.reason,
        "standing_approval_id": e.standing_approval_id,
        "approvals": {"needed": e.approvals_needed, "by": list(e.approvers)},
        "fallback_at": iso(e.fallback_at),
        "card": card,
        "tool": e.tool,
    }


def approval_to_api(approval: StandingApproval) -> dict[str, Any]:
    """The admin API's shape of a standing approval."""
    a = approval
    return {
        "id": a.id,
        "scope": a.scope,
        "subject": a.subject,
        "bot_id": a.bot_id,
        "pattern": a.pattern,
        "max_risk": a.max_risk,
        "contained_only": a.contained_only,
        "expires_at": iso(a.expires_at),
        "created_by": a.created_by,
        "created_at": iso(a.created_at),
        "note": a.note,
        "use_count": a.use_count,
        "last_used_at": iso(a.last_used_at),
        "revoked_at": iso(a.revoked_at),
        "revoked_by": a.revoked_by,
    }


def rule_to_api(rule: ProgramRule) -> dict[str, Any]:
    """The admin API's shape of a program rule."""
    return {
        "program": rule.program,
        "subcommand": rule.subcommand,
        "grade": rule.grade,
        "note": rule.note,
        "set_by": rule.set_by,
        "set_at": iso(rule.set_at),
    }


def report_to_api(report: Report) -> dict[str, Any]:
    """The session API's shape of a blocked-host report: ``{id, status, bot_id, host, session_id, mode, missing:
    [str], unlock: [{id, text, command?}], count, first_seen, last_seen, decided_by, decided_at, decision_source,
    standing_approval_id, source, delivered, findings: [{backend, cause, error, abi}], host_os, grant_on_host}``;
    ``delivered`` is how many owner DMs were posted."""
    r = report
    return {
        "id": r.id,
        "status": r.status,
        "bot_id": r.bot_id,
        "host": r.host,
        "session_id": r.session_id,
        "mode": r.mode,
        "missing": list(r.missing),
        "unlock": [option.to_json_dict() for option in r.unlock],
        "count": r.count,
        "first_seen": iso(r.first_seen),
        "last_seen": iso(r.last_seen),
        "decided_by": r.decided_by,
        "decided_at": iso(r.decided_at),
        "decision_source": r.decision_source,
        "standing_approval_id": r.standing_approval_id,
        "source": r.source,
        "delivered": len(r.dms),
        "findings": [finding.to_json_dict() for finding in r.findings],
        "host_os": r.host_os,
        "grant_on_host": r.grant_on_host,
    }
