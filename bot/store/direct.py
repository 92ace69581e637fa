"""The group commit's own database connection: prebuilt SQL straight to the driver (sqlite3, asyncpg), no SQLAlchemy.

Issue 10, profile of the auto-answer hot path: a group commit ran 8-10 statements through SQLAlchemy (an
``AsyncSession`` transaction, greenlet switches, compiled-statement contexts, bind processors: 50-100 us a statement)
and that was the largest part of the store's CPU per request. A group's statements are few and fixed
(:mod:`bot.store.group`), so they are written here once per dialect as SQL text with positional parameters, and run on
ONE connection that the process's group writer owns (:class:`DirectDb`):

- SQLite: a ``sqlite3`` connection used in the event loop's thread (as :mod:`bot.store.inline_sqlite`'s: WAL,
  ``synchronous=NORMAL``, foreign keys on, no autocheckpoint, no busy timeout: ``database is locked`` is waited for
  with ``asyncio.sleep``), its transactions ``BEGIN IMMEDIATE`` under :meth:`bot.store.Store.writer_lock`;
- PostgreSQL: one asyncpg connection (``executemany`` sends all rows of an insert in one round trip);
- anything else (an in-memory SQLite store, which has no second connection): the same SQLite text through
  SQLAlchemy's connection (:class:`EngineDb`).

Values are written exactly as the ORM's column types write them, so the ORM reads the rows back unchanged (checked by
``tests/test_direct_group.py`` on both backends): datetimes aware UTC (SQLite: naive UTC text
``YYYY-MM-DD HH:MM:SS.ffffff``, SQLAlchemy's SQLite ``DATETIME`` format), JSON as ``json.dumps`` text (SQLAlchemy's
``JSON`` serializer; PostgreSQL ``::json``), booleans as the driver binds them.

Driver errors come out as SQLAlchemy's exceptions (``IntegrityError`` for a unique key, ``OperationalError`` or
``DBAPIError`` otherwise), so the group writer's retry rules (:class:`bot.store.group.GroupWriter`) are the same as on
the ORM path. None of the tables written here is cached by :mod:`bot.store.cache` except ``standing_approvals``'s use
counts, which invalidate nothing (:func:`bot.store.cache.changed_table`; PostgreSQL's cache trigger fires only for
the matching columns): nothing that must drop a cached copy goes around :func:`bot.store.cache.watch_writes`.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any, Protocol, TypeVar

import structlog
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store.inline_sqlite import retry_locked

T = TypeVar("T")

log = structlog.get_logger("flybot.store")

Row = tuple[Any, ...]
"""One result row, columns in the statement's order (raw driver values: decode with :meth:`DirectDb.when`)."""

BUSY_TIMEOUT_S = 30.0
"""SQLite: how long a statement waits for another process's write lock before ``database is locked`` is raised."""

ESCALATION_COLUMNS = (
    "id", "bot_id", "session_id", "command", "cwd", "file_policy", "approval_policy", "contained", "justification",
    "room", "risk", "reasons", "status", "created_at", "expires_at", "decided_at", "decided_by", "decision_source",
    "reason", "idempotency_key", "card_channel", "card_ts", "standing_approval_id", "card_status", "approvals_needed",
    "first_approver", "first_approved_at", "fallback_at", "tool",
)
"""The escalations table's columns, in :data:`SQL`'s order (an escalation read back has the same order)."""

AUDIT_COLUMNS = ("at", "event", "escalation_id", "actor", "detail")
JOB_COLUMNS = (
    "kind", "priority", "room", "ref", "payload", "status", "attempts", "uncertain", "created_at", "due_at",
    "deadline_at", "claimed_until", "slot_at", "done_at", "last_error",
)


