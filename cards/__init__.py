"""FlyBot's Slack cards: pure functions from typed models to Block Kit dicts (no I/O, no clock, no client).

Public API::

    approval_card(esc: CardEscalation) -> CardMessage          # text fallback + blocks
    full_command_modal(esc: CardEscalation) -> dict             # views.open payload ("Show full command")
    full_justification_modal(esc: CardEscalation) -> dict       # views.open payload ("Show full justification")
    deny_reason_modal(esc_id: str, command_preview: str) -> dict  # views.open payload (Deny button)
    not_allowed_text(bot_name: str) -> str                      # ephemeral replies (mrkdwn, escaped)
    already_decided_text(status, decided_by, decided_at) -> str
    mrkdwn_escape(text: str) -> str

Ids the handlers route on are in :mod:`cards.ids`; Slack limits and display budgets in :mod:`cards.limits`.
"""

from cards.approval import (
    HOST_STATEMENT,
    SANDBOX_STATEMENT,
    CardMessage,
    already_decided_text,
    approval_card,
    deny_reason_modal,
    full_command_modal,
    full_justification_modal,
    not_allowed_text,
)
from cards.escape import mrkdwn_escape
from cards.ids import (
    APPROVE_ACTION,
    DENY_ACTION,
    DENY_MODAL_CALLBACK,
    DENY_REASON_BLOCK,
    DENY_REASON_INPUT,
    FULL_COMMAND_MODAL_CALLBACK,
    FULL_JUSTIFICATION_MODAL_CALLBACK,
    HOST_OK_VALUE,
    REVIEW_APPROVE_ACTION,
    REVIEW_MODAL_CALLBACK,
    SHOW_COMMAND_ACTION,
    SHOW_JUSTIFICATION_ACTION,
    STANDING_BOT_ACTION,
    STANDING_EXPIRES_BLOCK,
    STANDING_EXPIRES_INPUT,
    STANDING_HOST_BLOCK,
    STANDING_HOST_INPUT,
    STANDING_MODAL_CALLBACK,
    STANDING_NOTE_BLOCK,
    STANDING_NOTE_INPUT,
    STANDING_PATTERN_BLOCK,
    STANDING_PATTERN_INPUT,
    STANDING_REVOKE_ACTION,
    STANDING_RISK_BLOCK,
    STANDING_RISK_INPUT,
    STANDING_ROOM_ACTION,
    STANDING_SESSION_ACTION,
    actions_block_id,
    escalation_id_from_block_id,
)
from cards.models import DECISION_SOURCES, RISK_LEVELS, STATUSES, CardEscalation, CardReason
from cards.report import (
    REPORT_APPROVE_BOT_ACTION,
    REPORT_APPROVE_TURN_ACTION,
    REPORT_GRANT_CALLBACK,
    REPORT_GRANT_HOST_BLOCK,
    REPORT_GRANT_HOST_INPUT,
    REPORT_GRANT_HOST_VALUE,
    REPORT_RESOLVE_ACTION,
    CardFinding,
    CardInstruction,
    CardReport,
    CardUnlock,
    report_dm,
    report_grant_modal,
)
from cards.routing import reminder_message
from cards.standing import STANDING_LEVELS, CardStanding, HomePending, home_view, standing_modal, standing_notice

__all__ = [
    "REPORT_APPROVE_BOT_ACTION",
    "REPORT_APPROVE_TURN_ACTION",
    "REPORT_GRANT_CALLBACK",
    "REPORT_GRANT_HOST_BLOCK",
    "REPORT_GRANT_HOST_INPUT",
    "REPORT_GRANT_HOST_VALUE",
    "REPORT_RESOLVE_ACTION",
    "CardFinding",
    "CardInstruction",
    "CardReport",
    "CardUnlock",
    "report_dm",
    "report_grant_modal",
    "HOST_OK_VALUE",
    "REVIEW_APPROVE_ACTION",
    "REVIEW_MODAL_CALLBACK",
    "STANDING_BOT_ACTION",
    "STANDING_EXPIRES_BLOCK",
    "STANDING_EXPIRES_INPUT",
    "STANDING_HOST_BLOCK",
    "STANDING_HOST_INPUT",
    "STANDING_LEVELS",
    "STANDING_MODAL_CALLBACK",
    "STANDING_NOTE_BLOCK",
    "STANDING_NOTE_INPUT",
    "STANDING_PATTERN_BLOCK",
    "STANDING_PATTERN_INPUT",
    "STANDING_REVOKE_ACTION",
    "STANDING_RISK_BLOCK",
    "STANDING_RISK_INPUT",
    "STANDING_ROOM_ACTION",
    "STANDING_SESSION_ACTION",
    "CardStanding",
    "HomePending",
    "home_view",
    "standing_modal",
    "standing_notice",
    "APPROVE_ACTION",
    "DECISION_SOURCES",
    "DENY_ACTION",
    "DENY_MODAL_CALLBACK",
    "DENY_REASON_BLOCK",
    "DENY_REASON_INPUT",
    "FULL_COMMAND_MODAL_CALLBACK",
    "FULL_JUSTIFICATION_MODAL_CALLBACK",
    "HOST_STATEMENT",
    "RISK_LEVELS",
    "SANDBOX_STATEMENT",
    "SHOW_COMMAND_ACTION",
    "SHOW_JUSTIFICATION_ACTION",
    "STATUSES",
    "CardEscalation",
    "CardMessage",
    "CardReason",
    "actions_block_id",
    "already_decided_text",
    "approval_card",
    "reminder_message",
    "deny_reason_modal",
    "escalation_id_from_block_id",
    "full_command_modal",
    "full_justification_modal",
    "mrkdwn_escape",
    "not_allowed_text",
]
