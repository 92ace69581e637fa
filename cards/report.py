"""The blocked-host report DM: pure functions, no I/O, no clock.

Layout of :func:`report_dm` (top to bottom):

1. ``header`` — "Blocked: no usable sandbox backend", or the outcome once decided ("Resolved: the host now has a
   usable backend" when a later preflight from the host closed it).
1a. ``rich_text`` — only when the report's text holds hidden, direction-changing or look-alike characters: the plain
   warning the approval card has (:func:`cards.hidden.hidden_text_warning`), naming the fields.
2. ``rich_text`` — which Bot, which host, which session and mode; where the report came from; which of the Bot's
   hosts are blocked and since when.
3. ``rich_text`` — what is missing: per backend, the cause and the probe's error text (the Bot's words: quoted and
   labelled as what the Bot reports, not in code style), or "not reported".
4. open only: ``section`` (mrkdwn, FlyBot's words) — the decision is the owner's; FlyBot grants nothing itself.
5. ``rich_text`` — FlyBot's own instructions for the cause (looked up in FlyBot's catalogue by
   option id and host OS, never the Bot's text), each exact command in ``rich_text_preformatted`` and what it
   weakens, when it does.
6. ``rich_text`` — the Bot's own words FlyBot could not map to its catalogue, each in a quote and labelled as the
   Bot's (never as a command to run).
7. decided only: ``rich_text`` — who decided, when, and for "this Bot" the standing approval it created.
8. ``context`` — report id, how many times it was reported, first and last seen (UTC).
9. open only: ``actions`` (``block_id`` ``report:<id>``) — "Approve danger-full-access for this turn", "… for this
   Bot" (each only when the report offered it; the Bot-wide one opens :func:`report_grant_modal`, where host
   commands are included only when the owner ticks that) and "Mark resolved"; every button's ``value`` is the
   report id. Decided DMs have no buttons.

User text (Bot name, host, session, error text, the Bot's words) only goes into rich_text ``text`` elements and
``plain_text`` objects, which Slack shows literally; mrkdwn carries FlyBot's own wording only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cards import blocks as bk
from cards.approval import CardMessage
from cards.escape import mrkdwn_escape
from cards.hidden import hidden_text_warning
from cards.text import clean, format_utc, is_slack_channel_id, is_slack_user_id, one_line, truncate

REPORT_APPROVE_TURN_ACTION = "report_approve_turn"
"""``action_id`` of "Approve danger-full-access for this turn"; ``value`` is the report id."""
REPORT_APPROVE_BOT_ACTION = "report_approve_bot"
"""``action_id`` of "Approve danger-full-access for this Bot"; ``value`` is the report id."""
REPORT_RESOLVE_ACTION = "report_resolve"
"""``action_id`` of "Mark resolved"; ``value`` is the report id."""
REPORT_BLOCK_PREFIX = "report:"
REPORT_GRANT_CALLBACK = "report_grant_modal"
"""``callback_id`` of the "Approve for this Bot" modal; ``private_metadata`` is ``{"report_id": ...}``."""
REPORT_GRANT_HOST_BLOCK = "report_grant_host"
REPORT_GRANT_HOST_INPUT = "report_grant_host_input"
REPORT_GRANT_HOST_VALUE = "include_host"
"""The checkbox value that includes host (not contained) commands in the grant; absent = contained only."""

APPROVAL_OPTION_IDS = ("approve-turn", "approve-bot")
FIELD_MAX = 200
OPTION_TEXT_MAX = 300
COMMAND_MAX = 500
ERROR_MAX = 300
BACKEND_LABELS = {
    "bubblewrap": "bubblewrap (missing or not runnable)",
    "landlock": "Landlock (not enabled in the kernel)",
    "sandbox-exec": "sandbox-exec (missing or not runnable)",
    "windows-acl": "Windows ACL runner (not available)",
}
_HEADERS = {
    "open": "Blocked: no usable sandbox backend",
    "approved_turn": "Approved: danger-full-access for this turn",
    "approved_bot": "Approved: danger-full-access for this Bot",
    "resolved": "Marked resolved",
}
HOST_RESOLVED_HEADER = "Resolved: the host now has a usable backend"
COMMAND_NOT_SHOWN = "[a command, not shown]"
"""What the DM shows in the Bot's words where the Bot wrote code (:func:`without_commands`)."""
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`]*(?:`|\Z)", re.DOTALL)


def without_commands(said: str) -> str:
    """The Bot's words with every command it wrote left out: each code span (text between backticks, or between
    triple backticks; one left open runs to the end) becomes :data:`COMMAND_NOT_SHOWN`. The DM shows host commands
    only from FlyBot's own catalogue: a command the Bot sent, however it sent it, is never shown."""
    return _CODE.sub(COMMAND_NOT_SHOWN, said)


