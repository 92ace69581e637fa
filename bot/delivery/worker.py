"""The delivery workers: claim a due job, send it through the chat port, record the result with the job's end.

One loop per worker (:meth:`Delivery.run`); every replica runs some (PostgreSQL hands each job to one worker with
``FOR UPDATE SKIP LOCKED``; on SQLite one worker). Per job kind:

- ``card.post``: post the approval card as it is NOW; record channel/ts; if the escalation ended while the post was
  in flight, queue its update at once. An escalation that ended before its card went out gets no card (its job is
  marked done, the card ``cancelled``); when an earlier attempt may have landed, the room's history is read first
  and a card found there is recorded and redrawn.
- ``card.update``: redraw the card (nothing to do before it is posted: the post draws the current state).
- ``notice``: post the room's folded standing-approval notice, or edit it in place once posted.
- ``report.dm``: DM one owner a blocked report; ``report.update``: redraw every DM of a report.
- ``reminder``: due at a fraction of the escalation's lifetime; if it is still pending, post one
  reminder in the card's thread mentioning its owners and owner groups (audited ``escalation.reminded``); if it was
  decided, nothing; if its card is not out yet, try again shortly.
- ``fallback``: due ``FLYBOT_FALLBACK_AFTER_S`` after the request; if it is still pending, mark it
  (from then on the fallback approvers may decide), audit ``escalation.fallback_asked`` with who, and write one
  ``card.dm`` per fallback approver: the Bot's ``--fallback-owner``s and the members of its ``--fallback-group``s
  now, or the admins when it names none (never its own chat user, nor an owner listed already).
- ``card.dm``: DM one person a copy of the approval card (same buttons) and remember it; ``card.update`` redraws
  the card and every copy, so the first decision anywhere shows everywhere.
- ``tell``: one line to one person about their own action (ephemeral where they clicked, else a DM).
- ``home.refresh``: redraw the App Home of everyone who opened it in the last
  :data:`HOME_VIEWERS_DAYS` days (their pending escalations, with the same buttons); written when a card is posted
  and with every change of an escalation that has one.

Failures: 429 pauses the room (``Retry-After``, shared by every replica) and the job waits; an unsure outcome (timeout,
lost connection, 5xx) retries with exponential backoff, and a post is first looked for in the room's history by its
message metadata, so a post whose answer was lost is never sent twice; a refusal (``channel_not_found``...) or a
missed deadline (``FLYBOT_DELIVERY_DEADLINE_S`` from the first attempt) gives up: a card's escalation ends
``undeliverable`` (never approved) and its session is woken. A redraw given up (Slack refused it) after a person
decided queues a ``tell`` to that person (the message they clicked may still show buttons). A card's
redraw (``card.update``) is given up only when Slack refuses it: an unsure one is retried until it lands, at most
:data:`REDRAW_RETRY_MAX_S` apart, so it lands within about that long of Slack's recovery; past the deadline the
person who decided is told once, as for a refusal, and the retries go on. Notices are never given up: while one is overdue, standing approvals in its room stop answering
(:meth:`bot.store.Tx.notices_overdue`).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import structlog

from bot.chat import ChatError, ChatPort, RateLimited, Refused, Tag, Unsure
from bot.metrics import Metrics
from bot.render import to_card, to_notice_message
from bot.report_card import to_card_report
from bot.store import Bot, Job, Store, Tx
from cards import approval_card, reminder_message, report_dm
from cards.approval import CardMessage
from cards.stale import stale_card_text, stale_report_text

log = structlog.get_logger("flybot.delivery")

KEEP_DONE_JOBS = timedelta(days=1)
"""Finished jobs are kept this long (the audit log keeps the history for good)."""
PRUNE_EVERY = timedelta(minutes=10)

PEOPLE = frozenset({"owner", "admin", "fallback"})
"""Decision sources where a person clicked (and so hears when their message was not redrawn)."""
HOME_VIEWERS_DAYS = 30
"""App Homes opened within this many days are redrawn when an escalation changes."""

CARD_TAG = "flybot_card"
NOTICE_TAG = "flybot_notice"
REPORT_TAG = "flybot_report"
REMINDER_TAG = "flybot_reminder"


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class DeliveryConfig:
    """How delivery paces and retries (seconds throughout; from :class:`bot.settings.Settings`).

    Attributes:
        interval_s: a room's pace: one message per ``interval_s`` on average, across all replicas.
        burst: how many messages a quiet room may take at once (token bucket size).
        deadline_s: from a job's first attempt, how long failed sends are retried before giving up.
        lease_s: how long a claimed job is a worker's; after that (a crash) another worker takes it.
        poll_s: the longest a worker sleeps when it has nothing to do (jobs of other replicas, due retries).
        timeout_s: Slack's answer time per call; an unsure post is retried no sooner than twice this.
        notice_window_s: standing-approval notices of one Bot and room within this window fold into one message.
        admins: the fallback approvers of a Bot that names none.
    """

    interval_s: float = 1.0
    burst: int = 3
    deadline_s: float = 120.0
    lease_s: float = 60.0
    poll_s: float = 0.5
    timeout_s: float = 10.0
    notice_window_s: float = 60.0
    admins: tuple[str, ...] = ()


class GiveUp(Exception):
    """A job that cannot be delivered (its thing is gone); recorded as failed without a retry."""


SLOT_MARGIN_S = 0.002
"""Seconds after a room's next slot that a worker woken for it (:meth:`Delivery.wake`) claims: the event loop's
timer and the wall clock may differ by a little, and a claim a moment early would lose."""

RETRY_MAX_S = 30.0
"""The longest wait between two tries of a job (exponential backoff from 0.5 s, with 20% jitter either way)."""

REDRAWS = frozenset({"card.update"})
"""Job kinds retried until they land unless Slack refuses them: an approval card and its copies may show live buttons
until their redraw lands (see the module docstring)."""

REDRAW_RETRY_MAX_S = 4.0
"""The longest wait between two tries of a redraw, seconds (before jitter): after Slack recovers, a card keeps its
stale buttons at most about this long (a click on it queues a redraw at once, :mod:`bot.slack.actions`)."""

FALLBACK_RETRY_S = 5.0
"""Seconds before a fallback whose groups Slack would not show (and so had no one to ask) is tried again."""


class NotYet(Exception):
    """A job that must wait for another one (a reminder whose card is not posted yet): due again in ``after_s``."""

    def __init__(self, why: str, after_s: float) -> None:
        super().__init__(why)
        self.after_s = after_s


class Delivery:
    """Claims, sends and records outbox jobs.

    Args:
        store: jobs, escalations, notices and the audit log.
        reports: blocked reports (their DMs).
        chat: the chat port.
        config: pace, retries, deadlines.
        metrics: deliveries and retries (None: none).
        on_undeliverable: called with an escalation id that just ended ``undeliverable`` (wakes its long-polls).
        clock: aware UTC now.
        home: redraws one person's App Home (``views.publish``; best effort); None: ``home.refresh`` does nothing.
    """

    def __init__(
        self,
        store: Store,
        chat: ChatPort,
        config: DeliveryConfig,
        *,
        metrics: Metrics | None = None,
        clock: Callable[[], datetime] = utcnow,
        home: Callable[[str], Awaitable[object]] | None = None,
    ) -> None:
        self.home = home
        self.store = store
        self.chat = chat
        self.config = config
        self.metrics = metrics
        self.clock = clock
        self._idle: list[asyncio.Event] = []
        self._poller: asyncio.Event | None = None
        self._ready: dict[str, datetime] = {}
        self._slots: dict[str, asyncio.TimerHandle] = {}
        self._pruned = datetime.min.replace(tzinfo=UTC)
        self.closing = False
        store.on_jobs(self.wake)

    def wake(self, rooms: Sequence[str] = ()) -> None:
        """New jobs were committed on this replica (``rooms``: the room of each; empty: not known): wake ONE idle
        worker (the others keep sleeping; a busy worker claims again as soon as it is done).

        Not at once when every one of ``rooms`` is waiting for its next slot as this replica's own last claim there
        left it (:attr:`bot.store.records.Claim.ready_at`): no worker of any replica can claim those jobs before that
        slot (a room's next slot only ever moves later), so a claim now could only lose; the poller is woken at the
        slot instead (:meth:`_at_slot`): under a steady stream of auto-answers the room's next notice job is written
        right after each notice's claim, and a worker woken then would claim and poll in the event loop for nothing.
        """
        if rooms:
            now = self.clock()
            slots = [self._ready.get(room) for room in rooms]
            if all(slot is not None and slot > now for slot in slots):
                for room, slot in zip(rooms, slots, strict=True):
                    if room not in self._slots and slot is not None:
                        delay = (slot - now).total_seconds() + SLOT_MARGIN_S
                        self._slots[room] = asyncio.get_running_loop().call_later(delay, self._at_slot, room)
                return
        if self._idle:
            self._idle.pop().set()

    def _at_slot(self, room: str) -> None:
        """A room whose jobs :meth:`wake` left waiting may send now: wake the idle worker that polls (it claims at once
        instead of sleeping until its next poll). With no poller some worker is at work, and it claims or polls as
        soon as it is done (:meth:`run`): waking a second one would make two claims at the slot, one of them lost."""
        self._slots.pop(room, None)
        poller = self._poller
        if poller is not None and poller in self._idle:
            self._idle.remove(poller)
            poller.set()

    def stop(self) -> None:
        """Graceful shutdown: workers finish the job in hand, then return (claim nothing new)."""
        self.closing = True
        for timer in self._slots.values():
            timer.cancel()
        self._slots.clear()
        for event in self._idle:
            event.set()

    async def run(self) -> None:
        """One worker's loop, until :meth:`stop` (or cancelled); errors are logged, never fatal.

        Of the idle workers ONE polls the store (sleeps until the next job is due, at most ``poll_s``); the others
        sleep until woken: by a commit that wrote jobs (:meth:`wake`), or by a worker that just claimed one and saw
        other jobs due (a backlog: one more worker joins in, and polls if it finds nothing); a worker that delivered
        claims again itself. With every idle worker polling, all would wake at a room's next slot at once, and the claim
        transactions that could only lose would take the event loop and the room's pace row from the requests. The poller claims when its sleep ends at the due time it read; when the sleep
        ended at ``poll_s`` only (nothing was due before), it polls again rather than claim: a job that became due
        meanwhile (another replica's, a retry) is found by the poll, and a claim could only lose (at 200 auto-answers
        a second it was one more claim half-way between two notice slots).
        """
        claim = True
        while not self.closing:
            if claim:
                try:
                    worked = await self.run_once()
                except asyncio.CancelledError:
                    raise
                except Exception:  # noqa: BLE001 - a worker survives a store hiccup
                    log.exception("delivery.loop_failed")
                    worked = False
                if worked:
                    continue
            claim = True
            if self.closing:
                continue
            woken = asyncio.Event()
            self._idle.append(woken)
            polls = self._poller is None
            if polls:
                self._poller = woken
            try:
                idle, capped = await self._poll() if polls else (None, False)
                await asyncio.wait_for(woken.wait(), timeout=idle)
            except TimeoutError:
                claim = not capped
            finally:
                if woken in self._idle:
                    self._idle.remove(woken)
                if self._poller is woken:
                    self._poller = None

    async def _poll(self) -> tuple[float, bool]:
        """:meth:`_idle_for`, and when the store fails (a lost connection, a restart): ``poll_s``, then claim. A
        failed poll never ends the worker's loop: one store hiccup must not leave the replica with one delivery worker
        fewer, or with one worker (SQLite's default) none."""
        try:
            return await self._idle_for()
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - a worker survives a store hiccup
            log.exception("delivery.poll_failed")
            return self.config.poll_s, False

    async def _idle_for(self) -> tuple[float, bool]:
        """The poller's sleep, seconds: until the next job is due, at most ``poll_s``; and whether it is that cap
        (nothing is due sooner)."""
        now = self.clock()
        if now - self._pruned > PRUNE_EVERY:
            self._pruned = now
            async with self.store.transaction() as tx:
                await tx.prune_jobs(now - KEEP_DONE_JOBS)
        due = await self.store.next_job_due(now)  # a read: never waits for (or blocks) a writer
        wait = self.config.poll_s if due is None else max(0.005, (due - now).total_seconds())
        return min(self.config.poll_s, wait), due is None or wait > self.config.poll_s

    async def run_once(self) -> bool:
        """Claim and deliver one job (:meth:`bot.store.Store.claim_job`: a read first, so that a worker with nothing
        to claim never takes SQLite's single writer's turn); False when no job could be claimed now."""
        if self.closing:
            return False
        now = self.clock()
        claim = await self.store.claim_job(
            now,
            interval_s=self.config.interval_s,
            burst=self.config.burst,
            lease_s=self.config.lease_s,
            deadline_s=self.config.deadline_s,
        )
        job = claim.job
        if job is None:
            return False
        if claim.ready_at is not None:
            if len(self._ready) >= 10_000:
                self._ready.clear()
            self._ready[job.room] = claim.ready_at
        if claim.more_due:
            self.wake()
        bound = log.bind(job_id=job.id, kind=job.kind, ref=job.ref, room=job.room, attempt=job.attempts)
        try:
            await self._deliver(job)
        except RateLimited as exc:
            await self._rate_limited(job, exc)
            bound.info("delivery.rate_limited", retry_after=exc.retry_after_s)
        except Refused as exc:
            bound.warning("delivery.refused", error=exc.error)
            await self._fail(job, f"Slack refused: {exc.error}", refused=True)
        except NotYet as exc:
            async with self.store.transaction() as tx:
                await tx.job_retry(
                    job.id, due_at=self.clock() + timedelta(seconds=exc.after_s), error=str(exc), uncertain=False
                )
        except GiveUp as exc:
            bound.warning("delivery.dropped", error=str(exc))
            self._count("dropped", job)
            async with self.store.transaction() as tx:
                await tx.job_failed(job.id, self.clock(), str(exc))
        except (ChatError, Exception) as exc:  # noqa: BLE001 - anything else: the outcome is unknown, retry
            error = exc.error if isinstance(exc, ChatError) else type(exc).__name__
            if not isinstance(exc, ChatError):
                bound.exception("delivery.crashed")
            await self._fail(job, error, unsure=True)
        else:
            self._count("delivered", job)
        return True

    # -- per kind ------------------------------------------------------------------------------------------
    async def _deliver(self, job: Job) -> None:
        handler = {
            "card.post": self._card_post,
            "card.update": self._card_update,
            "notice": self._notice,
            "report.dm": self._report_dm,
            "report.update": self._report_update,
            "reminder": self._reminder,
            "fallback": self._fallback,
            "card.dm": self._card_dm,
            "tell": self._tell,
            "home.refresh": self._home_refresh,
        }[job.kind]
        await handler(job)

    async def _bot(self, bot_id: str) -> Bot:
        bot = await self.store.get_bot(bot_id)
        if bot is None:
            raise GiveUp(f"Bot {bot_id} no longer exists")
        return bot

    async def _channel(self, room: str) -> str:
        return await self.chat.open_dm(room.removeprefix("user:")) if room.startswith("user:") else room

    async def _post_once(
        self,
        job: Job,
        channel: str,
        tag: Tag,
        since: datetime,
        text: str,
        blocks: list[dict[str, Any]],
        thread_ts: str | None = None,
    ) -> tuple[str, str, bool]:
        """Post (``thread_ts``: in that thread) unless an earlier attempt of this job already landed;
        ``(channel, ts, found_in_history)``."""
        if job.uncertain:
            ts = await self.chat.find(channel, tag, since=since, thread_ts=thread_ts)
            if ts is not None:
                return channel, ts, True
        posted_channel, ts = await self.chat.post(channel, text, blocks, tag, thread_ts=thread_ts)
        return posted_channel, ts, False

    async def _card_post(self, job: Job) -> None:
        escalation = await self.store.get_escalation(job.ref)
        if escalation is None:
            raise GiveUp(f"escalation {job.ref} no longer exists")
        # An escalation that ended gets no card. Its ending deleted this job unless a worker held it or an earlier
        # attempt may have landed (uncertain): then a card found in the room's history is recorded and redrawn below.
        if not escalation.pending and not job.uncertain:
            await self._card_cancelled(job, escalation.id)
            return
        bot = await self._bot(escalation.bot_id)
        channel = await self._channel(job.room)
        tag = Tag(CARD_TAG, escalation.id)
        if not escalation.pending and await self.chat.find(channel, tag, since=escalation.created_at) is None:
            await self._card_cancelled(job, escalation.id)
            return
        message = approval_card(to_card(escalation, bot))
        channel, ts, found = await self._post_once(
            job, channel, tag, escalation.created_at, message.text, message.blocks
        )
        now = self.clock()
        async with self.store.transaction() as tx:
            await tx.job_done(job.id, now)
            current = await tx.set_card(escalation.id, status="posted", channel=channel, ts=ts)
            await tx.audit(
                "card.posted", at=now, escalation_id=escalation.id, channel=channel, ts=ts, found_in_history=found
            )
            await tx.refresh_homes(now)  # it shows on the Homes of those who may decide it
            if current is not None and not current.pending and (found or current.status != escalation.status):
                # It ended while the card was on its way: no live buttons, ever.
                await tx.enqueue("card.update", ref=escalation.id, room=job.room, at=now)
        log.info(
            "card.posted",
            escalation_id=escalation.id,
            bot_id=bot.id,
            session_id=escalation.session_id,
            channel=channel,
            ts=ts,
            found_in_history=found,
        )

    async def _card_cancelled(self, job: Job, escalation_id: str) -> None:
        """The card of an ended escalation is never posted: the job is done and the card ``cancelled``."""
        now = self.clock()
        async with self.store.transaction() as tx:
            await tx.job_done(job.id, now)
            await tx.set_card(escalation_id, status="cancelled")
            await tx.audit("card.cancelled", at=now, escalation_id=escalation_id)
        log.info("card.cancelled", escalation_id=escalation_id)

    async def _card_update(self, job: Job) -> None:
        escalation = await self.store.get_escalation(job.ref)
        if escalation is None:
            raise GiveUp(f"escalation {job.ref} no longer exists")
        copies = await self.store.card_copies(escalation.id)
        room = bool(escalation.card_channel and escalation.card_ts)
        if room or copies:
            bot = await self._bot(escalation.bot_id)
        edits: list[tuple[str, str, CardMessage]] = []
        if room:
            message = approval_card(to_card(escalation, bot))
            edits.append((str(escalation.card_channel), str(escalation.card_ts), message))
        if copies:  # every fallback approver's DM copy, which says why they have it
            message = approval_card(to_card(escalation, bot, fallback_copy=True))
            edits += [(channel, ts, message) for channel, ts in copies]
        await self._edit_all(edits)
        await self.store.job_done(job.id, self.clock())

    async def _edit_all(self, edits: list[tuple[str, str, CardMessage]]) -> None:
        """``chat.update`` each ``(channel, ts, message)``: every copy of one card or report, so one that Slack will
        not edit (deleted, its channel archived) does not leave the others with live buttons. Raises after trying
        them all: RateLimited at once (the room waits, then all again; an edit is idempotent), else Unsure if any
        was unsure (all again later), else the first Refused (given up; the decider is told)."""
        failed: ChatError | None = None
        for channel, ts, message in edits:
            try:
                await self.chat.update(channel, ts, message.text, message.blocks)
            except RateLimited:
                raise
            except ChatError as exc:
                failed = (
                    exc if failed is None or (isinstance(exc, Unsure) and not isinstance(failed, Unsure)) else failed
                )
        if failed is not None:
            raise failed

    async def _reminder(self, job: Job) -> None:
        escalation = await self.store.get_escalation(job.ref)
        if escalation is None:
            raise GiveUp(f"escalation {job.ref} no longer exists")
        if escalation.pending and escalation.card_status == "queued":
            raise NotYet("the card is not posted yet", after_s=1.0)
        if not escalation.pending or not (escalation.card_channel and escalation.card_ts):
            await self.store.job_done(job.id, self.clock())  # decided in time (or never shown): nothing to remind of
            return
        bot = await self._bot(escalation.bot_id)
        message = reminder_message(
            bot_name=bot.name,
            owners=bot.owners,
            groups=bot.owner_groups,
            expires_at=escalation.expires_at,
            approvals=len(escalation.approvers),
            needed=escalation.approvals_needed,
        )
        channel, ts, found = await self._post_once(
            job,
            escalation.card_channel,
            Tag(REMINDER_TAG, escalation.id),
            escalation.created_at,
            message.text,
            message.blocks,
            thread_ts=escalation.card_ts,
        )
        now = self.clock()
        async with self.store.transaction() as tx:
            await tx.job_done(job.id, now)
            await tx.audit(
                "escalation.reminded",
                at=now,
                escalation_id=escalation.id,
                owners=list(bot.owners),
                groups=list(bot.owner_groups),
                channel=channel,
                ts=ts,
                found_in_history=found,
            )
        log.info(
            "escalation.reminded",
            escalation_id=escalation.id,
            bot_id=bot.id,
            session_id=escalation.session_id,
            channel=channel,
            ts=ts,
        )

    async def _fallback(self, job: Job) -> None:
        escalation = await self.store.get_escalation(job.ref)
        if escalation is None:
            raise GiveUp(f"escalation {job.ref} no longer exists")
        if escalation.pending and escalation.card_status == "queued":
            raise NotYet("the card is not posted yet", after_s=1.0)
        bot = await self._bot(escalation.bot_id)
        asked, unreadable = await self._fallback_approvers(bot) if escalation.pending else ([], [])
        if escalation.pending and unreadable and not asked:
            # Nobody to ask: marking it would say "Fallback approvers asked" when no one was (and hand the group's
            # members a say unasked). Ask again later; the escalation's expiry ends it (fail closed).
            raise NotYet(f"fallback groups {', '.join(unreadable)} could not be read", after_s=FALLBACK_RETRY_S)
        now = self.clock()
        async with self.store.transaction() as tx:
            await tx.job_done(job.id, now)
            marked = await tx.mark_fallback(escalation.id, now) if escalation.pending else None
            if marked is not None:
                for user in asked:
                    await tx.enqueue("card.dm", ref=escalation.id, room=f"user:{user}", at=now, payload={"user": user})
                extra: dict[str, Any] = {"unreadable": unreadable} if unreadable else {}
                await tx.audit(
                    "escalation.fallback_asked",
                    at=now,
                    escalation_id=escalation.id,
                    asked=asked,
                    named=bool(bot.fallback_owners or bot.fallback_groups),
                    **extra,
                )
                await tx.enqueue("card.update", ref=escalation.id, room=job.room, at=now)  # "Fallback asked ..."
                await tx.refresh_homes(now)  # the fallback approvers' Homes list it now
        if marked is not None:
            log.info(
                "escalation.fallback_asked",
                escalation_id=escalation.id,
                bot_id=bot.id,
                session_id=escalation.session_id,
                asked=asked,
            )

    async def _fallback_approvers(self, bot: Bot) -> tuple[list[str], list[str]]:
        """``(who, unreadable groups)``: who a Bot's fallback asks, its fallback owners and fallback groups' members
        now, or the admins when it names none; never its chat user, nor an owner listed already (they have the
        card). The fallback groups Slack would not show are the second list."""
        named = bool(bot.fallback_owners or bot.fallback_groups)
        people = list(bot.fallback_owners) if named else list(self.config.admins)
        unreadable: list[str] = []
        for group in bot.fallback_groups:
            members = await self.chat.usergroup_members(group)
            if members is None:
                log.warning("fallback_group.unreadable", group=group, bot_id=bot.id)
                unreadable.append(group)
            people += sorted(members or ())
        return [u for u in dict.fromkeys(people) if u != bot.chat_user and u not in bot.owners], unreadable

    async def _card_dm(self, job: Job) -> None:
        escalation = await self.store.get_escalation(job.ref)
        if escalation is None:
            raise GiveUp(f"escalation {job.ref} no longer exists")
        user = str(job.payload.get("user") or "")
        if not escalation.pending:
            await self.store.job_done(job.id, self.clock())  # decided before the copy went out: no copy needed
            return
        bot = await self._bot(escalation.bot_id)
        channel = await self.chat.open_dm(user)
        message = approval_card(to_card(escalation, bot, fallback_copy=True))
        channel, ts, found = await self._post_once(
            job,
            channel,
            Tag(CARD_TAG, f"{escalation.id}:{user}"),
            escalation.created_at,
            message.text,
            message.blocks,
        )
        now = self.clock()
        async with self.store.transaction() as tx:
            await tx.job_done(job.id, now)
            await tx.add_card_copy(escalation.id, user=user, channel=channel, ts=ts, at=now)
            current = await tx.get_escalation(escalation.id)
            if current is not None and (found or current.status != escalation.status):
                await tx.enqueue("card.update", ref=escalation.id, room=job.room, at=now)  # it ended meanwhile
        log.info("card.copied", escalation_id=escalation.id, bot_id=bot.id, user=user, channel=channel, ts=ts)

    async def _home_refresh(self, job: Job) -> None:
        if self.home is not None:
            for user in await self.store.home_viewers(self.clock() - timedelta(days=HOME_VIEWERS_DAYS)):
                await self.home(user)
        await self.store.job_done(job.id, self.clock())

    async def _notice(self, job: Job) -> None:
        async with self.store.transaction() as tx:  # after the claim's commit: see Tx.get_notice
            notice = await tx.get_notice(job.ref)
        if notice is None:
            raise GiveUp(f"notice {job.ref} no longer exists")
        bot = await self._bot(notice.bot_id)
        message = to_notice_message(notice, bot, window_s=self.config.notice_window_s)
        if notice.channel and notice.ts:
            await self.chat.update(notice.channel, notice.ts, message.text, message.blocks)
            await self.store.job_done(job.id, self.clock())
            return
        channel = await self._channel(job.room)
        channel, ts, found = await self._post_once(
            job, channel, Tag(NOTICE_TAG, notice.id), notice.window_start, message.text, message.blocks
        )
        async with self.store.transaction() as tx:
            await tx.job_done(job.id, self.clock())
            await tx.notice_posted(notice.id, channel, ts)
            if found:
                await tx.enqueue("notice", ref=notice.id, room=job.room, at=self.clock())

    async def _report_dm(self, job: Job) -> None:
        report = await self.store.get_report(job.ref)
        if report is None:
            raise GiveUp(f"report {job.ref} no longer exists")
        bot = await self._bot(report.bot_id)
        owner = str(job.payload.get("owner") or "")
        channel = await self.chat.open_dm(owner)
        message = report_dm(to_card_report(report, bot, await self._blocked_hosts(bot)))
        channel, ts, found = await self._post_once(
            job, channel, Tag(REPORT_TAG, f"{report.id}:{owner}"), report.first_seen, message.text, message.blocks
        )
        now = self.clock()
        async with self.store.transaction() as tx:
            await tx.job_done(job.id, now)
            current = await tx.report_dm_posted(report.id, channel, ts)
            await tx.audit(
                "report.delivered",
                at=now,
                actor=bot.id,
                report_id=report.id,
                channels=[channel],
                owner=owner,
                found_in_history=found,
            )
            if current is not None and (found or current.status != report.status or current.count != report.count):
                await tx.enqueue("report.update", ref=report.id, room=job.room, at=now)
        log.info("report.delivered", report_id=report.id, bot_id=bot.id, owner=owner)

    async def _blocked_hosts(self, bot: Bot) -> list[tuple[str, datetime]]:
        """``(host, blocked since)`` of the Bot's open reports, as the DM shows them now."""
        return [(r.host, r.first_seen) for r in await self.store.open_reports(bot.id)]

    async def _report_update(self, job: Job) -> None:
        report = await self.store.get_report(job.ref)
        if report is None:
            raise GiveUp(f"report {job.ref} no longer exists")
        bot = await self._bot(report.bot_id)
        message = report_dm(to_card_report(report, bot, await self._blocked_hosts(bot)))
        await self._edit_all([(channel, ts, message) for channel, ts in report.dms])  # every owner's DM
        await self.store.job_done(job.id, self.clock())

    async def _tell(self, job: Job) -> None:
        payload = job.payload
        await self.chat.tell(
            str(payload.get("channel") or "") or None, str(payload.get("user") or ""), str(payload.get("text") or "")
        )
        await self.store.job_done(job.id, self.clock())

    async def _stale_notice(self, job: Job, error: str) -> tuple[str, str, str | None] | None:
        """When a redraw is given up: ``(user, text, channel)`` telling the person who decided that the message they
        clicked may still show buttons; None when no person decided (expiry, the session, a folded
        report)."""
        error = error.removeprefix("Slack refused: ")  # Slack's code is what the text quotes
        if job.kind == "card.update":
            escalation = await self.store.get_escalation(job.ref)
            if escalation is None or escalation.decision_source not in PEOPLE or not escalation.decided_by:
                return None
            bot = await self.store.get_bot(escalation.bot_id)
            text = stale_card_text(
                status=escalation.status,
                bot_name=bot.name if bot else "a removed Bot",
                command=escalation.command,
                escalation_id=escalation.id,
                channel=escalation.card_channel,
                error=error,
            )
            return escalation.decided_by, text, escalation.card_channel
        if job.kind == "report.update":
            report = await self.store.get_report(job.ref)
            if report is None or report.decision_source not in PEOPLE or not report.decided_by:
                return None
            bot = await self.store.get_bot(report.bot_id)
            text = stale_report_text(
                status=report.status, bot_name=bot.name if bot else "a removed Bot", report_id=report.id, error=error
            )
            return report.decided_by, text, None
        return None

    # -- failures ------------------------------------------------------------------------------------------
    async def _rate_limited(self, job: Job, exc: RateLimited) -> None:
        now = self.clock()
        until = now + timedelta(seconds=max(exc.retry_after_s, 0.0))
        self._count("rate_limited", job)
        async with self.store.transaction() as tx:
            await tx.pause_room(job.room, until, now)
            await tx.job_retry(job.id, due_at=until, error="ratelimited", uncertain=False)

    def _backoff(self, job: Job, unsure: bool) -> float:
        """Seconds until ``job`` is tried again: 0.5 s doubling with each attempt, at most :data:`RETRY_MAX_S`
        (:data:`REDRAW_RETRY_MAX_S` for a redraw), times a jitter of 0.8 to 1.2."""
        cap = REDRAW_RETRY_MAX_S if job.kind in REDRAWS else RETRY_MAX_S
        base = min(cap, 0.5 * 2.0 ** min(max(0, job.attempts - 1), 16)) * random.uniform(0.8, 1.2)
        if unsure and job.kind in ("card.post", "notice", "report.dm", "reminder", "card.dm"):
            base = max(base, 2 * self.config.timeout_s)  # a slow post lands before we look for it
        return base

    async def _fail(self, job: Job, error: str, *, unsure: bool = False, refused: bool = False) -> None:
        now = self.clock()
        deadline = job.deadline_at or now
        endless = job.kind == "notice" or (job.kind in REDRAWS and not refused)
        if endless or (not refused and now < deadline):
            # Notices are never given up (their room stops auto-answering while one is overdue); nor is a redraw
            # Slack did not refuse (the message may show live buttons until it lands).
            delay = self._backoff(job, unsure)
            due = now + timedelta(seconds=delay)
            if not endless:
                due = min(due, deadline)
            self._count("retried", job)
            late = job.kind in REDRAWS and now >= deadline and not await self._told(job)
            stale = await self._stale_notice(job, error) if late else None
            async with self.store.transaction() as tx:
                await tx.job_retry(job.id, due_at=due, error=error, uncertain=unsure)
                await self._tell_stale(tx, job, stale, error, now)
            log.info("delivery.retry", job_id=job.id, kind=job.kind, ref=job.ref, error=error, in_s=round(delay, 2))
            return
        self._count("failed", job)
        stale = await self._stale_notice(job, error) if not await self._told(job) else None
        async with self.store.transaction() as tx:
            await tx.job_failed(job.id, now, error)
            await self._tell_stale(tx, job, stale, error, now)
            if job.kind == "card.post":
                await tx.set_card(job.ref, status="failed")
                failed = await tx.decide(
                    job.ref,
                    status="undeliverable",
                    at=now,
                    decided_by=None,
                    source="delivery_failure",
                    reason=f"the approval card could not be posted: {error}",
                )
                if failed is not None:
                    await tx.audit("escalation.undeliverable", at=now, escalation_id=job.ref, error=error)
                    if self.metrics is not None:
                        self.metrics.escalations.labels("undeliverable", "delivery_failure").inc()
            elif job.kind == "report.dm":
                await tx.audit(
                    "report.undeliverable", at=now, report_id=job.ref, owner=job.payload.get("owner"), error=error
                )
        log.warning("delivery.failed", job_id=job.id, kind=job.kind, ref=job.ref, error=error)

    async def _told(self, job: Job) -> bool:
        """A card's decider was already told that its redraw did not land (its ``card.not_updated`` audit row)."""
        if job.kind != "card.update":
            return False
        return any(row.event == "card.not_updated" for row in await self.store.audit_log(job.ref))

    @staticmethod
    async def _tell_stale(
        tx: Tx, job: Job, stale: tuple[str, str, str | None] | None, error: str, now: datetime
    ) -> None:
        """Queue the ``tell`` of :meth:`_stale_notice` (None: nothing) with its audit row, in ``tx``."""
        if stale is None:
            return
        user, text, channel = stale  # the clicker hears that the message they clicked was not redrawn
        await tx.enqueue(
            "tell", ref=job.ref, room=f"user:{user}", at=now, payload={"user": user, "text": text, "channel": channel}
        )
        if job.kind == "card.update":
            await tx.audit("card.not_updated", at=now, escalation_id=job.ref, error=error, told=user)
        else:
            await tx.audit("report.not_updated", at=now, report_id=job.ref, error=error, told=user)

    def _count(self, outcome: str, job: Job) -> None:
        if self.metrics is not None:
            self.metrics.deliveries.labels(job.kind, outcome).inc()
