"""In-process wake-ups for sessions long-polling an escalation.

A decision calls :meth:`WaiterHub.notify`; each long-poll registers with :meth:`WaiterHub.listen`
BEFORE reading the store, so a decision between the read and the wait is never missed. Across
replicas (issue 6) a store notification calls ``notify`` too; a periodic re-check is the safety net.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from bot.errors import ShuttingDown

T = TypeVar("T")


class WaiterHub:
    """Maps escalation ids to the events of the long-polls waiting on them."""

    def __init__(self) -> None:
        self._events: defaultdict[str, set[asyncio.Event]] = defaultdict(set)

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


async def long_poll(
    hub: WaiterHub,
    key: str,
    read: Callable[[], Awaitable[T]],
    *,
    settled: Callable[[T], bool],
    wait_s: float,
    recheck_s: float,
    closing: Callable[[], bool],
    pause_for: Callable[[T], float] | None = None,
) -> T:
    """Answer as soon as ``read()`` gives a settled item, or with the last item after ``wait_s`` seconds.

    Registers with ``hub`` BEFORE each read (no lost wake-up), re-reads at least every ``recheck_s`` seconds (the
    safety net), and at most ``pause_for(item)`` seconds (e.g. until an expiry). Raises :class:`ShuttingDown` once
    ``closing()`` is true, so clients poll again elsewhere or later.
    """
    deadline = time.monotonic() + max(0.0, wait_s)
    while True:
        if closing():
            raise ShuttingDown("FlyBot is restarting: poll again in a moment (nothing was lost)")
        with hub.listen(key) as woken:
            item = await read()
            remaining = deadline - time.monotonic()
            if settled(item) or remaining <= 0:
                return item
            pause = min(remaining, recheck_s)
            if pause_for is not None:
                pause = min(pause, pause_for(item))
            try:
                await asyncio.wait_for(woken.wait(), timeout=max(0.05, pause))
            except TimeoutError:
                pass