@dataclass(frozen=True, slots=True)
class CardUnlock:
    """One unlock option: the preflight's ``id`` and phrase, and the exact host command when one is known."""

    id: str
    text: str
    command: str | None = None


@dataclass(frozen=True, slots=True)
class CardInstruction:
    """A host-side step in FlyBot's own words: the phrase, the exact command (``None``: none known for the host's
    OS) and what it weakens (``None`` when nothing)."""

    text: str
    command: str | None = None
    warning: str | None = None


@dataclass(frozen=True, slots=True)
class CardFinding:
    """Why one backend is missing: its label, the cause in FlyBot's words, the probe's error text (user text)."""

    backend: str
    cause: str
    error: str = ""


@dataclass(frozen=True, slots=True)
class CardReport:
    """A blocked-host report as the DM shows it.

    Attributes:
        status: ``open``, ``approved_turn``, ``approved_bot`` or ``resolved``.
        missing: backend wire names (``bubblewrap``, ``landlock``, ...); empty when not reported.
        source: ``api`` or ``chat``; ``reported_by`` / ``channel``: the Slack user and room of a chat report.
        bot_approval_hours: the lifetime of the "for this Bot" standing approval, for the wording.
        findings: per missing backend, the cause and the error text; when empty, ``missing`` is listed.
        instructions: FlyBot's own host-side steps for the causes (from its catalogue, never the Bot's text).
        bot_words: what the Bot wrote that FlyBot does not know, shown quoted as the Bot's words.
        blocked_hosts: ``(host, blocked since)`` for each of the Bot's hosts with an open report.
        decision_source: ``owner``, ``admin``, or ``host`` (a later usable preflight resolved it).
        grant_on_host: for ``approved_bot``, whether the grant also covers host (not contained) commands.
    """

    id: str
    bot_name: str
    host: str
    session_id: str
    mode: str
    missing: tuple[str, ...]
    unlock: tuple[CardUnlock, ...]
    status: str
    count: int
    first_seen: datetime
    last_seen: datetime
    source: str = "api"
    reported_by: str | None = None
    channel: str | None = None
    decided_by: str | None = None
    decided_at: datetime | None = None
    standing_approval_id: str | None = None
    bot_approval_hours: int = 24
    findings: tuple[CardFinding, ...] = ()
    instructions: tuple[CardInstruction, ...] = ()
    bot_words: tuple[str, ...] = ()
    blocked_hosts: tuple[tuple[str, datetime], ...] = ()
    decision_source: str | None = None
    grant_on_host: bool = False


def report_block_id(report_id: str) -> str:
    """``block_id`` of the DM's actions block: ``"report:<id>"``."""
    return f"{REPORT_BLOCK_PREFIX}{report_id}"


def _short(value: str, limit: int = FIELD_MAX) -> str:
    shown, cut = truncate(one_line(clean(value)), limit)
    return shown + ("…" if cut else "")


def _who(user_id: str) -> dict[str, Any]:
    return bk.user(user_id) if is_slack_user_id(user_id) else bk.text(user_id)


def _facts(report: CardReport) -> dict[str, Any]:
    if report.status == "open":
        verb, refusal = (
            " cannot run shell commands on host ",
            ": every shell call is refused with SANDBOX_UNAVAILABLE, so it handed the work on.",
        )
    else:
        verb, refusal = (
            " could not run shell commands on host ",
            ": every shell call was refused with SANDBOX_UNAVAILABLE.",
        )
    first = bk.section(
        bk.text(_short(report.bot_name), bold=True),
        bk.text(verb),
        bk.text(_short(report.host), code=True),
        bk.text(refusal),
    )
    second = bk.section(
        bk.text("Session "),
        bk.text(_short(report.session_id), code=True),
        bk.text(" · file policy "),
        bk.text(_short(report.mode, 40), code=True),
    )
    source = [bk.text("Reported through the session API.")]
    if report.source == "chat":
        source = [bk.text("Posted in ")]
        channel = report.channel or ""
        source.append(bk.channel(channel) if is_slack_channel_id(channel) else bk.text("a room"))
        if report.reported_by:
            source += [bk.text(" by "), _who(report.reported_by)]
        source.append(bk.text(" (a chat report from the Bot's registered chat user)."))
    sections = [first, second, bk.section(*source)]
    if report.blocked_hosts:
        hosts: list[dict[str, Any]] = [bk.text("Blocked hosts of this Bot: ", bold=True)]
        for number, (host, since) in enumerate(report.blocked_hosts[:10]):
            if number:
                hosts.append(bk.text("; "))
            hosts += [bk.text(_short(host, 80), code=True), bk.text(f" since {format_utc(since)}")]
        if len(report.blocked_hosts) > 10:
            hosts.append(bk.text(f"; and {len(report.blocked_hosts) - 10} more"))
        sections.append(bk.section(*hosts))
    return bk.rich_text(*sections)


