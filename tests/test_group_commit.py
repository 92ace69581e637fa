"""Group commit (bot.store.group): concurrent creates share one transaction; each keeps its own all-or-nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.errors import Conflict
from bot.store import Bot, Escalation, NewEscalation, Store, Tx, open_store
from bot.store.admission import AdmissionLimits, Refused
from bot.store.models import BotRequestCountRow, OutboxJobRow
from bot.store.records import Decision
from tests.pg import throwaway_database

NOW = datetime.now(UTC)
BOT = Bot(id="bot_g1", name="g1", owners=("U0OWNER01",), room="C0APPROVE", created_at=NOW)


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        s = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'group.db'}")
    else:
        async with throwaway_database() as url:
            s = await open_store(url, migrate=True)
            try:
                await s.add_bot(BOT, "h" * 64)
                yield s
            finally:
                await s.close()
        return
    try:
        await s.add_bot(BOT, "h" * 64)
        yield s
    finally:
        await s.close()


def new(escalation_id: str, key: str | None = None) -> NewEscalation:
    return NewEscalation(
        id=escalation_id, bot_id=BOT.id, session_id="s", command="apt-get install -y jq", cwd="/w",
        file_policy="workspace-write", approval_policy="ask", contained=True, justification=None, room="C0APPROVE",
        risk="system", reasons=(), created_at=NOW, expires_at=NOW + timedelta(minutes=10), idempotency_key=key,
    )


def create(escalation_id: str, *, approve: bool, fail: bool = False, limits: AdmissionLimits | None = None,
           key: str | None = None):  # type: ignore[no-untyped-def]
    """An operation like the service's: the row (approved at once, or pending with its card job), audit rows."""

    async def op(tx: Tx) -> tuple[Escalation, bool]:
        decision = Decision("approved", NOW, "U0OWNER01", "standing_approval", "standing approval sa_1", "sa_1")
        escalation, created = await tx.add_escalation(
            new(escalation_id, key), card_status=None if approve else "queued", limits=limits,
            decision=decision if approve else None)
        await tx.audit("escalation.created", at=NOW, escalation_id=escalation_id, actor=BOT.id)
        if approve:
            await tx.audit("escalation.approved", at=NOW, escalation_id=escalation_id, source="standing_approval")
        else:
            await tx.enqueue("card.post", ref=escalation_id, room="C0APPROVE", at=NOW)
        if fail:
            raise Conflict("this one changes its mind")
        return escalation, created

    return op


async def jobs_for(store: Store) -> set[str]:
    async with store.transaction(write=False) as tx:
        return set((await tx.session.execute(select(OutboxJobRow.ref))).scalars())


async def test_concurrent_creates_commit_in_one_group_and_a_failing_one_leaves_nothing(store: Store) -> None:
    ops = [create(f"esc_{i}", approve=i % 2 == 0, fail=i == 5) for i in range(12)]
    results = await asyncio.gather(*(store.grouped(op, order=BOT.id) for op in ops), return_exceptions=True)
    assert isinstance(results[5], Conflict)
    assert store.group_commits == 1, "twelve requests arriving together commit together"
    for i, result in enumerate(results):
        stored = await store.get_escalation(f"esc_{i}")
        if i == 5:
            assert stored is None and await store.audit_log(f"esc_{i}") == []
            continue
        assert not isinstance(result, BaseException)
        escalation, created = result
        assert created and stored == escalation
        assert stored.status == ("approved" if i % 2 == 0 else "pending")
        events = [e.event for e in await store.audit_log(f"esc_{i}")]
        assert events == (["escalation.created", "escalation.approved"] if i % 2 == 0 else ["escalation.created"])
    assert await jobs_for(store) == {f"esc_{i}" for i in range(12) if i % 2 and i != 5}


async def test_admission_limits_hold_within_one_group(store: Store) -> None:
    opened = await asyncio.gather(*(
        store.grouped(create(f"open_{i}", approve=False, limits=AdmissionLimits(max_open=3, per_minute=0)))
        for i in range(6)), return_exceptions=True)
    assert [isinstance(r, Refused) and r.reason == "open_escalations" for r in opened] == [False] * 3 + [True] * 3
    answered = await asyncio.gather(*(
        store.grouped(create(f"auto_{i}", approve=True, limits=AdmissionLimits(max_open=3, per_minute=0)))
        for i in range(4)), return_exceptions=True)
    assert not any(isinstance(r, BaseException) for r in answered), "answered at once: never open, not refused"
    rated = await asyncio.gather(*(
        store.grouped(create(f"rate_{i}", approve=True, limits=AdmissionLimits(max_open=0, per_minute=9)))
        for i in range(6)), return_exceptions=True)
    refused = [r for r in rated if isinstance(r, Refused)]
    assert len(refused) == 4 and all(r.reason == "rate" for r in refused)
    async with store.transaction(write=False) as tx:
        counted = sum((await tx.session.execute(select(BotRequestCountRow.count))).scalars())
    assert counted == 3 + 4 + 2, "every admitted request is counted once, no refused one"


