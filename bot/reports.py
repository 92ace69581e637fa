"""Blocked-host reports: a Bot whose host has no usable sandbox backend reports once; its owners decide.

A Bot whose every shell call is refused with ``SANDBOX_UNAVAILABLE`` reports one line and hands the work on (it
does not retry). FlyBot forwards the report to the Bot's owners by DM; the owner's choice comes back like a decision:

- ``approve_turn`` -> status ``approved_turn`` (danger-full-access for the reporting session's current turn);
- ``approve_bot`` -> status ``approved_bot`` AND a Bot-scoped standing approval (pattern ``*``, up to ``system``,
  expiring after :data:`BOT_APPROVAL_EXPIRY`) that covers contained commands only, unless the owner ticked "also
  on the host" in the confirmation modal; standing approvals never cover destructive
  commands, so those still ask;
- ``resolve`` -> status ``resolved`` (the owner fixed the host: bubblewrap, a Landlock kernel, the file policy).

Rules: only the Bot's owners and FlyBot admins decide (as for escalations); the first
decision wins (compare-and-set in the store); FlyBot never grants anything on its own; a second report of the same
Bot and host while one is open folds into it (count + 1) instead of sending another DM. Every report, fold,
decision and refusal is audited (``store.audit``, ``report_id`` in the detail) and logged.

Report line format (chat messages and ``POST /v1/reports`` ``line``), one line::

    blocked: no usable sandbox backend bot=NAME host=HOST session=ID [mode=MODE] [| TAIL]
    sandbox-preflight: <mode> is UNAVAILABLE: ...          (the preflight's blocked line alone; API only)

- fields are ``key=value`` words separated by spaces, each key at most once: ``bot`` (the Bot's name or id),
  ``host``, ``session``, ``mode`` (``read-only`` or ``workspace-write``); values are 1-200 characters without
  whitespace, ``|`` or ``=``; other keys are refused;
- ``TAIL`` (after ``|``, or after a space when it starts with ``sandbox-preflight:`` or ``Unlock:``) is either the
  preflight's blocked one-line report verbatim (``bot.preflight.line`` grammar: mode, missing backends, unlock
  options) or just ``Unlock: <option>[; <option>...].`` with the preflight's option phrases;
- without a tail, the missing backends are "not reported" and the unlock options default to approving
  danger-full-access for the turn or the Bot, or changing the session's file policy;
- a chat report MUST carry ``bot``, ``host`` and ``session`` (chat messages carry no FlyBot token); over the API the
  token names the Bot (a ``bot=`` field must then match it) and ``host``/``session_id``/``mode`` may come from the
  JSON body instead; where both give a value they must agree.
"""

from __future__ import annotations

import math
import re
import time
import uuid
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import structlog

from bot.errors import AlreadyDecided, InvalidRequest, NotAllowed, NotFound, RateLimited
from bot.groups import owns
from bot.metrics import Metrics
from bot.preflight import BlockedLineParseError, Finding, SandboxMode, UnlockOption, parse_one_line
from bot.preflight.catalogue import family_from_commands, family_of, id_of_phrase
from bot.preflight.decide import APPROVE_BOT, APPROVE_TURN, CHANGE_FILE_POLICY
from bot.preflight.line import APPROVE_BOTH_TEXT
from bot.preflight.line import PREFIX as PREFLIGHT_PREFIX
from bot.standing import OWN_CHAT_IDENTITY, StandingService, StandingSpec, log_created
from bot.store import Bot, StandingApproval, Store, Tx
from bot.store.admission import AdmissionLimits
from bot.store.reports import NewReport, Report, ReportFinding
from bot.waiters import WaiterHub, long_poll

log = structlog.get_logger("flybot.reports")

BLOCKED_PREFIX = "blocked: no usable sandbox backend"
FIELD_KEYS = ("bot", "host", "session", "mode", "os")
MAX_LINE_CHARS = 4000
MAX_UNLOCK_OPTIONS = 12
BOT_APPROVAL_EXPIRY = "24h"
"""Lifetime of the standing approval "for this Bot" creates: a day, so a forgotten grant does not linger."""
REPORTS_PER_MINUTE = 10
"""Reports (new or folded) one Bot may send in any 60 s, on this replica; more are refused ``429`` with
``Retry-After``. A Bot reports once per blocked host and then stops, so only a Bot flooding its owners' DMs (a new
``host`` every request) reaches it."""
MAX_OPEN_REPORTS = 8
"""Blocked hosts one Bot may have open at once; a report of another host is refused ``429`` until one closes (an
owner's decision, or a usable preflight from that host). Each open report holds one DM per owner, redrawn when the
Bot's list of blocked hosts changes."""
RECHECK_S = 2.0
"""Default interval of the long-polls' safety net (seconds): one store query for all waiters of a replica."""

