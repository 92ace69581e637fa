"""The SQLite WAL stays bounded under continuous writes (bot.store.sql.Store._checkpoint, issue 10).

A PASSIVE checkpoint never copies the frames appended while it runs, so under continuous group commits the WAL was
never started again and grew by about 9.5 KB a request without end (142 MB in 12 s of bench_auto_answer's load)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from sqlalchemy import func, select

from bot.store import Store, open_store
from bot.store.models import EscalationRow
from tests.test_group_commit import BOT, create

WRITERS = 8
EACH = 250


@asynccontextmanager
async def wal_store(tmp_path: Path, *, every: int, pages: int) -> AsyncIterator[tuple[Store, Path]]:
    """A SQLite store at ``tmp_path / "wal.db"`` with the test Bot, a checkpoint every ``every`` commits and a
    restart past ``pages`` WAL pages (small figures, so that a test's writes cross them); closed at the end."""
    path = tmp_path / "wal.db"
    store = await open_store(f"sqlite+aiosqlite:///{path}")
    try:
        store.checkpoint_every = every
        store.wal_restart_pages = pages
        await store.add_bot(BOT, "h" * 64)
        yield store, path
    finally:
        await store.close()


async def count(store: Store) -> int:
    async with store.transaction(write=False) as tx:
        return int((await tx.session.execute(select(func.count()).select_from(EscalationRow))).scalar_one())


async def test_the_wal_is_cut_back_under_continuous_group_commits_and_nothing_is_lost(tmp_path: Path) -> None:
    written = WRITERS * EACH
    async with wal_store(tmp_path, every=4, pages=32) as (store, path):
        wal = Path(f"{path}-wal")
        largest = 0

        async def writer(n: int) -> None:
            nonlocal largest
            for i in range(EACH):  # back to back: the group writer never idles, as under load
                await store.grouped(create(f"esc_{n}_{i}", approve=True), order=BOT.id)
                largest = max(largest, wal.stat().st_size if wal.exists() else 0)

        await asyncio.gather(*(writer(n) for n in range(WRITERS)))
        assert await count(store) == written
        assert store.wal_restarts > 0
        # Unbounded, the WAL holds every page these writes touched: 18 MB here, about 9 KB a request. Bounded, it
        # holds what comes between two checkpoints past the restart figure (measured: under 3 MB).
        assert largest < 8_000_000, f"the WAL reached {largest} bytes for {written} requests"
    reopened = await open_store(f"sqlite+aiosqlite:///{path}")
    try:
        assert await count(reopened) == written
    finally:
        await reopened.close()


def wal_pages(path: Path) -> int:
    """The pages in the WAL of the database at ``path`` now (a PASSIVE checkpoint's second figure)."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        return int(conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1])
    finally:
        conn.close()


async def test_the_restart_runs_in_the_writer_turn(tmp_path: Path) -> None:
    """Outside it, under continuous writes, the RESTART (TRUNCATE then) lost every try for SQLite's write lock to the
    group writer and never ran (measured): in the writer turn this process's writers wait for it instead."""
    async with wal_store(tmp_path, every=1, pages=0) as (store, path):
        await store.checkpoint_settled()
        await store.grouped(create("esc_1", approve=True), order=BOT.id)  # starts a checkpoint
        lock = store.writer_lock()
        assert lock is not None
        async with lock:  # this test holds the turn: the checkpoint's RESTART must wait for it
            await asyncio.sleep(0.5)
            assert store.wal_restarts == 0
        await store.checkpoint_settled()
        assert store.wal_restarts == 1
        before = wal_pages(path)
        await store.grouped(create("esc_2", approve=True), order=BOT.id)  # written from the WAL's start again
        assert wal_pages(path) < before


async def test_a_reader_holding_an_old_snapshot_does_not_stall_the_writers_behind_the_restart(tmp_path: Path) -> None:
    """The RESTART waits for the readers of the WAL holding this process's writer turn: a long read (an export) made
    every write wait behind it for the pool's 30 s busy timeout. Now it gives up after 20 ms, and from the third try
    in a row the next waits 0.25 s, then twice as long each time (a try every few commits held the turn for nothing:
    p99 1.5 -> 52 ms)."""
    # No checkpoint yet: the reader's snapshot must be in the WAL.
    async with wal_store(tmp_path, every=1_000_000, pages=0) as (store, path):
        reader = sqlite3.connect(str(path), isolation_level=None)
        try:
            await store.grouped(create("esc_before", approve=True), order=BOT.id)
            reader.execute("BEGIN")
            assert reader.execute("SELECT count(*) FROM escalations").fetchone() == (1,)
            store.checkpoint_every = 1
            slowest = 0.0
            for i in range(30):  # each commit starts a checkpoint
                started = time.monotonic()
                await store.grouped(create(f"esc_held_{i}", approve=True), order=BOT.id)
                await store.checkpoint_settled()
                slowest = max(slowest, time.monotonic() - started)
            # With the checkpoint waiting out the pool's 30 s busy timeout, the writes waited behind it (minutes in all).
            assert slowest < 2, f"a write and its checkpoint took {slowest:.1f} s"
            assert store.wal_restarts == 0
            assert 3 <= store.wal_restarts_blocked <= 5  # 3 in a row, then 0.25 s, 0.5 s, 1 s between tries
            held = wal_pages(path)
            reader.execute("COMMIT")  # the long read ends: a later checkpoint restarts the WAL
            for i in range(200):
                await store.grouped(create(f"esc_after_{i}", approve=True), order=BOT.id)
                await store.checkpoint_settled()
                if store.wal_restarts:
                    break
                await asyncio.sleep(0.05)
            assert store.wal_restarts == 1
            assert store.wal_retry_s == 0
            await store.grouped(create("esc_last", approve=True), order=BOT.id)
            assert wal_pages(path) < held  # written from its start again
            assert await count(store) == 1 + 30 + i + 1 + 1
        finally:
            reader.close()


async def test_close_does_not_wait_for_a_checkpoint_stuck_behind_the_writer_turn(tmp_path: Path) -> None:
    """A checkpoint waiting for the writer turn at shutdown is cancelled after a second (review: ``close()`` waited
    as long as the turn's holder, up to another process's 30 s busy timeout)."""
    store = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'wal.db'}")
    store.checkpoint_every = 1
    store.wal_restart_pages = 0
    await store.add_bot(BOT, "h" * 64)
    await store.checkpoint_settled()
    lock = store.writer_lock()
    assert lock is not None
    await store.grouped(create("esc_1", approve=True), order=BOT.id)  # starts a checkpoint that will want the turn
    await lock.acquire()  # and the turn stays taken
    try:
        started = time.monotonic()
        await asyncio.wait_for(store.close(), timeout=10)
        assert time.monotonic() - started < 5
        assert store.wal_restarts == 0
    finally:
        lock.release()


