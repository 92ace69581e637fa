"""Plain records the store hands to the domain services (no SQLAlchemy types leak out)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

STATUSES = ("pending", "approved", "denied", "expired", "withdrawn", "undeliverable")
FINAL_STATUSES = frozenset(STATUSES[1:])


@dataclass(frozen=True, slots=True)
class Bot:
    """A registered Bot. ``owners`` are Slack user IDs; ``room`` is the channel its cards go to (or None);
    ``chat_user`` is the Slack user the Bot posts as: the only one whose room messages count as its reports."""

    id: str
    name: str
    owners: tuple[str, ...]
    room: str | None
    created_at: datetime
    chat_user: str | None = None
    removed_at: datetime | None = None
    """Set by ``flybot bots remove``: the token is replaced, the Bot is no longer listed, its history stays."""
    two_person: str | None = None
    """``destructive-host``: two distinct people must approve its destructive commands on the host; None: only when
    the deployment says so (``FLYBOT_TWO_PERSON``)."""
    owner_groups: tuple[str, ...] = ()
    """Slack user group IDs (``S…``) whose members are owners too, resolved when someone decides."""
    fallback_owners: tuple[str, ...] = ()
    fallback_groups: tuple[str, ...] = ()
    """Who is asked (a DM copy of the card) after ``FLYBOT_FALLBACK_AFTER_S`` without a decision;
    both empty: the admins."""
    allowed_rooms: tuple[str, ...] = ()
    """Channel IDs besides ``room`` that its requests may name (``flybot bots add/set --allow-room``); a request
    naming any other room is refused (403 ``room_not_allowed``)."""

    def may_use_room(self, room: str) -> bool:
        """True when a request of this Bot may name ``room``: its own room, or one the operator allowed for it."""
        return room == self.room or room in self.allowed_rooms


@dataclass(frozen=True, slots=True)
class RoomQueue:
    """A room's queue of messages for Bots waiting to be posted, as admission reads it (:meth:`bot.store.Tx.room_queue`).

    ``cards``: per Bot id, its messages waiting (queued card and DM-copy jobs of its pending escalations, queued
    blocked-report DMs and redraws); ``waiting``: Bots
    refused ``room_busy`` in this room whose mark has not run out (:meth:`bot.store.Store.note_room_wait`), so they
    count as using the room although none of their cards waits."""

    cards: dict[str, int]
    waiting: frozenset[str] = frozenset()

    @property
    def total(self) -> int:
        """Every card waiting in the room, whichever Bot's."""
        return sum(self.cards.values())

    def bots(self, bot_id: str) -> int:
        """How many Bots share the room when ``bot_id`` asks: those with cards waiting, those marked waiting, and
        ``bot_id`` itself."""
        return len({b for b, n in self.cards.items() if n > 0} | self.waiting | {bot_id})


@dataclass(frozen=True, slots=True)
class NewEscalation:
    """What the service asks the store to insert (status starts ``pending``); ``reasons`` are JSON-ready dicts
    ``{subject, rule, level, detail, downgraded}``."""

    id: str
    bot_id: str
    session_id: str
    command: str
    cwd: str
    file_policy: str
    approval_policy: str
    contained: bool
    justification: str | None
    room: str | None
    risk: str
    reasons: tuple[dict[str, Any], ...]
    created_at: datetime
    expires_at: datetime
    idempotency_key: str | None = None
    approvals_needed: int = 1
    """2 under the two-person rule: fixed at creation, a later change of the setting does not apply."""
    tool: dict[str, Any] | None = None
    """The tool call asked about (``{name, input, resolved_path}``); None for a shell command."""


@dataclass(frozen=True, slots=True)
class Escalation(NewEscalation):
    """One request to run a single call with danger-full-access instead of workspace-write, as stored.

    ``status`` is ``pending`` and then exactly one of the final statuses (DESIGN.md contracts).
    """

    status: str = "pending"
    decided_at: datetime | None = None
    decided_by: str | None = None
    decision_source: str | None = None
    reason: str | None = None
    card_channel: str | None = None
    card_ts: str | None = None
    standing_approval_id: str | None = None
    card_status: str | None = None
    first_approver: str | None = None
    first_approved_at: datetime | None = None
    fallback_at: datetime | None = None

    @property
    def approvers(self) -> tuple[str, ...]:
        """Who approved, in order: under the two-person rule the first approver and then the decider; otherwise the
        decider of an approval (empty while no one has approved)."""
        first = (self.first_approver,) if self.first_approver else ()
        if self.status == "approved" and self.decided_by and self.decided_by not in first:
            return (*first, self.decided_by)
        return first

    @property
    def pending(self) -> bool:
        """True while no decision has been taken."""
        return self.status == "pending"