CHOICES: dict[str, str] = {"approve_turn": "approved_turn", "approve_bot": "approved_bot", "resolve": "resolved"}
"""An owner's choice -> the report status it records."""

DEFAULT_UNLOCK = (APPROVE_TURN, APPROVE_BOT, CHANGE_FILE_POLICY)
"""Unlock options assumed when the report did not list any (nothing host-specific can be known)."""

_VALUE = re.compile(r"[^\s|=]{1,200}")
_LOOSE_PREFLIGHT = re.compile(r"sandbox-preflight: (?P<mode>\S+) is UNAVAILABLE:")
MAX_NOTE_CHARS = 600
_SLACK_LINK = re.compile(r"<(?:[^<>|]*)\|([^<>]*)>|<((?:https?|mailto):[^<>|]*)>")
_OPTION_COMMAND = re.compile(r"(?P<text>.+?) \(`(?P<command>[^`]+)`\)")
_BLOCKABLE = tuple(mode.value for mode in SandboxMode if mode.needs_backend)


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


# -- parsing (pure) ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ReportLine:
    """What a report line (or a preflight JSON document) says; None where it says nothing.

    ``unlock`` is None when no option was given (then :data:`DEFAULT_UNLOCK` applies); ``missing`` is empty when
    the backends were not reported.
    """

    bot: str | None = None
    host: str | None = None
    session: str | None = None
    mode: str | None = None
    preflight_mode: str | None = None
    missing: tuple[str, ...] = ()
    unlock: tuple[UnlockOption, ...] | None = None
    findings: tuple[Finding, ...] = ()
    os: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class BlockedReport:
    """A validated report, ready for :meth:`ReportService.report`.

    ``source`` is ``api`` or ``chat``; a chat report also names the Slack user who posted it and the room.
    """

    host: str
    session_id: str
    mode: str
    missing: tuple[str, ...]
    unlock: tuple[UnlockOption, ...]
    source: str
    reported_by: str | None = None
    channel: str | None = None
    findings: tuple[Finding, ...] = ()
    host_os: str | None = None
    note: str | None = None


def slack_plain(text: str) -> str:
    """Slack message text back to what was typed: ``&amp; &lt; &gt;`` decoded, auto-links unwrapped to their label.

    Slack escapes those three characters in message events and turns ``ci-7.example.com`` into
    ``<http://ci-7.example.com|ci-7.example.com>``; the label is what the Bot wrote.
    """
    unwrapped = _SLACK_LINK.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), text)
    return unwrapped.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _bad(detail: str, field: str = "line") -> InvalidRequest:
    return InvalidRequest(detail, field=field)


def _parse_option(phrase: str) -> tuple[UnlockOption, ...]:
    if phrase == APPROVE_BOTH_TEXT:
        return (APPROVE_TURN, APPROVE_BOT)
    found = _OPTION_COMMAND.fullmatch(phrase)
    text, command = (found["text"], found["command"]) if found else (phrase, None)
    return (UnlockOption(id_of_phrase(text) or "other", text, command),)


def parse_unlock_text(text: str) -> tuple[UnlockOption, ...]:
    """``Unlock: a; b (`cmd`); c.`` -> the options (the preflight's phrases; unknown ones get id ``other``).

    Raises:
        InvalidRequest (field ``line``): no option, an empty one, or more than :data:`MAX_UNLOCK_OPTIONS`.
    """
    body = text.strip().removeprefix("Unlock:").strip().removesuffix(".").strip()
    phrases = [part.strip() for part in body.split("; ")]
    if not body or not all(phrases):
        raise _bad("the Unlock: list is empty or has an empty option (separate options with '; ')")
    options = tuple(option for phrase in phrases for option in _parse_option(phrase))
    if len(options) > MAX_UNLOCK_OPTIONS:
        raise _bad(f"at most {MAX_UNLOCK_OPTIONS} unlock options")
    return options


