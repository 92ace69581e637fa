"""The ``/flybot`` slash command: ``help``, ``pending``, ``standing list|add|revoke`` and ``rule list|set|remove``.

Every answer is ephemeral (only the caller sees it). Refusals change nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import structlog
from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncRespond

from bot import standing_args
from bot.bots import USER_ID
from bot.errors import FlyBotError, NotFound
from bot.risk.hidden import plain_warning
from bot.slack.deps import SlackDeps
from bot.slack.home import GROUPS_UNCHECKED_TEXT, decidable_bots, publish_home
from bot.standing import StandingSpec
from bot.store import Bot, StandingApproval
from cards.standing import PENDING_PAGE, more_line
from cards.text import clean

log = structlog.get_logger("flybot.slack.commands")

ANSWER_BUDGET_S = 2.0
"""Seconds from the request's arrival (:data:`RECEIVED_KEY`; else from the listener's start) a ``/flybot`` answer may
take before the command is acknowledged with :data:`WORKING_TEXT` and the
answer follows through the command's ``response_url`` (Slack drops an acknowledgement later than 3 seconds and shows
the caller ``operation_timeout``, losing the answer). It exceeds :data:`bot.groups.LOOKUP_BUDGET_S`, so a group lookup
that gives up answers in the acknowledgement itself."""

WORKING_TEXT = "Working on it; the answer follows here in a moment."

RECEIVED_KEY = "flybot_received_at"
"""The bolt context key under which :func:`bot.slack.app.events_handler` leaves the :func:`time.monotonic` second the
HTTP request arrived (absent over Socket Mode)."""

REPLAY_KEY = "flybot_replay_key"
"""The bolt context key under which :func:`bot.slack.app.build_bolt_app`'s replay check leaves a slash command's
store key (its signature), for the listener to claim in :func:`claimed` rather than before the acknowledgement."""

STANDING_LIST_MAX = 30
"""At most this many standing approvals one ``/flybot standing list`` answer shows (then how many more)."""

HELP = (
    "*FlyBot* shows a Bot's owners an approval card when a coding-agent session asks to run one call with "
    "danger-full-access.\n"
    "• `/flybot help`: this text\n"
    "• `/flybot pending [PAGE]`: the escalations waiting for you, 20 a page\n"
    "• `/flybot standing list [--bot NAME | --room [#CHANNEL]]`: standing approvals\n"
    "• `/flybot standing add --bot NAME|--room [#CHANNEL] PATTERN [--max-risk LEVEL] [--host-ok] [--expires 7d] "
    "[--note TEXT]`\n"
    "   e.g. `/flybot standing add --bot builder apt-get install --expires 7d` (Bot owners or admins; "
    "`--room`: this channel, or the one named; admins only; destructive commands always ask)\n"
    "• `/flybot standing revoke ID`\n"
    "• `/flybot rule list`: program rules (how FlyBot grades programs it does not know)\n"
    "• `/flybot rule set PROGRAM [SUBCOMMAND] GRADE [NOTE]`, e.g. `/flybot rule set gcc workspace_write our "
    "compiler` (admins; GRADE: read_only, workspace_write, network, system or destructive)\n"
    "• `/flybot rule remove PROGRAM [SUBCOMMAND]`"
)
RULE_USAGE = (
    "Usage: `/flybot rule list`, `/flybot rule set PROGRAM [SUBCOMMAND] GRADE [NOTE]` or "
    "`/flybot rule remove PROGRAM [SUBCOMMAND]`."
)


async def rule_command(deps: SlackDeps, user: str, text: str) -> str:
    """Run ``rule ...`` for ``user``; returns the reply. Raises FlyBotError (nothing changes).

    ``set PROGRAM [SUBCOMMAND] GRADE [NOTE...]``: the grade is the second word, or the third when the second is no
    grade's name (then the second is the subcommand); the rest is the note.
    """
    from bot.errors import InvalidRequest
    from bot.program_rules import RuleSpec
    from bot.risk import RiskLevel

    words = text.split()
    action = words[0] if words else ""
    if action == "list" and len(words) == 1:
        rules = await deps.program_rules.list()
        if not rules:
            return "No program rules. An admin sets one with `/flybot rule set PROGRAM GRADE`."
        lines = [
            f"• `{r.words}` {r.grade}, set by {_who(r.set_by)}" + (f": {inert(r.note)}" if r.note else "")
            for r in rules[:STANDING_LIST_MAX]
        ]
        if len(rules) > STANDING_LIST_MAX:
            lines.append(
                more_line(
                    len(rules) - STANDING_LIST_MAX,
                    "program rules",
                    "`flybot rules list` on the FlyBot server lists them all.",
                )
            )
        return "Program rules:\n" + "\n".join(lines)
    if action == "remove" and len(words) in (2, 3):
        removed = await deps.program_rules.remove(user, words[1], words[2] if len(words) == 3 else None)
        return f"Removed the program rule on `{removed.words}` ({removed.grade}); FlyBot grades it as before."
    if action == "set" and len(words) >= 3:
        levels = {level.label for level in RiskLevel}
        subcommand = None
        rest = words[2:]
        if words[2] not in levels and len(words) >= 4:
            subcommand, rest = words[2], words[3:]
        if rest[0] not in levels:
            raise InvalidRequest(
                f"give a grade: one of {', '.join(level.label for level in RiskLevel)}. " + RULE_USAGE, field="grade"
            )
        rule = await deps.program_rules.set(
            user, RuleSpec(program=words[1], subcommand=subcommand, grade=rest[0], note=" ".join(rest[1:]) or None)
        )
        return f"Program rule saved: `{rule.words}` is graded {rule.grade}."
    raise InvalidRequest(RULE_USAGE)


def describe(approval: StandingApproval, bot_names: dict[str, str] | None = None) -> str:
    """One line about a standing approval (FlyBot's wording; the pattern is plain command words).

    ``bot_names`` maps Bot ids to names, so a Bot-wide approval reads ``bot builder`` rather than its id; a room
    reads as a channel link.
    """
    expiry = f"expires {approval.expires_at:%Y-%m-%d %H:%M} UTC" if approval.expires_at else "no expiry"
    where = "sandbox only" if approval.contained_only else "sandbox and host"
    subject = approval.subject
    if approval.scope == "bot":
        subject = (bot_names or {}).get(subject, subject)
    elif approval.scope == "room":
        subject = f"<#{subject}>"
    else:  # a session id is the Bot's own text: inert, its hidden characters shown
        subject = inert(subject).replace("`", "'")
    return (
        f"`{approval.id}` {approval.scope} {subject}: `{approval.pattern}` up to {approval.max_risk}, "
        f"{where}, {expiry}, used {approval.use_count}×, set by {_who(approval.created_by)}"
    )


def inert(text: str, *, multiline: bool = False) -> str:
    """User words for a mrkdwn reply: hidden characters shown as ``⟨U+XXXX⟩`` (unless ``multiline``, a newline
    too) and ``& < >`` escaped, so no mention, link or entity comes from them (Slack's documented escape)."""
    return clean(text, multiline=multiline).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def with_warning(reply: str, raw: list[str]) -> str:
    """``reply`` and, when the user text it shows (``raw``, before :func:`inert`) held hidden or look-alike
    characters, the plain warning line (every surface says it, not only the card)."""
    warning = plain_warning(raw, multiline=True)
    return f"{reply}\n:warning: {inert(warning)}" if warning else reply


def _who(user: str) -> str:
    return f"<@{user}>" if USER_ID.match(user) else f"`{user}`"


async def standing_command(deps: SlackDeps, user: str, channel: str, words: list[str] | str) -> str:
    """Run ``standing ...`` for ``user`` typed in ``channel``; returns the reply. Raises FlyBotError."""
    args = standing_args.parse(words, room_default=channel)
    if args.action == "list":
        scope, subject = None, None
        if args.bot:
            bot = await deps.store.bot_by_name(args.bot)
            if bot is None:
                raise NotFound(f"no Bot named {args.bot}")
            scope, subject = "bot", bot.id
        elif args.room:
            scope, subject = "room", args.room
        live = await deps.store.list_standing(scope=scope, subject=subject, live_at=deps.service.clock())
        if not live:
            return "No live standing approval."
        names = {b.id: b.name for b in await deps.store.list_bots()}
        shown = live[:STANDING_LIST_MAX]
        lines = [f"• {describe(a, names)}" for a in shown]
        if len(live) > len(shown):
            narrow = "" if args.bot or args.room else "narrow it with `--bot NAME` or `--room #CHANNEL`, or "
            lines.append(
                more_line(
                    len(live) - len(shown),
                    "standing approvals",
                    f"{narrow}`flybot standing list` on the FlyBot server lists them all.",
                )
            )
        return with_warning(
            "Standing approvals:\n" + "\n".join(lines), [a.subject for a in shown if a.scope == "session"]
        )
    if args.action == "revoke":
        revoked = await deps.standing.revoke(user, args.id)
        await publish_home(deps, user)
        return f"Revoked {revoked.id}: it no longer answers anything."
    if args.bot:
        bot = await deps.store.bot_by_name(args.bot)
        if bot is None:
            raise NotFound(f"no Bot named {args.bot}")
        scope, subject = "bot", bot.id
    else:
        scope, subject = "room", args.room
    approval = await deps.standing.create(
        user,
        StandingSpec(
            scope=scope,
            subject=subject,
            pattern=args.pattern,
            max_risk=args.max_risk,
            contained_only=not args.host_ok,
            expires=args.expires,
            note=args.note,
        ),
    )
    names = {b.id: b.name for b in await deps.store.list_bots()}
    return f"Saved: {describe(approval, names)}"


def register(app: AsyncApp, deps: SlackDeps) -> None:
    """Register ``/flybot``. Fixed texts (help, usage) are the acknowledgement itself; every answer that reads or
    changes the store is :func:`answer`ed, its request claimed first (:func:`claimed`)."""

    @app.command("/flybot")
    @deps.tracked
    async def on_flybot(ack: AsyncAck, respond: AsyncRespond, command: dict[str, Any], context: dict[str, Any]) -> None:
        words = str(command.get("text") or "").split(maxsplit=1)
        user, channel = str(command.get("user_id") or ""), str(command.get("channel_id") or "")
        key = context.get(REPLAY_KEY)
        if not words or words[0] == "help":
            await ack(HELP)
            return
        if words[0] == "pending":
            page = words[1].strip() if len(words) > 1 else "1"
            if not (page.isascii() and page.isdigit() and len(page) <= 5) or not 0 < int(page) <= 10_000:
                await ack("Usage: `/flybot pending [PAGE]` (PAGE a number from 1).")
                return
            work = claimed(deps, key, lambda: pending_text(deps, user, page=int(page)))
            await answer(ack, respond, work, user=user, received=context.get(RECEIVED_KEY))
            return
        if words[0] in ("standing", "rule"):
            rest = words[1] if len(words) > 1 else ""
            if words[0] == "rule":
                work = claimed(deps, key, lambda: rule_command(deps, user, rest))
            else:
                work = claimed(deps, key, lambda: standing_command(deps, user, channel, rest))
            await answer(ack, respond, work, user=user, received=context.get(RECEIVED_KEY))
            return
        await ack("Unknown subcommand. Try `/flybot help`.")


async def claimed(deps: SlackDeps, key: str | None, work: Callable[[], Awaitable[str]]) -> str:
    """``work()``'s reply once the request is claimed in the store under ``key`` (its signature; None: no signed
    request, as over Socket Mode); "" for the same signed request posted again (a replay), and nothing is done.
    Claiming is part of the work :func:`answer` waits for, so a slow store delays the answer, never the
    acknowledgement (bot.slack.app's replay check leaves slash commands to this)."""
    if key is not None and not await deps.store.claim_event(key, at=datetime.now(UTC)):
        log.warning("slack.replay_refused")
        return ""
    return await work()


async def replied(work: Awaitable[str], *, user: str) -> str:
    """The reply ``work`` gives, or what to say when it fails: a :class:`FlyBotError`'s detail (it may quote the
    user's own words: made inert, with no mention, link or entity, and its hidden characters visible), else a
    plain line (never a stack trace in chat; the error is logged)."""
    try:
        return await work
    except FlyBotError as exc:
        return with_warning(inert(exc.detail, multiline=True), [exc.detail])
    except Exception:  # noqa: BLE001 - never a stack trace in chat
        log.exception("slash.failed", user=user)
        return "Something went wrong on FlyBot's side; nothing was changed."


async def answer(
    ack: AsyncAck, respond: AsyncRespond, work: Awaitable[str], *, user: str, received: float | None = None
) -> None:
    """Acknowledge a command with ``work``'s reply when it is ready within :data:`ANSWER_BUDGET_S`; else acknowledge
    with :data:`WORKING_TEXT` at once and send the reply, ephemeral, through the command's ``response_url`` when it is
    ready (the work is never cut short: what it changes is changed either way). ``received``: the request's arrival
    (:func:`time.monotonic`), from which the budget counts."""
    task = asyncio.ensure_future(replied(work, user=user))
    spent = 0.0 if received is None else max(0.0, time.monotonic() - received)
    done, _pending = await asyncio.wait({task}, timeout=max(0.0, ANSWER_BUDGET_S - spent))
    if done:
        await ack(task.result())
        return
    await ack(WORKING_TEXT)
    reply = await task
    if not reply:  # a replay (claimed): nothing was done, nothing to say
        return
    try:
        await respond(text=reply, response_type="ephemeral")
    except Exception:  # noqa: BLE001 - Slack unreachable: the change stands; the caller can list it
        log.warning("slash.answer_lost", user=user, exc_info=True)


async def pending_text(deps: SlackDeps, user: str, *, page: int = 1) -> str:
    """The escalations ``user`` may decide, one line each: as an admin, an owner (owner groups too) or, once asked,
    a fallback approver; :data:`cards.standing.PENDING_PAGE` a page (``page`` from 1), oldest first. A
    page that does not hold the last one ends with how many more there are and the command for the next page.
    When an owner or fallback group could not be read in time, the answer ends saying the list may lack its Bots."""
    admin = await deps.standing.is_admin(user)
    every = await deps.store.list_bots()
    owned, backup, unchecked = await decidable_bots(deps, every, user, admin)
    seen = sorted(owned | backup)
    text = await _pending_lines(deps, every, owned, seen, page)
    return f"{text}\n{GROUPS_UNCHECKED_TEXT}" if unchecked else text


async def _pending_lines(deps: SlackDeps, every: list[Bot], owned: set[str], seen: list[str], page: int) -> str:
    pending = [
        e
        for e in (await deps.store.pending_escalations(seen) if seen else [])
        if e.bot_id in owned or e.fallback_at is not None
    ]
    if not pending:
        return "No escalation is waiting for you."
    start = (page - 1) * PENDING_PAGE
    shown = pending[start : start + PENDING_PAGE]
    if not shown:
        return (
            f"Page {page} is empty: {len(pending):,} escalations are waiting for you, {PENDING_PAGE} a page "
            f"(`/flybot pending` shows the first)."
        )
    names = {b.id: b.name for b in every}
    lines = [
        f"• {names.get(e.bot_id, e.bot_id)}: `{e.id}` risk {e.risk}, expires {e.expires_at:%H:%M:%S} UTC" for e in shown
    ]
    more = len(pending) - start - len(shown)
    if more > 0:
        lines.append(
            more_line(
                more,
                "escalations waiting for you",
                f"`/flybot pending {page + 1}` shows the next {min(more, PENDING_PAGE)}.",
            )
        )
    heading = "Waiting for a decision" + (
        f" ({start + 1}-{start + len(shown)} of {len(pending):,})" if len(pending) > len(shown) else ""
    )
    return heading + ":\n" + "\n".join(lines)
