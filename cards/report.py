"""The blocked-host report DM (issue 5): pure functions, no I/O, no clock.

Layout of :func:`report_dm` (top to bottom):

1. ``header`` — "Blocked: no usable sandbox backend", or the outcome once decided.
2. ``rich_text`` — which Bot, which host, which session and mode; where the report came from.
3. ``rich_text`` — what is missing (backend labels), or "not reported".
4. open only: ``section`` (mrkdwn, FlyBot's words) — the decision is the owner's; FlyBot grants nothing itself.
5. ``rich_text`` — the host-side options as instructions, each exact command in ``rich_text_preformatted``.
6. decided only: ``rich_text`` — who decided, when, and for "this Bot" the standing approval it created.
7. ``context`` — report id, how many times it was reported, first and last seen (UTC).
8. open only: ``actions`` (``block_id`` ``report:<id>``) — "Approve danger-full-access for this turn", "… for this
   Bot" (each only when the report offered it; the Bot-wide one asks for confirmation) and "Mark resolved";
   every button's ``value`` is the report id. Decided DMs have no buttons.

User text (Bot name, host, session, option phrases, commands) only goes into rich_text ``text`` elements and
``plain_text`` objects, which Slack shows literally; mrkdwn carries FlyBot's own wording only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cards import blocks as bk
from cards.approval import CardMessage
from cards.escape import mrkdwn_escape
from cards.text import clean, format_utc, is_slack_channel_id, is_slack_user_id, one_line, truncate

REPORT_APPROVE_TURN_ACTION = "report_approve_turn"
"""``action_id`` of "Approve danger-full-access for this turn"; ``value`` is the report id."""
REPORT_APPROVE_BOT_ACTION = "report_approve_bot"
"""``action_id`` of "Approve danger-full-access for this Bot"; ``value`` is the report id."""
REPORT_RESOLVE_ACTION = "report_resolve"
"""``action_id`` of "Mark resolved"; ``value`` is the report id."""
REPORT_BLOCK_PREFIX = "report:"

APPROVAL_OPTION_IDS = ("approve-turn", "approve-bot")
FIELD_MAX = 200
OPTION_TEXT_MAX = 300
COMMAND_MAX = 500
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


@dataclass(frozen=True, slots=True)
class CardUnlock:
    """One unlock option: the preflight's ``id`` and phrase, and the exact host command when one is known."""

    id: str
    text: str
    command: str | None = None


@dataclass(frozen=True, slots=True)
class CardReport:
    """A blocked-host report as the DM shows it.

    Attributes:
        status: ``open``, ``approved_turn``, ``approved_bot`` or ``resolved``.
        missing: backend wire names (``bubblewrap``, ``landlock``, ...); empty when not reported.
        source: ``api`` or ``chat``; ``reported_by`` / ``channel``: the Slack user and room of a chat report.
        bot_approval_hours: the lifetime of the "for this Bot" standing approval, for the wording.
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


def report_block_id(report_id: str) -> str:
    """``block_id`` of the DM's actions block: ``"report:<id>"``."""
    return f"{REPORT_BLOCK_PREFIX}{report_id}"


def _short(value: str, limit: int = FIELD_MAX) -> str:
    shown, cut = truncate(one_line(clean(value)), limit)
    return shown + ("…" if cut else "")


def _who(user_id: str) -> dict[str, Any]:
    return bk.user(user_id) if is_slack_user_id(user_id) else bk.text(user_id)


def _facts(report: CardReport) -> dict[str, Any]:
    first = bk.section(
        bk.text(_short(report.bot_name), bold=True), bk.text(" cannot run shell commands on host "),
        bk.text(_short(report.host), code=True),
        bk.text(": every shell call is refused with SANDBOX_UNAVAILABLE, so it handed the work on."),
    )
    second = bk.section(
        bk.text("Session "), bk.text(_short(report.session_id), code=True), bk.text(" · file policy "),
        bk.text(_short(report.mode, 40), code=True),
    )
    source = [bk.text("Reported through the session API.")]
    if report.source == "chat":
        source = [bk.text("Posted in ")]
        channel = report.channel or ""
        source.append(bk.channel(channel) if is_slack_channel_id(channel) else bk.text("a room"))
        if report.reported_by:
            source += [bk.text(" by "), _who(report.reported_by)]
        source.append(bk.text(" (a chat report: check that it really comes from this Bot)."))
    return bk.rich_text(first, second, bk.section(*source))


def _missing(report: CardReport) -> dict[str, Any]:
    if not report.missing:
        return bk.rich_text(bk.section(bk.text("Missing: ", bold=True), bk.text("not reported", italic=True)))
    items = [bk.section(bk.text(_short(BACKEND_LABELS.get(name, name)))) for name in report.missing[:10]]
    return bk.rich_text(bk.section(bk.text("Missing:", bold=True)), bk.bullets(items))


