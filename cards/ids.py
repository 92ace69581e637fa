"""Stable ids FlyBot's Slack handlers route on. Changing one breaks cards already posted.

Shapes (Block Kit "Button element" / "Actions block" / "View object" references,
https://docs.slack.dev/reference/block-kit/block-elements/button-element):

* Every button on an approval card carries the escalation id as its ``value`` (Slack limit 2000 chars).
* The approval card's one ``actions`` block has ``block_id`` = :func:`actions_block_id` (``"escalation:<id>"``,
  Slack limit 255 chars), so a handler can also recover the id from ``body["actions"][0]["block_id"]``.
* The deny modal (``callback_id`` :data:`DENY_MODAL_CALLBACK`) carries the escalation id as
  ``private_metadata``; the typed reason is at
  ``view["state"]["values"][DENY_REASON_BLOCK][DENY_REASON_INPUT]["value"]`` (``None`` when left empty).
"""

from __future__ import annotations

APPROVE_ACTION = "escalation_approve"
"""``action_id`` of the Approve button (style ``primary``)."""

DENY_ACTION = "escalation_deny"
"""``action_id`` of the Deny button (style ``danger``); the bot answers by opening :func:`cards.deny_reason_modal`."""

SHOW_COMMAND_ACTION = "escalation_show_command"
"""``action_id`` of the "Show full command" button, present only when the card truncated the command."""

DENY_MODAL_CALLBACK = "escalation_deny_modal"
"""``callback_id`` of the deny-reason modal; its ``private_metadata`` is the escalation id."""

DENY_REASON_BLOCK = "deny_reason"
"""``block_id`` of the optional reason input in the deny modal."""

DENY_REASON_INPUT = "deny_reason_input"
"""``action_id`` of the multiline ``plain_text_input`` inside :data:`DENY_REASON_BLOCK`."""

REVIEW_APPROVE_ACTION = "escalation_review_approve"
"""``action_id`` of "Review and approve", in place of Approve wherever the command is shown cut (card, App Home):
it opens :func:`cards.full_command_modal` with ``approve=True``, whose submit approves."""

REVIEW_MODAL_CALLBACK = "escalation_review_modal"
"""``callback_id`` of the full-command modal with an Approve submit; ``private_metadata`` is the escalation id."""

FULL_COMMAND_MODAL_CALLBACK = "escalation_full_command"
"""``callback_id`` of the read-only "full command" modal (no submit; nothing to handle)."""

SHOW_JUSTIFICATION_ACTION = "escalation_show_justification"
"""``action_id`` of the "Show full justification" button, present only when the card cut the justification (e.g.
the diff of a Codex file change)."""

FULL_JUSTIFICATION_MODAL_CALLBACK = "escalation_full_justification"
"""``callback_id`` of the read-only "full justification" modal (no submit; nothing to handle)."""

ACTIONS_BLOCK_PREFIX = "escalation:"


def actions_block_id(escalation_id: str) -> str:
    """``block_id`` of a card's actions block: ``"escalation:<id>"``.

    Raises:
        ValueError: the result would exceed Slack's 255-character ``block_id`` limit
            (escalation ids are FlyBot's own short ids, so this signals a bug upstream).
    """
    block_id = f"{ACTIONS_BLOCK_PREFIX}{escalation_id}"
    if len(block_id) > 255:
        raise ValueError(f"escalation id too long for a block_id ({len(escalation_id)} chars)")
    return block_id


def escalation_id_from_block_id(block_id: str) -> str | None:
    """Inverse of :func:`actions_block_id`; ``None`` when ``block_id`` is not an approval-card actions block."""
    if block_id.startswith(ACTIONS_BLOCK_PREFIX) and len(block_id) > len(ACTIONS_BLOCK_PREFIX):
        return block_id[len(ACTIONS_BLOCK_PREFIX) :]
    return None


# --- standing approvals ----------------------------------------------------------------------------
STANDING_SESSION_ACTION = "standing_session"
"""Card button "Approve for this session": approves and creates a session-scoped standing approval."""

STANDING_BOT_ACTION = "standing_bot"
"""Card button "Always for this Bot": opens :func:`cards.standing_modal` with scope ``bot``."""

STANDING_ROOM_ACTION = "standing_room"
"""The "Always for this room" button of cards posted before it moved into the modal (admins only): opens
:func:`cards.standing_modal` with scope ``room``. A message shows every viewer the same buttons, so new cards offer
the room only inside the per-person modal (:data:`STANDING_SCOPE_BLOCK`), to admins."""

STANDING_MODAL_CALLBACK = "standing_modal"
"""``callback_id`` of the standing-approval modal; ``private_metadata`` is JSON ``{"escalation_id", "scope"}``."""

STANDING_REVOKE_ACTION = "standing_revoke"
"""App Home button "Revoke"; its ``value`` is the standing approval id."""

HOME_APPROVE_ACTION = APPROVE_ACTION
"""App Home lists pending escalations with the card's own Approve action id."""

STANDING_PATTERN_BLOCK, STANDING_PATTERN_INPUT = "standing_pattern", "pattern_input"
STANDING_RISK_BLOCK, STANDING_RISK_INPUT = "standing_max_risk", "max_risk_select"
STANDING_EXPIRES_BLOCK, STANDING_EXPIRES_INPUT = "standing_expires", "expires_input"
STANDING_HOST_BLOCK, STANDING_HOST_INPUT = "standing_host", "host_ok"
STANDING_NOTE_BLOCK, STANDING_NOTE_INPUT = "standing_note", "note_input"
STANDING_SCOPE_BLOCK, STANDING_SCOPE_INPUT = "standing_scope", "scope_input"
"""The "Approve for" choice (``bot`` or ``room``) of the standing-approval modal, shown to admins only."""
HOST_OK_VALUE = "host_ok"

TEACH_ACTION = "program_rule_teach"
"""The card's "Grade `PROGRAM` …" button (an admin teaches FlyBot a program it does not know); its ``value`` is
``<escalation id> <program>``. It opens :func:`cards.teach_modal`."""
TEACH_MODAL_CALLBACK = "program_rule_modal"
TEACH_GRADE_BLOCK, TEACH_GRADE_INPUT = "program_rule_grade", "grade_select"
TEACH_SUBCOMMANDS_BLOCK, TEACH_SUBCOMMANDS_INPUT = "program_rule_subcommands", "subcommands_input"
TEACH_NOTE_BLOCK, TEACH_NOTE_INPUT = "program_rule_note", "note_input"
