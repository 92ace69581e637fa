"""A stored blocked-host report as its owner DM model (pure): FlyBot's words from its own catalogue, never the Bot's.

The host instructions come only from ``bot.preflight.catalogue``, keyed by the unlock option's
id and the host's OS family; when the report names causes, only the catalogue's options for those causes are
shown. Options the catalogue does not know (id ``other``) and text FlyBot could not read are the Bot's words: they
go to ``CardReport.bot_words`` (shown quoted), never to instructions, and a command the Bot sent is never shown.
Used by every path that draws the DM (``bot/slack/reports.py`` today). Imports only pure modules (the catalogue,
the causes, the store's records, cards), so a delivery worker may use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.preflight.catalogue import APPROVAL_IDS, CATALOGUE
from bot.preflight.causes import cause_text, unlock_ids
from bot.store import Bot
from bot.store.reports import Report
from cards import CardFinding, CardInstruction, CardReport, CardUnlock

BACKEND_NAMES = {
    "bubblewrap": "bubblewrap",
    "landlock": "Landlock",
    "sandbox-exec": "sandbox-exec",
    "windows-acl": "Windows ACL runner",
}
POLICY_ID = "change-file-policy"
BOT_APPROVAL_HOURS = 24
"""Lifetime in hours of the "for this Bot" standing approval, for the DM's wording; the service's
``bot.reports.BOT_APPROVAL_EXPIRY`` is the same duration (a test checks). Kept here so that drawing a DM imports
no domain service (DESIGN.md: delivery -> store + chat port + cards)."""


def instruction_ids(report: Report) -> list[str]:
    """The catalogue ids to show: for each missing backend, the options for its cause (a backend without a cause
    gets the generic ones: install bubblewrap, a Landlock kernel); with no findings at all, the Bot's own ids that
    the catalogue knows; the file-policy change last when the Bot offered it."""
    ids: list[str] = []
    for finding in report.findings:
        ids += [i for i in unlock_ids(finding.backend, finding.cause) if i not in ids]
    offered = [o.id for o in report.unlock]
    if not report.findings:
        ids = [i for i in dict.fromkeys(offered) if i in CATALOGUE and i not in APPROVAL_IDS and i != POLICY_ID]
    if POLICY_ID in offered:
        ids.append(POLICY_ID)
    return ids


def instructions(report: Report) -> tuple[CardInstruction, ...]:
    """FlyBot's own steps for the report (see the module docstring), with the command for the host's OS."""
    steps: list[CardInstruction] = []
    for option_id in instruction_ids(report):
        entry = CATALOGUE[option_id]
        command = entry.command_for(report.host_os)
        text = entry.text if command or not entry.fallback else f"{entry.text}: {entry.fallback}"
        steps.append(CardInstruction(text, command, entry.warning if command else None))
    return tuple(steps)


def bot_words(report: Report) -> tuple[str, ...]:
    """The Bot's own words FlyBot does not know: unknown options' text, and the note it could not read."""
    words = [o.text for o in report.unlock if o.id not in CATALOGUE and o.text]
    if report.note:
        words.append(report.note)
    return tuple(dict.fromkeys(words))


def to_card_report(report: Report, bot: Bot, blocked_hosts: Sequence[tuple[str, datetime]] = ()) -> CardReport:
    """The DM model of ``report`` (cards/ knows nothing of the store or the catalogue)."""
    findings = tuple(
        CardFinding(BACKEND_NAMES.get(f.backend, f.backend), cause_text(f.backend, f.cause, f.abi), f.error)
        for f in report.findings
    )
    return CardReport(
        id=report.id,
        bot_name=bot.name,
        host=report.host,
        session_id=report.session_id,
        mode=report.mode,
        missing=report.missing,
        unlock=tuple(CardUnlock(o.id, o.text) for o in report.unlock),
        status=report.status,
        count=report.count,
        first_seen=report.first_seen,
        last_seen=report.last_seen,
        source=report.source,
        reported_by=report.reported_by,
        channel=report.channel,
        decided_by=report.decided_by,
        decided_at=report.decided_at,
        standing_approval_id=report.standing_approval_id,
        bot_approval_hours=BOT_APPROVAL_HOURS,
        findings=findings,
        instructions=instructions(report),
        bot_words=bot_words(report),
        blocked_hosts=tuple(blocked_hosts),
        decision_source=report.decision_source,
        grant_on_host=report.grant_on_host,
    )
