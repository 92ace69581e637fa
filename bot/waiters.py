"""In-process wake-ups for sessions long-polling an escalation or a report, and the per-replica long-poll cap.

A decision calls :meth:`WaiterHub.notify`; each long-poll registers with :meth:`WaiterHub.listen` BEFORE reading the
store, so a decision between the read and the wait is never missed. Across replicas a store notification calls
``notify`` too (:mod:`bot.store.notify`). The safety net for a lost notification is ONE periodic store query per hub
for all the ids its long-polls wait on (:meth:`WaiterHub.run_recheck`), never one read per waiter (10,000
waiters each re-reading every 2 s would make 5,000 store reads a second).

A waiting long-poll costs one future and one entry in a :class:`TimerWheel` slot, not a task and a timer of its own
(``asyncio.wait_for`` makes a task per wait).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Collection, Iterator
from contextlib import contextmanager
from typing import TypeVar

import structlog

from bot.errors import Busy, ShuttingDown
from bot.metrics import Metrics

T = TypeVar("T")

log = structlog.get_logger("flybot.waiters")

SNAPSHOT_MAX_AGE_S = 1.0
"""How long (seconds) :meth:`WaiterHub.read_through` may answer a new long-poll from a watched id's snapshot: the
bound on staleness where no notification arrives at all (a decision by another process on one SQLite file, or
PostgreSQL's LISTEN connection lost); the safety net's recheck wakes the waiters themselves."""

BUSY_RETRY_AFTER_S = 2
"""Retry-After (seconds) of the 503 answered when this replica holds as many long-polls as it may."""


class LongPollSlots:
    """The cap on concurrent long-polls of one replica (shared by escalations and reports).

    Args:
        limit: how many long-polls may be held at once (``FLYBOT_MAX_LONG_POLLS``, further bounded by the open-file
            limit, see :func:`bot.limits.long_poll_capacity`).
        metrics: ``flybot_long_polls`` follows the count; refusals count in ``flybot_rate_limited_total``.
    """

    def __init__(self, limit: int, metrics: Metrics | None = None) -> None:
        self.limit = limit
        self.held = 0
        self.metrics = metrics

    @contextmanager
    def take(self) -> Iterator[None]:
        """Hold one slot for the ``with`` block (:meth:`acquire`, then :meth:`release`).

        Raises:
            Busy: every slot is taken (503 with ``Retry-After``; nothing was changed, the client polls again).
        """
        self.acquire()
        try:
            yield
        finally:
            self.release()

    def acquire(self) -> None:
        """Take one slot; every call that returns must be paired with one :meth:`release`.

        Raises:
            Busy: every slot is taken (503 with ``Retry-After``; nothing was changed, the client polls again).
        """
        if self.held >= self.limit:
            if self.metrics is not None:
                self.metrics.rate_limited.labels("long_polls").inc()
            raise Busy(
                f"this FlyBot replica holds its maximum of {self.limit} long-polls: poll again in a moment",
                retry_after=BUSY_RETRY_AFTER_S,
            )
        self.held += 1
        self._show()

    def release(self) -> None:
        """Give back a slot taken by :meth:`acquire`."""
        self.held -= 1
        self._show()

    def _show(self) -> None:
        if self.metrics is not None:
            self.metrics.long_polls.set(self.held)


class TimerWheel:
    """Wakes futures at their deadlines with one event-loop timer per ``tick`` seconds slot, not one per future.

    A deadline is rounded UP to its slot's end, so nobody is woken early; at most ``tick`` late. A future already
    done when its slot fires (woken by a decision, or cancelled) is skipped.

    Args:
        tick: the slot width in seconds (default 0.02).
    """

    def __init__(self, tick: float = 0.02) -> None:
        self.tick = tick
        self._slots: dict[int, list[asyncio.Future[bool]]] = {}

    def wake_at(self, when: float, future: asyncio.Future[bool]) -> None:
        """Set ``future``'s result to False at ``when`` (``loop.time()`` seconds) unless it is done by then."""
        slot = math.ceil(when / self.tick)
        bucket = self._slots.get(slot)
        if bucket is None:
            bucket = self._slots[slot] = []
            asyncio.get_running_loop().call_at(slot * self.tick, self._fire, slot)
        bucket.append(future)

    def _fire(self, slot: int) -> None:
        for future in self._slots.pop(slot, ()):
            if not future.done():
                future.set_result(False)

    def pending(self) -> int:
        """How many futures wait in slots (done ones included until their slot fires)."""
        return sum(len(bucket) for bucket in self._slots.values())


class WaiterHub:
    """Maps ids (escalations or reports) to the events of the long-polls waiting on them.

    Args:
        slots: the replica's long-poll cap (None: no cap).
        find_settled: one store query: of the given ids, those whose long-polls should look again now (decided,
            expired...). Used by :meth:`run_recheck`; None disables the safety net.
        metrics: ``flybot_long_poll_recheck_queries_total`` counts the queries of :meth:`run_recheck`.
        kind: ``escalation`` or ``report`` (the metric's label).
    """

    def __init__(
        self,
        slots: LongPollSlots | None = None,
        find_settled: Callable[[list[str]], Awaitable[Collection[str]]] | None = None,
        metrics: Metrics | None = None,
        kind: str = "escalation",
    ) -> None:
        self._events: defaultdict[str, set[asyncio.Future[bool]]] = defaultdict(set)
        self.slots = slots
        self.find_settled = find_settled
        self.metrics = metrics
        self.kind = kind
        self.wheel = TimerWheel()
        self._snapshots: dict[str, tuple[float, object]] = {}
        self._generation: dict[str, int] = {}
        self._epoch = 0
        self._settled: set[str] = set()

    @contextmanager
    def listen(self, key: str) -> Iterator[asyncio.Future[bool]]:
        """Register interest in ``key`` for the ``with`` block (:meth:`add`, then :meth:`discard`)."""
        woken = self.add(key)
        try:
            yield woken
        finally:
            self.discard(key, woken)

    def add(self, key: str) -> asyncio.Future[bool]:
        """Register interest in ``key``: the returned future's result is set to True by :meth:`notify` (or to False
        by :attr:`wheel`, when its caller asks for a deadline). Pair with one :meth:`discard`."""
        woken: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._events[key].add(woken)
        return woken

    def discard(self, key: str, woken: asyncio.Future[bool]) -> None:
        """Unregister a future of :meth:`add`; the last one of ``key`` also drops its snapshot."""
        waiters = self._events.get(key)
        if waiters is not None:
            waiters.discard(woken)
            if not waiters:
                del self._events[key]
                self._snapshots.pop(key, None)
                self._generation.pop(key, None)
                self._settled.discard(key)

    def notify(self, key: str, settled: object | None = None) -> None:
        """Wake every long-poll waiting on ``key`` and forget its snapshot (:meth:`read_through`); ``settled``: the
        item as the change that calls this committed it, final (a decision's escalation): it becomes the snapshot,
        so the woken long-polls answer without reading the store again."""
        waiters = self._events.get(key)
        if not waiters:
            return
        if settled is None:
            self._snapshots.pop(key, None)
        else:
            self._snapshots[key] = (time.monotonic(), settled)
        self._generation[key] = self._generation.get(key, 0) + 1
        for woken in waiters:
            if not woken.done():
                woken.set_result(True)

    def seen_settled(self, key: str) -> None:
        """A read found ``key`` settled (decided, expired...): wake the long-polls still waiting on it, once per key
        while it is watched. They would otherwise learn it from a notification that may never come (a decision by
        another process on one SQLite file) only at the safety net's next recheck, while this replica already
        answers it to every new reader."""
        if key in self._events and key not in self._settled:
            self._settled.add(key)
            self.notify(key)

    async def read_through(self, key: str, fetch: Callable[[str], Awaitable[T]]) -> T:
        """``fetch(key)``, or the snapshot of it that a long-poll on ``key`` read less than :data:`SNAPSHOT_MAX_AGE_S`
        ago, while ``key`` has been watched without a break and nobody called :meth:`notify` for it since.

        Why it is safe: every decision made here, every store notification from another replica and every
        settled id found by the safety net calls :meth:`notify`, which drops the snapshot; a newly arrived
        long-poll therefore sees what the long-polls already waiting on ``key`` would see. A snapshot is kept only
        from a read that started while ``key`` was watched (the caller is inside :meth:`listen`), and not if
        ``notify`` ran during the read. A burst of long-polls on one id thus costs one store read, not one each.
        """
        now = time.monotonic()
        found = self._snapshots.get(key)
        if found is not None and now - found[0] < SNAPSHOT_MAX_AGE_S:
            return found[1]  # type: ignore[return-value]
        watched = key in self._events
        generation, epoch = self._generation.get(key, 0), self._epoch
        item = await fetch(key)
        if watched and key in self._events and self._generation.get(key, 0) == generation and self._epoch == epoch:
            self._snapshots[key] = (now, item)
        return item

    def notify_all(self) -> None:
        """Wake every waiter (used at shutdown so long-polls answer promptly); forgets every snapshot."""
        self._snapshots.clear()
        self._epoch += 1
        for waiters in self._events.values():
            for woken in waiters:
                if not woken.done():
                    woken.set_result(True)

    def waiting(self, key: str) -> int:
        """How many long-polls wait on ``key`` (for tests and metrics)."""
        return len(self._events.get(key, ()))

    def keys(self) -> list[str]:
        """The ids long-polled right now."""
        return list(self._events)

    async def recheck_once(self) -> int:
        """One safety-net pass: ONE store query for every id waited on; wakes those it names. Returns how many."""
        ids = self.keys()
        if not ids or self.find_settled is None:
            return 0
        settled = await self.find_settled(ids)
        if self.metrics is not None:
            self.metrics.long_poll_rechecks.labels(self.kind).inc()
        for key in settled:
            self.notify(key)
        return len(settled)

    async def run_recheck(self, interval_s: float) -> None:
        """Every ``interval_s`` seconds, :meth:`recheck_once` until cancelled; a store error is logged, never fatal."""
        while True:
            await asyncio.sleep(interval_s)
            try:
                await self.recheck_once()
            except Exception as exc:  # noqa: BLE001 - the safety net must survive a transient store error
                log.warning("long_poll.recheck_failed", kind=self.kind, error=type(exc).__name__)


async def long_poll(
    hub: WaiterHub,
    key: str,
    read: Callable[[], Awaitable[T]],
    *,
    settled: Callable[[T], bool],
    wait_s: float,
    closing: Callable[[], bool],
    pause_for: Callable[[T], float] | None = None,
) -> T:
    """Answer as soon as ``read()`` gives a settled item, or with the last item after ``wait_s`` seconds.

    Registers with ``hub`` BEFORE each read (no lost wake-up) and reads again only when woken (a decision here, a
    store notification from another replica, or the hub's periodic recheck) or after ``pause_for(item)`` seconds
    (e.g. at its expiry). When the wait ends with nothing woken, the last read is the answer.

    Raises:
        ShuttingDown: once ``closing()`` is true (503, retryable), so clients poll again elsewhere or later.
        Busy: a real wait (``wait_s > 0``) while the replica holds its maximum of long-polls (503, Retry-After).
    """
    deadline = time.monotonic() + max(0.0, wait_s)
    if closing():
        raise ShuttingDown("FlyBot is restarting: poll again in a moment (nothing was lost)")
    # Plain try/finally rather than context managers: a held long-poll is a few dozen live objects, and a full
    # garbage collection walks every one of them.
    slots = hub.slots if wait_s > 0 else None
    if slots is not None:
        slots.acquire()
    try:
        woken = hub.add(key)
        try:
            while True:
                if closing():
                    raise ShuttingDown("FlyBot is restarting: poll again in a moment (nothing was lost)")
                item = await read()
                remaining = deadline - time.monotonic()
                if settled(item) or remaining <= 0:
                    return item
                pause = remaining if pause_for is None else min(remaining, pause_for(item))
                hub.wheel.wake_at(asyncio.get_running_loop().time() + max(0.05, pause), woken)
                if not await woken and time.monotonic() >= deadline:
                    # Nothing woke it: no decision here, none notified from another replica, none found by the
                    # recheck. The item read stands (one store read per long-poll, not two).
                    return item
                # Registered again before the old registration goes, so ``key`` stays watched and the snapshot a
                # decision left (:meth:`WaiterHub.notify`) answers the next read.
                previous, woken = woken, hub.add(key)
                hub.discard(key, previous)
        finally:
            hub.discard(key, woken)
    finally:
        if slots is not None:
            slots.release()