def _parse_fields(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for word in text.split():
        key, sep, value = word.partition("=")
        if not sep or key not in FIELD_KEYS:
            raise _bad(f"unexpected {word[:40]!r}: fields are bot=NAME host=HOST session=ID mode=MODE")
        if key in fields:
            raise _bad(f"field {key}= is given twice")
        if not _VALUE.fullmatch(value):
            raise _bad(f"field {key}= needs a value of 1-200 characters without spaces, '|' or '='")
        fields[key] = value
    return fields


def _split_tail(rest: str) -> tuple[str, str]:
    """``(fields, tail)``: the tail starts at the first ``|``, ``sandbox-preflight:`` or ``Unlock:``."""
    starts = [i for i in (rest.find("|"), rest.find(PREFLIGHT_PREFIX.strip()), rest.find("Unlock:")) if i >= 0]
    if not starts:
        return rest, ""
    cut = min(starts)
    tail = rest[cut:]
    return rest[:cut], (tail[1:] if tail.startswith("|") else tail).strip()


def parse_report_line(text: str) -> ReportLine:
    """Parse one report line (module grammar): fields, mode, missing backends and unlock options.

    Raises:
        InvalidRequest (field ``line``): not one line, too long, not a blocked report, a malformed field or tail,
            or a ``mode=`` that disagrees with the preflight line's mode.
    """
    line = text.strip()
    if not line:
        raise _bad("the line is empty")
    if "\n" in line or "\r" in line:
        raise _bad("a report is one line; got several")
    if len(line) > MAX_LINE_CHARS:
        raise _bad(f"the line is longer than {MAX_LINE_CHARS} characters")
    if line.startswith(PREFLIGHT_PREFIX):
        return _with_preflight(ReportLine(), line)
    if not line.startswith(BLOCKED_PREFIX):
        raise _bad(f"a report starts with {BLOCKED_PREFIX!r} or {PREFLIGHT_PREFIX.strip()!r}")
    rest = line[len(BLOCKED_PREFIX) :].removeprefix(".")
    if rest and not (rest[0].isspace() or rest[0] == "|"):
        raise _bad(f"a report starts with {BLOCKED_PREFIX!r} followed by a space")
    head, tail = _split_tail(rest)
    fields = _parse_fields(head)
    parsed = ReportLine(
        bot=fields.get("bot"),
        host=fields.get("host"),
        session=fields.get("session"),
        mode=fields.get("mode"),
        os=fields.get("os"),
    )
    if not tail:
        return parsed
    if tail.startswith("Unlock:"):
        return replace(parsed, unlock=parse_unlock_text(tail))
    if tail.startswith(PREFLIGHT_PREFIX):
        return _with_preflight(parsed, tail)
    raise _bad("after '|' comes the preflight's line (sandbox-preflight: ...) or 'Unlock: ...'")


def _with_preflight(parsed: ReportLine, line: str) -> ReportLine:
    """The preflight's blocked line as facts. A line that starts like one (``sandbox-preflight: MODE is
    UNAVAILABLE: ...``, as in docs/preflight.md's example) but does not follow the rest of the grammar still reports
    ``MODE``; its text is kept as the Bot's words (shown quoted) and nothing else is read from it."""
    try:
        blocked = parse_one_line(line)
    except BlockedLineParseError as exc:
        loose = _LOOSE_PREFLIGHT.match(line)
        if loose is None or loose["mode"] not in _BLOCKABLE:
            raise _bad(f"the preflight line: {exc}") from None
        return replace(parsed, preflight_mode=loose["mode"], note=line[:MAX_NOTE_CHARS])
    if len(blocked.unlock) > MAX_UNLOCK_OPTIONS:
        raise _bad(f"at most {MAX_UNLOCK_OPTIONS} unlock options")
    return replace(
        parsed,
        preflight_mode=blocked.mode.value,
        missing=blocked.missing_backends,
        unlock=blocked.unlock,
        findings=blocked.findings,
    )


def facts_from_preflight(doc: Mapping[str, Any]) -> ReportLine:
    """A preflight ``--json`` document (already type-checked at the edge) as report facts.

    Shape: ``PreflightReport.to_json_dict()`` — ``{mode, platform, status, usable, unknown,
    backends: [{name, available, detail}], unlock: [{id, text, command?}]}``.

    Raises:
        InvalidRequest: ``preflight.status`` is not ``blocked``; ``preflight.mode`` is missing or
            ``danger-full-access``; ``preflight.backends`` lists a usable backend.
    """
    status = doc.get("status")
    if status != "blocked":
        raise _bad(
            f"the preflight says {status!r}: only a blocked preflight (no usable sandbox backend) is a report",
            "preflight.status",
        )
    mode = doc.get("mode")
    if mode not in _BLOCKABLE:
        raise _bad(f"a blocked preflight's mode is read-only or workspace-write, not {mode!r}", "preflight.mode")
    backends: Sequence[Mapping[str, Any]] = doc.get("backends") or ()
    if any(b.get("available") is True for b in backends):
        raise _bad("a blocked preflight cannot list a usable backend", "preflight.backends")
    unlock = tuple(
        UnlockOption(str(u["id"]), str(u["text"]), str(u["command"]) if u.get("command") else None)
        for u in doc.get("unlock") or ()
    )
    missing = [b for b in backends if b.get("available") is False]
    findings = tuple(
        Finding(
            str(b["name"]),
            str(b["cause"]) if b.get("cause") else None,
            str(b.get("error") or ""),
            b["abi"] if isinstance(b.get("abi"), int) else None,
        )
        for b in missing
    )
    os_word = doc.get("os_family") or doc.get("os")
    return ReportLine(
        preflight_mode=str(mode),
        missing=tuple(str(b["name"]) for b in missing),
        unlock=unlock or None,
        findings=findings,
        os=str(os_word) if os_word else None,
    )


def _agree(field: str, *values: str | None) -> str | None:
    given = {v for v in values if v is not None}
    if len(given) > 1:
        raise _bad(f"{field} disagrees between the line and the body: {', '.join(sorted(given))}", field)
    return given.pop() if given else None


def build_report(
    bot: Bot,
    facts: ReportLine,
    *,
    host: str | None = None,
    session_id: str | None = None,
    mode: str | None = None,
    source: str = "api",
    reported_by: str | None = None,
    channel: str | None = None,
) -> BlockedReport:
    """Combine what the line (or preflight JSON) says with the body's fields for ``bot``.

    Raises:
        InvalidRequest: ``line``: it names another Bot; ``host``/``session_id``/``mode``: missing, or given
            differently by the line and the body; ``mode``: not ``read-only`` or ``workspace-write``.
    """
    if facts.bot is not None and facts.bot not in (bot.name, bot.id):
        raise _bad(f"the line names Bot {facts.bot!r}, but this report is from {bot.name!r}")
    the_host = _agree("host", facts.host, host)
    the_session = _agree("session_id", facts.session, session_id)
    the_mode = _agree("mode", facts.mode, facts.preflight_mode, mode)
    if the_host is None:
        raise _bad("the report does not say which host (host=HOST in the line, or 'host' in the body)", "host")
    if the_session is None:
        raise _bad("the report does not say which session (session=ID in the line, or 'session_id')", "session_id")
    if the_mode is None:
        raise _bad("the report does not say the session's mode (mode=, the preflight line, or 'mode')", "mode")
    if the_mode not in _BLOCKABLE:
        raise _bad(f"mode {the_mode!r}: only read-only and workspace-write need a sandbox backend", "mode")
    return BlockedReport(
        host=the_host,
        session_id=the_session,
        mode=the_mode,
        missing=facts.missing,
        unlock=facts.unlock or DEFAULT_UNLOCK,
        source=source,
        reported_by=reported_by,
        channel=channel,
        findings=facts.findings,
        note=facts.note,
        host_os=family_of(facts.os) or family_from_commands((o.id, o.command) for o in facts.unlock or ()),
    )


def parse_chat_report(text: str) -> ReportLine:
    """A room message's text (Slack-escaped) as a report line that names its Bot, host and session.

    Raises:
        InvalidRequest: malformed (see :func:`parse_report_line`), or ``bot=``, ``host=`` or ``session=`` missing.
    """
    facts = parse_report_line(slack_plain(text))
    absent = [key for key, value in (("bot", facts.bot), ("host", facts.host), ("session", facts.session)) if not value]
    if absent:
        raise _bad("a chat report needs " + ", ".join(f"{key}=" for key in absent))
    return facts


# -- the service ------------------------------------------------------------------------------------------------
def dm_room(bot: Bot) -> str:
    """The pacing key of a report's DM redraws: the first owner's DM."""
    return f"user:{bot.owners[0]}" if bot.owners else "user:"


def already_text(report: Report) -> str:
    """``already <status> by <who> at <when> UTC``: why a decision on a decided report is refused."""
    who = f" by {report.decided_by}" if report.decided_by else ""
    when = f" at {report.decided_at:%Y-%m-%d %H:%M:%S} UTC" if report.decided_at else ""
    return f"already {report.status}{who}{when}"


class ReportService:
    """Records blocked-host reports (folding duplicates) with one DM job per owner, records exactly one decision
    (with its audit row and the DMs' redraw jobs, in one transaction) and wakes waiters. No chat port: the DMs are
    outbox jobs that ``bot/delivery`` sends (drawing each DM with the Bot's blocked hosts as they are then).

    Args:
        store: Bots, the reports, the audit log and the outbox (every write goes through ``store.transaction()``).
        waiters: wakes ``GET /v1/reports/{id}?wait=`` long-polls (its own hub: keys are report ids).
        admins: ``FLYBOT_ADMINS`` (they may decide any Bot's reports, as they may its escalations).
        standing: creates the Bot-scoped standing approval of an ``approved_bot`` decision.
        clock: aware UTC now.
    """

    def __init__(
        self,
        store: Store,
        waiters: WaiterHub,
        *,
        admins: frozenset[str],
        standing: StandingService,
        clock: Callable[[], datetime] = utcnow,
        metrics: Metrics | None = None,
        recheck_s: float = RECHECK_S,
        limits: AdmissionLimits | None = None,
    ) -> None:
        self.limits = limits  # the DMs' queue cap (FLYBOT_ROOM_QUEUE_MAX), as for approval cards in a room
        self.recheck_s = recheck_s
        self.metrics = metrics
        self.store = store
        self.waiters = waiters
        self.admins = admins
        self.standing = standing
        self.clock = clock
        self.closing = False
        self._sent: dict[str, deque[float]] = {}  # bot id -> monotonic times of its reports in the last 60 s

    # -- report ----------------------------------------------------------------------------------------------
    async def report(self, bot: Bot, blocked: BlockedReport) -> tuple[Report, bool]:
        """Record ``blocked`` for ``bot``; returns ``(report, created)``.

        New: the owners get a DM each (``delivered`` counts them; 0 is audited ``report.undeliverable``). While a
        report of the same Bot and host is open, this one folds into it: count + 1, no DM (the DMs are redrawn).

        Raises:
            RateLimited: (429, ``Retry-After``) the Bot sent :data:`REPORTS_PER_MINUTE` reports in the last minute,
                or already has :data:`MAX_OPEN_REPORTS` blocked hosts open and this is another; nothing is recorded.
            RoomBusy: (429 ``room_busy``, ``Retry-After``) an owner's DM already has ``FLYBOT_ROOM_QUEUE_MAX``
                messages waiting to be posted (reports and redraws count as approval cards do in a room, shared
                between Bots the same way); nothing is recorded.
        """
        self._admit(bot)
        now = self.clock()
        new = NewReport(
            id="rep_" + uuid.uuid4().hex[:24],
            bot_id=bot.id,
            host=blocked.host,
            session_id=blocked.session_id,
            mode=blocked.mode,
            missing=blocked.missing,
            unlock=tuple(o for o in blocked.unlock),
            at=now,
            source=blocked.source,
            reported_by=blocked.reported_by,
            channel=blocked.channel,
            findings=tuple(ReportFinding(f.backend, f.cause, f.error[:300], f.abi) for f in blocked.findings),
            host_os=blocked.host_os,
            note=blocked.note,
        )
        async with self.store.transaction() as tx:
            await self._admit_dms(tx, bot, now)
            open_now = await tx.open_reports(bot.id)
            if len(open_now) >= MAX_OPEN_REPORTS and all(r.host != blocked.host for r in open_now):
                raise RateLimited(
                    f"this Bot already has {len(open_now)} blocked hosts reported and open, the most it may have "
                    f"({MAX_OPEN_REPORTS}): its owners decide them (or a usable preflight closes one) first",
                    reason="reports",
                    retry_after=60,
                )
            report, created = await tx.record_report(new)
            detail: dict[str, Any] = {
                "report_id": report.id,
                "host": blocked.host,
                "session_id": blocked.session_id,
                "source": blocked.source,
                "reported_by": blocked.reported_by,
            }
            if not created:
                await tx.audit("report.folded", at=now, actor=bot.id, count=report.count, **detail)
                if report.dms:
                    await tx.enqueue_redraw("report.update", ref=report.id, room=dm_room(bot), at=now)
            else:
                await tx.audit(
                    "report.received", at=now, actor=bot.id, mode=blocked.mode, missing=list(blocked.missing), **detail
                )
                for owner in bot.owners:
                    await tx.enqueue("report.dm", ref=report.id, room=f"user:{owner}", at=now, payload={"owner": owner})
                await self._redraw_others(tx, bot, report.id, now)
        bound = log.bind(report_id=report.id, bot_id=bot.id, session_id=blocked.session_id, host=blocked.host)
        if not created:
            bound.info("report.folded", count=report.count, source=blocked.source)
        else:
            bound.info("report.received", mode=blocked.mode, missing=list(blocked.missing), source=blocked.source)
        if self.metrics is not None:
            self.metrics.blocked_reports.labels("new" if created else "folded").inc()
        return report, created

    def _admit(self, bot: Bot) -> None:
        """Count one report of ``bot`` against :data:`REPORTS_PER_MINUTE` (a sliding minute, this replica), or raise
        :class:`RateLimited` with the seconds until the oldest counted report leaves the minute."""
        now = time.monotonic()
        sent = self._sent.setdefault(bot.id, deque())
        while sent and now - sent[0] >= 60.0:
            sent.popleft()
        if len(sent) >= REPORTS_PER_MINUTE:
            raise RateLimited(
                f"this Bot sent {len(sent)} blocked-host reports in the last minute, the most it may send "
                f"({REPORTS_PER_MINUTE}): report each blocked host once",
                reason="reports",
                retry_after=max(1, math.ceil(60.0 - (now - sent[0]))),
            )
        sent.append(now)
        if len(self._sent) > 10_000:  # Bots that stopped reporting: forget their empty windows
            for bot_id in [b for b, times in self._sent.items() if not times or now - times[-1] >= 60.0]:
                del self._sent[bot_id]

    async def _admit_dms(self, tx: Tx, bot: Bot, now: datetime) -> None:
        """Check the queue of every DM a report of ``bot`` writes to (each owner's, and the redraws' pacing key) against
        the room queue cap (:meth:`bot.store.Tx.admit_card`), taking their locks first in a fixed order (PostgreSQL:
        exact across replicas, never a cycle).

        Raises:
            RoomBusy: (429 ``room_busy``) one of them is full, or this Bot holds its share of it."""
        limits = self.limits
        if limits is None or limits.room_queue <= 0:
            return
        rooms = sorted({f"user:{owner}" for owner in bot.owners} | {dm_room(bot)})
        for room in rooms:
            await tx.lock_room(room)
        for room in rooms:
            await tx.admit_card(room, bot.id, limits, now, what="messages (blocked-host reports, approval cards)")

    @staticmethod
    async def _redraw_others(tx: Tx, bot: Bot, changed_id: str, now: datetime) -> None:
        """Queue the redraw of the Bot's other open reports' DMs: their list of blocked hosts changed."""
        for other in await tx.open_reports(bot.id):
            if other.id != changed_id and other.dms:
                await tx.enqueue_redraw("report.update", ref=other.id, room=dm_room(bot), at=now)

    async def host_usable(self, bot: Bot, host: str) -> Report | None:
        """A later usable preflight from ``host``: the Bot's open report for that host closes by itself as
        ``resolved`` (decision source ``host``: "the host now has a usable backend"), its DMs say so and its
        long-polls wake. Returns the resolved report, or None when none was open (nothing changes)."""
        now = self.clock()
        async with self.store.transaction() as tx:
            resolved = await tx.resolve_open_report(bot.id, host, at=now)
            if resolved is not None:
                await tx.audit(
                    "report.resolved_by_host",
                    at=now,
                    actor=bot.id,
                    report_id=resolved.id,
                    host=host,
                    session_id=resolved.session_id,
                )
                await tx.enqueue_redraw("report.update", ref=resolved.id, room=dm_room(bot), at=now)
                await self._redraw_others(tx, bot, resolved.id, now)
        if resolved is None:
            return None
        log.info(
            "report.resolved_by_host", report_id=resolved.id, bot_id=bot.id, host=host, session_id=resolved.session_id
        )
        self.waiters.notify(resolved.id)
        return resolved

    async def blocked_hosts(self, bot: Bot) -> list[tuple[str, datetime]]:
        """``(host, blocked since)`` for each of the Bot's hosts with an open report, oldest first (for the DM)."""
        return [(report.host, report.first_seen) for report in await self.store.open_reports(bot.id)]

    # -- read ------------------------------------------------------------------------------------------------
    async def _get(self, report_id: str) -> Report:
        report = await self.store.get_report(report_id)
        if report is None:
            raise NotFound(f"no report {report_id}")
        return report

    async def get_for_bot(self, bot: Bot, report_id: str) -> Report:
        """The report if it is ``bot``'s. Raises :class:`NotFound` otherwise (no leak across Bots)."""
        report = await self.store.get_report(report_id)
        if report is None or report.bot_id != bot.id:
            raise NotFound(f"no report {report_id} for this Bot")
        return report

    async def wait(self, bot: Bot, report_id: str, wait_s: float) -> Report:
        """Long-poll: the report as soon as it is decided, or after ``wait_s`` seconds still ``open``.

        Raises :class:`NotFound` when it is not this Bot's, :class:`ShuttingDown` (503, retryable) once
        :meth:`shutdown` was called.
        """

        async def read() -> Report:
            report = await self.store.get_report_shared(report_id)
            if report is None or report.bot_id != bot.id:
                raise NotFound(f"no report {report_id} for this Bot")
            if not report.open:
                self.waiters.seen_settled(report_id)  # the long-polls held here learn it now, not at the recheck
            return report

        return await long_poll(
            self.waiters,
            report_id,
            read,
            settled=lambda r: not r.open,
            wait_s=wait_s,
            closing=lambda: self.closing,
        )

    def shutdown(self) -> None:
        """Graceful shutdown: every long-poll answers 503 ``shutting_down`` at once (the Bot polls again)."""
        self.closing = True
        self.waiters.notify_all()

    # -- decide ----------------------------------------------------------------------------------------------
    async def require_decider(self, report_id: str, actor: str) -> tuple[Report, Bot, str]:
        """``(report, bot, source)`` with source ``owner`` or ``admin``.

        Raises:
            NotFound: no such report, or its Bot is gone.
            NotAllowed: neither an owner of the Bot nor an admin (audited ``report.refused``; nothing changes).
            GroupCheckTooSlow: an owner group could not be read in time ("click again"; nothing changes).
        """
        report = await self._get(report_id)
        bot = await self.store.get_bot(report.bot_id)
        if bot is None:
            raise NotFound(f"the Bot of report {report_id} no longer exists")
        if actor in bot.owners:  # listed owners and admins never wait on Slack for an owner group
            return report, bot, "owner"
        if actor in self.admins:
            return report, bot, "admin"
        if await owns(bot, actor, self.standing.groups, in_time=True):  # owner groups' members too
            return report, bot, "owner"
        await self._refused(report, actor, "not_allowed")
        raise NotAllowed(f"only the owners of {bot.name} or an admin can decide this report")

    async def _refused(self, report: Report, actor: str, why: str, **extra: Any) -> None:
        await self.store.audit("report.refused", at=self.clock(), actor=actor, report_id=report.id, why=why, **extra)
        log.warning(
            "report.refused",
            why=why,
            report_id=report.id,
            bot_id=report.bot_id,
            session_id=report.session_id,
            actor=actor,
            **extra,
        )

    async def decide(self, report_id: str, *, actor: str, choice: str, include_host: bool = False) -> Report:
        """Record an owner's (or admin's) choice: ``approve_turn``, ``approve_bot`` or ``resolve``. First one wins.

        ONE transaction holds the decision (a compare-and-set), its audit row, the DMs' redraw jobs and, for
        ``approve_bot``, the Bot-scoped standing approval with its own audit row (validated and permitted first,
        ``StandingService.prepare``): a reader never sees ``approved_bot`` without its approval, nor an approval
        without its decision, whatever fails in between (a click is durable before it is
        acknowledged). If the compare-and-set loses to a concurrent decision, nothing of it is stored; a report
        already decided is refused before anything is made. The approval covers contained commands only unless
        ``include_host`` (the owner ticked it in the confirmation modal).

        Raises:
            InvalidRequest: an unknown choice (or, from ``StandingService.create``, a bad standing approval).
            NotFound: no such report.
            NotAllowed: not an owner or admin, or an approval the report did not offer (audited; nothing changes).
            AlreadyDecided: no longer open (audited; the first decision stands).
        """
        status = CHOICES.get(choice)
        if status is None:
            raise InvalidRequest(f"unknown choice {choice!r}", field="choice")
        report, bot, source = await self.require_decider(report_id, actor)
        if status != "resolved" and bot.chat_user is not None and actor == bot.chat_user:
            # The Bot's own chat identity never unlocks its own host, even when listed as an owner.
            await self._refused(report, actor, "requester", choice=choice)
            raise NotAllowed(OWN_CHAT_IDENTITY)
        offered = {option.id for option in report.unlock}
        wanted = {"approve_turn": APPROVE_TURN.id, "approve_bot": APPROVE_BOT.id}.get(choice)
        if wanted is not None and wanted not in offered:
            await self._refused(report, actor, "not_offered", choice=choice)
            raise NotAllowed(f"{bot.name} did not offer '{wanted}' as an unlock option for this report")
        if not report.open:
            await self._refused(report, actor, "already_decided", status=report.status)
            raise AlreadyDecided(already_text(report))
        on_host = include_host and status == "approved_bot"
        approval = await self._grant_bot(report, bot, actor, on_host) if status == "approved_bot" else None
        now = self.clock()
        # The decision, its audit row, the DMs' redraw and the approval it grants (with its audit row): one commit.
        async with self.store.transaction() as tx:
            decided = await tx.decide_report(
                report_id,
                status=status,
                at=now,
                decided_by=actor,
                source=source,
                standing_approval_id=approval.id if approval else None,
                grant_on_host=on_host,
            )
            if decided is not None:
                if approval is not None:
                    await self.standing.save_in(tx, approval)
                await tx.audit(
                    f"report.{status}",
                    at=now,
                    actor=actor,
                    report_id=report_id,
                    source=source,
                    bot_id=bot.id,
                    host=decided.host,
                    session_id=decided.session_id,
                    standing_id=decided.standing_approval_id,
                )
                await tx.enqueue_redraw("report.update", ref=report_id, room=dm_room(bot), at=now)
                await self._redraw_others(tx, bot, report_id, now)
        if decided is None:
            current = await self._get(report_id)
            await self._refused(current, actor, "already_decided", status=current.status)
            raise AlreadyDecided(already_text(current))
        if approval is not None:
            log_created(approval)
        log.info(
            f"report.{status}",
            report_id=report_id,
            bot_id=bot.id,
            session_id=decided.session_id,
            actor=actor,
            source=source,
            standing_id=decided.standing_approval_id,
        )
        self.waiters.notify(report_id)
        return decided

    async def _grant_bot(self, report: Report, bot: Bot, actor: str, on_host: bool) -> StandingApproval:
        """The Bot-scoped standing approval of "for this Bot" (rules in the module docstring), validated and
        permitted but not stored: :meth:`decide` stores it in the decision's transaction.

        Raises whatever ``StandingService.prepare`` raises (logged and audited ``report.standing_failed``); the
        report then stays open: nothing is recorded without its approval (fail closed).
        """
        spec = StandingSpec(
            scope="bot",
            subject=bot.id,
            pattern="*",
            max_risk="system",
            contained_only=not on_host,
            expires=BOT_APPROVAL_EXPIRY,
            note=f"danger-full-access for the Bot, granted from blocked report {report.id} (host {report.host})"[:500],
        )
        try:
            return await self.standing.prepare(actor, spec)
        except Exception as exc:
            log.warning(
                "report.standing_failed", report_id=report.id, bot_id=bot.id, actor=actor, error=type(exc).__name__
            )
            await self.store.audit(
                "report.standing_failed", at=self.clock(), actor=actor, report_id=report.id, error=type(exc).__name__
            )
            raise
