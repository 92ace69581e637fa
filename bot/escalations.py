"""The escalation service: create, decide exactly once, withdraw, expire, and wait.

Plain async code over the store; no Slack or HTTP types, no chat port. Every state change commits in ONE store
transaction with its audit rows and the chat jobs it causes (the outbox, DESIGN.md): creating an escalation queues
its card; a decision, expiry or withdrawal queues the card's update; a standing approval's answer queues (folds into)
the room's notice. ``bot/delivery`` sends them. Rules:
- only the Bot's owners and admins decide; the Bot's own chat identity never approves;
- the first decision wins atomically in the store; later ones get :class:`AlreadyDecided`;
- the two-person rule: a destructive command on the host of a Bot (or deployment) that asks for it
  needs two approvals from distinct people; the first is recorded on the card, the second decides, a Deny by
  either ends it, and standing approvals never answer it;
- fail closed: an undeliverable card or an expired escalation is never approved; a room whose notices are overdue
  gets no auto-answers (they take the card path) until its notices are delivered again.
"""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import structlog

from bot.errors import (
    AlreadyDecided,
    ApprovalsClosed,
    Conflict,
    NoEscalationNeeded,
    NotAllowed,
    NotFound,
    RateLimited,
    RoomBusy,
    RoomNotAllowed,
)
from bot.groups import OwnerGroups, owns
from bot.metrics import Metrics
from bot.refusals import REFUSALS
from bot.risk import Assessment, SimpleCommand, assessment_to_dict, classify
from bot.risk.recipes import GivenRecipes, Recipe
from bot.risk.rules import PROGRAM_RULE_REASONS, ProgramRules
from bot.risk.sensitive import reported_state
from bot.standing import OWN_CHAT_IDENTITY, StandingService, log_created, never_covered
from bot.store import Bot, Escalation, NewEscalation, StandingApproval, Store, Tx
from bot.store.admission import ROOM_WAIT_S, AdmissionLimits
from bot.store.records import Decision
from bot.waiters import WaiterHub, long_poll
from cards.standing import NOTICE_RULES_SHOWN

log = structlog.get_logger("flybot.escalations")

RECHECK_S = 2.0
"""Default interval of the long-polls' safety net (seconds): one store query for all waiters of a replica."""


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class EscalationRequest:
    """A session's request to run one call with danger-full-access (validated at the HTTP edge).

    ``timeout_s`` is seconds until expiry; None means the server default, and larger values are capped to it.
    """

    session_id: str
    command: str
    cwd: str
    file_policy: str
    approval_policy: str
    contained: bool
    justification: str | None = None
    room: str | None = None
    timeout_s: int | None = None
    recipes: tuple[Recipe, ...] = ()
    tool: ToolCall | None = None
    """A call of a tool other than a shell (``command`` is then the tool's name): graded by
    :func:`bot.risk.tools.grade_tool`, and the escalation's command is what :func:`bot.risk.tools.describe_tool`
    shows of it."""
    state_paths: tuple[str, ...] = ()
    """The adapter's own state directories and store files (bot/api/models.py ``EscalationIn.state_paths``): graded
    as FlyBot's own state for this request (bot/risk/sensitive.py ``reported_state``)."""


