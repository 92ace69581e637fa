"""In-memory copies of what every session request and every click reads: the Bot of a token or of an id, the live
standing approvals and the program rules.

Rules:
- a copy is used for at most ``ttl_s`` seconds (the backstop for a change made by another process on SQLite);
- every write to ``bots``, ``standing_approvals`` or ``program_rules`` through this process's engine drops the copy at once, whatever
  code path made it (:func:`watch_writes`: at the statement, and again after its commit);
- on PostgreSQL a trigger NOTIFYs ``cache:<table>`` (each of those three) at the commit of any change (any
  replica, any tool), and each replica drops its copy on receipt; while its LISTEN connection is down nothing is
  served from memory (``live`` is False), so a revoked approval or a rotated token never outlives a lost message;
- a load that raced an invalidation is not kept (a generation counter);
- on a SQLite file, a process that commits a change to one of those tables (the server, or an operator
  command such as ``flybot bots rotate-token`` or ``flybot standing revoke``) replaces a small sidecar file
  (``<database>-changes``) after its commit, and every read of a copy first compares that file's identity (inode and
  mtime, one ``stat`` per pass of the event loop): a change made by another process drops the copies at once, not
  after ``ttl_s``.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store.records import Bot, ProgramRule, StandingApproval

_KINDS = dict(bots="bots", standing="standing", standing_approvals="standing", rules="rules", program_rules="rules")
"""What :meth:`StoreCache.invalidate` accepts (a kind of copy, or a cached table's name), and the copy it drops."""

MAX_BOTS = 10_000
"""At most this many tokens and Bot ids are remembered (then the copy starts afresh); unknown tokens are never
remembered."""


@dataclass
class StoreCache:
    """The copies and their validity. ``ttl_s`` 0 turns caching off; ``change_file`` is a SQLite file's sidecar
    (see the module docstring), None elsewhere."""

    ttl_s: float = 0.0
    live: bool = True
    clock: Callable[[], float] = time.monotonic
    change_file: Path | None = None
    _stamp: tuple[int, int] | None = None
    _looked_in: asyncio.AbstractEventLoop | None = None
    _copies: dict[str, dict[str, tuple[float, Any]]] = field(default_factory=lambda: {k: {} for k in _KINDS.values()})
    _generation: dict[str, int] = field(default_factory=lambda: dict.fromkeys(_KINDS.values(), 0))

    @property
    def enabled(self) -> bool:
        """True when copies may be served now (first dropping them if another process changed the store)."""
        if self.ttl_s <= 0 or not self.live:
            return False
        self._notice_other_writers()
        return True

    def _notice_other_writers(self) -> None:
        """Compare the sidecar file's identity with the last one seen: once per pass of the event loop (a request
        reads two copies, and requests resumed in the same pass share one ``stat``; the next pass looks again), or on every call outside a running loop."""
        if self.change_file is None:
            return
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # no running loop: look on every call
            loop = None
        if loop is not None and self._looked_in is loop:
            return  # this pass looked already (a pass of ANOTHER loop, e.g. one closed before its reset ran, does not count)
        try:
            found = os.stat(self.change_file)
            stamp: tuple[int, int] | None = (found.st_ino, found.st_mtime_ns)
        except OSError:
            stamp = None
        if stamp != self._stamp:
            self._stamp = stamp
            self.invalidate("all")
        if loop is not None:
            self._looked_in = loop
            loop.call_soon(self._look_again)

    def _look_again(self) -> None:
        self._looked_in = None

    def mark_changed(self) -> None:
        """Tell other processes sharing this SQLite file that a cached table changed: replace the sidecar file (a new
        inode each time, so the change is seen whatever the clock's resolution). Failures are ignored: the copies
        then expire after ``ttl_s`` as before."""
        if self.change_file is None:
            return
        temporary = self.change_file.with_name(f"{self.change_file.name}.{os.getpid()}.tmp")
        try:
            # Mode 0600, as the store and its -wal and -shm files: the sidecar is the store's owner's only.
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.fchmod(fd, 0o600)  # a leftover temporary file keeps its old mode through O_CREAT
            finally:
                os.close(fd)
            os.replace(temporary, self.change_file)
        except OSError:
            return

    def generation(self, kind: str) -> int:
        """The invalidation count of ``kind`` (``bots``, ``standing`` or ``rules``); pass it back to ``put_*``."""
        return self._generation[kind]

    def _get(self, kind: str, key: str = "") -> Any:
        if not self.enabled:
            return None
        entry = self._copies[kind].get(key)
        return entry[1] if entry is not None and self.clock() - entry[0] <= self.ttl_s else None

    def _put(self, kind: str, value: Any, generation: int, key: str = "") -> None:
        if not self.enabled or generation != self._generation[kind]:
            return
        if len(self._copies[kind]) >= MAX_BOTS:
            self._copies[kind].clear()
        self._copies[kind][key] = (self.clock(), value)

    def bot(self, token_hash: str) -> Bot | None:
        """The remembered Bot of ``token_hash`` (or of the key ``"id <bot id>"``), or None (unknown here, stale, or
        caching off)."""
        return cast(Bot | None, self._get("bots", token_hash))

    def put_bot(self, token_hash: str, bot: Bot, generation: int) -> None:
        """Remember ``bot`` for ``token_hash`` if nothing was invalidated since ``generation`` was read."""
        self._put("bots", bot, generation, token_hash)

    def standing(self) -> list[StandingApproval] | None:
        """The remembered live standing approvals (all scopes), or None."""
        return cast(list[StandingApproval] | None, self._get("standing"))

    def put_standing(self, approvals: list[StandingApproval], generation: int) -> None:
        """Remember the live standing approvals if nothing was invalidated since ``generation`` was read."""
        self._put("standing", approvals, generation)

    def program_rules(self) -> list[ProgramRule] | None:
        """The remembered program rules, or None."""
        return cast(list[ProgramRule] | None, self._get("rules"))

    def put_program_rules(self, rules: list[ProgramRule], generation: int) -> None:
        """Remember the program rules if nothing was invalidated since ``generation`` was read."""
        self._put("rules", rules, generation)

    def invalidate(self, what: str = "all") -> None:
        """Drop copies: ``bots``, ``standing`` (also ``standing_approvals``, the table's name), ``rules`` (also
        ``program_rules``) or ``all``."""
        kinds = ("bots", "standing", "rules") if what == "all" else (_KINDS[what],) if what in _KINDS else ()
        for kind in kinds:
            self._copies[kind].clear()
            self._generation[kind] += 1

    def set_live(self, live: bool) -> None:
        """PostgreSQL: whether change notifications are being received (copies are served only then)."""
        self.live = live
        self.invalidate("all")


_WRITE = re.compile(r"^\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+\"?(bots|standing_approvals|program_rules)\"?\b", re.I)


def changed_table(statement: str) -> str | None:
    """``bots``, ``standing_approvals`` or ``program_rules`` when ``statement`` writes a cached table, else None."""
    found = _WRITE.match(statement)
    return found.group(2).lower() if found is not None else None


def watch_writes(engine: AsyncEngine, cache: StoreCache) -> None:
    """Drop ``cache``'s copies on every write to a cached table through ``engine``, by any code path (a service's
    transaction, a report, a tool): at the statement (so a load racing it is not kept) and again when the connection
    goes back to the pool, after its commit (so a load that read just before the commit is not kept either)."""
    sync = engine.sync_engine

    @event.listens_for(sync, "after_cursor_execute")
    def _written(conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        table = changed_table(statement)
        if table is not None:
            cache.invalidate(table)
            conn.info.setdefault("flybot_cache_dirty", set()).add(table)

    @event.listens_for(sync.pool, "checkin")
    def _returned(_dbapi_conn: Any, record: Any) -> None:
        dirty = record.info.pop("flybot_cache_dirty", None) if record is not None else None
        for table in dirty or ():
            cache.invalidate(table)
        if dirty:
            cache.mark_changed()
