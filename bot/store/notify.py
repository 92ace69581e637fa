"""Cross-replica wake-ups over PostgreSQL ``LISTEN/NOTIFY``.

Every final decision stored on PostgreSQL also runs ``pg_notify('flybot_decisions', <id>)`` in the same transaction
(:meth:`bot.store.Tx.decide`), so the notification is sent exactly when the decision commits. Each replica
LISTENs on one dedicated asyncpg connection and wakes its own long-polls. A lost notification (connection drop,
replica restart) only delays an answer: each replica looks up all the ids its long-polls wait on in one query every
few seconds anyway (:meth:`bot.waiters.WaiterHub.run_recheck`), and on every reconnect all local waiters are woken to
re-check at once.
The same channel carries ``cache:<table>`` payloads from triggers on ``bots`` and ``standing_approvals`` (migration
0005): each replica then drops its in-memory copies (:mod:`bot.store.cache`).
Source: PostgreSQL docs, "NOTIFY" (delivered at commit; not queued for listeners that are not connected).

A pooler in transaction mode (PgBouncer's ``pool_mode = transaction``) hands each transaction whichever server
connection is free, so a ``LISTEN`` sent through it is lost. The listen connection may therefore go straight to
PostgreSQL (``FLYBOT_DATABASE_LISTEN_URL``) while the store's own connections go through the pooler. A pooled
listen connection is recognised (:func:`pooled`) and refused: the replica then falls back to polling, its long-polls
answered by the recheck every ``FLYBOT_RECHECK_S`` and its cache off.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import asyncpg
import structlog
from sqlalchemy import text
from sqlalchemy.engine import make_url

log = structlog.get_logger("flybot.notify")

CHANNEL = "flybot_decisions"
CACHE_PREFIX = "cache:"
"""Payloads ``cache:bots``, ``cache:standing_approvals`` and ``cache:program_rules`` say a cached table changed (sent
by triggers)."""


async def notify_at_commit(session: Any, key: str) -> None:
    """Queue ``pg_notify(CHANNEL, key)`` in ``session``'s transaction (PostgreSQL only; a no-op elsewhere).

    Called by every compare-and-set decision (escalations and reports), so each replica's :func:`listen` wakes its
    long-polls when, and only when, the decision commits.
    """
    if session.bind.dialect.name == "postgresql":
        await session.execute(text("SELECT pg_notify(:channel, :key)"), {"channel": CHANNEL, "key": key})


def asyncpg_dsn(database_url: str) -> str:
    """``postgresql+asyncpg://u:p@h/db`` -> ``postgresql://u:p@h/db`` (asyncpg's own DSN form)."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


def is_postgres(database_url: str) -> bool:
    """True for a PostgreSQL URL (any driver)."""
    return make_url(database_url).get_backend_name() == "postgresql"


async def pooled(connection: asyncpg.Connection) -> bool:
    """True when ``connection`` reaches PostgreSQL through a pooler: the backend process id announced at connect
    (``BackendKeyData``) is not the one serving queries, as a pooler answers the start-up itself (PgBouncer, any
    mode). Source: PostgreSQL docs, "Message Flow: Start-up" and "Canceling Requests in Progress"."""
    served_by = await connection.fetchval("SELECT pg_backend_pid()")
    return bool(served_by != connection.get_server_pid())


async def listen(
    database_url: str,
    on_id: Callable[[str], None],
    on_connect: Callable[[], None],
    *,
    retry_s: float = 1.0,
    on_lost: Callable[[], None] | None = None,
) -> None:
    """LISTEN on ``database_url`` until cancelled: ``on_id(payload)`` per notification, ``on_connect()`` after each
    (re)connect, ``on_lost()`` each time the connection ends (notifications may be missed until the next
    ``on_connect``).

    Connection errors are logged and retried every ``retry_s`` seconds. A connection through a pooler
    (:func:`pooled`) is logged as an error naming ``FLYBOT_DATABASE_LISTEN_URL`` and listening stops (``on_lost()``,
    then return): the caller's polling answers alone. Never raises except CancelledError.
    """
    while True:
        connection: Any = None
        try:
            connection = await asyncpg.connect(asyncpg_dsn(database_url), timeout=10, statement_cache_size=0)
            if await pooled(connection):
                log.error(
                    "notify.pooled",
                    fix="set FLYBOT_DATABASE_LISTEN_URL to PostgreSQL itself (not a pooler in transaction mode)",
                    fallback="polling every FLYBOT_RECHECK_S, cache off",
                )
                return
            lost = asyncio.Event()
            connection.add_termination_listener(lambda _conn, lost=lost: lost.set())
            await connection.add_listener(CHANNEL, lambda _c, _pid, _channel, payload: on_id(str(payload)))
            log.info("notify.listening", channel=CHANNEL)
            on_connect()
            while not lost.is_set() and not connection.is_closed():
                try:
                    await asyncio.wait_for(lost.wait(), timeout=5)
                except TimeoutError:
                    await connection.execute("SELECT 1")  # detects a silently dead connection
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - keep listening whatever happens
            log.warning("notify.lost", error=type(exc).__name__)
        finally:
            if on_lost is not None:
                on_lost()
            if connection is not None and not connection.is_closed():
                try:
                    await connection.close(timeout=2)
                except Exception:  # noqa: BLE001
                    connection.terminate()
        await asyncio.sleep(retry_s)