def _placeholders(sql: str, postgres: bool) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (the statements here have no ``?`` in literals)."""
    if not postgres:
        return sql
    parts = sql.split("?")
    return "".join(f"{part}${i}" if i < len(parts) else part for i, part in enumerate(parts, 1))


def _insert(table: str, columns: Sequence[str], casts: dict[str, str] | None = None) -> str:
    marks = ", ".join(f"?{(casts or {}).get(c, '')}" for c in columns)
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"


def _statements(postgres: bool) -> dict[str, str]:
    json_cast = {"reasons": "::json", "detail": "::json", "payload": "::json", "tool": "::json"} if postgres else {}
    items_cast = "::json" if postgres else ""
    sql = {
        # admission (bot.store.admission.admit_staged): add to the Bot's minute (locking its row on PostgreSQL) and
        # read this minute's count after and the previous minute's, in one statement
        "count_upsert": 'INSERT INTO bot_request_counts (bot_id, "window", count) VALUES (?, ?, ?) '
                        'ON CONFLICT (bot_id, "window") DO UPDATE SET count = bot_request_counts.count + ? '
                        'RETURNING count, (SELECT b.count FROM bot_request_counts AS b '
                        'WHERE b.bot_id = ? AND b."window" = ?)',
        "count_add": 'UPDATE bot_request_counts SET count = count + ? WHERE bot_id = ? AND "window" = ?',
        "count_prune": 'DELETE FROM bot_request_counts WHERE bot_id = ? AND "window" < ?',
        "open_count": "SELECT count(*) FROM escalations WHERE bot_id = ? AND status = 'pending' AND expires_at > ?",
        # a room's queue (bot.store.tx.Tx.room_queue): (bot_id, cards waiting) per Bot, then (bot_id, 0) per Bot
        # marked waiting for a place
        "room_queue": "SELECT e.bot_id, count(*) FROM outbox_jobs AS j JOIN escalations AS e ON e.id = j.ref "
                      "WHERE j.room = ? AND j.kind = 'card.post' AND j.status = 'queued' AND e.status = 'pending' "
                      "GROUP BY e.bot_id "
                      "UNION ALL SELECT w.bot_id, 0 FROM room_waits AS w WHERE w.room = ? AND w.until > ?",
        "by_key": f"SELECT {', '.join(ESCALATION_COLUMNS)} FROM escalations WHERE bot_id = ? AND idempotency_key = ?",
        # the room's undelivered notices: the earliest delivery deadline of its queued notice jobs (None: none has one)
        "notice_deadline": "SELECT min(deadline_at) FROM outbox_jobs WHERE room = ? AND kind = 'notice' "
                           "AND status = 'queued' AND deadline_at IS NOT NULL",
        # the group's rows
        "escalations": _insert("escalations", ESCALATION_COLUMNS, json_cast),
        "audits": _insert("audit", AUDIT_COLUMNS, json_cast),
        "jobs": _insert("outbox_jobs", JOB_COLUMNS, json_cast),
        "use": "UPDATE standing_approvals SET use_count = use_count + ?, last_used_at = ? WHERE id = ?",
        # notice folding (bot.store.tx.Tx.fold_many's): bump the row (its lock orders concurrent folds), then merge the
        # items, then look for its job waiting unclaimed
        "notice_bump": "UPDATE room_notices SET count = count + ?, updated_at = ? WHERE open_key = ? "
                       "RETURNING id, items, approvals",
        "notice_insert": "INSERT INTO room_notices (id, open_key, room, bot_id, window_start, count, items, approvals, "
                         f"channel, ts, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?{items_cast}, ?{items_cast}, NULL, NULL, ?) "
                         "ON CONFLICT (open_key) DO NOTHING RETURNING id",
        "notice_fold": f"UPDATE room_notices SET items = ?{items_cast}, approvals = ?{items_cast} WHERE id = ?",
        "notice_waiting": "SELECT id FROM outbox_jobs WHERE ref = ? AND status = 'queued' "
                          "AND claimed_until IS NULL LIMIT 1",
        "advisory_lock": "SELECT pg_advisory_xact_lock(hashtext(?))",
    }
    if postgres:  # one round trip instead of two or three (asyncpg has no pipelining across statements)
        sql["rows"] = _rows_statement()
        sql["group"] = f"SELECT pg_temp.flybot_group({', '.join(['?'] * 20)})"
        # a group's Idempotency-Keys looked up at once (bot.store.group.look_up_keys)
        sql["by_keys"] = (f"SELECT {', '.join(ESCALATION_COLUMNS)} FROM escalations "
                          "WHERE (bot_id, idempotency_key) IN (SELECT * FROM unnest(?::text[], ?::text[]))")
        sql["notice_fold_job"] = (
            f"WITH folded AS ({sql['notice_fold']}) "
            f"INSERT INTO outbox_jobs ({', '.join(JOB_COLUMNS)}) SELECT {', '.join(['?'] * len(JOB_COLUMNS))} "
            "WHERE NOT EXISTS (SELECT 1 FROM outbox_jobs WHERE ref = ? AND status = 'queued' "
            "AND claimed_until IS NULL) RETURNING id")
    return {name: _placeholders(text, postgres) for name, text in sql.items()}


def _rows_statement(escalations: str = "?", jobs: str = "?", audits: str = "?") -> str:
    """PostgreSQL: a group's escalations, audit rows and jobs in ONE statement, each table's rows one JSON parameter
    (``json_populate_recordset``; a ``json`` column takes its value's text exactly as given, so it is stored as the
    ORM stores it). Inserts only: no row lock of another table is taken, so the lock order of
    :func:`bot.store.group.write_group` holds whatever order PostgreSQL runs the three in. The arguments name the
    three parameters (``?``, or :func:`group_function`'s own)."""

    def rows(table: str, columns: Sequence[str], param: str) -> str:
        listed = ", ".join(columns)
        return (f"INSERT INTO {table} ({listed}) SELECT {listed} "
                f"FROM json_populate_recordset(NULL::{table}, {param}::json)")

    return (f"WITH e AS ({rows('escalations', ESCALATION_COLUMNS, escalations)}), "
            f"j AS ({rows('outbox_jobs', JOB_COLUMNS, jobs)}) {rows('audit', AUDIT_COLUMNS, audits)}")


UNVERIFIED = "FB001"
"""The SQLSTATE that ``pg_temp.flybot_group`` (:func:`group_function`) raises when a Bot's request counts in the store
refuse what the group assumed, or a notice's approvals hold an escape its ``->>`` cannot read (:class:`Unverified`)."""


_UNDEFINED_FUNCTION = "42883"
"""PostgreSQL's SQLSTATE for a function that does not exist."""


class Unverified(Exception):
    """``pg_temp.flybot_group`` found a Bot's requests over its limit once counted in the store, or a notice it cannot
    fold in SQL (:func:`group_function`), or the session lost the function (then its connection writes groups in
    transactions from now on): it wrote nothing, and the group must run again in a transaction, which counts exactly
    and folds in Python (:mod:`bot.store.group`). Not a store failure."""


@cache
def group_function() -> str:
    """PostgreSQL: the ``CREATE FUNCTION`` of ``pg_temp.flybot_group``, a function made on the group writer's connection when it connects
    (``pg_temp``: it lives and dies with that session, so it is always this FlyBot's own text, and no migration or
    other replica depends on it). ONE call writes a whole group (:func:`bot.store.group.write_group_at_once`) as one
    implicit transaction: one round trip instead of BEGIN, the counter rows, the rows, the use counts, the notice
    bump and fold, and COMMIT (issue 10: each round trip is an event-loop turn and a backend wake-up).

    It runs :func:`bot.store.group.write_group`'s statements, in the same lock order (counter rows by Bot and
    window, rows, standing approvals by id, notices by key), each with a snapshot of its own (a ``VOLATILE``
    function's statements see what committed before each of them, as separate statements do): so a fold's job
    lookup still comes after its notice row's lock, and sees the job of a fold that committed while it waited.
    Notice items and approvals are merged here as :func:`bot.store.group.fold_notice` merges them in Python, and
    written as the same text: each element's JSON text as stored (``json`` keeps it verbatim), joined as
    ``json.dumps`` joins a list's. Only the approvals' ids are read as text (``->>``, to skip the known ones), and
    PostgreSQL's ``->>`` decodes every string of an element: a ``\\u0000``, a surrogate, or on a server whose encoding is
    not UTF-8 (``SQL_ASCII``, ``LATIN1``) any non-ASCII escape fails it ("conversion between UTF8 and SQL_ASCII is not
    supported"), where Python's fold reads them. A notice whose approvals hold such an escape (an approval made by
    ``operator:josé``, the ``flybot standing`` CLI's actor) raises :data:`UNVERIFIED` instead, and the group folds it
    in a transaction (review: the second fold of such a notice failed every time, and each of its requests was a
    500).

    Admission (:func:`bot.store.admission.admit_staged` in a group run for one statement): the requests were
    admitted assuming no earlier request in the store; each Bot's counter row gets the group's requests, and if the
    row's count then (``after``, the most any of them would have seen) with the minute before weighted at the
    earliest request's ``elapsed`` is over the limit (the same float arithmetic as Python's), it raises SQLSTATE
    :data:`UNVERIFIED`, the call writes nothing, and the group runs again in a transaction that counts exactly.
    """
    from bot.store.records import JOB_KINDS
    from bot.store.tx import NOTICE_ITEMS

    jobs = ", ".join(JOB_COLUMNS)
    notice_job = ("'notice', {priority}, p_rooms[i], v_id, '{{}}'::json, 'queued', 0, false, p_ats[i], p_ats[i], "
                  "NULL, NULL, NULL, NULL, NULL").format(priority=int(JOB_KINDS["notice"]))
    bump = ("UPDATE room_notices SET count = count + p_counts[i], updated_at = p_ats[i] WHERE open_key = p_keys[i] "
            "RETURNING id, items, approvals INTO v_id, v_items, v_approvals;")
    rows = _rows_statement("p_escalations", "p_jobs", "p_audits")
    return f"""
CREATE OR REPLACE FUNCTION pg_temp.flybot_group(
    p_bots text[], p_windows integer[], p_adds integer[], p_elapsed float8[], p_limits integer[],
    p_escalations json, p_jobs json, p_audits json,
    p_uses text[], p_use_ns integer[], p_use_ats timestamptz[],
    p_keys text[], p_new_ids text[], p_rooms text[], p_notice_bots text[], p_firsts timestamptz[],
    p_ats timestamptz[], p_counts integer[], p_items text[], p_approvals text[])
RETURNS integer LANGUAGE plpgsql VOLATILE AS $flybot$
DECLARE
    v_written integer := 0;
    v_added integer;
    v_after integer;
    v_previous integer;
    v_id text;
    v_items json;
    v_approvals json;
    v_items_text text;
    v_approvals_text text;
    -- an escape ->> cannot turn into text here (any string of an approval: the text the merge below reads)
    v_unreadable text := CASE WHEN current_setting('server_encoding') = 'UTF8'
                              THEN E'\\\\\\\\u(0000|[dD][89a-fA-F])'
                              ELSE E'\\\\\\\\u(0000|00[89a-fA-F]|0[1-9a-fA-F]|[1-9a-fA-F])' END;
BEGIN
    FOR i IN 1 .. coalesce(array_length(p_bots, 1), 0) LOOP
        INSERT INTO bot_request_counts AS c (bot_id, "window", count) VALUES (p_bots[i], p_windows[i], p_adds[i])
        ON CONFLICT (bot_id, "window") DO UPDATE SET count = c.count + p_adds[i]
        RETURNING c.count, (SELECT b.count FROM bot_request_counts AS b
                            WHERE b.bot_id = p_bots[i] AND b."window" = p_windows[i] - 1)
        INTO v_after, v_previous;
        IF p_limits[i] > 0 AND coalesce(v_previous, 0) * (1 - p_elapsed[i]) + v_after > p_limits[i] THEN
            RAISE EXCEPTION 'flybot: the requests of Bot % are over its limit in the store', p_bots[i]
                USING ERRCODE = '{UNVERIFIED}';
        END IF;
        IF v_after = p_adds[i] THEN
            DELETE FROM bot_request_counts WHERE bot_id = p_bots[i] AND "window" < p_windows[i] - 1;
        END IF;
    END LOOP;
    IF p_escalations IS NOT NULL OR p_jobs IS NOT NULL OR p_audits IS NOT NULL THEN
        {rows};
    END IF;
    FOR i IN 1 .. coalesce(array_length(p_uses, 1), 0) LOOP
        UPDATE standing_approvals SET use_count = use_count + p_use_ns[i], last_used_at = p_use_ats[i]
        WHERE id = p_uses[i];
    END LOOP;
    FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
        {bump}
        IF v_id IS NULL THEN
            INSERT INTO room_notices (id, open_key, room, bot_id, window_start, count, items, approvals, channel, ts,
                                      updated_at)
            VALUES (p_new_ids[i], p_keys[i], p_rooms[i], p_notice_bots[i], p_firsts[i], p_counts[i], p_items[i]::json,
                    p_approvals[i]::json, NULL, NULL, p_ats[i])
            ON CONFLICT (open_key) DO NOTHING RETURNING id INTO v_id;
            IF v_id IS NOT NULL THEN
                INSERT INTO outbox_jobs ({jobs}) VALUES ({notice_job});
                v_written := v_written + 1;
                CONTINUE;
            END IF;
            {bump}
            IF v_id IS NULL THEN
                RAISE EXCEPTION 'notice % conflicted, then vanished', p_keys[i] USING ERRCODE = 'unique_violation';
            END IF;
        END IF;
        SELECT coalesce('[' || string_agg(last.e, ', ' ORDER BY last.s, last.o) || ']', '[]') INTO v_items_text
        FROM (SELECT u.e, u.s, u.o FROM (
                SELECT a.e::text AS e, 0 AS s, a.o FROM json_array_elements(v_items) WITH ORDINALITY AS a(e, o)
                UNION ALL
                SELECT b.e::text, 1, b.o FROM json_array_elements(p_items[i]::json) WITH ORDINALITY AS b(e, o)
              ) AS u ORDER BY u.s DESC, u.o DESC LIMIT {NOTICE_ITEMS}) AS last;
        IF v_approvals::text ~ v_unreadable OR p_approvals[i] ~ v_unreadable THEN  -- ->> cannot read them
            RAISE EXCEPTION 'flybot: notice % has approvals this server cannot read as text', p_keys[i]
                USING ERRCODE = '{UNVERIFIED}';
        END IF;
        SELECT coalesce('[' || string_agg(u.e, ', ' ORDER BY u.s, u.o) || ']', '[]') INTO v_approvals_text
        FROM (SELECT a.e::text AS e, 0 AS s, a.o FROM json_array_elements(v_approvals) WITH ORDINALITY AS a(e, o)
              UNION ALL
              SELECT b.e::text, 1, b.o FROM json_array_elements(p_approvals[i]::json) WITH ORDINALITY AS b(e, o)
              WHERE NOT EXISTS (SELECT 1 FROM json_array_elements(v_approvals) AS k(e)
                                WHERE (k.e ->> 'id') IS NOT DISTINCT FROM (b.e ->> 'id'))) AS u;
        WITH folded AS (UPDATE room_notices SET items = v_items_text::json, approvals = v_approvals_text::json
                        WHERE id = v_id)
        INSERT INTO outbox_jobs ({jobs}) SELECT {notice_job}
        WHERE NOT EXISTS (SELECT 1 FROM outbox_jobs WHERE ref = v_id AND status = 'queued' AND claimed_until IS NULL);
        GET DIAGNOSTICS v_added = ROW_COUNT;
        v_written := v_written + v_added;
    END LOOP;
    RETURN v_written;
END
$flybot$"""


ESCALATION_TIMES = ("created_at", "expires_at", "decided_at", "first_approved_at", "fallback_at")
AUDIT_TIMES = ("at",)
JOB_TIMES = ("created_at", "due_at", "deadline_at", "claimed_until", "slot_at", "done_at")
"""The datetime columns of each table the group writes (sent as ISO 8601 text in :func:`rows_json`)."""


def _iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValueError("naive datetime given to a UTC column")
    return value.isoformat()


def rows_json(rows: list[dict[str, Any]], times: Sequence[str], *, ascii_only: bool = True) -> str:
    """PostgreSQL: rows (column values by name) as one JSON parameter of :data:`SQL` ``rows``: the ``times`` columns
    as ISO 8601 with their offset, a JSON column's value nested (its text as ``json.dumps`` writes it alone; a value
    ``json.dumps`` cannot write raises TypeError, as the ORM's JSON type does). Raises ValueError for a naive
    datetime.

    ``ascii_only`` False (a ``SQL_ASCII`` database, :attr:`DirectDb.ascii_rows`): characters outside ASCII are written
    as themselves, not as ``\\uXXXX`` escapes. ``json_populate_recordset`` turns a text column's escapes back into
    characters, and a ``SQL_ASCII`` server refuses any escape above U+007F ("conversion between UTF8 and SQL_ASCII is
    not supported") where the ORM's parameters (UTF-8 text) are stored as given: every request with one non-ASCII
    character failed with a 500 there."""
    return json.dumps([{**row, **{c: _iso(row.get(c)) for c in times}} for row in rows], ensure_ascii=ascii_only)


SQL: dict[bool, dict[str, str]] = {False: _statements(False), True: _statements(True)}
"""The group's statements by name, for SQLite (``False``) and PostgreSQL (``True``)."""


def sqlite_time(value: datetime | None) -> str | None:
    """``value`` as SQLAlchemy's SQLite ``DATETIME`` stores a :class:`~bot.store.models.UTCDateTime`: naive UTC,
    ``YYYY-MM-DD HH:MM:SS.ffffff``. Raises ValueError for a naive datetime (as the column type does).

    The texts of recent UTC instants are remembered (:data:`_TEXTS`): a group's rows carry the same few instants
    (each request's "now" as its creation, decision and audit times), written row after row and table after table.
    Only values whose zone is :data:`datetime.UTC` (FlyBot's clock's): two datetimes of one zone compare equal and
    hash alike by their wall time, so the two instants of an ambiguous hour (``fold`` 0 and 1, an hour apart) would
    share a text (review)."""
    if value is None:
        return None
    if value.tzinfo is not UTC:
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC).replace(tzinfo=None).isoformat(" ", "microseconds")
    text = _TEXTS.get(value)
    if text is not None:
        return text
    text = value.replace(tzinfo=None).isoformat(" ", "microseconds")
    if len(_TEXTS) >= _TEXTS_MAX:
        _TEXTS.clear()
    _TEXTS[value] = text
    return text