def _missing(report: CardReport) -> dict[str, Any]:
    if report.findings:
        items = []
        for finding in report.findings[:10]:
            parts = [bk.text(_short(finding.backend, 40), bold=True), bk.text(": " + _short(finding.cause))]
            if finding.error:  # the Bot's words: quoted and labelled, never in a command's code style
                error = _short(without_commands(finding.error), ERROR_MAX)
                parts += [bk.text(" — the Bot reports the error "), bk.text(f"“{error}”")]
            items.append(bk.section(*parts))
        return bk.rich_text(bk.section(bk.text("Why:", bold=True)), bk.bullets(items))
    if not report.missing:
        return bk.rich_text(bk.section(bk.text("Missing: ", bold=True), bk.text("not reported", italic=True)))
    items = [bk.section(bk.text(_short(BACKEND_LABELS.get(name, name)))) for name in report.missing[:10]]
    return bk.rich_text(bk.section(bk.text("Missing:", bold=True)), bk.bullets(items))


def _instructions(steps: tuple[CardInstruction, ...]) -> dict[str, Any]:
    elements: list[dict[str, Any]] = [
        bk.section(bk.text("On the host or the session (FlyBot's instructions; you do these):", bold=True))
    ]
    for number, step in enumerate(steps[:10], start=1):
        elements.append(bk.section(bk.text(f"{number}. "), bk.text(_short(step.text, OPTION_TEXT_MAX))))
        if step.command:
            shown, cut = truncate(clean(step.command), COMMAND_MAX)
            elements.append(bk.preformatted(shown + ("…" if cut else "")))
        if step.warning:
            elements.append(bk.section(bk.text("Careful: ", bold=True), bk.text(step.warning, italic=True)))
    return bk.rich_text(*elements)


def _bot_words(words: tuple[str, ...]) -> dict[str, Any]:
    elements: list[dict[str, Any]] = [
        bk.section(
            bk.text("The Bot also wrote (its own words, not checked by FlyBot; not instructions to run):", bold=True)
        )
    ]
    for said in words[:5]:
        shown, cut = truncate(one_line(clean(without_commands(said))), OPTION_TEXT_MAX * 2)
        elements.append(bk.quote("“" + shown + ("…" if cut else "") + "”"))
    return bk.rich_text(*elements)


def _header(report: CardReport) -> str:
    if report.status == "resolved" and report.decision_source == "host":
        return HOST_RESOLVED_HEADER
    return _HEADERS.get(report.status, report.status)


def _outcome(report: CardReport) -> dict[str, Any]:
    when = f" at {format_utc(report.decided_at)}" if report.decided_at else ""
    if report.status == "resolved" and report.decision_source == "host":
        return bk.rich_text(
            bk.section(
                bk.text(
                    f"resolved: the host now has a usable backend (a later preflight from it found one{when}). "
                    "Nothing was approved."
                )
            )
        )
    who = [_who(report.decided_by)] if report.decided_by else [bk.text("someone")]
    verbs = {
        "approved_turn": "Approved danger-full-access for this turn of the session, by ",
        "approved_bot": "Approved danger-full-access for this Bot, by ",
        "resolved": "Marked resolved (fixed on the host; nothing was approved), by ",
    }
    parts = [bk.text(verbs.get(report.status, f"{report.status} by ")), *who, bk.text(when + ".")]
    sections = [bk.section(*parts)]
    if report.status == "approved_bot" and report.standing_approval_id:
        where = "on the host too" if report.grant_on_host else "contained commands only (not on the host)"
        sections.append(
            bk.section(
                bk.text("Standing approval "),
                bk.text(report.standing_approval_id, code=True),
                bk.text(
                    f" approves this Bot's escalations for {report.bot_approval_hours} hours: any command up to "
                    f"system, {where}. Destructive commands still ask."
                ),
            )
        )
    return bk.rich_text(*sections)