@dataclass(frozen=True, slots=True)
class ToolCall:
    """An agent's tool call as the API received it (bot/api/models.py ``ToolCallIn``)."""

    name: str
    input: dict[str, Any]
    resolved_path: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The stored and returned shape ``{name, input, resolved_path}``."""
        return {"name": self.name, "input": self.input, "resolved_path": self.resolved_path}


def grade_tool_call(
    tool: ToolCall, *, cwd: str, rules: ProgramRules | None, state_paths: tuple[str, ...] = ()
) -> Graded:
    """The verdict on a tool call (bot/risk/tools.py), in the shape :class:`Grades` gives for a command;
    ``state_paths``: the adapter's own state, graded as FlyBot's (:class:`EscalationRequest`)."""
    from bot.risk.tools import grade_tool

    with reported_state(state_paths):
        assessment = grade_tool(
            tool.name,
            tool.input,
            workspace=cwd if cwd.startswith("/") else None,
            resolved_path=tool.resolved_path,
            rules=rules,
        )
    return Graded(assessment, tuple(assessment_to_dict(assessment)["reasons"]))


def new_escalation_id() -> str:
    """A new escalation id: ``esc_`` and 32 hex digits, the first 12 the creation time in milliseconds since the
    epoch and the other 20 random (80 bits from ``os.urandom``), so ids sort by creation time.

    Why time first: the escalation's primary key and the audit rows' escalation index are B-trees; random ids would
    put each new row on a random leaf page, so a group commit of N auto-answers would write about 2N index pages to
    SQLite's WAL and dirty as many pages on PostgreSQL. Ids that grow with time append to the rightmost leaf, as the
    rows' own rowids do. The id is no
    secret (every use of it also needs the Bot's token or a deciding person) and it stays unguessable: 80 random
    bits per millisecond.
    """
    return f"esc_{time.time_ns() // 1_000_000:012x}{secrets.token_hex(10)}"


def grade(command: str, *, contained: bool, cwd: str, recipes: tuple[Recipe, ...] = ()) -> Assessment:
    """The classifier's verdict on ``command`` (one function, so the classifier can change inside).

    ``cwd`` is the workspace when it is an absolute path; otherwise the classifier treats the workspace as unknown.
    ``recipes``: the project recipes the adapter read (the server cannot read the project); without them
    ``make X``/``npm run X`` are graded by the target's name. Answered from :data:`GRADES` when the same request was
    graded recently (see :class:`Grades`).
    """
    return GRADES.grade(command, contained=contained, cwd=cwd, recipes=recipes).assessment


def simple_commands(escalation: Escalation) -> tuple[SimpleCommand, ...]:
    """The simple commands of a stored escalation, as standing approvals match them: a tool call's words
    (bot/risk/tools.py ``tool_words``), or its command's as :func:`grade` gives them."""
    if escalation.tool is not None:
        tool = escalation.tool
        return grade_tool_call(
            ToolCall(str(tool.get("name", "")), dict(tool.get("input") or {}), tool.get("resolved_path")),
            cwd=escalation.cwd,
            rules=None,
        ).assessment.commands
    return grade(escalation.command, contained=escalation.contained, cwd=escalation.cwd).commands


@dataclass(frozen=True, slots=True)
class Graded:
    """A verdict and its reasons as stored with an escalation (``assessment_to_dict``'s ``reasons``: JSON-ready
    dicts, shared by every escalation graded from this entry, so read-only)."""

    assessment: Assessment
    reasons: tuple[dict[str, Any], ...]


class Grades:
    """A bounded memory of verdicts: the same command, containment, workspace and recipes always grade the same.

    The classifier is a pure function of exactly these and the program rules (``bot.risk``: no clock, no
    environment, no file read on the server, whose recipes are the ones the request gave,
    :class:`~bot.risk.recipes.GivenRecipes`), so a repeated request (an agent's ``npm test``, ``apt-get install -y
    jq``) is not graded again (its share of an auto-answer: docs/performance.md). Only requests of at most
    ``max_chars`` characters (command and recipe lines together) are remembered, at most ``size`` of them; when full
    it starts afresh.
    """

    def __init__(self, size: int = 1024, max_chars: int = 4096) -> None:
        self.size = size
        self.max_chars = max_chars
        self._verdicts: dict[
            tuple[str, bool, str | None, tuple[Recipe, ...], ProgramRules | None, tuple[str, ...]], Graded
        ] = {}

    def grade(
        self,
        command: str,
        *,
        contained: bool,
        cwd: str,
        recipes: tuple[Recipe, ...] = (),
        rules: ProgramRules | None = None,
        state_paths: tuple[str, ...] = (),
    ) -> Graded:
        """The verdict on one request (see :func:`grade` for the arguments; ``rules``: the organisation's program
        rules; ``state_paths``: the adapter's own state, graded as FlyBot's, :class:`EscalationRequest`), from memory
        when it is there."""
        workspace = cwd if cwd.startswith("/") else None
        key = (command, contained, workspace, recipes, rules or None, state_paths)
        found = self._verdicts.get(key)
        if found is not None:
            return found
        with reported_state(state_paths):
            assessment = classify(
                command,
                contained=contained,
                workspace=workspace,
                recipes=GivenRecipes(recipes) if recipes else None,
                rules=rules,
            )
        graded = Graded(assessment, tuple(assessment_to_dict(assessment)["reasons"]))
        chars = len(command) + sum(len(line.command) for recipe in recipes for line in recipe.lines)
        if chars <= self.max_chars:
            if len(self._verdicts) >= self.size:
                self._verdicts.clear()
            self._verdicts[key] = graded
        return graded


GRADES = Grades()
"""The process's verdicts (:class:`Grades`)."""


class EscalationService:
    """Creates escalations (queuing their cards), records exactly one decision and wakes the waiting session.

    Args:
        store: the persistence layer (and the outbox).
        waiters: wakes long-polls.
        admins: Slack user IDs who may decide any Bot's escalations.
        default_timeout_s: lifetime of an escalation in seconds, and the maximum a request may ask for.
        clock: returns aware UTC ``datetime`` (tests may pass their own).
        standing: matches standing approvals before a card is posted (None: every escalation gets a card).
        metrics: Prometheus metrics to update (None: none).
        recheck_s: the safety net's interval, seconds (one store query for all waiters, run by the hub; see
            :meth:`bot.waiters.WaiterHub.run_recheck`).
        notice_window_s: standing-approval notices of one Bot and room within this many seconds fold into one.
        limits: admission control per Bot (open escalations, requests a minute); None: no limits.
        two_person: the deployment's two-person rule, ``off`` or ``destructive-host`` (a floor: a Bot's own
            setting can add the rule, never lift it).
        groups: resolves a Bot's owner groups when someone decides (None: owner groups give no one a say).
        remind_at: the owners are reminded in the card's thread once, at this fraction of the escalation's
            lifetime, if it is still pending then; 0: never. A ``reminder`` job due at that time is
            written with the card's job.
        fallback_after_s: after this many seconds without a decision the Bot's fallback approvers are asked (a DM
            copy of the card) and may decide from then on; 0: never. A ``fallback`` job due then is
            written with the card's job when the escalation lives longer.
        program_rules: the organisation's program rules as they are now (bot/program_rules.py), applied to every
            grade; None: none.
    """

    def __init__(
        self,
        store: Store,
        waiters: WaiterHub,
        *,
        admins: frozenset[str],
        default_timeout_s: int = 600,
        clock: Callable[[], datetime] = utcnow,
        standing: StandingService | None = None,
        metrics: Metrics | None = None,
        recheck_s: float = RECHECK_S,
        notice_window_s: float = 60.0,
        limits: AdmissionLimits | None = None,
        two_person: str = "off",
        groups: OwnerGroups | None = None,
        remind_at: float = 0.0,
        fallback_after_s: float = 0.0,
        program_rules: Callable[[], Awaitable[ProgramRules]] | None = None,
    ) -> None:
        self.program_rules = program_rules
        self.fallback_after_s = fallback_after_s
        self.remind_at = remind_at
        self.groups = groups
        self.two_person = two_person
        self.limits = limits
        self.notice_window_s = notice_window_s
        self.recheck_s = recheck_s
        self.metrics = metrics
        self.standing = standing
        self.closing = False
        self.store = store
        self.waiters = waiters
        self.admins = admins
        self.default_timeout_s = default_timeout_s
        self.clock = clock

    # -- create -----------------------------------------------------------------------------------
    async def escalate(self, bot: Bot, request: EscalationRequest, idempotency_key: str | None = None) -> Escalation:
        """Record an escalation and, in the same transaction, either its standing-approval answer (with the room's
        notice job) or its card job; returns it at once (``approved``, or ``pending`` with ``card.status`` queued).

        A repeated ``idempotency_key`` of the same Bot returns the first escalation and queues nothing (and is never
        refused by admission control: a client may always learn what happened to a request FlyBot accepted), while
        that escalation's lifetime lasts (until ``expires_at``, whatever its state); after it, the key is refused
        (``Conflict``), so an old decision never answers a new call that reuses its id.

        Raises:
            RateLimited: (429 ``rate_limited``, ``Retry-After``) the Bot is over one of its limits; nothing was created.
            RoomBusy: (429 ``room_busy``, ``Retry-After``) the request needs a card and its room already has
                ``FLYBOT_ROOM_QUEUE_MAX`` cards waiting to be posted, or this Bot holds its share of them
                (:func:`bot.store.admission.admit_card`); nothing was created, and the Bot is marked as waiting
                for a place in the room (``ROOM_WAIT_S`` past the ``Retry-After``).
            RoomNotAllowed: (403 ``room_not_allowed``) ``request.room`` is neither the Bot's room nor one the
                operator allowed for it; nothing was written.
            ApprovalsClosed: ``approval_policy`` is ``never``.
            NoEscalationNeeded: ``file_policy`` is already ``danger-full-access``.
            Conflict: the ``idempotency_key`` was used for a different request, or names an escalation whose
                lifetime has ended.
        """
        if request.approval_policy == "never":
            raise ApprovalsClosed(
                "the session's approval policy is 'never': approvals are closed, so nothing can be escalated"
            )
        if request.file_policy == "danger-full-access":
            raise NoEscalationNeeded("the session already runs with danger-full-access")
        if request.room is not None and not bot.may_use_room(request.room):
            # A request is the Bot's (hostile) input: it may not send cards to another team's room.
            raise RoomNotAllowed(
                f"this Bot may not send cards to room {request.room}: only to its own room or one an operator "
                "allowed for it (flybot bots set NAME --allow-room CHANNEL_ID)",
                field="room",
            )
        now = self.clock()
        timeout_s = min(request.timeout_s or self.default_timeout_s, self.default_timeout_s)
        rules = await self.program_rules() if self.program_rules is not None else None
        command = request.command
        if request.tool is not None:
            from bot.risk.tools import describe_tool

            graded = grade_tool_call(request.tool, cwd=request.cwd, rules=rules, state_paths=request.state_paths)
            command = describe_tool(
                request.tool.name,
                request.tool.input,
                workspace=request.cwd if request.cwd.startswith("/") else None,
                resolved_path=request.tool.resolved_path,
            )
        else:
            grade_it = functools.partial(
                GRADES.grade,
                request.command,
                contained=request.contained,
                cwd=request.cwd,
                recipes=request.recipes,
                rules=rules,
                state_paths=request.state_paths,
            )
            # A long script (up to MAX_COMMAND_CHARS) takes a noticeable time to grade: a worker thread grades it,
            # so the event loop goes on answering other Bots, clicks and /healthz meanwhile.
            long = len(request.command) > GRADES.max_chars
            graded = await asyncio.to_thread(grade_it) if long else grade_it()
        assessment, reasons = graded.assessment, graded.reasons
        risk = assessment.risk.label
        needed = self.approvals_needed(bot, risk=risk, contained=request.contained)
        new = NewEscalation(
            id=new_escalation_id(),
            bot_id=bot.id,
            session_id=request.session_id,
            command=command,
            cwd=request.cwd,
            file_policy=request.file_policy,
            approval_policy=request.approval_policy,
            contained=request.contained,
            justification=request.justification,
            room=request.room or bot.room,
            risk=risk,
            reasons=reasons,
            created_at=now,
            expires_at=now + timedelta(seconds=timeout_s),
            idempotency_key=idempotency_key,
            approvals_needed=needed,
            tool=request.tool.to_json() if request.tool is not None else None,
        )
        cover: list[StandingApproval] | None = None
        if self.standing is not None and needed == 1 and never_covered(assessment.reasons) is None:
            # standing approvals never satisfy the two-person rule, nor answer a secret read (bot/standing.py)
            # Room-wide approvals answer the Bots whose registered room it is; a session naming another room in its
            # request must not borrow that room's approvals.
            cover = await self.standing.find_cover(
                bot,
                session_id=new.session_id,
                room=bot.room,
                risk=assessment.risk,
                contained=new.contained,
                commands=assessment.commands,
            )
        try:
            return await self._create(bot, request, new, cover, now, risk)
        except (RateLimited, RoomBusy) as exc:
            if self.metrics is not None:
                self.metrics.rate_limited.labels(exc.reason).inc()
            # Logged once per Bot and reason a minute, the rest counted and summarised (bot.refusals).
            REFUSALS.refused(
                "escalation.refused",
                why=exc.reason,
                who=bot.id,
                bot_id=bot.id,
                session_id=request.session_id,
                retry_after=exc.retry_after,
            )
            if isinstance(exc, RoomBusy):  # it now counts as one of the Bots sharing the room's queue
                wait_s = float(exc.retry_after or 1) + ROOM_WAIT_S
                await self.store.note_room_wait(
                    card_room_of(new, bot), bot.id, now=now, until=now + timedelta(seconds=wait_s)
                )
            raise

    async def _create(
        self,
        bot: Bot,
        request: EscalationRequest,
        new: NewEscalation,
        cover: list[StandingApproval] | None,
        now: datetime,
        risk: str,
    ) -> Escalation:
        """:meth:`escalate`'s one transaction: admission, the row, its audit, the answer or the card job."""
        room = card_room_of(new, bot)
        # A request no standing approval covers will queue a card: its transaction locks the room first, so the room's
        # queue cap is exact across replicas (auto-answers take no lock; one that falls back to a card, its room's
        # notices overdue, is counted without it).
        lock = not cover and self.limits is not None and self.limits.room_queue > 0

        async def write(tx: Tx) -> tuple[Escalation, str]:
            if lock:
                await tx.lock_room(room)
            answerable = bool(cover) and not await tx.notices_overdue(room, now)
            decision = _standing_decision(cover, now) if cover and answerable else None
            escalation, created = await tx.add_escalation(
                new, card_status=None if decision else "queued", decision=decision
            )
            if not created:
                if _request_of(escalation) != _request_of(new):
                    raise Conflict(
                        "this Idempotency-Key was already used for a different request; use a new key per request",
                        field="Idempotency-Key",
                    )
                if escalation.expires_at <= now:
                    # A retry comes within the request's lifetime; past it, the same key is a new call reusing an
                    # old one's id, which must not be answered by the old decision.
                    raise Conflict(
                        "this Idempotency-Key names an escalation whose lifetime has ended; a new request needs a "
                        "new key",
                        field="Idempotency-Key",
                    )
                return escalation, "retried"
            await tx.audit(
                "escalation.created",
                at=now,
                escalation_id=escalation.id,
                actor=bot.id,
                **decision_detail(escalation, via="api"),
            )
            if cover and decision:
                await self._approve_standing(tx, escalation, bot, cover, now)
                if self.limits is not None:  # last: on PostgreSQL it locks the Bot's counter row until the commit
                    await tx.admit(bot.id, now, self.limits, opened=False)
                return escalation, "approved"
            if cover:
                await tx.audit("standing.held", at=now, escalation_id=escalation.id, room=room, why="notices_overdue")
            if self.limits is not None:  # 429 rate_limited or room_busy: nothing of this request is written
                await tx.admit(bot.id, now, self.limits, opened=True)
                await tx.admit_card(room, bot.id, self.limits, now)
            await tx.enqueue("card.post", ref=escalation.id, room=room, at=now)
            if self.remind_at > 0:  # once, at this fraction of its lifetime, if still pending
                lifetime = escalation.expires_at - escalation.created_at
                await tx.enqueue(
                    "reminder",
                    ref=escalation.id,
                    room=room,
                    at=now,
                    due_at=escalation.created_at + lifetime * self.remind_at,
                )
            fallback = timedelta(seconds=self.fallback_after_s)
            if self.fallback_after_s > 0 and escalation.created_at + fallback < escalation.expires_at:
                await tx.enqueue(
                    "fallback",
                    ref=escalation.id,
                    room=room,
                    at=now,  # the fallback approvers' turn
                    due_at=escalation.created_at + fallback,
                )
            return escalation, "held" if cover else "card"

        async with self.store.transaction() as tx:
            escalation, outcome = await write(tx)
        # The request's ids lead each line, as a bound logger would put them (one line here: binding cost more).
        ids = {"escalation_id": escalation.id, "bot_id": bot.id, "session_id": escalation.session_id}
        if outcome == "retried":
            log.info("escalation.retried", **ids, idempotency_key=new.idempotency_key)
            return escalation
        if outcome == "held":
            log.warning("standing.notices_overdue", **ids)
        if outcome == "approved":
            # One line for the auto-answer (created and approved at once).
            log.info(
                "escalation.approved",
                **ids,
                risk=risk,
                contained=request.contained,
                source="standing_approval",
                standing_ids=[a.id for a in cover or []],
            )
            if self.metrics is not None:
                self.metrics.count_escalation("pending", "created")
                self.metrics.standing_hits.inc()
            self._announce(escalation)
            return escalation
        log.info("escalation.created", **ids, risk=risk, contained=request.contained)
        if self.metrics is not None:
            self.metrics.count_escalation("pending", "created")
        return escalation

    def approvals_needed(self, bot: Bot, *, risk: str, contained: bool) -> int:
        """2 when the two-person rule covers this request (a destructive command on the host, and the Bot or the
        deployment asks for ``destructive-host``); else 1."""
        rule = "destructive-host" in (bot.two_person, self.two_person)
        return 2 if rule and risk == "destructive" and not contained else 1

    async def _approve_standing(
        self, tx: Tx, escalation: Escalation, bot: Bot, cover: list[StandingApproval], now: datetime
    ) -> None:
        """The rest of a standing approval's answer, in ``tx`` with the escalation's row (inserted approved, which
        counts as a use of ``cover[0]``): its audit row, and the fold into the room's notice (nothing approved unseen: the notice job commits
        with the approval). The caller checked that the room's notices are not overdue (past the delivery deadline):
        when they are, standing approvals do not answer there (fail closed) until they are delivered again.
        """
        ids = [a.id for a in cover]
        await tx.audit(
            "escalation.approved",
            at=now,
            escalation_id=escalation.id,
            actor=cover[0].created_by,
            source="standing_approval",
            standing_ids=ids,
            **decision_detail(escalation, via="standing_approval"),
        )
        await tx.fold_notice(
            room=card_room(escalation, bot),
            bot_id=bot.id,
            at=now,
            window_s=self.notice_window_s,
            item={
                "escalation_id": escalation.id,
                "command": escalation.command[:300],
                "contained": escalation.contained,
                "ruled": [
                    str(r.get("detail", ""))[:300] for r in escalation.reasons if r.get("rule") in PROGRAM_RULE_REASONS
                ][:NOTICE_RULES_SHOWN],
            },
            approvals=[{"id": a.id, "scope": a.scope, "pattern": a.pattern, "created_by": a.created_by} for a in cover],
        )

    async def _get(self, escalation_id: str) -> Escalation:
        escalation = await self.store.get_escalation(escalation_id)
        if escalation is None:
            raise NotFound(f"no escalation {escalation_id}")
        return escalation

    # -- read ---------------------------------------------------------------------------------------
    async def get_for_bot(self, bot: Bot, escalation_id: str) -> Escalation:
        """The escalation if it belongs to ``bot``. Raises :class:`NotFound` otherwise (no leak across Bots)."""
        escalation = await self.store.get_escalation(escalation_id)
        if escalation is None or escalation.bot_id != bot.id:
            raise NotFound(f"no escalation {escalation_id} for this Bot")
        return escalation

    async def wait(self, bot: Bot, escalation_id: str, wait_s: float) -> Escalation:
        """Long-poll: return as soon as the escalation is decided, or after ``wait_s`` seconds with it still pending.

        An escalation past its expiry is expired here too (fail closed even if the sweeper lags).
        Raises :class:`NotFound` when it is not this Bot's, :class:`ShuttingDown` (503, retryable) once
        :meth:`shutdown` was called.
        """

        async def read() -> Escalation:
            escalation = await self.waiters.read_through(escalation_id, self.store.get_escalation_shared)
            if escalation is None or escalation.bot_id != bot.id:
                raise NotFound(f"no escalation {escalation_id} for this Bot")
            if not escalation.pending:
                self.waiters.seen_settled(escalation_id)  # the long-polls held here learn it now, not at the recheck
            if escalation.pending and escalation.expires_at <= self.clock():
                escalation = await self.expire(escalation) or await self.get_for_bot(bot, escalation_id)
            return escalation

        return await long_poll(
            self.waiters,
            escalation_id,
            read,
            settled=lambda e: not e.pending,
            wait_s=wait_s,
            closing=lambda: self.closing,
            pause_for=lambda e: (e.expires_at - self.clock()).total_seconds() + 0.05,
        )

    def shutdown(self) -> None:
        """Graceful shutdown: every long-poll answers 503 ``shutting_down`` at once (the client polls again)."""
        self.closing = True
        self.waiters.notify_all()

    # -- decide -------------------------------------------------------------------------------------
    async def owns(self, bot: Bot, user: str, *, in_time: bool = False) -> bool:
        """``user`` is an owner of ``bot``: listed, or a member of one of its owner groups now (looked
        up at decision time, cached briefly; a group that cannot be read gives no one a say; ``in_time``: a group
        not read in time raises :class:`bot.groups.GroupCheckTooSlow`)."""
        return await owns(bot, user, self.groups, in_time=in_time)

    async def is_fallback(self, bot: Bot, user: str, *, in_time: bool = False) -> bool:
        """``user`` is one of the Bot's named fallback approvers: listed, or in a fallback group now (the
        admins, the fallback when none is named, decide as admins anyway; ``in_time`` as :meth:`owns`)."""
        if user in bot.fallback_owners:
            return True
        if not bot.fallback_groups or self.groups is None:
            return False
        return await self.groups.member_of_any(user, bot.fallback_groups, in_time=in_time) is not None

    async def authorize(
        self, escalation_id: str, actor: str, *, seen: Escalation | None = None
    ) -> tuple[Escalation, Bot, str]:
        """Check that ``actor`` may decide; returns ``(escalation, bot, source)`` with source ``owner`` (listed, or
        in an owner group now), ``admin``, or ``fallback`` (a named fallback approver, once the fallback was asked),
        or ``""`` when none.

        ``seen``: the escalation as the caller read it while handling this click (one read per click, not one per
        check); the decision itself is a compare-and-set on the stored row, so a snapshot older by a few
        milliseconds decides nothing the store would not.

        Raises:
            NotFound: no such escalation.
            GroupCheckTooSlow: an owner (or fallback) group of the Bot could not be read in time (nothing changes).
        """
        escalation = seen if seen is not None and seen.id == escalation_id else await self._get(escalation_id)
        bot = await self.store.get_bot(escalation.bot_id)
        if bot is None:
            raise NotFound(f"the Bot of escalation {escalation_id} no longer exists")
        # Listed owners and admins first: neither waits on Slack for an owner group (a click waits for its ack).
        if actor in bot.owners:
            return escalation, bot, "owner"
        if actor in self.admins:
            return escalation, bot, "admin"
        if await self.owns(bot, actor, in_time=True):
            return escalation, bot, "owner"
        if escalation.fallback_at is not None and await self.is_fallback(bot, actor, in_time=True):
            return escalation, bot, "fallback"
        return escalation, bot, ""

    async def require_decider(
        self,
        escalation_id: str,
        actor: str,
        *,
        via: str = "button",
        seen: Escalation | None = None,
    ) -> tuple[Escalation, Bot, str]:
        """Like :meth:`authorize`, but a refusal is audited and raised.

        Raises:
            NotFound: no such escalation.
            NotAllowed: the actor is neither an owner of the Bot nor an admin (nothing changes).
        """
        escalation, bot, source = await self.authorize(escalation_id, actor, seen=seen)
        if not source:
            await self.store.audit(
                "decision.refused",
                at=self.clock(),
                escalation_id=escalation_id,
                actor=actor,
                why="not_allowed",
                **decision_detail(escalation, via=via),
            )
            log.warning(
                "decision.refused",
                why="not_allowed",
                escalation_id=escalation_id,
                bot_id=bot.id,
                session_id=escalation.session_id,
                actor=actor,
            )
            raise NotAllowed(f"only the owners of {bot.name} or an admin can decide this escalation")
        return escalation, bot, source

    async def require_approver(
        self,
        escalation_id: str,
        actor: str,
        *,
        via: str = "button",
        seen: Escalation | None = None,
    ) -> tuple[Escalation, Bot, str]:
        """Like :meth:`require_decider`, for an Approve: also refuses (audited) the Bot's own chat identity (a Bot
        never approves its own request) and, under the two-person rule, the person who gave the first approval.

        Raises:
            NotFound, NotAllowed: as :meth:`require_decider`, or the refusals above (nothing changes).
        """
        escalation, bot, source = await self.require_decider(escalation_id, actor, via=via, seen=seen)
        why = _approval_refusal(escalation, bot, actor)
        if why is not None:
            await self.store.audit(
                "decision.refused",
                at=self.clock(),
                escalation_id=escalation_id,
                actor=actor,
                why=why,
                **decision_detail(escalation, via=via),
            )
            log.warning(
                "decision.refused",
                why=why,
                escalation_id=escalation_id,
                bot_id=bot.id,
                session_id=escalation.session_id,
                actor=actor,
            )
            raise NotAllowed(_REFUSALS[why])
        return escalation, bot, source

    async def decide(
        self,
        escalation_id: str,
        *,
        actor: str,
        approve: bool,
        reason: str | None = None,
        grants: Sequence[StandingApproval] = (),
        via: str = "button",
        seen: Escalation | None = None,
    ) -> Escalation:
        """Record the owner's (or an admin's) decision; the first one wins. The decision, its audit row and the
        card's update job commit in ONE transaction (a click is durable before it is acknowledged), with the
        standing approvals the same click grants (``grants``, made by :meth:`bot.standing.StandingService.prepare`;
        each stored with its audit row): all of it, or none of it when anything fails or the decision loses.

        Under the two-person rule (``approvals_needed`` 2) the first Approve is recorded and the escalation stays
        ``pending`` (returned so; its card shows "1 of 2 approvals"); the second, from someone else, decides. Each
        approval is audited (``escalation.approval``, with ``n`` and ``needed``). Every row says what was decided
        (:func:`decision_detail`, ``via`` as given: how the decision came). ``seen``: as :meth:`authorize`.

        Raises:
            NotFound: no such escalation.
            NotAllowed: the actor may not decide, or may not approve this one (the Bot's own chat identity; the
                first approver again): audited, nothing changes.
            AlreadyDecided: it is no longer pending (audited; the first decision stands).
        """
        if approve:
            escalation, bot, source = await self.require_approver(escalation_id, actor, via=via, seen=seen)
        else:
            escalation, bot, source = await self.require_decider(escalation_id, actor, via=via, seen=seen)
        now = self.clock()
        bound = log.bind(escalation_id=escalation_id, bot_id=bot.id, session_id=escalation.session_id, actor=actor)
        if escalation.pending and escalation.expires_at <= now:
            await self.expire(escalation)
        status = "approved" if approve else "denied"
        current: Escalation | None = None
        decided: Escalation | None = None
        outcome = status
        async with self.store.transaction() as tx:
            if approve:
                outcome, changed = await tx.approve(
                    escalation_id, actor=actor, at=now, source=source, reason=reason or None
                )
                decided = changed if outcome in ("approved", "first") else None
                current = changed
            else:
                decided = await tx.decide(
                    escalation_id, status=status, at=now, decided_by=actor, source=source, reason=reason or None
                )
                if decided is None:
                    current = await tx.get_escalation(escalation_id)
                    outcome = "not_pending"
            if outcome == "same_person":
                await tx.audit(
                    "decision.refused",
                    at=now,
                    escalation_id=escalation_id,
                    actor=actor,
                    why="same_person",
                    **decision_detail(escalation, via=via),
                )
            elif decided is None:
                assert current is not None
                await tx.audit(
                    "decision.refused",
                    at=now,
                    escalation_id=escalation_id,
                    actor=actor,
                    why="already_decided",
                    status=current.status,
                    **decision_detail(escalation, via=via),
                )
            else:
                if decided.approvals_needed > 1 and approve:
                    await tx.audit(
                        "escalation.approval",
                        at=now,
                        escalation_id=escalation_id,
                        actor=actor,
                        source=source,
                        n=len(decided.approvers),
                        needed=decided.approvals_needed,
                        **decision_detail(decided, via=via),
                    )
                if outcome != "first":
                    await tx.audit(
                        f"escalation.{status}",
                        at=now,
                        escalation_id=escalation_id,
                        actor=actor,
                        source=source,
                        **({"approvers": list(decided.approvers)} if decided.approvals_needed > 1 and approve else {}),
                        **decision_detail(decided, via=via),
                    )
                await self._queue_update(tx, decided, bot, now)
                for grant in grants:
                    await self._save_grant(tx, grant)
        if outcome == "same_person":
            bound.info("decision.refused", why="same_person")
            raise NotAllowed(_REFUSALS["same_person"])
        if decided is None:
            assert current is not None
            bound.info("decision.refused", why="already_decided", status=current.status)
            raise AlreadyDecided(_already_text(current))
        for grant in grants:
            log_created(grant)
        if outcome == "first":
            bound.info("escalation.first_approval", source=source, needed=decided.approvals_needed)
            return decided
        bound.info(f"escalation.{status}", source=source)
        self._announce(decided)
        return decided

    async def _save_grant(self, tx: Tx, grant: StandingApproval) -> None:
        if self.standing is None:
            raise RuntimeError("a decision that grants standing approvals needs the standing-approval service")
        await self.standing.save_in(tx, grant)

    async def withdraw(self, bot: Bot, escalation_id: str) -> Escalation:
        """The session no longer needs the escalation. Raises NotFound / AlreadyDecided."""
        escalation = await self.get_for_bot(bot, escalation_id)
        now = self.clock()
        async with self.store.transaction() as tx:
            decided = await tx.decide(
                escalation.id,
                status="withdrawn",
                at=now,
                decided_by=bot.id,
                source="session",
                reason=None,
            )
            if decided is not None:
                await tx.audit(
                    "escalation.withdrawn",
                    at=now,
                    escalation_id=escalation_id,
                    actor=bot.id,
                    **decision_detail(decided, via="api"),
                )
                await self._queue_update(tx, decided, bot, now)
        if decided is None:
            raise AlreadyDecided(_already_text(await self._get(escalation_id)))
        log.info("escalation.withdrawn", escalation_id=escalation_id, bot_id=bot.id, session_id=escalation.session_id)
        self._announce(decided)
        return decided

    async def expire(self, escalation: Escalation) -> Escalation | None:
        """Expire one pending escalation if still pending; returns it, or None if another decision won."""
        now = self.clock()
        bot = await self.store.get_bot(escalation.bot_id)
        async with self.store.transaction() as tx:
            expired = await tx.decide(
                escalation.id,
                status="expired",
                at=now,
                decided_by=None,
                source="timeout",
                reason="no decision before it expired",
            )
            if expired is not None:
                await tx.audit(
                    "escalation.expired", at=now, escalation_id=escalation.id, **decision_detail(expired, via="timeout")
                )
                if bot is not None:
                    await self._queue_update(tx, expired, bot, now)
        if expired is None:
            return None
        log.info(
            "escalation.expired",
            escalation_id=escalation.id,
            bot_id=escalation.bot_id,
            session_id=escalation.session_id,
        )
        self._announce(expired)
        return expired

    async def expire_due(self) -> int:
        """Expire every pending escalation past its ``expires_at``; returns how many this call expired."""
        count = 0
        for escalation in await self.store.due_for_expiry(self.clock()):
            if await self.expire(escalation) is not None:
                count += 1
        return count

    async def withdraw_for_removed_bots(self) -> int:
        """Withdraw every pending escalation of a removed Bot (``flybot bots remove`` marks the Bot in the store from
        another process; each replica's sweeper finishes the job here, cards updated). Returns how many."""
        count = 0
        for escalation in await self.store.pending_of_removed_bots():
            now = self.clock()
            bot = await self.store.get_bot(escalation.bot_id)
            async with self.store.transaction() as tx:
                withdrawn = await tx.decide(
                    escalation.id,
                    status="withdrawn",
                    at=now,
                    decided_by=None,
                    source="admin",
                    reason="its Bot was removed by an operator",
                )
                if withdrawn is not None:
                    await tx.audit("escalation.withdrawn", at=now, escalation_id=escalation.id, why="bot_removed")
                    if bot is not None:
                        await self._queue_update(tx, withdrawn, bot, now)
            if withdrawn is None:
                continue
            count += 1
            log.info("escalation.withdrawn", escalation_id=escalation.id, bot_id=escalation.bot_id, why="bot_removed")
            self._announce(withdrawn)
        return count

    @staticmethod
    async def _queue_update(tx: Tx, escalation: Escalation, bot: Bot, now: datetime) -> None:
        """Queue the card's redraw, its copies' and the App Homes' (an escalation answered without a
        card has none to redraw and was never on a Home; a card the ending cancelled before it was posted,
        :meth:`bot.store.Tx.decide`, has no message and no copies: fallback copies wait for the post)."""
        if escalation.card_status is None:
            return
        if escalation.card_status != "cancelled":
            await tx.enqueue("card.update", ref=escalation.id, room=card_room(escalation, bot), at=now)
        await tx.refresh_homes(now)

    def _announce(self, escalation: Escalation) -> None:
        """A final status was stored: wake this replica's long-polls and count it (other replicas are woken by the
        store's notification, see :mod:`bot.store.notify`)."""
        self.waiters.notify(escalation.id, settled=escalation)
        if self.metrics is not None:
            source = escalation.decision_source or "unknown"
            self.metrics.count_escalation(escalation.status, source)
            if escalation.decided_at is not None:
                seconds = (escalation.decided_at - escalation.created_at).total_seconds()
                self.metrics.observe_decision(source, max(0.0, seconds))


VIAS = ("api", "button", "modal", "standing_approval", "timeout")
"""How a decision reached FlyBot, as audit rows say (``via``): the session API (a request, a withdrawal), a button
on a card or in App Home, a modal's submit (Deny with a reason, Review and approve, Always for this Bot), a standing
approval, the escalation's timeout."""


def decision_detail(escalation: Escalation, *, via: str) -> dict[str, Any]:
    """What an audit row about ``escalation`` says was decided: ``command`` (the command, or the text the card made
    for a tool call), ``risk``, ``contained``, ``reason`` (a Deny's reason, when given) and ``via`` (:data:`VIAS`).
    Who decided is the row's ``actor``. Secrets are cut when the row is shown (:func:`bot.audit.entry_to_api`)."""
    assert via in VIAS, via
    detail: dict[str, Any] = {
        "command": escalation.command,
        "risk": escalation.risk,
        "contained": escalation.contained,
        "via": via,
    }
    if escalation.reason and escalation.status == "denied":
        detail["reason"] = escalation.reason
    return detail


def _standing_decision(cover: list[StandingApproval], now: datetime) -> Decision:
    """The approval by standing approval(s) ``cover``, stored with the escalation's row."""
    return Decision(
        status="approved",
        at=now,
        decided_by=cover[0].created_by,
        source="standing_approval",
        reason="standing approval " + ", ".join(a.id for a in cover),
        standing_approval_id=cover[0].id,
    )


def card_room_of(new: NewEscalation, bot: Bot) -> str:
    """:func:`card_room` of an escalation not yet stored."""
    return new.room or (f"user:{bot.owners[0]}" if bot.owners else "user:")


def card_room(escalation: Escalation, bot: Bot) -> str:
    """Where the escalation's card (and notice) goes, as a pacing key: its room, else ``user:<first owner>`` (a DM)."""
    if escalation.room:
        return escalation.room
    return f"user:{bot.owners[0]}" if bot.owners else "user:"


def _request_of(item: Escalation | NewEscalation) -> tuple[object, ...]:
    """What a retry must repeat exactly for its Idempotency-Key to name the same request: the words asked about
    and how they were graded (the grade and reasons come from the recipes, settings reports and tool call the
    request carried, so a retry that sends other recipes is another request), compared as canonical JSON."""
    return (
        item.session_id,
        item.command,
        item.cwd,
        item.file_policy,
        item.approval_policy,
        item.contained,
        item.justification,
        item.risk,
        json.dumps(list(item.reasons), sort_keys=True, default=str),
        json.dumps(item.tool, sort_keys=True, default=str),
    )


_REFUSALS = {
    "requester": OWN_CHAT_IDENTITY,
    "same_person": "You already gave the first approval; the two-person rule needs a second, different person "
    "to approve (Deny by anyone ends it).",
}


def _approval_refusal(escalation: Escalation, bot: Bot, actor: str) -> str | None:
    """Why ``actor`` may not approve (a key of ``_REFUSALS``), or None: the requester's own chat identity never
    approves; under the two-person rule the first approver cannot give the second approval."""
    if bot.chat_user is not None and actor == bot.chat_user:
        return "requester"
    if escalation.pending and escalation.approvals_needed > 1 and escalation.first_approver == actor:
        return "same_person"
    return None


def _already_text(escalation: Escalation) -> str:
    who = f" by {escalation.decided_by}" if escalation.decided_by else ""
    when = escalation.decided_at.strftime("%Y-%m-%d %H:%M:%S UTC") if escalation.decided_at else ""
    return f"already {escalation.status}{who} at {when}".strip()


async def run_sweeper(service: EscalationService, interval_s: float) -> None:
    """Expire due escalations every ``interval_s`` seconds until cancelled; errors are logged, never fatal."""
    while True:
        try:
            await service.expire_due()
            await service.withdraw_for_removed_bots()
        except Exception:  # noqa: BLE001 - the sweeper must survive a transient store error
            log.exception("sweeper.failed")
        await asyncio.sleep(interval_s)