_TEXTS: dict[datetime, str] = {}
""":func:`sqlite_time`'s texts of recent UTC instants (at most :data:`_TEXTS_MAX`; then it starts afresh)."""
_TEXTS_MAX = 1024


def postgres_time(value: datetime | None) -> datetime | None:
    """``value`` for a ``timestamptz`` parameter (aware, as given). Raises ValueError for a naive datetime."""
    if value is not None and value.tzinfo is None:
        raise ValueError("naive datetime given to a UTC column")
    return value


def _read_sqlite_time(value: Any) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)


def _read_postgres_time(value: Any) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


class DirectDb(Protocol):
    """One connection for group commits (see the module docstring). Statements are named (:data:`SQL`); parameters
    are tuples in the statement's order, encoded with :meth:`time`/:meth:`json`.

    Every method raises SQLAlchemy's ``IntegrityError`` (a unique key), ``OperationalError`` / ``DBAPIError``
    (anything else the database or the connection did); after one, :meth:`rollback` and start again.
    """

    postgres: bool
    sql: dict[str, str]
    ascii_rows: bool
    """PostgreSQL: whether :func:`rows_json` may escape non-ASCII characters (False on a ``SQL_ASCII`` database, known
    once connected)."""

    async def begin(self) -> None:
        """Start a write transaction (SQLite ``BEGIN IMMEDIATE``: waits, without blocking the loop, for another
        process's write lock)."""

    async def one_statement(self) -> bool:
        """True when a group can be written in ONE statement outside a transaction (PostgreSQL, once its
        connection made ``pg_temp.flybot_group``: :func:`group_function`; connects if needed). Its reads then run
        as statements of their own (each its own implicit transaction)."""

    async def commit(self) -> None:
        """Commit the transaction."""

    async def rollback(self) -> None:
        """Roll back the transaction, if any (never raises: a lost connection is closed, and reopened next time)."""

    async def one(self, name: str, args: Sequence[Any]) -> Row | None:
        """The first row of statement ``name``, or None."""

    async def rows(self, name: str, args: Sequence[Any]) -> list[Row]:
        """Every row of statement ``name``."""

    async def run(self, name: str, args: Sequence[Any]) -> None:
        """Run statement ``name`` once."""

    async def run_many(self, name: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run statement ``name`` once per parameter tuple (one round trip on PostgreSQL)."""

    async def close(self) -> None:
        """Close the connection."""

    def time(self, value: datetime | None) -> Any:
        """An aware datetime as this backend's parameter (see the module docstring)."""

    def when(self, value: Any) -> datetime | None:
        """A datetime column's raw value as an aware UTC datetime."""


def _json(value: Any) -> str:
    return json.dumps(value)


class _LastReasons:
    """The reasons :func:`_reasons_json` encoded last (their dicts, by identity) and their JSON text."""

    items: tuple[Any, ...] = ()
    text = "[]"


_last_reasons = _LastReasons()


def _reasons_json(reasons: list[dict[str, Any]]) -> str:
    """``json.dumps(reasons)``, encoded once for the same reason dicts: a verdict's reasons are shared, read-only
    dicts (:class:`bot.escalations.Graded`), so every request graded from one remembered verdict (an agent repeating
    ``apt-get install -y jq``) lists the very same dict objects (identity, not equality: ``1 == True``, and equal
    dicts may still encode differently). The dicts are kept referenced, so their ids are not reused."""
    last = _last_reasons.items
    if len(reasons) == len(last) and all(a is b for a, b in zip(reasons, last, strict=True)):
        return _last_reasons.text
    text = _json(reasons)
    _last_reasons.items, _last_reasons.text = tuple(reasons), text
    return text


class _Encoders:
    postgres: bool
    ascii_rows = True

    def time(self, value: datetime | None) -> Any:
        return postgres_time(value) if self.postgres else sqlite_time(value)

    def when(self, value: Any) -> datetime | None:
        return _read_postgres_time(value) if self.postgres else _read_sqlite_time(value)


def escalation_args(db: DirectDb, v: dict[str, Any]) -> tuple[Any, ...]:
    """The parameters of :data:`SQL` ``escalations`` for one row's values (:func:`bot.store.tx.escalation_values`),
    in :data:`ESCALATION_COLUMNS`' order."""
    t = db.time
    return (
        v["id"], v["bot_id"], v["session_id"], v["command"], v["cwd"], v["file_policy"], v["approval_policy"],
        v["contained"], v["justification"], v["room"], v["risk"], _reasons_json(v["reasons"]), v["status"],
        t(v["created_at"]), t(v["expires_at"]), t(v["decided_at"]), v["decided_by"], v["decision_source"],
        v["reason"], v["idempotency_key"], v["card_channel"], v["card_ts"], v["standing_approval_id"],
        v["card_status"], v["approvals_needed"], v["first_approver"], t(v["first_approved_at"]),
        t(v.get("fallback_at")), None if v.get("tool") is None else _json(v["tool"]),
    )


def escalation_fields(db: DirectDb, row: Row) -> dict[str, Any]:
    """An escalation row read with :data:`ESCALATION_COLUMNS` as the ORM would see it (by column name)."""
    fields = dict(zip(ESCALATION_COLUMNS, row, strict=True))
    for c in ESCALATION_TIMES:
        fields[c] = db.when(fields[c])
    reasons = fields["reasons"]
    fields["reasons"] = json.loads(reasons) if isinstance(reasons, str) else reasons
    fields["contained"] = bool(fields["contained"])
    tool = fields["tool"]
    fields["tool"] = json.loads(tool) if isinstance(tool, str) else tool
    return fields


def audit_args(db: DirectDb, values: dict[str, Any]) -> tuple[Any, ...]:
    """The parameters of :data:`SQL` ``audits`` for one audit row's values."""
    return (db.time(values["at"]), values["event"], values["escalation_id"], values["actor"], _json(values["detail"]))


def job_args(db: DirectDb, v: dict[str, Any]) -> tuple[Any, ...]:
    """The parameters of :data:`SQL` ``jobs`` for one job's values (:func:`bot.store.tx.job_values`), in
    :data:`JOB_COLUMNS`' order."""
    t = db.time
    return (
        v["kind"], v["priority"], v["room"], v["ref"], _json(v["payload"]), v["status"], v["attempts"], v["uncertain"],
        t(v["created_at"]), t(v["due_at"]), t(v["deadline_at"]), t(v["claimed_until"]), t(v["slot_at"]),
        t(v["done_at"]), v["last_error"],
    )


def json_text(value: Any) -> str:
    """A JSON column's parameter (SQLAlchemy's ``JSON`` serializer: ``json.dumps`` with its defaults)."""
    return _json(value)


def json_value(raw: Any) -> Any:
    """A JSON column's raw value (text from both drivers here) as Python data."""
    return json.loads(raw) if isinstance(raw, str | bytes) else raw


# -- SQLite --------------------------------------------------------------------------------------------------------
def _sqlite_error(exc: sqlite3.Error, sql: str, args: Any) -> Exception:
    if isinstance(exc, sqlite3.IntegrityError):
        return IntegrityError(sql, args, exc)
    if isinstance(exc, sqlite3.OperationalError):
        return OperationalError(sql, args, exc)
    return DBAPIError(sql, args, exc)


class SqliteDb(_Encoders):
    """:class:`DirectDb` on a SQLite file: a ``sqlite3`` connection in the event loop's thread.

    ``path``: the database file; ``busy_timeout_s``: how long ``database is locked`` (another process writes) is
    retried, with ``asyncio.sleep`` and a backoff from 1 ms to 50 ms (SQLite's own busy handler, without holding
    the thread). Source: SQLite docs, "Write-Ahead Logging" (concurrency), "sqlite3_busy_timeout".
    """

    postgres = False

    def __init__(self, path: Path, *, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self.sql = SQL[False]
        self._path = path
        self._busy_timeout_s = busy_timeout_s
        self._conn: sqlite3.Connection | None = None
        self._cursor: sqlite3.Cursor | None = None

    def _connect(self) -> sqlite3.Cursor:
        conn = sqlite3.connect(str(self._path), timeout=0, isolation_level=None, check_same_thread=False)
        try:
            # As bot.store.sql._engine's connections (see the reasons there).
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA wal_autocheckpoint=0")
        except sqlite3.Error as exc:
            conn.close()
            raise _sqlite_error(exc, "PRAGMA", ()) from exc
        self._conn, self._cursor = conn, conn.cursor()
        return self._cursor

    async def _busy(self, call: Callable[[], T], sql: str, args: Any) -> T:
        try:
            return await retry_locked(call, self._busy_timeout_s)
        except sqlite3.Error as exc:
            raise _sqlite_error(exc, sql, args) from exc

    async def one_statement(self) -> bool:
        return False

    async def begin(self) -> None:
        cursor = self._cursor or self._connect()
        await self._busy(lambda: cursor.execute("BEGIN IMMEDIATE"), "BEGIN IMMEDIATE", ())

    async def commit(self) -> None:
        cursor = self._cursor
        assert cursor is not None
        await self._busy(lambda: cursor.execute("COMMIT"), "COMMIT", ())

    async def rollback(self) -> None:
        conn = self._conn
        if conn is None or not conn.in_transaction:
            return
        try:
            conn.rollback()
        except sqlite3.Error:
            await self.close()

    def _call(self, name: str, args: Any, call: Callable[[sqlite3.Cursor, str], T]) -> T:
        """``call(cursor, sql)`` for the statement ``name``, a driver error raised as SQLAlchemy's."""
        cursor = self._cursor
        assert cursor is not None
        sql = self.sql[name]
        try:
            return call(cursor, sql)
        except sqlite3.Error as exc:
            raise _sqlite_error(exc, sql, args) from exc

    async def one(self, name: str, args: Sequence[Any]) -> Row | None:
        row: Row | None = self._call(name, args, lambda cursor, sql: cursor.execute(sql, args).fetchone())
        return row

    async def rows(self, name: str, args: Sequence[Any]) -> list[Row]:
        found: list[Row] = self._call(name, args, lambda cursor, sql: cursor.execute(sql, args).fetchall())
        return found

    async def run(self, name: str, args: Sequence[Any]) -> None:
        self._call(name, args, lambda cursor, sql: cursor.execute(sql, args))

    async def run_many(self, name: str, rows: Sequence[Sequence[Any]]) -> None:
        self._call(name, rows, lambda cursor, sql: cursor.executemany(sql, rows))

    def restart_wal(self) -> bool:
        """``PRAGMA wal_checkpoint(RESTART)`` on this connection, in the caller's thread, waiting for nobody (its busy
        timeout is 0): True when readers still reading the WAL, or another process's writer, made it give up
        (``blocked``), False when every frame was copied and the next write starts the WAL again from its beginning
        (the file keeps its size and is written over). Call it only in this process's writer turn, outside a
        transaction (:meth:`bot.store.sql.Store._checkpoint`). Raises SQLAlchemy's error for any other failure.
        Source: SQLite docs, "PRAGMA wal_checkpoint"."""
        cursor = self._cursor or self._connect()
        try:
            return bool(cursor.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()[0])
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                return True
            raise _sqlite_error(exc, "PRAGMA wal_checkpoint(RESTART)", ()) from exc

    async def close(self) -> None:
        conn, self._conn, self._cursor = self._conn, None, None
        if conn is not None:
            conn.close()


# -- PostgreSQL ----------------------------------------------------------------------------------------------------
class PostgresDb(_Encoders):
    """:class:`DirectDb` on PostgreSQL: one asyncpg connection to ``dsn`` (asyncpg's form,
    :func:`bot.store.notify.asyncpg_dsn`), opened at the first :meth:`begin` and again after it was lost."""

    postgres = True

    def __init__(self, dsn: str, *, connect_timeout_s: float = 10.0) -> None:
        self.sql = SQL[True]
        self._dsn = dsn
        self._timeout = connect_timeout_s
        self._conn: Any = None
        self._function = False
        self.statements = 0
        """Statements sent, each a round trip (BEGIN and COMMIT included; for tests and benchmarks)."""

    @staticmethod
    def _error(exc: BaseException, sql: str, args: Any) -> Exception:
        import asyncpg

        if isinstance(exc, asyncpg.PostgresError) and getattr(exc, "sqlstate", None) == UNVERIFIED:
            return Unverified(str(exc))
        if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
            return IntegrityError(sql, args, exc)
        if isinstance(exc, asyncpg.PostgresError):
            return DBAPIError(sql, args, exc)
        return OperationalError(sql, args, exc)  # the connection: lost, closed, timed out

    async def _call(self, sql: str, args: Any, call: Callable[[], Any]) -> Any:
        import asyncpg

        self.statements += 1
        try:
            return await call()
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as exc:
            if getattr(exc, "sqlstate", None) == _UNDEFINED_FUNCTION and sql == self.sql["group"]:
                # The session no longer has pg_temp.flybot_group (DISCARD TEMP, or a pooler in transaction mode that
                # runs each statement on another server session): groups go back to transactions on this connection
                # (review: every group failed, and each of its requests alone again, a 500 for every auto-answer).
                self._function = False
                log.warning("store.group_function_unavailable", error=f"{type(exc).__name__}: {exc}")
                raise Unverified(str(exc)) from exc
            raise self._error(exc, sql, args) from exc

    async def _connect(self) -> Any:
        """The connection, opened if there is none or it was closed (``pg_temp.flybot_group`` made on a new one; a
        server that refuses it, a read-only or TEMP-less role, leaves groups in transactions)."""
        import asyncpg

        if self._conn is not None and not self._conn.is_closed():
            return self._conn
        try:
            conn = await asyncpg.connect(self._dsn, timeout=self._timeout)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as exc:
            raise self._error(exc, "connect", ()) from exc
        self.ascii_rows = conn.get_settings().server_encoding.upper() != "SQL_ASCII"
        self._conn, self._function = conn, False
        try:
            await conn.execute(group_function())
            self._function = True
        except asyncpg.PostgresError as exc:  # groups still commit, in transactions
            log.warning("store.group_function_unavailable", error=f"{type(exc).__name__}: {exc}")
        except (asyncpg.InterfaceError, OSError, TimeoutError) as exc:
            await self.close()
            raise self._error(exc, "connect", ()) from exc
        return conn

    async def one_statement(self) -> bool:
        await self._connect()
        return self._function

    async def begin(self) -> None:
        """Start a transaction; a connection found dead here (the server restarted, an idle connection was cut) is
        replaced once, since nothing was sent on it yet."""
        import asyncpg

        for attempt in (1, 2):
            conn = await self._connect()
            self.statements += 1
            try:
                await conn.execute("BEGIN")
                return
            except (asyncpg.InterfaceError, asyncpg.PostgresConnectionError, OSError) as exc:
                await self.close()
                if attempt == 2:
                    raise self._error(exc, "BEGIN", ()) from exc
            except (asyncpg.PostgresError, TimeoutError) as exc:
                raise self._error(exc, "BEGIN", ()) from exc

    async def commit(self) -> None:
        conn = self._conn
        await self._call("COMMIT", (), lambda: conn.execute("COMMIT"))

    async def rollback(self) -> None:
        conn = self._conn
        if conn is None or conn.is_closed():
            return
        try:
            if conn.is_in_transaction():
                self.statements += 1
                await conn.execute("ROLLBACK")
        except Exception:  # noqa: BLE001 - a connection that cannot roll back is dropped; the next group reconnects
            await self.close()

    async def one(self, name: str, args: Sequence[Any]) -> Row | None:
        conn, sql = self._conn, self.sql[name]
        record = await self._call(sql, args, lambda: conn.fetchrow(sql, *args))
        return None if record is None else tuple(record)

    async def rows(self, name: str, args: Sequence[Any]) -> list[Row]:
        conn, sql = self._conn, self.sql[name]
        return [tuple(record) for record in await self._call(sql, args, lambda: conn.fetch(sql, *args))]

    async def run(self, name: str, args: Sequence[Any]) -> None:
        conn, sql = self._conn, self.sql[name]
        await self._call(sql, args, lambda: conn.execute(sql, *args))

    async def run_many(self, name: str, rows: Sequence[Sequence[Any]]) -> None:
        conn, sql = self._conn, self.sql[name]
        await self._call(sql, rows, lambda: conn.executemany(sql, rows))

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is None or conn.is_closed():
            return
        try:
            await asyncio.wait_for(conn.close(), 2)
        except Exception:  # noqa: BLE001 - closing at shutdown or after a failure: drop it
            conn.terminate()


# -- fallback: SQLAlchemy's connection -----------------------------------------------------------------------------
class EngineDb(_Encoders):
    """:class:`DirectDb` through a connection of ``engine`` (a SQLite store without a file of its own, such as an
    in-memory one, where a second connection would see another database): the same SQLite text, run with
    ``exec_driver_sql`` (SQLAlchemy's errors as they come)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.postgres = engine.dialect.name == "postgresql"
        self.sql = SQL[self.postgres]
        self._engine = engine
        self._conn: AsyncConnection | None = None

    async def one_statement(self) -> bool:
        return False

    async def begin(self) -> None:
        from bot.store.sql import WRITE_OPTION

        conn = self._conn = await self._engine.connect()
        await conn.execution_options(**{WRITE_OPTION: True})
        await conn.begin()

    async def commit(self) -> None:
        conn, self._conn = self._conn, None
        assert conn is not None
        try:
            await conn.commit()
        finally:
            await conn.close()

    async def rollback(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.close()  # rolls back

    async def one(self, name: str, args: Sequence[Any]) -> Row | None:
        assert self._conn is not None
        row = (await self._conn.exec_driver_sql(self.sql[name], tuple(args))).first()
        return None if row is None else tuple(row)

    async def rows(self, name: str, args: Sequence[Any]) -> list[Row]:
        assert self._conn is not None
        return [tuple(row) for row in await self._conn.exec_driver_sql(self.sql[name], tuple(args))]

    async def run(self, name: str, args: Sequence[Any]) -> None:
        assert self._conn is not None
        await self._conn.exec_driver_sql(self.sql[name], tuple(args))

    async def run_many(self, name: str, rows: Sequence[Sequence[Any]]) -> None:
        assert self._conn is not None
        await self._conn.exec_driver_sql(self.sql[name], [tuple(r) for r in rows])

    async def close(self) -> None:
        await self.rollback()