async def test_the_wal_stays_bounded_while_short_reads_run_all_the_time(tmp_path: Path) -> None:
    """Reads that begin and end all the time (a busy service's) are often in the WAL when the RESTART comes: taken
    for a long read, each such try made the next wait longer, and the WAL grew with the writes meanwhile (review:
    223 MB with one reader). Now the turn waits up to 20 ms for them, copying again, before it gives up."""
    async with wal_store(tmp_path, every=4, pages=32) as (store, path):
        wal = Path(f"{path}-wal")
        largest = 0
        writing = True

        async def writer(n: int) -> None:
            nonlocal largest
            for i in range(EACH):
                await store.grouped(create(f"esc_{n}_{i}", approve=True), order=BOT.id)
                largest = max(largest, wal.stat().st_size if wal.exists() else 0)

        async def reader() -> None:
            while writing:
                async with store.transaction(write=False) as tx:
                    await tx.session.execute(select(EscalationRow.id).limit(1))

        readers = [asyncio.create_task(reader()) for _ in range(2)]
        try:
            await asyncio.gather(*(writer(n) for n in range(WRITERS)))
        finally:
            writing = False
            await asyncio.gather(*readers)
        await store.checkpoint_settled()
        assert store.wal_restarts > 0
        assert largest < 8_000_000, f"the WAL reached {largest} bytes with reads going on"
        assert await count(store) == WRITERS * EACH
