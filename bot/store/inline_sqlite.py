"""A SQLite connection run in the event loop's own thread, in the shape SQLAlchemy's aiosqlite dialect drives.

Why (issue 10, profile of the auto-answer hot path on SQLite): aiosqlite runs every call (cursor, execute, fetch,
close, commit) in its own thread and hands the answer back through the event loop; a store write transaction is about
forty such hand-offs, and each one waits for the GIL while the loop is busy with requests. That was about a quarter of
the event loop's CPU and most of a group commit's time. A SQLite statement on a WAL file with ``synchronous=NORMAL``
takes microseconds, less than one hand-off, so :class:`bot.store.Store` runs its WRITE transactions (each short, one
at a time: :meth:`bot.store.Store.writer_lock`) on connections made here. Reads, which may be long (a large audit page,
thousands of long-polls' ids), stay on aiosqlite's threads.

Waiting for another process's write lock must not block the loop: these connections have no busy timeout, and a
``database is locked`` answer is retried here with ``asyncio.sleep`` and a short backoff for up to ``busy_timeout_s``
(what SQLite's own busy handler does, without holding the thread). In WAL mode only taking the write lock (``BEGIN
IMMEDIATE``) meets it; readers never wait. Source: SQLite docs, "Write-Ahead Logging" (concurrency) and
"sqlite3_busy_timeout".
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

BUSY_TIMEOUT_S = 30.0
"""How long a statement waits for another process's lock before ``database is locked`` is raised (seconds)."""


async def retry_locked(call: Callable[[], T], timeout_s: float = BUSY_TIMEOUT_S) -> T:
    """``call()``; while SQLite answers ``database is locked`` (another process writes), sleep (1 ms, doubling up to
    50 ms) and try again, for up to ``timeout_s`` seconds, without blocking the event loop. Raises the
    sqlite3.OperationalError after that, or any other error at once."""
    deadline = time.monotonic() + timeout_s
    delay = 0.001
    while True:
        try:
            return call()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + delay > deadline:
                raise
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.05)


class _RunNow:
    """aiosqlite's request queue (SQLAlchemy's ``isolation_level`` setter puts ``(future, function)`` there): run at
    once."""

    def put_nowait(self, item: tuple[asyncio.Future[Any] | None, Callable[[], Any]]) -> None:
        future, function = item
        try:
            result = function()
        except Exception as exc:  # noqa: BLE001 - handed to the waiting future, as aiosqlite does
            if future is not None:
                future.set_exception(exc)
            return
        if future is not None:
            future.set_result(result)


class InlineCursor:
    """An aiosqlite-shaped cursor whose calls run at once (see the module docstring)."""

    def __init__(self, connection: InlineConnection) -> None:
        self._connection = connection
        self._cursor = connection._conn.cursor()

    async def __aenter__(self) -> InlineCursor:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.close()

    async def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> InlineCursor:
        """Run one statement (retried while another process holds the lock)."""
        if parameters is None:
            await self._connection.retry_busy(lambda: self._cursor.execute(sql))
        else:
            await self._connection.retry_busy(lambda: self._cursor.execute(sql, parameters))
        return self

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> InlineCursor:
        """Run one statement for each parameter set."""
        rows = list(parameters)
        await self._connection.retry_busy(lambda: self._cursor.executemany(sql, rows))
        return self

    async def fetchall(self) -> list[Any]:
        """The remaining rows."""
        return self._cursor.fetchall()

    async def fetchone(self) -> Any:
        """The next row, or None."""
        return self._cursor.fetchone()

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        """Up to ``size`` rows (the cursor's ``arraysize`` when None)."""
        return self._cursor.fetchmany(size) if size is not None else self._cursor.fetchmany()

    async def close(self) -> None:
        """Close the cursor."""
        self._cursor.close()

    @property
    def description(self) -> Any:
        return self._cursor.description

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    @property
    def arraysize(self) -> int:
        return self._cursor.arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._cursor.arraysize = value


class InlineConnection:
    """An aiosqlite-shaped connection (the parts SQLAlchemy's aiosqlite dialect uses) over a ``sqlite3`` connection
    used in the event loop's thread."""

    def __init__(self, conn: sqlite3.Connection, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self._conn = conn
        self._connection: sqlite3.Connection | None = conn
        self._tx = _RunNow()
        self._busy_timeout_s = busy_timeout_s

    async def retry_busy(self, call: Callable[[], T]) -> T:
        """:func:`retry_locked` with this connection's busy timeout."""
        return await retry_locked(call, self._busy_timeout_s)

    def cursor(self) -> InlineCursor:
        """A new cursor (awaited with ``async with`` or ``__aenter__``, as aiosqlite's)."""
        return InlineCursor(self)

    async def commit(self) -> None:
        """Commit (retried like a statement)."""
        await self.retry_busy(self._conn.commit)

    async def rollback(self) -> None:
        """Roll back."""
        self._conn.rollback()

    async def close(self) -> None:
        """Close the connection."""
        self._conn.close()
        self._connection = None

    def stop(self) -> None:
        """Close at once (SQLAlchemy's terminate)."""
        self._conn.close()
        self._connection = None

    async def create_function(self, *args: Any, **kwargs: Any) -> None:
        """``sqlite3.Connection.create_function``."""
        self._conn.create_function(*args, **kwargs)

    @property
    def isolation_level(self) -> str | None:
        return self._conn.isolation_level

    @isolation_level.setter
    def isolation_level(self, value: str | None) -> None:
        self._conn.isolation_level = value  # type: ignore[assignment]


def inline_creator(path: Path, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> Callable[[], Any]:
    """``create_async_engine(..., async_creator=...)`` for the SQLite file ``path``: connections of this module."""

    async def connect() -> InlineConnection:
        # No busy timeout in SQLite itself: InlineConnection.retry_busy waits without blocking the loop.
        conn = sqlite3.connect(str(path), timeout=0, isolation_level=None, check_same_thread=False)
        return InlineConnection(conn, busy_timeout_s=busy_timeout_s)

    return connect