def host_options(report: CardReport) -> tuple[CardUnlock, ...]:
    """The options done on the host or the session, not by a click (everything but the two approvals)."""
    return tuple(option for option in report.unlock if option.id not in APPROVAL_OPTION_IDS)


def _instructions(options: tuple[CardUnlock, ...]) -> dict[str, Any]:
    elements: list[dict[str, Any]] = [bk.section(bk.text("On the host or the session (you do these):", bold=True))]
    for number, option in enumerate(options[:10], start=1):
        elements.append(bk.section(bk.text(f"{number}. "), bk.text(_short(option.text, OPTION_TEXT_MAX))))
        if option.command:
            shown, cut = truncate(clean(option.command), COMMAND_MAX)
            elements.append(bk.preformatted(shown + ("…" if cut else "")))
    return bk.rich_text(*elements)


def _outcome(report: CardReport) -> dict[str, Any]:
    when = f" at {format_utc(report.decided_at)}" if report.decided_at else ""
    who = [_who(report.decided_by)] if report.decided_by else [bk.text("someone")]
    verbs = {
        "approved_turn": "Approved danger-full-access for this turn of the session, by ",
        "approved_bot": "Approved danger-full-access for this Bot, by ",
        "resolved": "Marked resolved (fixed on the host; nothing was approved), by ",
    }
    parts = [bk.text(verbs.get(report.status, f"{report.status} by ")), *who, bk.text(when + ".")]
    sections = [bk.section(*parts)]
    if report.status == "approved_bot" and report.standing_approval_id:
        sections.append(bk.section(
            bk.text("Standing approval "), bk.text(report.standing_approval_id, code=True),
            bk.text(f" approves this Bot's escalations for {report.bot_approval_hours} hours: any command up to "
                    "system, on the host too. Destructive commands still ask."),
        ))
    return bk.rich_text(*sections)


def _buttons(report: CardReport) -> dict[str, Any]:
    offered = {option.id for option in report.unlock}
    elements: list[dict[str, Any]] = []
    if "approve-turn" in offered:
        elements.append(bk.button("Approve danger-full-access for this turn", REPORT_APPROVE_TURN_ACTION, report.id,
                                  style="primary"))
    if "approve-bot" in offered:
        button = bk.button("Approve danger-full-access for this Bot", REPORT_APPROVE_BOT_ACTION, report.id)
        button["confirm"] = {
            "title": bk.plain("Approve for this Bot?"),
            "text": bk.plain(
                f"For {report.bot_approval_hours} hours, every escalation of {_short(report.bot_name, 80)} up to "
                "system risk is approved without asking, on the host too. Destructive commands still ask."
            ),
            "confirm": bk.plain("Approve"),
            "deny": bk.plain("Cancel"),
        }
        elements.append(button)
    elements.append(bk.button("Mark resolved", REPORT_RESOLVE_ACTION, report.id))
    return {"type": "actions", "block_id": report_block_id(report.id), "elements": elements}


def report_dm(report: CardReport) -> CardMessage:
    """The DM to one owner (layout in the module docstring); at most 9 blocks."""
    blocks: list[dict[str, Any]] = [bk.header(_HEADERS.get(report.status, report.status)), _facts(report),
                                    _missing(report)]
    is_open = report.status == "open"
    if is_open:
        blocks.append(bk.mrkdwn_section(
            "*Your decision.* Installing bubblewrap, changing the session's file policy or approving "
            "danger-full-access is yours to choose, not the agent's: FlyBot grants nothing on its own, "
            "and the Bot does not retry. Approving *for this Bot* saves a standing approval for "
            f"{report.bot_approval_hours} hours (destructive commands still ask)."
        ))
    options = host_options(report)
    if options:
        blocks.append(_instructions(options))
    if not is_open:
        blocks.append(_outcome(report))
    times = f"first seen {format_utc(report.first_seen)}, last seen {format_utc(report.last_seen)}"
    blocks.append(bk.context(bk.plain(f"Report {report.id} · reported {report.count}× · {times}")))
    if is_open:
        blocks.append(_buttons(report))
    name, host = mrkdwn_escape(_short(report.bot_name, 80)), mrkdwn_escape(_short(report.host, 80))
    outcome = "" if is_open else f" ({_HEADERS.get(report.status, report.status).lower()})"
    text = f"{name} is blocked on host {host}: no usable sandbox backend{outcome}"
    return CardMessage(text=text[:3900], blocks=blocks)