@dataclass(frozen=True, slots=True)
class Decision:
    """A final decision stored with the escalation's own row (a standing approval answers at creation, so there is
    no pending state for anyone to see or race)."""

    status: str
    at: datetime
    decided_by: str | None
    source: str
    reason: str | None = None
    standing_approval_id: str | None = None


SCOPES = ("session", "bot", "room")


@dataclass(frozen=True, slots=True)
class StandingApproval:
    """A standing approval: answers matching escalations without asking.

    Attributes:
        scope: ``session``, ``bot`` or ``room``; ``subject`` is the session id, Bot id or channel id.
        bot_id: the Bot of a ``session`` scope (session ids are only unique per Bot); None otherwise.
        pattern: argv words that every covered simple command starts with (after unwrapping), or ``*``.
        max_risk: the highest level it covers; never ``destructive``.
        contained_only: only commands that run in the sandbox are covered.
    """

    id: str
    scope: str
    subject: str
    pattern: str
    max_risk: str
    contained_only: bool
    created_by: str
    created_at: datetime
    bot_id: str | None = None
    expires_at: datetime | None = None
    note: str | None = None
    use_count: int = 0
    last_used_at: datetime | None = None
    revoked_at: datetime | None = None
    revoked_by: str | None = None

    def live(self, now: datetime) -> bool:
        """Neither revoked nor expired at ``now``."""
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > now)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One audit row as read back."""

    id: int
    at: datetime
    event: str
    escalation_id: str | None
    actor: str | None
    detail: dict[str, Any] = field(default_factory=dict)


JOB_KINDS = {
    "card.update": 0,
    "report.update": 2,
    "card.post": 1,
    "notice": 2,
    "report.dm": 2,
    "reminder": 2,
    "fallback": 2,
    "card.dm": 1,
    "tell": 2,
    "home.refresh": 2,
}
"""Outbox job kinds and their priority within a room (lower first): card updates remove live buttons, so they go
first; then new cards; then notices, DMs, reminders and blocked reports' DMs and redraws (a Bot's reports never
hold another Bot's approval cards back in its owners' DMs). A ``reminder`` is
written with its escalation, due at the reminder's time; so is a ``fallback``, which then writes one
``card.dm`` per fallback approver (a DM copy of the card). ``tell`` shows one person a line about their own action
(payload ``{user, channel, text}``; room ``user:<id>``). ``home.refresh`` redraws the App Home of
everyone who opened it, after an escalation with a card is created or changes; one waiting job serves every change."""


@dataclass(frozen=True, slots=True)
class Job:
    """One claimed outbox job (see :class:`bot.store.models.OutboxJobRow`).

    ``attempts`` counts claims including this one; ``uncertain`` is True when an earlier attempt may have reached
    Slack without its answer coming back (a timeout, a lost connection, a crash): a post must then be looked for in
    the room's history before it is sent again. ``slot_at`` is the room slot this claim was granted.
    """

    id: int
    kind: str
    room: str
    ref: str
    payload: dict[str, Any]
    attempts: int
    uncertain: bool
    created_at: datetime
    deadline_at: datetime | None
    slot_at: datetime


@dataclass(frozen=True, slots=True)
class Notice:
    """A folded standing-approval notice (one message per Bot, room and window, edited in place).

    ``items``: the latest few ``{escalation_id, command, contained, at}``, newest last; ``approvals``: the standing
    approvals used, ``{id, scope, pattern, created_by}``; ``channel``/``ts`` once posted.
    """

    id: str
    room: str
    bot_id: str
    window_start: datetime
    count: int
    items: tuple[dict[str, Any], ...]
    approvals: tuple[dict[str, Any], ...]
    channel: str | None
    ts: str | None


@dataclass(frozen=True, slots=True)
class ProgramRule:
    """A program rule: the organisation's grade for ``program`` (``subcommand``: only when its first argument is that
    word; None: any use), set by an admin (``set_by``, a Slack user ID or an admin token's user) at ``set_at``.

    ``grade`` is a risk level's wire name; it grades a program the classifier does not know, raises a built-in
    grade, or (below the built-in grade) overrides it, which every card it affects names (bot/risk/rules.py).
    """

    program: str
    subcommand: str | None
    grade: str
    set_by: str
    set_at: datetime
    note: str | None = None

    @property
    def words(self) -> str:
        """``gcc`` or ``bazel build``: the program and subcommand as typed."""
        return f"{self.program} {self.subcommand}" if self.subcommand else self.program


@dataclass(frozen=True, slots=True)
class Claim:
    """What a claim found (:meth:`bot.store.Store.claim_job`).

    ``job``: the job claimed, or None; ``more_due``: other jobs were due besides it (a backlog: wake another
    worker); ``ready_at``: when the claimed job's room may send next (its pace row's ``ready_at`` after the claim),
    None when nothing was claimed.
    """

    job: Job | None
    more_due: bool = False
    ready_at: datetime | None = None
