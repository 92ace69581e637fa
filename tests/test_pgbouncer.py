"""FlyBot behind PgBouncer in transaction mode (``tests.pg.pgbouncer``): its store connections keep nothing between
transactions, and its ``LISTEN`` connection goes to PostgreSQL itself (``FLYBOT_DATABASE_LISTEN_URL``) or, when that
too is pooled, FlyBot recognises the pooler and polls instead.

The replica, race, outbox and durability tests run on the ``pgbouncer`` backend too (``tests.pg.BACKENDS``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest
import structlog
from sqlalchemy import text

from bot.app import RUNTIME
from bot.settings import Settings
from bot.store import open_store
from bot.store.notify import asyncpg_dsn, pooled
from tests.harness import OWNER
from tests.pg import store_settings, throwaway_database
from tests.test_replicas import Cluster
from tests.test_store_contract import bot


@pytest.fixture
async def pooled_url() -> AsyncIterator[str]:
    async with throwaway_database(pooled=True) as url:
        store = await open_store(url, migrate=True)
        await store.close()
        yield url


async def test_a_connection_through_pgbouncer_is_recognised_and_a_direct_one_is_not(pooled_url: str) -> None:
    direct_url = store_settings(pooled_url)["database_listen_url"]
    for url, expected in ((pooled_url, True), (direct_url, False)):
        connection = await asyncpg.connect(asyncpg_dsn(url), statement_cache_size=0)
        try:
            assert await pooled(connection) is expected, url
        finally:
            await connection.close()


async def test_statements_are_prepared_once_on_postgresql_itself_and_never_through_the_pooler(pooled_url: str) -> None:
    """PostgreSQL's own view of the session's named prepared statements (``pg_prepared_statements``): the store's
    engine keeps them on a direct connection and makes none through PgBouncer (the unnamed statement is not listed)."""
    direct_url = store_settings(pooled_url)["database_listen_url"]
    for url, keeps in ((direct_url, True), (pooled_url, False)):
        store = await open_store(url)
        try:
            async with store.transaction(write=False) as tx:
                connection = await tx.connection()
                for _ in range(2):
                    await connection.execute(text("SELECT 1"))
                prepared = (await connection.execute(text("SELECT count(*) FROM pg_prepared_statements"))).scalar()
            assert (prepared > 0) is keeps, (url, prepared)
        finally:
            await store.close()


async def test_many_concurrent_store_reads_and_writes_through_a_pool_of_four(pooled_url: str) -> None:
    """More clients than server connections, each statement on whichever one is free: no prepared statement is
    ever looked up on a connection that did not prepare it."""
    store = await open_store(pooled_url)
    try:
        await store.add_bot(bot(), "h" * 64)

        async def one(i: int) -> bool:
            await store.note_home_viewer(f"U{i:08d}", store_now())
            found = await store.bot_by_token_hash("h" * 64)
            return found is not None and found.name == "b1"

        assert all(await asyncio.gather(*(one(i) for i in range(120))))
        assert len(await store.home_viewers(store_now().replace(year=2000))) == 120
    finally:
        await store.close()


def store_now() -> datetime:
    return datetime.now(UTC)


async def test_without_a_direct_listen_url_a_replica_polls_and_reads_the_store_each_time(
    pooled_url: str, tmp_path: Path
) -> None:
    cluster = Cluster(pooled_url, tmp_path)
    try:
        with structlog.testing.capture_logs() as logs:
            await cluster.start(replicas=2, database_listen_url=None, recheck_s=0.5)
            _, token = await cluster.add_bot()
            esc = await cluster.escalate(0, token)
            waiter = asyncio.create_task(cluster.get(0, token, esc["id"], wait=25))
            await asyncio.sleep(0.3)
            cluster.events_to(1)
            started = time.monotonic()
            await cluster.click(esc["id"])
            final = await asyncio.wait_for(waiter, 30)
            latency = time.monotonic() - started
        assert final["status"] == "approved" and final["decided_by"] == OWNER
        assert latency < 15, "answered by the recheck (0.5 s), long before the 25 s wait ends"
        assert sum(1 for entry in logs if entry["event"] == "notify.pooled") == 2, "each replica says why"
        assert not any(entry["event"] == "notify.listening" for entry in logs)
        for app in cluster.apps:
            assert app[RUNTIME].store.cache.live is False, "no LISTEN: nothing is served from memory"
    finally:
        await cluster.close()


async def test_with_a_direct_listen_url_the_replica_listens(pooled_url: str, tmp_path: Path) -> None:
    cluster = Cluster(pooled_url, tmp_path)
    try:
        with structlog.testing.capture_logs() as logs:
            await cluster.start(replicas=1)
            deadline = time.monotonic() + 10
            while not cluster.apps[0][RUNTIME].store.cache.live:
                assert time.monotonic() < deadline, "the LISTEN connection did not come up"
                await asyncio.sleep(0.05)
        assert any(entry["event"] == "notify.listening" for entry in logs)
        assert not any(entry["event"] == "notify.pooled" for entry in logs)
    finally:
        await cluster.close()


def test_the_listen_url_is_for_postgresql_only(tmp_path: Path) -> None:
    pg = "postgresql+asyncpg://flybot@db:5432/flybot"
    sqlite = f"sqlite+aiosqlite:///{tmp_path / 'flybot.db'}"
    assert Settings(database_url=pg, database_listen_url=pg).database_listen_url == pg
    assert Settings(database_url=pg, database_listen_url="  ").database_listen_url is None
    with pytest.raises(ValueError, match="PostgreSQL stores only"):
        Settings(database_url=sqlite, database_listen_url=pg)
    with pytest.raises(ValueError, match="LISTEN needs PostgreSQL"):
        Settings(database_url=pg, database_listen_url=sqlite)
    with pytest.raises(ValueError, match="asyncpg"):
        Settings(database_url=pg, database_listen_url="postgresql://flybot@db:5432/flybot")
