"""Process capacity: the open-file limit, the connection and long-poll budgets it allows, and accept errors logged
once per burst.

Each held long-poll is one socket, so one file descriptor. Under systemd's default soft limit (1,024) long-polls
past about a thousand fail with ``EMFILE``; deploy/ raises the limit (``LimitNOFILE=65536``, compose ``ulimits``),
and FlyBot itself raises its soft limit to the hard one at start (as Go programs do), then caps long-polls below
what is left.
"""

from __future__ import annotations

import asyncio
import errno
import gc
import resource
import time
from typing import Any

import structlog

from bot.metrics import Metrics

log = structlog.get_logger("flybot.limits")

RESERVED_FDS = 256
"""File descriptors kept free of long-polls: store connections, Slack's HTTP pool, new requests and their 503s."""

ACCEPT_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
"""``accept()`` failures from exhausted resources (asyncio retries them after a second; source: asyncio's
``selector_events._accept_connection``)."""


def raise_open_file_limit() -> int:
    """Raise this process's soft ``RLIMIT_NOFILE`` to its hard limit; returns the soft limit now in force.

    Never raises: where the limit cannot be changed the current soft limit is returned.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


GC_YOUNGEST_THRESHOLD = 10_000
"""Allocations (minus deallocations) between two collections of the youngest generation (CPython's default: 700)."""


def tune_garbage_collector() -> int:
    """Collect once, move every object alive now out of the cyclic collector's sight (``gc.freeze``), and collect
    the youngest generation after :data:`GC_YOUNGEST_THRESHOLD` allocations instead of 700; returns how many objects
    were frozen.

    Called once the server has started: what exists then (modules, SQLAlchemy's metadata, bolt, slack-sdk, the risk
    tables) lives as long as the process, and walking it again in every full collection is wasted work. Each held
    long-poll is a few dozen objects that live for its wait: with the default threshold, a burst of long-polls makes
    frequent full collections that take CPU and pause the event loop (``benchmarks/bench_longpoll.py`` holds such a
    burst). Memory is still reclaimed by reference counting; only cyclic garbage waits longer.
    Source: the ``gc.freeze`` documentation's advice for long-running servers.
    """
    gc.collect()
    gc.freeze()
    _youngest, middle, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNGEST_THRESHOLD, middle, oldest)
    return gc.get_freeze_count()


def connection_budget(open_files: int, configured: int = 0) -> int:
    """How many HTTP connections one replica may hold at once: the open-file limit ``open_files`` minus
    :data:`RESERVED_FDS` (at least a quarter of it, for tiny limits), or ``configured`` (``FLYBOT_MAX_CONNECTIONS``)
    when that is set and lower. ``flybot serve`` stops accepting at this count (new connections wait in the
    kernel's listen queue), so ``accept()`` never runs out of descriptors."""
    derived = max(open_files - RESERVED_FDS, open_files // 4)
    return min(configured, derived) if configured > 0 else derived


def health_reserve(connections: int) -> int:
    """Connections of the budget ``connections`` kept for ``/healthz``, ``/readyz`` and ``/metrics``: a connection
    accepted while the rest of the budget is held may ask only for those (any other request: 503 busy)."""
    return max(2, connections // 32)


def long_poll_capacity(configured: int, connections: int) -> int:
    """How many long-polls one replica may hold: ``configured`` (``FLYBOT_MAX_LONG_POLLS``), but never more than the
    connection budget ``connections`` (:func:`connection_budget`) minus twice its :func:`health_reserve` (one for
    the health checks, one for every other request)."""
    return max(1, min(configured, connections - 2 * health_reserve(connections)))


class AcceptErrorLog:
    """An asyncio exception handler that logs "cannot accept connections" once per burst, not once per retry.

    A burst ends after ``quiet_s`` seconds without such an error; the next burst's line says how many accept errors
    the one before it had. Every accept error counts in ``flybot_accept_errors_total``. Anything else goes to the
    handler that was installed before (or asyncio's default).
    """

    def __init__(self, metrics: Metrics | None = None, *, quiet_s: float = 60.0) -> None:
        self.metrics = metrics
        self.quiet_s = quiet_s
        self.in_burst = 0
        self.last_at = -1e18
        self._previous: Any = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        """Become ``loop``'s exception handler (chaining to the current one for other errors)."""
        self._previous = loop.get_exception_handler()
        loop.set_exception_handler(self)

    def uninstall(self, loop: asyncio.AbstractEventLoop) -> None:
        """Give the loop its previous handler back, if this one is still installed."""
        if loop.get_exception_handler() is self:
            loop.set_exception_handler(self._previous)

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in ACCEPT_ERRNOS and "accept" in str(context.get("message", "")):
            self._accept_error(exc)
            return
        if self._previous is not None:
            self._previous(loop, context)
        else:
            loop.default_exception_handler(context)

    def _accept_error(self, exc: OSError) -> None:
        if self.metrics is not None:
            self.metrics.accept_errors.inc()
        now = time.monotonic()
        if now - self.last_at > self.quiet_s:
            log.error(
                "accept.out_of_resources",
                error=errno.errorcode.get(exc.errno or 0, str(exc.errno)),
                previous_burst=self.in_burst,
                hint="raise the open-file limit (systemd LimitNOFILE=65536, compose ulimits nofile) or lower "
                "FLYBOT_MAX_LONG_POLLS; connections wait in the listen backlog meanwhile",
            )
            self.in_burst = 0
        self.in_burst += 1
        self.last_at = now