async def test_a_repeated_idempotency_key_in_one_group_is_one_escalation(store: Store) -> None:
    first, second = await asyncio.gather(
        store.grouped(create("esc_a", approve=False, key="k1")), store.grouped(create("esc_b", approve=False, key="k1")))
    assert first[1] is True and second[1] is False and second[0].id == "esc_a"
    assert await store.get_escalation("esc_b") is None


async def test_a_group_that_loses_a_race_with_another_replica_runs_each_request_alone(store: Store) -> None:
    """Another replica commits the same Idempotency-Key while the group is open: the group's insert fails, and each
    request is run again alone (the retry returns the other replica's escalation; the neighbour commits)."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite: one writer at a time, no other replica can commit while a group is open")
    other = await open_store(store.engine.url.render_as_string(hide_password=False))
    raced = False

    async def racing(tx: Tx) -> tuple[Escalation, bool]:
        nonlocal raced
        result = await create("mine", approve=False, key="k2")(tx)
        if not raced:
            raced = True
            await other.add_escalation(new("theirs", "k2"))
        return result

    try:
        mine, neighbour = await asyncio.gather(store.grouped(racing), store.grouped(create("esc_n", approve=True)))
    finally:
        await other.close()
    assert mine[0].id == "theirs" and mine[1] is False
    assert await store.get_escalation("mine") is None
    assert neighbour[1] is True and (await store.get_escalation("esc_n")) is not None


async def test_a_sqlite_write_waiting_for_another_process_lock_does_not_block_the_event_loop(tmp_path: Path) -> None:
    """SQLite write transactions run in the loop's thread (bot.store.inline_sqlite): while another connection holds
    the write lock, the loop keeps serving, and the write goes through once the lock is released."""
    import sqlite3

    path = tmp_path / "locked.db"
    store = await open_store(f"sqlite+aiosqlite:///{path}")
    try:
        await store.add_bot(BOT, "h" * 64)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process's operator command, say
        write = asyncio.create_task(store.grouped(create("esc_w", approve=True)))
        started = time.monotonic()
        for _ in range(20):
            await asyncio.sleep(0.01)
        assert time.monotonic() - started < 2, "the loop kept running while the write waited"
        assert not write.done(), "it waits for the lock"
        other.execute("COMMIT")
        other.close()
        escalation, created = await asyncio.wait_for(write, 5)
        assert created and (await store.get_escalation("esc_w")) == escalation
    finally:
        await store.close()


async def test_a_race_on_one_idempotency_key_retries_the_group_once_not_each_request_alone(store: Store) -> None:
    """One racing pair of requests (the same key committed by another replica while the group is open) must not
    turn the group into one transaction per request: the group runs again once and finds the other's row."""
    if store.engine.dialect.name != "postgresql":
        pytest.skip("SQLite: one writer at a time, no other replica can commit while a group is open")
    other = await open_store(store.engine.url.render_as_string(hide_password=False))
    raced = False

    async def racing(tx: Tx) -> tuple[Escalation, bool]:
        nonlocal raced
        result = await create("mine", approve=False, key="k3")(tx)
        if not raced:
            raced = True
            await other.add_escalation(new("theirs", "k3"))
        return result

    before = store.group_commits
    try:
        results = await asyncio.gather(store.grouped(racing),
                                       *(store.grouped(create(f"esc_r{i}", approve=True)) for i in range(20)))
    finally:
        await other.close()
    mine, neighbours = results[0], results[1:]
    assert mine[0].id == "theirs" and mine[1] is False
    assert all(created for _e, created in neighbours)
    assert all([await store.get_escalation(f"esc_r{i}") for i in range(20)])
    assert store.group_commits - before <= 2, "one race, one more group (not 21 transactions)"


async def test_operations_arriving_over_a_few_loop_passes_share_one_group(store: Store) -> None:
    """Requests reach the group writer spread over passes of the event loop (each is read, parsed and graded first):
    the writer lets those passes run before it takes a group (GroupWriter.gather), so they commit together."""

    async def arriving(i: int) -> tuple[Escalation, bool]:
        for _ in range(i % 6):  # the i-th request is ready i % 6 passes after the first
            await asyncio.sleep(0)
        return await store.grouped(create(f"esc_p{i}", approve=True), order=BOT.id)

    before = store.group_commits
    results = await asyncio.gather(*(arriving(i) for i in range(18)))
    assert all(created for _e, created in results)
    assert store.group_commits - before == 1, "eighteen requests ready within six passes commit in one group"

