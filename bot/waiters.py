"""In-process wake-ups for sessions long-polling an escalation.

A decision calls :meth:`WaiterHub.notify`; each long-poll registers with :meth:`WaiterHub.listen`
BEFORE reading the store, so a decision between the read and the wait is never missed. Across
replicas (issue 6) a store notification calls ``notify`` too; a periodic re-check is the safety net.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager


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
