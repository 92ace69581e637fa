"""SQLite under continuous writes: the WAL stays bounded, nothing committed is lost, and a write waiting for another
process's lock does not stop the event loop."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import func, select

from bot.store import Bot, Escalation, NewEscalation, Store, open_store
from bot.store.models import EscalationRow
from bot.store.records import Decision

NOW = datetime.now(UTC)
BOT = Bot(id="bot_w1", name="w1", owners=("U0OWNER01",), room="C0APPROVE", created_at=NOW)
WRITERS = 8
EACH = 250


def new(escalation_id: str) -> NewEscalation:
    return NewEscalation(
        id=escalation_id,
        bot_id=BOT.id,
        session_id="s",
        command="apt-get install -y jq",
        cwd="/w",
        file_policy="workspace-write",
        approval_policy="ask",
        contained=True,
        justification=None,
        room="C0APPROVE",
        risk="system",
        reasons=(),
        created_at=NOW,
        expires_at=NOW + timedelta(minutes=10),
    )


async def auto_answer(store: Store, escalation_id: str) -> tuple[Escalation, bool]:
    """What the service writes for an auto-answer: the row, decided at once, and its audit rows."""
    decision = Decision("approved", NOW, "U0OWNER01", "standing_approval", "standing approval sa_1", "sa_1")
    async with store.transaction() as tx:
        escalation, created = await tx.add_escalation(new(escalation_id), decision=decision)
        await tx.audit("escalation.created", at=NOW, escalation_id=escalation_id, actor=BOT.id)
        await tx.audit("escalation.approved", at=NOW, escalation_id=escalation_id, source="standing_approval")
    return escalation, created


@asynccontextmanager
async def wal_store(tmp_path: Path) -> AsyncIterator[tuple[Store, Path]]:
    """A SQLite store at ``tmp_path / "wal.db"`` with the test Bot; closed at the end."""
    path = tmp_path / "wal.db"
    store = await open_store(f"sqlite+aiosqlite:///{path}")
    try:
        await store.add_bot(BOT, "h" * 64)
        yield store, path
    finally:
        await store.close()


async def count(store: Store) -> int:
    async with store.transaction(write=False) as tx:
        return int((await tx.session.execute(select(func.count()).select_from(EscalationRow))).scalar_one())


async def write_continuously(store: Store, wal: Path) -> int:
    """:data:`WRITERS` tasks writing auto-answers back to back; the largest size the WAL file reached (bytes)."""
    largest = 0

    async def writer(n: int) -> None:
        nonlocal largest
        for i in range(EACH):
            await auto_answer(store, f"esc_{n}_{i}")
            largest = max(largest, wal.stat().st_size if wal.exists() else 0)

    await asyncio.gather(*(writer(n) for n in range(WRITERS)))
    return largest


async def test_the_wal_stays_bounded_under_continuous_writes_and_nothing_is_lost(tmp_path: Path) -> None:
    async with wal_store(tmp_path) as (store, path):
        largest = await write_continuously(store, Path(f"{path}-wal"))
        assert await count(store) == WRITERS * EACH
        # Unbounded, the WAL holds every page these writes touched (about 9 KB a request: 18 MB here).
        assert largest < 8_000_000, f"the WAL reached {largest} bytes for {WRITERS * EACH} requests"
    reopened = await open_store(f"sqlite+aiosqlite:///{path}")
    try:
        assert await count(reopened) == WRITERS * EACH
    finally:
        await reopened.close()


async def test_the_wal_stays_bounded_while_short_reads_run_all_the_time(tmp_path: Path) -> None:
    async with wal_store(tmp_path) as (store, path):
        writing = True

        async def reader() -> None:
            while writing:
                async with store.transaction(write=False) as tx:
                    await tx.session.execute(select(EscalationRow.id).limit(1))

        readers = [asyncio.create_task(reader()) for _ in range(2)]
        try:
            largest = await write_continuously(store, Path(f"{path}-wal"))
        finally:
            writing = False
            await asyncio.gather(*readers)
        assert largest < 8_000_000, f"the WAL reached {largest} bytes with reads going on"
        assert await count(store) == WRITERS * EACH


async def test_a_write_waiting_for_another_process_lock_does_not_block_the_event_loop(tmp_path: Path) -> None:
    """While another connection holds SQLite's write lock, the loop keeps serving, and the write goes through once
    the lock is released."""
    async with wal_store(tmp_path) as (store, path):
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process's operator command, say
        write = asyncio.create_task(auto_answer(store, "esc_w"))
        started = time.monotonic()
        for _ in range(20):
            await asyncio.sleep(0.01)
        assert time.monotonic() - started < 2, "the loop kept running while the write waited"
        assert not write.done(), "it waits for the lock"
        other.execute("COMMIT")
        other.close()
        escalation, created = await asyncio.wait_for(write, 5)
        assert created and (await store.get_escalation("esc_w")) == escalation
