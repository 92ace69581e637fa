"""The approval card, its two modals and the short ephemeral replies: pure functions, no I/O, no clock.

Layout of :func:`approval_card` (top to bottom; at most 10 blocks, Slack allows 50 per message):

1. ``header`` — who asks, or the outcome once decided (plain_text, <= 150 chars).
2. ``section`` — WHERE the command runs: in the sandbox (a discarded micro-VM; only a workspace file sync
   comes back) or on the host (its effects are permanent). Always the first block after the header.
2a. ``context`` — only on a fallback approver's DM copy: why they have it.
2b. ``rich_text`` — only when the request holds hidden, direction-changing or look-alike characters: a plain
   warning naming the fields and the look-alike words (:func:`cards.hidden.hidden_text_warning`).
3. ``rich_text`` — Bot, session, room, working directory.
4. ``rich_text`` — the command exactly as it will run (``rich_text_preformatted``), cut visibly after
   :data:`cards.limits.CARD_COMMAND_MAX` characters; the rest is in :func:`full_command_modal`.
5. ``rich_text`` — the requested change (``workspace-write`` -> ``danger-full-access`` for this one call).
5a. ``rich_text`` — only under the two-person rule: "Two approvals needed" while no one approved,
    "1 of 2 approvals (by @Olivia)" after the first; once approved, who gave both.
6. ``rich_text`` — risk level and reasons; when contained, split into "still asks" and "downgraded because it
   runs in the sandbox" (at most :data:`cards.limits.CARD_REASONS_SHOWN` reasons, a program rule's override
   first, then "and N more").
6a. ``section`` — only when programs FlyBot does not know alone made the command destructive: "FlyBot does not
    know `gcc`", and how an admin teaches it (the "Grade `gcc` …" button, :func:`teach_modal`; a program rule).
7. ``rich_text`` — the session's justification (quoted, cut visibly) or "no justification".
8. ``rich_text`` — decided cards only: the outcome (who, when, via which source, deny reason / note).
9. ``context`` — requested at / expires at (UTC) and the escalation id.
10. ``actions`` (``block_id`` ``escalation:<id>``) — pending: Approve, the standing choices, "Grade `PROGRAM` …"
    for each unknown program of 6a (at most two), Deny; pending with
    the command cut: "Review and approve" (opens the whole command with Approve in it) and Deny, nothing that
    approves unseen; decided: only Show full command, when the command was cut.

All user text is in ``rich_text`` ``text`` elements or ``plain_text`` objects, which Slack shows literally;
mrkdwn objects carry FlyBot's own wording only. Limits: Slack Block Kit reference
(https://docs.slack.dev/reference/block-kit/), summarised in :mod:`cards.limits`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cards import blocks as bk
from cards.escape import mrkdwn_escape
from cards.hidden import hidden_text_warning
from cards.ids import (
    APPROVE_ACTION,
    DENY_ACTION,
    DENY_MODAL_CALLBACK,
    DENY_REASON_BLOCK,
    DENY_REASON_INPUT,
    FULL_COMMAND_MODAL_CALLBACK,
    FULL_JUSTIFICATION_MODAL_CALLBACK,
    REVIEW_APPROVE_ACTION,
    REVIEW_MODAL_CALLBACK,
    SHOW_COMMAND_ACTION,
    SHOW_JUSTIFICATION_ACTION,
    STANDING_BOT_ACTION,
    STANDING_SESSION_ACTION,
    TEACH_ACTION,
    TEACH_GRADE_BLOCK,
    TEACH_GRADE_INPUT,
    TEACH_MODAL_CALLBACK,
    TEACH_NOTE_BLOCK,
    TEACH_NOTE_INPUT,
    TEACH_SUBCOMMANDS_BLOCK,
    TEACH_SUBCOMMANDS_INPUT,
    actions_block_id,
)
from cards.limits import (
    CARD_COMMAND_MAX,
    CARD_CWD_MAX,
    CARD_FIELD_MAX,
    CARD_JUSTIFICATION_MAX,
    CARD_NOTE_MAX,
    CARD_REASONS_SHOWN,
    DENY_PREVIEW_MAX,
    DENY_REASON_MAX_LENGTH,
    FALLBACK_BOT_NAME_MAX,
    FALLBACK_COMMAND_PREVIEW,
    HEADER_BOT_NAME_MAX,
    MODAL_CHUNK_MAX,
    MODAL_MAX_BLOCKS,
    PRIVATE_METADATA_MAX,
    REASON_DETAIL_MAX,
    REASON_SUBJECT_MAX,
    REASON_TAG_MAX,
)
from cards.models import RISK_LEVELS, CardEscalation, CardReason
from cards.text import (
    clean,
    format_utc,
    is_slack_channel_id,
    is_slack_user_id,
    one_line,
    reason_part,
    slack_len,
    split_chunks,
    truncate,
)

Block = dict[str, Any]

SANDBOX_STATEMENT = (
    ":package: *Runs in the sandbox.* This command runs in a discarded micro-VM: its effects stay there, "
    "only a workspace file sync comes back."
)
HOST_STATEMENT = (
    ":warning: *Runs on the host.* This command runs directly on the host machine: its effects are permanent."
)

RISK_DESCRIPTIONS = {
    "read_only": "only reads",
    "workspace_write": "writes inside the workspace",
    "network": "talks to the network",
    "system": "changes the system outside the workspace",
    "destructive": "can destroy data, or was not recognised",
}

_OUTCOMES: dict[str, tuple[str, str]] = {
    "approved": ("\u2705", "Approved"),
    "denied": ("\u26d4", "Denied"),
    "expired": ("\u231b", "Expired"),
    "withdrawn": ("\u21a9\ufe0f", "Withdrawn"),
    "undeliverable": ("\U0001f4ed", "Undeliverable"),
}

_SOURCE_PHRASES = {
    "owner": " as the Bot's owner",
    "admin": " as a FlyBot admin",
    "standing_approval": " by standing approval",
    "timeout": " because no one answered in time",
    "session": " by the session",
    "delivery_failure": " because the card could not be delivered",
    "fallback": " as a fallback approver",
}

_EXPECTED_SOURCE = {"expired": "timeout", "undeliverable": "delivery_failure", "withdrawn": "session"}

_ALREADY = {
    "approved": "already approved",
    "denied": "already denied",
    "expired": "already expired (the session was told no)",
    "withdrawn": "withdrawn by the session",
    "undeliverable": "undeliverable (the session was told no)",
}


@dataclass(frozen=True, slots=True)
class CardMessage:
    """A message ready for ``chat.postMessage`` / ``chat.update``.

    Attributes:
        text: notification / accessibility fallback; user text in it is :func:`mrkdwn_escape`-d; < 4000 chars.
        blocks: Block Kit blocks (<= 50, Slack's per-message limit).
    """

    text: str
    blocks: list[Block]

    def to_dict(self) -> dict[str, Any]:
        """``{"text": ..., "blocks": [...]}``, e.g. ``client.chat_postMessage(channel=..., **msg.to_dict())``."""
        return {"text": self.text, "blocks": self.blocks}


# --- public builders ------------------------------------------------------------------------------


def approval_card(esc: CardEscalation) -> CardMessage:
    """Render the approval card for ``esc`` in its current status (layout: module docstring).

    Pending cards carry Approve (``primary``) and Deny (``danger``) buttons whose ``value`` is ``esc.id``; decided
    cards lose them and gain an outcome block. A command longer than ``CARD_COMMAND_MAX`` (2500) characters is
    cut visibly and a "Show full command" button (``SHOW_COMMAND_ACTION``) is added (kept after the decision);
    likewise a justification longer than ``CARD_JUSTIFICATION_MAX`` (1500) gets "Show full justification"
    (``SHOW_JUSTIFICATION_ACTION``; e.g. a Codex file change's diff).

    Raises:
        ValueError: ``esc.id`` is too long for a ``block_id`` (over 244 characters).
    """
    command, omitted = truncate(clean(esc.command), CARD_COMMAND_MAX)
    blocks: list[Block] = [
        bk.header(_header_text(esc)),
        bk.mrkdwn_section(SANDBOX_STATEMENT if esc.contained else HOST_STATEMENT),
    ]
    if esc.fallback_copy:
        blocks.append(bk.context(bk.plain(_fallback_copy_text(esc))))  # after WHERE it runs, always block 2
    warning = _hidden_warning(esc)
    if warning is not None:
        blocks.append(warning)
    blocks += [
        _details_block(esc),
        _command_block(
            command,
            omitted,
            more="more characters \u2014 use Review and approve to see them all"
            if esc.pending
            else "more characters \u2014 use Show full command",
            label="Command, exactly as it will run:"
            if esc.tool is None
            else "Tool call, as FlyBot reads it (the target, then the diff or the arguments):",
        ),
        _change_block(esc),
        *_two_person_blocks(esc),
        _risk_block(esc),
        *_unknown_blocks(esc),
        _justification_block(esc.justification),
    ]
    if not esc.pending:
        blocks.append(_outcome_block(esc))
    blocks.append(_timing_block(esc))
    _, justification_omitted = truncate(clean(esc.justification or ""), CARD_JUSTIFICATION_MAX)
    actions = _actions_block(esc, command_cut=omitted > 0, justification_cut=justification_omitted > 0)
    if actions is not None:
        blocks.append(actions)
    return CardMessage(text=_fallback_text(esc), blocks=blocks)


def _hidden_warning(esc: CardEscalation) -> Block | None:
    """The hidden-characters warning over every field of ``esc`` a card or modal shows."""
    room = "" if is_slack_channel_id(esc.room) else esc.room
    return hidden_text_warning(
        {
            "command": esc.command,
            "justification": esc.justification or "",
            "note": esc.reason or "",
            "reasons": "\n".join(f"{r.subject} {r.detail}" for r in esc.reasons),
        },  # a project recipe's lines
        {"Bot name": esc.bot_name, "session id": esc.session_id, "working directory": esc.cwd, "room": room},
    )


def full_justification_modal(esc: CardEscalation) -> dict[str, Any]:
    """A read-only modal with the whole justification, for the "Show full justification" button (``views.open``).

    Shape as :func:`full_command_modal` (title "Full justification", ``callback_id``
    ``FULL_JUSTIFICATION_MODAL_CALLBACK``, ``private_metadata`` = ``esc.id``): an intro block, then the justification
    in ``rich_text_preformatted`` chunks of at most ``MODAL_CHUNK_MAX`` characters (a diff keeps its columns); joined,
    the chunks are the justification exactly (at most 4000 characters, the API's limit, so it always fits).
    """
    text = clean(esc.justification or "")
    chunks = split_chunks(text, MODAL_CHUNK_MAX) if text else []
    intro = bk.rich_text(
        bk.section(
            bk.text("Justification from "),
            _value(esc.bot_name, CARD_FIELD_MAX),
            bk.text(f"'s session, exactly as sent ({len(text):,} characters):" if text else "'s session: none."),
        )
    )
    warning = hidden_text_warning({"justification": esc.justification or ""}, {"Bot name": esc.bot_name})
    return _modal(
        title="Full justification",
        blocks=[intro, *([warning] if warning else []), *(bk.rich_text(bk.preformatted(chunk)) for chunk in chunks)],
        callback_id=FULL_JUSTIFICATION_MODAL_CALLBACK,
        private_metadata=esc.id,
        close="Close",
    )


def full_command_modal(
    esc: CardEscalation, *, approve: bool = False, whole_justification: bool = False
) -> dict[str, Any]:
    """A read-only modal view with the whole command, for the "Show full command" button (``views.open``).

    Shape: ``type`` ``modal``, ``title`` "Full command" (Slack max 24), a ``close`` button, no ``submit``,
    ``callback_id`` ``FULL_COMMAND_MODAL_CALLBACK``, ``private_metadata`` = ``esc.id``. Blocks: one intro block,
    then the command in ``rich_text_preformatted`` chunks of at most ``MODAL_CHUNK_MAX`` (2900) characters, one
    per block; joined, the chunks are the command exactly. Slack allows 100 blocks per modal (Block Kit
    "Blocks" reference); if the command needs more, the last block says how many characters are not shown.

    With ``approve`` (the "Review and approve" button: approve only what you can see) and a pending
    escalation shown whole, the modal's submit is "Approve" (``callback_id`` ``REVIEW_MODAL_CALLBACK``). A
    command that does not fit gets no submit: it cannot be approved from Slack. The justification is shown whole
    too when the card cuts it, or always with ``whole_justification`` (opened from App Home, which does not show
    it: Codex puts a file change's diff there).
    """
    command = clean(esc.command)
    chunks = split_chunks(command, MODAL_CHUNK_MAX)
    said: list[Block] = []
    cut_on_card = truncate(clean(esc.justification or ""), CARD_JUSTIFICATION_MAX)[1] > 0
    if approve and (esc.justification or "").strip() and (cut_on_card or whole_justification):
        # Review and approve also shows whole a justification the card cut (the Bot's words, not FlyBot's; an
        # adapter may put what it asks to approve there, e.g. Codex's diff of a file change).
        said.append(bk.rich_text(bk.section(bk.text("Justification (the Bot's words):", bold=True))))
        said += [
            bk.rich_text(bk.preformatted(chunk))
            for chunk in split_chunks(clean(esc.justification or ""), MODAL_CHUNK_MAX)
        ]
    warning = _hidden_warning(esc)  # the modal says it too, where Approve is clicked
    room = MODAL_MAX_BLOCKS - 1 - len(said) - (warning is not None)  # intro, warning and justification blocks
    shown = chunks if len(chunks) <= room else chunks[: room - 1]
    blocks = [_modal_intro(esc, command, len(shown)), *([warning] if warning else [])]
    blocks += [bk.rich_text(bk.preformatted(chunk)) for chunk in shown]
    hidden = len(command) - sum(len(chunk) for chunk in shown)
    blocks += said
    if hidden:
        note = f"\u2026 {hidden:,} more characters do not fit in a Slack modal (100-block limit)."
        blocks.append(bk.rich_text(bk.section(bk.text(note, italic=True))))
    if approve and esc.pending and not hidden:
        return _modal(
            title="Approve this command",
            blocks=blocks,
            callback_id=REVIEW_MODAL_CALLBACK,
            private_metadata=esc.id,
            close="Cancel",
            submit="Approve",
        )
    return _modal(
        title="Full command",
        blocks=blocks,
        callback_id=FULL_COMMAND_MODAL_CALLBACK,
        private_metadata=esc.id,
        close="Close",
    )


def deny_reason_modal(esc_id: str, command_preview: str) -> dict[str, Any]:
    """The modal the Deny button opens (``views.open``): an optional reason that is sent to the session.

    Shape: ``callback_id`` ``DENY_MODAL_CALLBACK``, ``private_metadata`` = ``esc_id``, ``submit`` "Deny",
    ``close`` "Cancel", the command preview (literal, cut after ``DENY_PREVIEW_MAX`` characters) and an optional
    multiline ``plain_text_input`` (``block_id`` ``DENY_REASON_BLOCK``, ``action_id`` ``DENY_REASON_INPUT``,
    ``max_length`` 2000). Read the reason at ``view.state.values.deny_reason.deny_reason_input.value``.

    Raises:
        ValueError: ``esc_id`` exceeds Slack's 3000-character ``private_metadata`` limit.
    """
    if len(esc_id) > PRIVATE_METADATA_MAX:
        raise ValueError("escalation id too long for private_metadata")
    preview, omitted = truncate(clean(command_preview), DENY_PREVIEW_MAX)
    warning = hidden_text_warning({"command": command_preview})
    blocks = [
        bk.mrkdwn_section("The session will be told *no*. You may add a reason: it is sent to the session as written."),
        *([warning] if warning else []),
        _command_block(preview, omitted, label="Command:", more="characters not shown"),
        _deny_input_block(),
    ]
    return _modal(
        title="Deny escalation",
        blocks=blocks,
        callback_id=DENY_MODAL_CALLBACK,
        private_metadata=esc_id,
        close="Cancel",
        submit="Deny",
    )


def not_allowed_text(bot_name: str) -> str:
    """Ephemeral reply to someone who may not decide: ``Only the owners of *<name>* or a FlyBot admin can ...``."""
    name = _escaped_name(bot_name)
    return f"Only the owners of *{name}* or a FlyBot admin can approve or deny its requests."


def already_decided_text(
    status: str, decided_by: str | None, decided_at: datetime | None, decision_source: str | None = None
) -> str:
    """Ephemeral reply to a click on a card that is no longer pending.

    ``decided_by`` becomes a ``<@U…>`` mention only when it is a plain user id; anything else is escaped text. A
    session's own withdrawal (``decision_source`` ``session``) names no one: never a Bot's internal id.
    E.g. ``This request was already approved by <@U0123ABC> at 2025-01-31 14:05:09 UTC.``
    """
    what = _ALREADY.get(status, f"already {mrkdwn_escape(_cut(status, 40))}")
    if status == "withdrawn" and decision_source not in (None, "session"):
        what = "already withdrawn"
    parts = [f"This request was {what}"]
    if decided_by and decision_source != "session":
        parts.append(f" by {_who_mrkdwn(decided_by)}")
    if decided_at is not None:
        parts.append(f" at {format_utc(decided_at)}")
    return "".join(parts) + "."


# --- card parts -----------------------------------------------------------------------------------


def _header_text(esc: CardEscalation) -> str:
    name = _cut(one_line(esc.bot_name), HEADER_BOT_NAME_MAX) or "(unnamed Bot)"
    if esc.pending:
        return f"\U0001f510 {name} asks to {_what(esc)[0]}"
    emoji, label = _OUTCOMES.get(esc.status, ("\u2139\ufe0f", _cut(one_line(esc.status), 30) or "Decided"))
    return f"{emoji} {label}: {name} \u2014 {_what(esc)[1]}"


def _what(esc: CardEscalation) -> tuple[str, str]:
    """The header's words for what is asked, while pending and once decided: a tool call by its kind (bot/risk/
    tools.py), else one command."""
    tool = esc.tool
    if tool is None:
        return "run one command with full access", "one command with full access"
    if tool in ("Edit", "Write", "MultiEdit", "NotebookEdit"):
        return "change a file", "one file change"
    if tool in ("WebFetch", "WebSearch"):
        return "reach the web", "one web request"
    return ("call an MCP tool", "one MCP tool call") if tool.startswith("mcp__") else ("call a tool", "one tool call")


def _details_block(esc: CardEscalation) -> Block:
    room = bk.channel(esc.room) if is_slack_channel_id(esc.room) else _value(esc.room, CARD_FIELD_MAX, code=True)
    line = bk.section(
        bk.text("Bot: ", bold=True),
        _value(esc.bot_name, CARD_FIELD_MAX),
        bk.text("\nSession: ", bold=True),
        _value(esc.session_id, CARD_FIELD_MAX, code=True),
        bk.text("\nRoom: ", bold=True),
        room,
        bk.text("\nWorking directory: ", bold=True),
        _value(esc.cwd, CARD_CWD_MAX, code=True),
    )
    return bk.rich_text(line)


def _command_block(
    command: str,
    omitted: int,
    *,
    label: str = "Command, exactly as it will run:",
    more: str = "more characters \u2014 use Show full command",
) -> Block:
    elements = [bk.section(bk.text(label, bold=True))]
    if command:
        elements.append(bk.preformatted(command))
    else:
        elements.append(bk.section(bk.text("(empty command)", italic=True)))
    if omitted:
        elements.append(bk.section(bk.text(f"\u2026 {omitted:,} {more}", italic=True)))
    return bk.rich_text(*elements)


def _change_block(esc: CardEscalation) -> Block:
    line = bk.section(
        bk.text("Requested change: ", bold=True),
        _value(esc.file_policy, REASON_TAG_MAX, code=True),
        bk.text(" \u2192 "),
        _value(esc.requested_policy, REASON_TAG_MAX, code=True),
        bk.text(" for this one call only; the session's other calls stay on "),
        _value(esc.file_policy, REASON_TAG_MAX, code=True),
        bk.text("."),
    )
    return bk.rich_text(line)


TWO_PERSON_RULE = "two-person rule"


def _two_person_blocks(esc: CardEscalation) -> list[Block]:
    """The approval count of a two-person escalation (none for one that needs one approval)."""
    if esc.approvals_needed < 2:
        return []
    needed = esc.approvals_needed
    if esc.status == "approved":
        line = [bk.text(f"\U0001f465 {len(esc.approvers)} of {needed} approvals", bold=True), bk.text(" (by ")]
        for i, who in enumerate(esc.approvers):
            line += ([bk.text(" and ")] if i else []) + [_who_element(who)]
        return [bk.rich_text(bk.section(*line, bk.text(f"; {TWO_PERSON_RULE}).")))]
    if not esc.pending:
        return [
            bk.rich_text(
                bk.section(
                    bk.text(
                        f"\U0001f465 Needed {needed} approvals from different people ({TWO_PERSON_RULE}).", italic=True
                    )
                )
            )
        ]
    if esc.approvers:
        line = [
            bk.text(f"\U0001f465 {len(esc.approvers)} of {needed} approvals", bold=True),
            bk.text(" (by "),
            _who_element(esc.approvers[0]),
            bk.text(")"),
        ]
        tail = ". A second, different person decides; Deny by anyone ends it."
    else:
        line = [bk.text(f"\U0001f465 0 of {needed} approvals", bold=True)]
        tail = (
            f": this destructive command on the host needs {needed} approvals from different people "
            f"({TWO_PERSON_RULE}). Deny by anyone ends it."
        )
    return [bk.rich_text(bk.section(*line, bk.text(tail)))]


def _fallback_copy_text(esc: CardEscalation) -> str:
    """Why a fallback approver has this copy (FlyBot's own words; the time only)."""
    when = f" by {format_utc(esc.fallback_at)}" if esc.fallback_at is not None else ""
    return (
        f"\U0001f4e8 You have this copy as a fallback approver: its owners had not decided{when}. "
        "A decision here or on the original card decides for both."
    )


#: The reason a program rule gives when it grades a program below its built-in grade (bot/risk/grader.py): the card
#: lists it before the others, so "… and N more not shown" never hides that a rule lowered the grade.
LOWERING_RULE = "program-rule-override"


def _lowering_first(reasons: tuple[CardReason, ...]) -> tuple[CardReason, ...]:
    """``reasons`` with the program rules' overrides first, the rest in their order."""
    return tuple(r for r in reasons if r.rule == LOWERING_RULE) + tuple(r for r in reasons if r.rule != LOWERING_RULE)


def _risk_block(esc: CardEscalation) -> Block:
    head = [bk.text("Risk: ", bold=True), _value(esc.risk, REASON_TAG_MAX, code=True)]
    if esc.risk in RISK_DESCRIPTIONS:
        head.append(bk.text(f" \u2014 {RISK_DESCRIPTIONS[esc.risk]}"))
    elements = [bk.section(*head)]
    reasons = _lowering_first(esc.reasons)
    if not reasons:
        elements.append(bk.section(bk.text("The classifier gave no reasons.", italic=True)))
    elif esc.contained:
        elements += _contained_reason_groups(reasons)
    else:
        elements += _reason_group("Why:", reasons[:CARD_REASONS_SHOWN], mark_downgraded=True)
    hidden = len(esc.reasons) - min(len(esc.reasons), CARD_REASONS_SHOWN)
    if hidden:
        elements.append(bk.section(bk.text(f"\u2026 and {hidden:,} more not shown", italic=True)))
    return bk.rich_text(*elements)


def _unknown_blocks(esc: CardEscalation) -> list[Block]:
    """6a. Only when unknown programs alone made the command destructive: say so plainly, and how it is taught."""
    if not esc.unknown_programs:
        return []
    names = [f"`{name}`" for name in esc.unknown_programs]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    what = "it" if len(names) == 1 else "them"
    how = (
        "an admin can grade it with the *Grade* button (or `/flybot rule set PROGRAM GRADE`); a standing "
        "approval can then cover it"
        if esc.pending and not esc.fallback_copy
        else "an admin can grade it with `/flybot rule set PROGRAM GRADE`"
    )
    return [
        bk.mrkdwn_section(f":grey_question: FlyBot does not know {listed}, so it grades {what} destructive: {how}.")
    ]


def teach_modal(*, escalation_id: str, program: str, first_argument: str | None = None) -> dict[str, Any]:
    """The "Grade `PROGRAM` …" modal (``views.open`` payload): the grade (static_select of every level, initially
    ``workspace_write``), for which subcommands (optional plain words; empty: every use), a note (optional).
    ``private_metadata`` = ``{"escalation_id", "program"}`` as JSON. ``program`` is a plain word (the caller's)."""
    options = [{"text": bk.plain(label), "value": label} for label in RISK_LEVELS]
    hint = f" (e.g. {first_argument})" if first_argument else ""
    blocks: list[Block] = [
        bk.mrkdwn_section(
            f"Teach FlyBot how to grade `{program}` for the whole organisation (a *program rule*): every request "
            "that runs it is graded so from now on, on every replica and in the agents' hooks. This card keeps its "
            "grade; decide it as usual."
        ),
        {
            "type": "input",
            "block_id": TEACH_GRADE_BLOCK,
            "label": bk.plain(f"Grade of {program}"),
            "element": {
                "type": "static_select",
                "action_id": TEACH_GRADE_INPUT,
                "options": options,
                "initial_option": {"text": bk.plain("workspace_write"), "value": "workspace_write"},
            },
        },
        {
            "type": "input",
            "block_id": TEACH_SUBCOMMANDS_BLOCK,
            "optional": True,
            "label": bk.plain(f"Only for these subcommands{hint}; empty: every use"),
            "element": {"type": "plain_text_input", "action_id": TEACH_SUBCOMMANDS_INPUT, "max_length": 200},
        },
        {
            "type": "input",
            "block_id": TEACH_NOTE_BLOCK,
            "optional": True,
            "label": bk.plain("Note"),
            "element": {"type": "plain_text_input", "action_id": TEACH_NOTE_INPUT, "max_length": 500},
        },
    ]
    return {
        "type": "modal",
        "callback_id": TEACH_MODAL_CALLBACK,
        "private_metadata": json.dumps({"escalation_id": escalation_id, "program": program}),
        "title": bk.plain("Grade a program"),
        "submit": bk.plain("Save rule"),
        "close": bk.plain("Cancel"),
        "blocks": blocks,
    }


def _contained_reason_groups(reasons: tuple[CardReason, ...]) -> list[Block]:
    still = [r for r in reasons if not r.downgraded]
    down = [r for r in reasons if r.downgraded]
    still_shown = still[:CARD_REASONS_SHOWN]
    down_shown = down[: CARD_REASONS_SHOWN - len(still_shown)]
    return _reason_group("Still asks for approval:", still_shown) + _reason_group(
        "Downgraded because it runs in the sandbox:", down_shown
    )


def _reason_group(
    title: str, reasons: list[CardReason] | tuple[CardReason, ...], *, mark_downgraded: bool = False
) -> list[Block]:
    if not reasons:
        return []
    items = [_reason_item(reason, mark_downgraded=mark_downgraded) for reason in reasons]
    return [bk.section(bk.text(title, bold=True)), bk.bullets(items)]


def _reason_item(reason: CardReason, *, mark_downgraded: bool) -> Block:
    part = reason_part(reason.subject, reason.detail)
    elements = [_value(part, REASON_SUBJECT_MAX, code=True)]
    detail = _cut(reason.detail, REASON_DETAIL_MAX)
    if part != reason.subject and detail.startswith(part + " "):
        elements.append(bk.text(detail[len(part) :]))  # "`sudo` runs the command as ...": the part, named once
    elif detail.strip():
        elements.append(bk.text(f" \u2014 {detail}"))
    tag = f"{_cut(reason.rule, REASON_TAG_MAX) or 'rule?'}, {_cut(reason.level, REASON_TAG_MAX) or 'level?'}"
    if mark_downgraded and reason.downgraded:
        tag += ", downgraded"
    elements.append(bk.text(f" ({tag})", italic=True))
    return bk.section(*elements)


def _justification_block(justification: str | None) -> Block:
    if justification is None or not justification.strip():
        return bk.rich_text(bk.section(bk.text("The session gave no justification.", italic=True)))
    return bk.rich_text(*_quoted("Justification from the session:", justification, CARD_JUSTIFICATION_MAX))


def _outcome_block(esc: CardEscalation) -> Block:
    emoji, label = _OUTCOMES.get(esc.status, ("\u2139\ufe0f", _cut(one_line(esc.status), 30) or "Decided"))
    line = [bk.text(f"{emoji} {label}", bold=True)]
    if esc.decided_by and esc.decision_source != "session":
        # A session's own withdrawal is said by the tail ("the session withdrew"): never "by bot_cc5e...".
        line += [bk.text(" by "), _who_element(esc.decided_by)]
    when = esc.decided_at or (esc.expires_at if esc.status == "expired" else None)
    if when is not None:
        line.append(bk.text(f" at {format_utc(when)}"))
    source = _source_phrase(esc.status, esc.decision_source)
    if source:
        line.append(bk.text(source))
    line += _outcome_tail(esc)
    elements = [bk.section(*line)]
    elements += _outcome_note(esc)
    return bk.rich_text(*elements)


def _source_phrase(status: str, source: str | None) -> str:
    if not source or _EXPECTED_SOURCE.get(status) == source:
        return ""
    return _SOURCE_PHRASES.get(source, f" via {_cut(one_line(source), REASON_TAG_MAX)}")


def _outcome_tail(esc: CardEscalation) -> list[Block]:
    if esc.status == "approved":
        return [
            bk.text(". This one call may now run with "),
            _value(esc.requested_policy, REASON_TAG_MAX, code=True),
            bk.text("."),
        ]
    tails = {
        "denied": ". The session was told no.",
        "expired": " \u2014 the session was told no.",
        "undeliverable": " \u2014 the card could not be delivered, so the session was told no.",
        "withdrawn": " \u2014 the session withdrew the request; nothing runs with full access.",
    }
    if esc.status == "withdrawn" and esc.decision_source not in (None, "session"):
        return [bk.text(" \u2014 withdrawn for the session; nothing runs with full access.")]
    return [bk.text(tails.get(esc.status, "."))]


def _outcome_note(esc: CardEscalation) -> list[Block]:
    if esc.reason is not None and one_line(esc.reason).lower().rstrip(".") == f"{esc.status} by the session":
        return []  # the heading already says it: no note repeats its heading
    if esc.reason is not None and esc.reason.strip():
        title = "Reason sent to the session:" if esc.status == "denied" else "Note:"
        return _quoted(title, esc.reason, CARD_NOTE_MAX)
    if esc.status == "denied":
        return [bk.section(bk.text("No reason given.", italic=True))]
    return []


def _timing_block(esc: CardEscalation) -> Block:
    when = f"Requested {format_utc(esc.created_at)}"
    if esc.pending:
        when += f" \u00b7 Expires {format_utc(esc.expires_at)}"
        if esc.fallback_at is not None:  # the owners did not answer in time
            when += f" \u00b7 Fallback approvers asked {format_utc(esc.fallback_at)}"
    elements = [bk.mrkdwn(when), bk.plain(f"Escalation {_cut(esc.id, 100)}")]
    if esc.pending and esc.risk != "destructive" and esc.session_patterns and not esc.fallback_copy:
        # The offer names what it saves, each part that needs cover (never a cd/export prefix).
        named = " \u00b7 ".join(_cut(one_line(p), REASON_SUBJECT_MAX) for p in esc.session_patterns[:5])
        elements.append(bk.plain(f"Approve for this session saves: {named}"))
    return bk.context(*elements)


def _actions_block(esc: CardEscalation, *, command_cut: bool, justification_cut: bool = False) -> Block | None:
    buttons = []
    if esc.pending and (command_cut or justification_cut):
        # The card does not show the whole command (or the whole justification, where an adapter puts
        # what it asks to approve, e.g. Codex's diff of a file change), so no button approves it unseen; "Review
        # and approve" opens the whole command and justification with Approve in it.
        buttons.append(bk.button("Review and approve", REVIEW_APPROVE_ACTION, esc.id, style="primary"))
        if (
            esc.risk != "destructive" and not esc.fallback_copy
        ):  # these open a modal that shows the whole command (no one-click session choice)
            buttons.append(bk.button("Always for this Bot", STANDING_BOT_ACTION, esc.id))
        buttons.append(bk.button("Deny", DENY_ACTION, esc.id, style="danger"))
    elif esc.pending:
        buttons.append(bk.button("Approve", APPROVE_ACTION, esc.id, style="primary"))
        if esc.risk != "destructive" and not esc.fallback_copy:
            # Standing choices for the owners (and admins); never offered for destructive commands, nor on
            # a fallback approver's DM copy: a fallback approver may approve or deny this request only.
            # "Always for this room" is an admin's choice inside the "Always for this Bot" modal: a message shows
            # every viewer the same buttons, and a button refused after the click is no choice.
            buttons.append(bk.button("Approve for this session", STANDING_SESSION_ACTION, esc.id))
            buttons.append(bk.button("Always for this Bot", STANDING_BOT_ACTION, esc.id))
        buttons.append(bk.button("Deny", DENY_ACTION, esc.id, style="danger"))
    if esc.pending and not esc.fallback_copy:
        for program in esc.unknown_programs[:2]:
            buttons.insert(-1, bk.button(f"Grade `{program}` \u2026", TEACH_ACTION, f"{esc.id} {program}"))
    if command_cut and not esc.pending:
        buttons.append(bk.button("Show full command", SHOW_COMMAND_ACTION, esc.id))
    if justification_cut:
        buttons.append(bk.button("Show full justification", SHOW_JUSTIFICATION_ACTION, esc.id))
    if not buttons:
        return None
    return {"type": "actions", "block_id": actions_block_id(esc.id), "elements": buttons}


def _fallback_text(esc: CardEscalation) -> str:
    name = _escaped_name(esc.bot_name)
    where = "in the sandbox" if esc.contained else "on the host"
    policy = mrkdwn_escape(_cut(one_line(esc.requested_policy), REASON_TAG_MAX))
    risk = mrkdwn_escape(_cut(one_line(esc.risk), REASON_TAG_MAX))
    preview = mrkdwn_escape(_cut(one_line(esc.command), FALLBACK_COMMAND_PREVIEW))
    what = f"one command {where} with {policy} (risk: {risk}): {preview}"
    if esc.pending:
        return f"Approval needed by {format_utc(esc.expires_at)}: {name} wants to run {what}"
    _, label = _OUTCOMES.get(esc.status, ("", mrkdwn_escape(_cut(one_line(esc.status), 30))))
    return f"{label}: {name} asked to run {what}"


# --- modal parts ----------------------------------------------------------------------------------


def _modal_intro(esc: CardEscalation, command: str, parts: int) -> Block:
    if not command:
        return bk.rich_text(bk.section(bk.text("(empty command)", italic=True)))
    return bk.rich_text(
        bk.section(
            bk.text("Command for "),
            _value(esc.bot_name, CARD_FIELD_MAX),
            bk.text(
                f", exactly as it will run ({len(command):,} characters, {parts} part{'s' if parts != 1 else ''}):"
            ),
        )
    )


def _deny_input_block() -> Block:
    return {
        "type": "input",
        "block_id": DENY_REASON_BLOCK,
        "optional": True,
        "label": bk.plain("Reason (sent to the session)"),
        "element": {
            "type": "plain_text_input",
            "action_id": DENY_REASON_INPUT,
            "multiline": True,
            "max_length": DENY_REASON_MAX_LENGTH,
            "placeholder": bk.plain("e.g. use the staging database instead"),
        },
    }


def _modal(
    *,
    title: str,
    blocks: list[Block],
    callback_id: str,
    private_metadata: str,
    close: str,
    submit: str | None = None,
) -> dict[str, Any]:
    view: dict[str, Any] = {
        "type": "modal",
        "callback_id": callback_id,
        "private_metadata": private_metadata,
        "title": bk.plain(title),
        "close": bk.plain(close),
    }
    if submit is not None:
        view["submit"] = bk.plain(submit)
    view["blocks"] = blocks
    return view


# --- small helpers --------------------------------------------------------------------------------


def _cut(value: str, limit: int, *, multiline: bool = True) -> str:
    """``value`` (cleaned) cut to ``limit`` UTF-16 units, ending in ``…`` when cut."""
    value = clean(value, multiline=multiline)
    if slack_len(value) <= limit:
        return value
    kept, _ = truncate(value, limit - 1)
    return kept + "\u2026"


def _value(value: str, limit: int, *, code: bool = False) -> Block:
    """A literal one-line rich_text value (a newline or tab shows as ``⟨U+000A⟩``), cut with ``…`` after ``limit``;
    blank shows ``(empty)``."""
    return bk.value_text(_cut(value, limit, multiline=False), code=code)


def _quoted(title: str, value: str, limit: int) -> list[Block]:
    kept, omitted = truncate(clean(value), limit)
    elements = [bk.section(bk.text(title, bold=True)), bk.quote(kept)]
    if omitted:
        elements.append(bk.section(bk.text(f"\u2026 {omitted:,} more characters not shown", italic=True)))
    return elements


def _who_element(decided_by: str) -> Block:
    if is_slack_user_id(decided_by):
        return bk.user(decided_by)
    return bk.value_text(_cut(one_line(decided_by), CARD_FIELD_MAX), code=True)


def _who_mrkdwn(decided_by: str) -> str:
    if is_slack_user_id(decided_by):
        return f"<@{decided_by}>"
    return mrkdwn_escape(_cut(one_line(decided_by), CARD_FIELD_MAX))


def _escaped_name(bot_name: str) -> str:
    return mrkdwn_escape(_cut(one_line(bot_name), FALLBACK_BOT_NAME_MAX)) or "(unnamed Bot)"
