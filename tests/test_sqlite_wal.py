"""The SQLite WAL stays bounded under continuous writes (bot.store.sql.Store._checkpoint, issue 10).

A PASSIVE checkpoint never copies the frames appended while it runs, so under continuous group commits the WAL was
never started again and grew by about 9 KB a request without end (430 MB in 10 s in bench_auto_answer)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from pathlib import Path

from sqlalchemy import func, select

from bot.store import open_store
from bot.store.models import EscalationRow
from tests.test_group_commit import BOT, create

WRITERS = 8
EACH = 150


async def test_the_wal_is_cut_back_under_continuous_group_commits_and_nothing_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    store = await open_store(f"sqlite+aiosqlite:///{path}")
    try:
        store.checkpoint_every = 4  # small figures, so that a test's few hundred writes cross them many times
        store.wal_restart_pages = 32
        await store.add_bot(BOT, "h" * 64)
        wal = Path(f"{path}-wal")
        largest = 0

        async def writer(n: int) -> None:
            nonlocal largest
            for i in range(EACH):  # back to back: the group writer never idles, as under load
                await store.grouped(create(f"esc_{n}_{i}", approve=True), order=BOT.id)
                largest = max(largest, wal.stat().st_size if wal.exists() else 0)

        await asyncio.gather(*(writer(n) for n in range(WRITERS)))
        written = WRITERS * EACH
        async with store.transaction(write=False) as tx:
            stored = (await tx.session.execute(select(func.count()).select_from(EscalationRow))).scalar_one()
        assert stored == written
        assert store.wal_restarts > 0
        # Unbounded, the WAL holds every page these writes touched: 11 MB here (measured), about 9 KB a request.
        # Bounded, it holds what comes between two checkpoints past the restart figure: 1.2 to 1.5 MB (measured).
        # A TRUNCATE that lost every try for the write lock to the group writer never ran: 11 MB again.
        assert largest < 4_000_000, f"the WAL reached {largest} bytes for {written} requests"
    finally:
        await store.close()
    reopened = await open_store(f"sqlite+aiosqlite:///{path}")
    try:
        async with reopened.transaction(write=False) as tx:
            assert (await tx.session.execute(select(func.count()).select_from(EscalationRow))).scalar_one() == written
    finally:
        await reopened.close()
    assert os.path.getsize(path) > 0


async def test_a_reader_holding_an_old_snapshot_does_not_stall_the_writers_behind_the_truncate(tmp_path: Path) -> None:
    """The TRUNCATE waits for the readers of the WAL holding this process's writer turn: a long read (an export) made
    every write wait behind it for the connection's 30 s busy timeout; now the TRUNCATE gives up after 50 ms and the
    next checkpoint tries again."""
    path = tmp_path / "wal.db"
    store = await open_store(f"sqlite+aiosqlite:///{path}")
    reader = sqlite3.connect(str(path), isolation_level=None)
    try:
        store.checkpoint_every = 1
        store.wal_restart_pages = 0
        await store.add_bot(BOT, "h" * 64)
        await store.grouped(create("esc_before", approve=True), order=BOT.id)
        reader.execute("BEGIN")
        assert reader.execute("SELECT count(*) FROM escalations").fetchone() == (1,)  # its snapshot is in the WAL
        await store.grouped(create("esc_held_0", approve=True), order=BOT.id)
        started = time.monotonic()
        for i in range(1, 11):  # each commit starts a checkpoint, which finds the reader and gives up
            await store.grouped(create(f"esc_held_{i}", approve=True), order=BOT.id)
            await asyncio.sleep(0.06)  # let the checkpoint run
        # With the TRUNCATE waiting out the connection's 30 s busy timeout, the writes waited behind each one (this
        # test took two minutes, measured); it now gives up after 50 ms.
        assert time.monotonic() - started < 10
        restarts = store.wal_restarts
        reader.execute("COMMIT")  # the long read ends: the next checkpoint truncates
        for i in range(100):  # a write starts a checkpoint unless one still runs
            await store.grouped(create(f"esc_after_{i}", approve=True), order=BOT.id)
            await asyncio.sleep(0.05)
            if store.wal_restarts > restarts:
                break
        assert store.wal_restarts > restarts
        assert Path(f"{path}-wal").stat().st_size == 0  # truncated
    finally:
        reader.close()
        await store.close()
