"""Standing-approval surfaces: the room notice, the "Always for ..." modal and the App Home tab.

Pure functions like the approval card: user text only in rich_text/plain_text (literal), mrkdwn only for FlyBot's
own wording. Limits: :mod:`cards.limits`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cards import blocks as bk
from cards.approval import CardMessage
from cards.escape import mrkdwn_escape
from cards.hidden import hidden_text_warning
from cards.ids import (
    APPROVE_ACTION,
    DENY_ACTION,
    HOST_OK_VALUE,
    REVIEW_APPROVE_ACTION,
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
    STANDING_SCOPE_BLOCK,
    STANDING_SCOPE_INPUT,
)
from cards.limits import MODAL_CHUNK_MAX
from cards.text import clean, format_utc, is_slack_channel_id, is_slack_user_id, one_line, split_chunks, truncate

MODAL_COMMAND_BLOCKS = 90
"""At most this many command blocks in the standing modal (Slack: 100 blocks a modal; the form's own are at most 8,
its warnings at most 2: the hidden-text one never shows, such a command grades destructive)."""

STANDING_LEVELS = ("read_only", "workspace_write", "network", "system")
"""Levels a standing approval may cover (never ``destructive``)."""

NOTICE_COMMAND_MAX = 300
HOME_MAX_ITEMS = 30
"""At most this many Bots, and standing approvals, the App Home lists (fewer when Slack's 100 blocks run out)."""
HOME_PENDING_MAX = HOME_MAX_ITEMS // 3
"""At most this many pending escalations the App Home lists, each with its buttons."""
HOME_MAX_BLOCKS = 100
"""Slack's limit of blocks in a Home tab view (Block Kit reference, "Views")."""
PENDING_PAGE = 20
"""Pending escalations per page of ``/flybot pending`` (the App Home's "and N more" line points there)."""


def more_line(more: int, what: str, how: str) -> str:
    """The line a list that was cut ends with: ``…and 12 more escalations: `/flybot pending 2` shows the next 20.``
    (``what`` in the plural; ``how``: where to see them, FlyBot's own mrkdwn)."""
    return f"\u2026and {more:,} more {what}: {how}"


@dataclass(frozen=True, slots=True)
class CardStanding:
    """A standing approval as the surfaces show it."""

    id: str
    scope: str
    subject_label: str
    """What it covers, as people read it: the Bot's name, ``BOT/SESSION``, or the room's channel id (shown as a
    channel link); never a Bot's internal id."""
    pattern: str
    max_risk: str
    contained_only: bool
    created_by: str
    expires_at: datetime | None = None
    note: str | None = None
    use_count: int = 0


def _who(user_id: str) -> dict[str, Any]:
    return bk.user(user_id) if is_slack_user_id(user_id) else bk.text(user_id)


def standing_notice(
    *, bot_name: str, command: str, contained: bool, escalation_id: str, approvals: list[CardStanding]
) -> CardMessage:
    """The compact one-line notice posted in the room when a standing approval answered an escalation.

    Names the Bot, the command (one line, cut at 300), where it runs, which standing approval(s) and who set them.
    """
    shown, omitted = truncate(one_line(clean(command)), NOTICE_COMMAND_MAX)
    parts: list[dict[str, Any]] = [
        bk.text("Auto-approved ", bold=True),
        bk.text(bot_name, bold=True),
        bk.text(": "),
        bk.text(shown + ("…" if omitted else ""), code=True),
        bk.text(" (in the sandbox)" if contained else " (on the host)"),
        bk.text(" by standing approval "),
    ]
    for index, approval in enumerate(approvals):
        if index:
            parts.append(bk.text(", "))
        parts += [
            bk.text(approval.id, code=True),
            bk.text(f" ({approval.scope} · {approval.pattern} · set by "),
            _who(approval.created_by),
            bk.text(")"),
        ]
    text = (
        f"Auto-approved {mrkdwn_escape(one_line(bot_name))}: {mrkdwn_escape(shown)} by standing approval "
        + mrkdwn_escape(", ".join(a.id for a in approvals))
    )
    blocks = [bk.rich_text(bk.section(*parts)), bk.context(bk.plain(f"Escalation {escalation_id}"))]
    return CardMessage(text=text[:3900], blocks=blocks)


#: Programs that run code the workspace's files choose (a registry or script shell in ``.npmrc``, a toolchain in
#: ``rust-toolchain.toml``, a ``go.work``/``GOFLAGS`` in ``go.env``, an index in ``pip.conf``, git's hooks and
#: config): the host warning names the files. Fixed text only (never the pattern typed by a person).
WORKSPACE_CONFIGURED = {
    "npm": "`.npmrc`, `package.json` scripts",
    "pnpm": "`.npmrc`, `package.json` scripts",
    "yarn": "`.yarnrc.yml`, `.npmrc`, `package.json` scripts",
    "cargo": "`rust-toolchain.toml`, `.cargo/config.toml`",
    "rustup": "`rust-toolchain.toml`",
    "go": "`go.work`, `go.mod` toolchain",
    "pip": "`pip.conf`, build backends",
    "pip3": "`pip.conf`, build backends",
    "git": "hooks, `.git/config`",
}


def _scope_choice() -> dict[str, Any]:
    """The admins' "Approve for" radio buttons: this Bot (preselected) or every Bot in this room."""
    this_bot = {"text": bk.plain("This Bot"), "value": "bot"}
    room = {"text": bk.plain("Every Bot in this room (admins)"), "value": "room"}
    return {
        "type": "input",
        "block_id": STANDING_SCOPE_BLOCK,
        "label": bk.plain("Approve for"),
        "element": {
            "type": "radio_buttons",
            "action_id": STANDING_SCOPE_INPUT,
            "options": [this_bot, room],
            "initial_option": this_bot,
        },
    }


def standing_modal(
    *,
    escalation_id: str,
    scope: str,
    pattern: str,
    max_risk: str,
    command_preview: str,
    contained: bool,
    room_choice: bool = False,
) -> dict[str, Any]:
    """The "Always for this Bot/room" modal, prefilled and editable (``views.open`` payload).

    Inputs (block_id / action_id in :mod:`cards.ids`): pattern (plain_text_input), max risk (static_select of
    :data:`STANDING_LEVELS`), expiry (optional, e.g. ``7d``), "also on the host" checkbox (unchecked: the default
    ``contained_only``), note (optional); with ``room_choice`` (the person is an admin) and scope ``bot``, "Approve
    for": this Bot (the default) or every Bot in this room (radio buttons, :data:`STANDING_SCOPE_BLOCK`).
    ``private_metadata`` = ``{"escalation_id", "scope"}`` as JSON. Submitting approves this escalation too.
    """
    level = max_risk if max_risk in STANDING_LEVELS else "workspace_write"
    options = [{"text": bk.plain(label), "value": label} for label in STANDING_LEVELS]
    # Submitting approves this escalation: show the command whole, in preformatted chunks.
    chunks = split_chunks(clean(command_preview), MODAL_CHUNK_MAX)[:MODAL_COMMAND_BLOCKS] or [""]
    title = "Always for this Bot" if scope == "bot" else "Always for this room"
    host_option = {"text": bk.plain("Also when it runs on the host"), "value": HOST_OK_VALUE}
    host_input: dict[str, Any] = {"type": "checkboxes", "action_id": STANDING_HOST_INPUT, "options": [host_option]}
    blocks: list[dict[str, Any]] = [
        bk.mrkdwn_section(
            "Approve this escalation and, from now on, every command that *starts with the pattern* below, "
            "up to the risk level you choose. Destructive commands always ask."
        ),
        *(
            bk.rich_text(bk.preformatted(chunk)) if chunk else bk.context(bk.plain("(empty command)"))
            for chunk in chunks
        ),
        {
            "type": "input",
            "block_id": STANDING_PATTERN_BLOCK,
            "label": bk.plain("Command pattern (first words, or * for any)"),
            "element": {
                "type": "plain_text_input",
                "action_id": STANDING_PATTERN_INPUT,
                "initial_value": pattern[:200],
                "max_length": 200,
            },
        },
        *([_scope_choice()] if room_choice and scope == "bot" else []),
        {
            "type": "input",
            "block_id": STANDING_RISK_BLOCK,
            "label": bk.plain("Highest risk it covers"),
            "element": {
                "type": "static_select",
                "action_id": STANDING_RISK_INPUT,
                "options": options,
                "initial_option": {"text": bk.plain(level), "value": level},
            },
        },
        {
            "type": "input",
            "block_id": STANDING_EXPIRES_BLOCK,
            "optional": True,
            "label": bk.plain("Expires after (e.g. 12h, 7d; empty: never)"),
            "element": {
                "type": "plain_text_input",
                "action_id": STANDING_EXPIRES_INPUT,
                "initial_value": "7d",
                "max_length": 10,
            },
        },
        {
            "type": "input",
            "block_id": STANDING_HOST_BLOCK,
            "optional": True,
            "label": bk.plain("Where"),
            "element": host_input,
        },
        {
            "type": "input",
            "block_id": STANDING_NOTE_BLOCK,
            "optional": True,
            "label": bk.plain("Note"),
            "element": {"type": "plain_text_input", "action_id": STANDING_NOTE_INPUT, "max_length": 500},
        },
    ]
    warning = hidden_text_warning({"command": command_preview})
    if warning is not None:  # such a command grades destructive and is never offered this modal
        blocks.insert(1, warning)
    first = pattern.split(" ", 1)[0]
    configured = WORKSPACE_CONFIGURED.get(first)
    if not contained and configured is not None:
        blocks.insert(
            1,
            bk.mrkdwn_section(
                f":warning: On the host, `{first}` also runs what the workspace's own configuration chooses "
                f"({configured}): a host approval approves that too. Prefer leaving *Also when it runs on the host* unticked."
            ),
        )
    if not contained:
        blocks.insert(
            1,
            bk.mrkdwn_section(
                ":warning: This command runs *on the host*. Tick *Also when it runs on the host* to cover host runs."
            ),
        )
    return {
        "type": "modal",
        "callback_id": STANDING_MODAL_CALLBACK,
        "private_metadata": json.dumps({"escalation_id": escalation_id, "scope": scope}),
        "title": bk.plain(title),
        "submit": bk.plain("Approve & save"),
        "close": bk.plain("Cancel"),
        "blocks": blocks,
    }


@dataclass(frozen=True, slots=True)
class HomePending:
    """A pending escalation as the App Home lists it."""

    id: str
    bot_name: str
    command: str
    risk: str
    contained: bool
    expires_at: datetime
    justification: str = ""
    """Not listed on App Home: when there is one, Approve is Review and approve, whose modal shows it whole."""
    approvals_needed: int = 1
    """2 under the two-person rule: the Home counts the approvals as the card does."""
    approvers: tuple[str, ...] = ()


def home_view(
    *,
    bots: list[tuple[str, str]],
    pending: list[HomePending],
    approvals: list[CardStanding],
    notice: str | None = None,
) -> dict[str, Any]:
    """The App Home tab for one viewer: their Bots (name, room label), pending escalations, revocable approvals;
    ``notice`` (FlyBot's own words), when given, is shown under the pending escalations' heading.

    Slack allows :data:`HOME_MAX_BLOCKS` blocks in a Home view: the Bots and the standing approvals show at most
    :data:`HOME_MAX_ITEMS` each, the pending escalations :data:`HOME_PENDING_MAX`, and the approvals fewer when the
    blocks run out. A list that is cut ends with a line saying how many more there are and where to see them
    (:func:`more_line`).
    """
    blocks: list[dict[str, Any]] = [bk.header("FlyBot")]
    blocks.append(bk.mrkdwn_section("*Your Bots*"))
    if bots:
        items = [
            bk.section(
                bk.text(name, bold=True),
                bk.text(" — cards go to "),
                bk.channel(room) if is_slack_channel_id(room) else bk.text(room),
            )
            for name, room in bots[:HOME_MAX_ITEMS]
        ]
        blocks.append(bk.rich_text(bk.bullets(items)))
        if len(bots) > HOME_MAX_ITEMS:
            blocks.append(
                bk.context(
                    bk.mrkdwn(
                        more_line(
                            len(bots) - HOME_MAX_ITEMS,
                            "Bots",
                            "`flybot bots list` on the FlyBot server lists them all.",
                        )
                    )
                )
            )
    else:
        blocks.append(bk.context(bk.plain("You own no Bot.")))
    blocks.append({"type": "divider"})
    blocks.append(bk.mrkdwn_section(f"*Waiting for a decision* ({len(pending)})"))
    if notice:
        blocks.append(bk.context(bk.plain(notice)))
    for item in pending[:HOME_PENDING_MAX]:
        shown, cut = truncate(one_line(clean(item.command)), 200)
        warning = hidden_text_warning({"command": item.command}, {"Bot name": item.bot_name})
        # A command shown cut (or flattened onto one line) is never approved from here unseen; nor one
        # with hidden or look-alike characters: the review modal says what they are before Approve; nor one
        # with a justification, which this list does not show (Codex puts a file change's diff there).
        approve = (
            bk.button("Review and approve", REVIEW_APPROVE_ACTION, item.id, style="primary")
            if cut or shown != clean(item.command) or warning is not None or item.justification.strip()
            else bk.button("Approve", APPROVE_ACTION, item.id, style="primary")
        )
        where = "in the sandbox" if item.contained else "on the host"
        if warning is not None:
            blocks.append(warning)
        blocks.append(
            bk.rich_text(
                bk.section(
                    bk.text(item.bot_name, bold=True),
                    bk.text(f" · {item.risk} · {where} · expires {format_utc(item.expires_at)}: "),
                    bk.text(shown + ("…" if cut else ""), code=True),
                )
            )
        )
        if item.approvals_needed > 1:
            count = [bk.text(f"{len(item.approvers)} of {item.approvals_needed} approvals", bold=True)]
            if item.approvers:
                count += [bk.text(" (by "), _who(item.approvers[0]), bk.text(")")]
            blocks.append(
                bk.rich_text(
                    bk.section(*count, bk.text(" \u2014 two-person rule: a second, different person decides."))
                )
            )
        blocks.append(
            {
                "type": "actions",
                "block_id": f"home_pending:{item.id}",
                "elements": [
                    approve,
                    bk.button("Deny", DENY_ACTION, item.id, style="danger"),
                ],
            }
        )
    if len(pending) > HOME_PENDING_MAX:
        blocks.append(
            bk.context(
                bk.mrkdwn(
                    more_line(
                        len(pending) - HOME_PENDING_MAX,
                        "escalations waiting for you",
                        f"`/flybot pending` lists them all, {PENDING_PAGE} a page.",
                    )
                )
            )
        )
    if not pending:
        blocks.append(bk.context(bk.plain("Nothing is waiting for you.")))
    blocks.append({"type": "divider"})
    blocks.append(bk.mrkdwn_section(f"*Standing approvals you can revoke* ({len(approvals)})"))
    warning = hidden_text_warning(
        {}, {"session ids": " ".join(a.subject_label for a in approvals[:HOME_MAX_ITEMS])}, subject="list"
    )
    if warning is not None:  # a session-wide approval names the session id the Bot chose
        blocks.append(warning)
    room = HOME_MAX_BLOCKS - len(blocks) - 1  # one block kept for the "and N more" line
    listed = approvals[: max(0, min(HOME_MAX_ITEMS, room // 2))]  # two blocks each
    for approval in listed:
        expiry = f"expires {format_utc(approval.expires_at)}" if approval.expires_at else "no expiry"
        where = "sandbox only" if approval.contained_only else "sandbox and host"
        room = approval.scope == "room" and is_slack_channel_id(approval.subject_label)
        blocks.append(
            bk.rich_text(
                bk.section(
                    bk.text(approval.id, code=True),
                    bk.text(f" {approval.scope} "),
                    bk.channel(approval.subject_label) if room else bk.text(approval.subject_label),
                    bk.text(": "),
                    bk.text(approval.pattern, code=True),
                    bk.text(f" up to {approval.max_risk}, {where}, {expiry}, used {approval.use_count}× — set by "),
                    _who(approval.created_by),
                )
            )
        )
        blocks.append(
            {
                "type": "actions",
                "block_id": f"home_standing:{approval.id}",
                "elements": [
                    bk.button("Revoke", STANDING_REVOKE_ACTION, approval.id, style="danger"),
                ],
            }
        )
    if len(approvals) > len(listed):
        blocks.append(
            bk.context(
                bk.mrkdwn(
                    more_line(
                        len(approvals) - len(listed),
                        "standing approvals",
                        "`/flybot standing list` (narrow it with `--bot NAME` or `--room`) shows them; Revoke with "
                        "`/flybot standing revoke ID`.",
                    )
                )
            )
        )
    if not approvals:
        blocks.append(bk.context(bk.plain("None.")))
    return {"type": "home", "blocks": blocks}


NOTICE_RULES_SHOWN = 2
"""Program-rule reasons shown under one command of a folded notice."""


@dataclass(frozen=True, slots=True)
class NoticeItem:
    """One auto-answered command listed in a folded notice."""

    escalation_id: str
    command: str
    contained: bool
    ruled: tuple[str, ...] = ()
    """The reasons a program rule gave its grade (the grader's own text, e.g. "gcc is graded workspace_write by
    @U123's program rule (gcc)."): the room sees that a taught grade let the standing approval answer."""


def standing_digest(
    *, bot_name: str, count: int, window_s: float, items: list[NoticeItem], approvals: list[CardStanding]
) -> CardMessage:
    """The folded room notice: every auto-answer of one Bot in one window, one message edited in place.

    "Auto-approved for builder: 37 commands in the last minute", then the latest few commands (newest first, each one
    line cut at 300, where it runs) and the standing approvals that answered them (id, scope, pattern, who set it).
    One auto-answer reads "1 command". ``window_s`` is shown in whole minutes (at least 1).
    """
    minutes = max(1, round(window_s / 60))
    span = "the last minute" if minutes == 1 else f"the last {minutes} minutes"
    noun = "command" if count == 1 else "commands"
    head = f"{count} {noun} in {span}"
    parts: list[dict[str, Any]] = [
        bk.text("Auto-approved for ", bold=True),
        bk.text(bot_name, bold=True),
        bk.text(f": {head}"),
    ]
    lines: list[dict[str, Any]] = []
    for item in reversed(items):
        shown, omitted = truncate(one_line(clean(item.command)), NOTICE_COMMAND_MAX)
        lines.append(bk.text("\n• "))
        lines.append(bk.text(shown + ("…" if omitted else ""), code=True))
        lines.append(bk.text(" (in the sandbox)" if item.contained else " (on the host)"))
        for detail in item.ruled[:NOTICE_RULES_SHOWN]:
            lines.append(bk.text("\n    " + truncate(one_line(clean(detail)), NOTICE_COMMAND_MAX)[0], italic=True))
    named: list[dict[str, Any]] = [bk.text("\nBy standing approval ")]
    for index, approval in enumerate(approvals):
        if index:
            named.append(bk.text(", "))
        named += [
            bk.text(approval.id, code=True),
            bk.text(f" ({approval.scope} · {approval.pattern} · set by "),
            _who(approval.created_by),
            bk.text(")"),
        ]
    text = f"Auto-approved for {mrkdwn_escape(one_line(bot_name))}: {head} by standing approval " + mrkdwn_escape(
        ", ".join(a.id for a in approvals)
    )
    latest = ", ".join(i.escalation_id for i in items[-3:])
    blocks = [bk.rich_text(bk.section(*parts, *lines, *named)), bk.context(bk.plain(f"Latest: {latest}"))]
    return CardMessage(text=text[:3900], blocks=blocks)