def _buttons(report: CardReport) -> dict[str, Any]:
    offered = {option.id for option in report.unlock}
    elements: list[dict[str, Any]] = []
    if "approve-turn" in offered:
        elements.append(
            bk.button(
                "Approve danger-full-access for this turn", REPORT_APPROVE_TURN_ACTION, report.id, style="primary"
            )
        )
    if "approve-bot" in offered:
        elements.append(bk.button("Approve danger-full-access for this Bot…", REPORT_APPROVE_BOT_ACTION, report.id))
    elements.append(bk.button("Mark resolved", REPORT_RESOLVE_ACTION, report.id))
    return {"type": "actions", "block_id": report_block_id(report.id), "elements": elements}


def _warning(report: CardReport) -> dict[str, Any] | None:
    """The hidden-characters warning over every piece of user text the DM shows."""
    single = {
        "Bot name": report.bot_name,
        "host": report.host,
        "session id": report.session_id,
        "file policy": report.mode,
        "reporter": "" if is_slack_user_id(report.reported_by) else report.reported_by or "",
        "blocked hosts": " ".join(host for host, _ in report.blocked_hosts[:10]),
        "backends": " ".join([*report.missing[:10], *(f.backend for f in report.findings[:10])]),
    }
    multi = {
        "error text": "\n".join(f.error for f in report.findings[:10]),
        "Bot's own words": "\n".join(report.bot_words[:5]),
    }
    return hidden_text_warning(multi, single, subject="report")


def report_dm(report: CardReport) -> CardMessage:
    """The DM to one owner (layout in the module docstring); at most 10 blocks."""
    blocks: list[dict[str, Any]] = [bk.header(_header(report))]
    warning = _warning(report)
    if warning is not None:
        blocks.append(warning)
    blocks += [_facts(report), _missing(report)]
    is_open = report.status == "open"
    if is_open:
        blocks.append(
            bk.mrkdwn_section(
                "*Your decision.* Installing bubblewrap, changing the session's file policy or approving "
                "danger-full-access is yours to choose, not the agent's: FlyBot grants nothing on its own, "
                "and the Bot does not retry. Approving *for this Bot* saves a standing approval for "
                f"{report.bot_approval_hours} hours (destructive commands still ask)."
            )
        )
    resolved_by_host = report.status == "resolved" and report.decision_source == "host"
    if report.instructions and not resolved_by_host:
        blocks.append(_instructions(report.instructions))
    if report.bot_words:
        blocks.append(_bot_words(report.bot_words))
    if not is_open:
        blocks.append(_outcome(report))
    times = f"first seen {format_utc(report.first_seen)}, last seen {format_utc(report.last_seen)}"
    blocks.append(bk.context(bk.plain(f"Report {report.id} · reported {report.count}× · {times}")))
    if is_open:
        blocks.append(_buttons(report))
    name, host = mrkdwn_escape(_short(report.bot_name, 80)), mrkdwn_escape(_short(report.host, 80))
    outcome = "" if is_open else f" ({_header(report).lower()})"
    text = f"{name} is blocked on host {host}: no usable sandbox backend{outcome}"
    return CardMessage(text=text[:3900], blocks=blocks)


def report_grant_modal(report_id: str, bot_name: str, hours: int) -> dict[str, Any]:
    """The confirmation modal of "Approve danger-full-access for this Bot".

    It says what the grant covers and has one checkbox (block :data:`REPORT_GRANT_HOST_BLOCK`, value
    :data:`REPORT_GRANT_HOST_VALUE`), unticked: the standing approval covers host (not contained) commands only
    when the owner ticks it. ``callback_id`` :data:`REPORT_GRANT_CALLBACK`; ``private_metadata`` carries the
    report id as JSON.
    """
    name = _short(bot_name, 80)
    return {
        "type": "modal",
        "callback_id": REPORT_GRANT_CALLBACK,
        "private_metadata": json.dumps({"report_id": report_id}),
        "title": bk.plain("Approve for this Bot"),
        "submit": bk.plain("Approve"),
        "close": bk.plain("Cancel"),
        "blocks": [
            bk.rich_text(
                bk.section(
                    bk.text(
                        f"For {hours} hours, every escalation of {name} up to system risk is approved without asking. "
                        "Destructive commands still ask. Unless you tick the box below, only commands that run contained "
                        "(in the sandbox) are covered: nothing that runs on the host."
                    )
                )
            ),
            {
                "type": "input",
                "block_id": REPORT_GRANT_HOST_BLOCK,
                "optional": True,
                "label": bk.plain("Host commands"),
                "element": {
                    "type": "checkboxes",
                    "action_id": REPORT_GRANT_HOST_INPUT,
                    "options": [
                        {
                            "text": bk.plain("Also approve commands that run on the host (not contained)"),
                            "value": REPORT_GRANT_HOST_VALUE,
                        }
                    ],
                },
            },
        ],
    }
