"""Refused requests in the log: the first of a kind logged, the rest counted and summarised once a minute.

A client that keeps sending refused requests (a wrong token, a Bot over its rate, connections past a cap, bad HTTP)
would otherwise write one line per request: megabytes a minute from one source. :class:`RefusalLog` keys each
refusal by ``(event, why, who)``, ``who`` being the Bot's id, or the client's address when nobody is authenticated.
The first refusal of a key in a window is logged with its fields; the others in that window are only counted, and
:meth:`RefusalLog.flush` (every minute, from :func:`run_refusal_log`) writes ONE ``refusals.summary`` line naming
the counts. Every refusal also counts in ``flybot_refusals_total{event, why}`` when metrics are given.

:class:`ParserErrorFilter` sends aiohttp's "Error handling request" records for unparsable HTTP (a bad request line,
bad headers: aiohttp's ``HttpProcessingError``) through the same log, as one JSON line without a traceback; the
parser's message quotes the offending line, with every credential-bearing header's value redacted
(:func:`bot.logs.redact_header_values`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import structlog
from aiohttp.http_exceptions import HttpProcessingError

from bot.logs import redact_header_values

log = structlog.get_logger("flybot.refusals")

WINDOW_S = 60.0
"""Seconds per window: a key's first refusal in each window is logged, the rest are counted."""
MAX_KEYS = 10_000
"""Keys remembered per window; past it, new keys are counted under ``who="(others)"`` (memory stays bounded)."""
SUMMARY_TOP = 20
"""The summary line names at most this many keys (the largest counts) and the total of the rest."""


class RefusalLog:
    """First-of-a-kind logging of refusals, with one summary line per window.

    Args:
        window_s: the window, seconds (:data:`WINDOW_S`).
        clock: monotonic seconds (``time.monotonic``).
    """

    def __init__(self, window_s: float = WINDOW_S, clock: Any = time.monotonic) -> None:
        self.window_s = window_s
        self._clock = clock
        self._started = clock()
        self._counts: dict[tuple[str, str, str], int] = {}
        self.metrics: Any = None
        """A :class:`bot.metrics.Metrics` (set by the app): ``refusals`` counts every refusal."""

    def refused(self, event: str, *, why: str, who: str, level: str = "info", **fields: Any) -> None:
        """Record one refusal; logs ``event`` (with ``why``, ``who`` and ``fields``) only when it is the first of
        ``(event, why, who)`` in this window. ``level``: ``info`` or ``warning``."""
        now = self._clock()
        if now - self._started >= self.window_s:
            self.flush(now)
        if self.metrics is not None:
            self.metrics.refusals.labels(event, why).inc()
        key = (event, why, who)
        seen = self._counts.get(key)
        if seen is None:
            if len(self._counts) >= MAX_KEYS:
                key = (event, why, "(others)")
                self._counts[key] = self._counts.get(key, 0) + 1
                return
            self._counts[key] = 1
            getattr(log, level)(
                event,
                why=why,
                who=who,
                **fields,
                note=f"further refusals like this one are counted for {self.window_s:g} s",
            )
            return
        self._counts[key] = seen + 1

    def flush(self, now: float | None = None) -> None:
        """End the window: one ``refusals.summary`` line when any key was refused more than once in it."""
        counts, self._counts = self._counts, {}
        self._started = self._clock() if now is None else now
        repeated = sorted(((n - 1, key) for key, n in counts.items() if n > 1), reverse=True)
        if not repeated:
            return
        top = {f"{event} {why} {who}": n for n, (event, why, who) in repeated[:SUMMARY_TOP]}
        log.info(
            "refusals.summary",
            window_s=self.window_s,
            not_logged=sum(n for n, _ in repeated),
            counted=top,
            other_keys=max(0, len(repeated) - SUMMARY_TOP),
        )


REFUSALS = RefusalLog()
"""The process's refusal log (``flybot serve`` runs one app per process)."""


async def run_refusal_log(refusals: RefusalLog = REFUSALS) -> None:
    """Flush ``refusals`` once per window until cancelled (and once more then)."""
    try:
        while True:
            await asyncio.sleep(refusals.window_s)
            refusals.flush()
    finally:
        refusals.flush()


class ParserErrorFilter(logging.Filter):
    """A filter for the ``aiohttp.server`` logger: a record carrying an ``HttpProcessingError`` (aiohttp could not
    parse the request: bad request line, bad header, line too long) becomes one :data:`REFUSALS` entry
    (``http.bad_request``, per client address) and is dropped; every other record passes unchanged.

    aiohttp answers such a request 400 and closes its connection, so it is at most one entry per connection.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, HttpProcessingError):
            return True
        args = record.args if isinstance(record.args, tuple) else ()
        who = str(args[0]) if args else "unknown"
        REFUSALS.refused(
            "http.bad_request",
            why=type(exc).__name__,
            who=who,
            level="warning",
            status=exc.code,
            detail=redact_header_values(str(exc.message))[:200],
        )
        return False
