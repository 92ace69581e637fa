"""SQLite's DBAPI adapter for the store's async engine: SQLAlchemy's aiosqlite adapter, each statement in ONE call
to the driver's thread.

aiosqlite runs every call on its connection's own thread and hands the result back to the event loop; SQLAlchemy's
adapter makes four such calls per statement (open a cursor, execute, fetch the rows, close the cursor), each a wake-up
of the thread and then of the event loop. :class:`OneCallCursor` makes one: the thread opens a cursor, executes,
fetches every row (or none) and closes it, then the loop gets the description, rows, row count and last row id. Every
statement of the store (reads, writes, the connection's pragmas) goes through it. A transaction's ``BEGIN`` (or
``BEGIN IMMEDIATE``, :func:`begin`) is sent in the same call as its first statement; a commit or rollback with no
transaction open (none ran a statement, or the pool's reset after a commit) makes no call. Server-side cursors stay
SQLAlchemy's own.

:func:`dbapi` is passed as ``module=`` to ``create_async_engine`` for ``sqlite+aiosqlite`` URLs (:mod:`bot.store.sql`).
"""

from __future__ import annotations

import collections
import sqlite3
from typing import Any, cast

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util import immutabledict
from sqlalchemy.util.concurrency import await_

Outcome = tuple[Any, list[Any], int, int | None, bool]
"""What one statement gives back from the driver's thread: description, rows, row count, last row id, and whether
a transaction is open after it."""


def _run(raw: sqlite3.Connection, begin: str | None, operation: str, parameters: Any, many: bool) -> Outcome:
    """In aiosqlite's thread: ``begin`` (if any), then execute ``operation`` on a new cursor, fetch all its rows,
    close it."""
    cursor = raw.cursor()
    try:
        if begin is not None:
            cursor.execute(begin)
        if many:
            cursor.executemany(operation, parameters)
        elif parameters is None:
            cursor.execute(operation)
        else:
            cursor.execute(operation, parameters)
        description = cursor.description
        rows = cursor.fetchall() if description else []
        return description, rows, cursor.rowcount, cursor.lastrowid, raw.in_transaction
    finally:
        cursor.close()


class OneCallCursor(AsyncAdapt_aiosqlite_cursor):
    """A buffered cursor whose ``execute``/``executemany`` is one call to aiosqlite's thread (see the module
    docstring); the rows are held here, as SQLAlchemy's buffered adapter holds them."""

    __slots__ = ("_description", "_rowcount", "_lastrowid")

    def __init__(self, adapt_connection: Any) -> None:  # no driver cursor: each statement opens and closes its own
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._soft_closed_memoized = immutabledict()
        self._rows = collections.deque()
        self._description: Any = None
        self._rowcount = -1
        self._lastrowid: int | None = None

    @property
    def description(self) -> Any:
        return self._description

    @property
    def rowcount(self) -> int:
        return self._rowcount

    @property
    def lastrowid(self) -> Any:
        return self._lastrowid

    @property
    def arraysize(self) -> int:
        return 1

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        pass

    async def _async_soft_close(self) -> None:
        return None

    def close(self) -> None:
        self._rows.clear()

    def execute(self, operation: Any, parameters: Any = None) -> Any:
        try:
            return await_(self._call(operation, parameters, many=False))
        except Exception as error:
            self._adapt_connection._handle_exception(error)

    def executemany(self, operation: Any, seq_of_parameters: Any) -> Any:
        try:
            return await_(self._call(operation, seq_of_parameters, many=True))
        except Exception as error:
            self._adapt_connection._handle_exception(error)

    async def _call(self, operation: str, parameters: Any, *, many: bool) -> None:
        connection = cast(aiosqlite.Connection, self._connection)
        adapted = cast(OneCallConnection, self._adapt_connection)
        async with adapted._execute_mutex:
            begin, adapted.begin = adapted.begin, None
            try:
                outcome: Outcome = await connection._execute(  # type: ignore[no-untyped-call]
                    _run, connection._conn, begin, operation, parameters, many
                )
            except BaseException:
                adapted.in_transaction = True  # perhaps (its BEGIN ran): the rollback that follows must be sent
                raise
        description, rows, rowcount, lastrowid, adapted.in_transaction = outcome
        self._description, self._rowcount, self._lastrowid = description, rowcount, lastrowid
        self._rows = collections.deque(rows)


class OneCallConnection(AsyncAdapt_aiosqlite_connection):
    """SQLAlchemy's aiosqlite connection adapter with :class:`OneCallCursor` as its cursor. ``begin``: the ``BEGIN``
    its next statement sends first (:func:`begin`); ``in_transaction``: a transaction was open after the last
    statement (commit and rollback make a call only then)."""

    __slots__ = ("begin", "in_transaction")
    _cursor_cls = OneCallCursor

    def __init__(self, dbapi: Any, connection: Any) -> None:
        super().__init__(dbapi, connection)
        self.begin: str | None = None
        self.in_transaction = False

    def commit(self) -> None:
        self.begin = None
        if self.in_transaction:
            super().commit()
            self.in_transaction = False

    def rollback(self) -> None:
        self.begin = None
        if self.in_transaction:
            super().rollback()
            self.in_transaction = False


class OneCallDBAPI(AsyncAdapt_aiosqlite_dbapi):
    """SQLAlchemy's aiosqlite DBAPI adapter whose connections are :class:`OneCallConnection`."""

    def connect(self, *arg: Any, **kw: Any) -> OneCallConnection:
        adapted = super().connect(*arg, **kw)
        return OneCallConnection(self, adapted._connection)


def begin(dbapi_connection: Any, statement: str) -> None:
    """Start a transaction on a connection of :func:`dbapi` with ``statement`` (``BEGIN`` or ``BEGIN IMMEDIATE``),
    sent with its first statement."""
    cast(OneCallConnection, dbapi_connection).begin = statement


def dbapi() -> OneCallDBAPI:
    """The DBAPI module object for ``create_async_engine(..., module=dbapi())`` on a ``sqlite+aiosqlite`` URL."""
    return OneCallDBAPI(aiosqlite, sqlite3)
