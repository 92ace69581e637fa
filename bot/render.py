"""Store records -> the card models of ``cards/`` (which know nothing of the store). Used by the delivery workers
(what they post) and by the Slack listeners (modals, App Home)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.program_rules import teachable_programs
from bot.store import Bot, Escalation, Notice, StandingApproval
from cards import CardEscalation, CardMessage, CardReason, CardStanding
from cards.standing import NoticeItem, standing_digest


def to_card(escalation: Escalation, bot: Bot, *, fallback_copy: bool = False) -> CardEscalation:
    """The card model of an escalation (cards/ knows nothing of the store); ``fallback_copy``: for a fallback
    approver's DM copy, which says why they have it."""
    return CardEscalation(
        id=escalation.id,
        bot_id=bot.id,
        bot_name=bot.name,
        session_id=escalation.session_id,
        room=escalation.card_channel or escalation.room or "",
        command=escalation.command,
        cwd=escalation.cwd,
        contained=escalation.contained,
        risk=escalation.risk,
        reasons=tuple(
            CardReason(
                subject=str(r.get("subject", "")),
                rule=str(r.get("rule", "")),
                level=str(r.get("level", "")),
                detail=str(r.get("detail", "")),
                downgraded=bool(r.get("downgraded", False)),
            )
            for r in escalation.reasons
        ),
        justification=escalation.justification,
        file_policy=escalation.file_policy,
        status=escalation.status,
        created_at=escalation.created_at,
        expires_at=escalation.expires_at,
        decided_at=escalation.decided_at,
        decided_by=escalation.decided_by,
        decision_source=escalation.decision_source,
        reason=escalation.reason,
        approvals_needed=escalation.approvals_needed,
        approvers=escalation.approvers,
        fallback_at=escalation.fallback_at,
        fallback_copy=fallback_copy,
        tool=str(escalation.tool.get("name")) if escalation.tool else None,
        session_patterns=tuple(_session_patterns(escalation)) if escalation.pending else (),
        unknown_programs=teachable_programs(escalation.risk, escalation.reasons),
    )


def _session_patterns(escalation: Escalation) -> list[str]:
    """What the card's "Approve for this session" would save (bot.standing.suggest_patterns, pure)."""
    from bot.escalations import simple_commands
    from bot.risk import RiskLevel
    from bot.standing import suggest_patterns

    if escalation.risk == RiskLevel.DESTRUCTIVE.label:
        return []
    return suggest_patterns(simple_commands(escalation))


def to_card_standing(approval: StandingApproval, bot_names: Mapping[str, str]) -> CardStanding:
    """The surface model of a standing approval. Its subject as people read it: a Bot by name, a session
    as ``BOT/SESSION``, a room as its channel id (the card shows it as a channel link); ``bot_names`` maps Bot ids
    to names."""
    label = approval.subject
    if approval.scope == "bot":
        label = bot_names.get(approval.subject, "a removed Bot")
    elif approval.scope == "session":
        label = f"{bot_names.get(approval.bot_id or '', 'a removed Bot')}/{approval.subject}"
    return CardStanding(
        id=approval.id,
        scope=approval.scope,
        subject_label=label,
        pattern=approval.pattern,
        max_risk=approval.max_risk,
        contained_only=approval.contained_only,
        created_by=approval.created_by,
        expires_at=approval.expires_at,
        note=approval.note,
        use_count=approval.use_count,
    )


def to_notice_message(notice: Notice, bot: Bot, *, window_s: float) -> CardMessage:
    """The folded standing-approval notice of ``notice`` (see :func:`cards.standing.standing_digest`)."""
    items = [
        NoticeItem(
            escalation_id=str(i.get("escalation_id", "")),
            command=str(i.get("command", "")),
            contained=bool(i.get("contained", False)),
            ruled=tuple(str(d) for d in i.get("ruled") or () if isinstance(d, str)),
        )
        for i in notice.items
    ]
    approvals = [
        CardStanding(
            id=str(a.get("id", "")),
            scope=str(a.get("scope", "")),
            subject_label="",
            pattern=str(a.get("pattern", "")),
            max_risk="",
            contained_only=True,
            created_by=str(a.get("created_by", "")),
        )
        for a in notice.approvals
    ]
    return standing_digest(bot_name=bot.name, count=notice.count, window_s=window_s, items=items, approvals=approvals)
