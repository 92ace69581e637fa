"""In-process wake-ups for sessions long-polling an escalation or a report, and the per-replica long-poll cap.

A decision calls :meth:`WaiterHub.notify`; each long-poll registers with :meth:`WaiterHub.listen` BEFORE reading the
store, so a decision between the read and the wait is never missed. Across replicas a store notification calls
``notify`` too (:mod:`bot.store.notify`). The safety net for a lost notification is ONE periodic store query per hub
for all the ids its long-polls wait on (:meth:`WaiterHub.run_recheck`), never one read per waiter (issue 10: 10,000
waiters each re-reading every 2 s made 5,000 store reads a second for nothing).
"""

from __future__ import annotations

import asyncio
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
        """Hold one slot for the ``with`` block.

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
        try:
            yield
        finally:
            self.held -= 1
            self._show()

    def _show(self) -> None:
        if self.metrics is not None:
            self.metrics.long_polls.set(self.held)


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
        self._events: defaultdict[str, set[asyncio.Event]] = defaultdict(set)
        self.slots = slots
        self.find_settled = find_settled
        self.metrics = metrics
        self.kind = kind

    @contextmanager
    def listen(self, key: str) -> Iterator[asyncio.Event]:
        """Register interest in ``key``; the yielded event is set by :meth:`notify`."""
        event = asyncio.Event()
        self._events[key].add(event)
        try:
            yield event
        finally:
            waiters = self._events.get(key)
            if waiters is not None:
                waiters.discard(event)
                if not waiters:
                    del self._events[key]

    def notify(self, key: str) -> None:
        """Wake every long-poll waiting on ``key``."""
        for event in self._events.get(key, ()):
            event.set()

    def notify_all(self) -> None:
        """Wake every waiter (used at shutdown so long-polls answer promptly)."""
        for waiters in self._events.values():
            for event in waiters:
                event.set()

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
    if wait_s <= 0 or hub.slots is None:
        return await _poll(hub, key, read, settled, deadline, closing, pause_for)
    with hub.slots.take():
        return await _poll(hub, key, read, settled, deadline, closing, pause_for)


async def _poll(
    hub: WaiterHub,
    key: str,
    read: Callable[[], Awaitable[T]],
    settled: Callable[[T], bool],
    deadline: float,
    closing: Callable[[], bool],
    pause_for: Callable[[T], float] | None,
) -> T:
    while True:
        if closing():
            raise ShuttingDown("FlyBot is restarting: poll again in a moment (nothing was lost)")
        with hub.listen(key) as woken:
            item = await read()
            remaining = deadline - time.monotonic()
            if settled(item) or remaining <= 0:
                return item
            pause = remaining if pause_for is None else min(remaining, pause_for(item))
            try:
                await asyncio.wait_for(woken.wait(), timeout=max(0.05, pause))
            except TimeoutError:
                if time.monotonic() >= deadline:
                    # Nothing woke it: no decision here, none notified from another replica, none found by the
                    # recheck. The item read stands (one store read per long-poll, not two).
                    return item
