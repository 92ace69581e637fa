"""10,000 long-polls on one replica: a waiting long-poll costs one future and a slot of the timer wheel;
long-polls arriving on an id already watched answer from its snapshot instead of reading the store again; a
decision (or any notification) drops the snapshot at once. Real server on SQLite for the end-to-end case."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import event

from bot.waiters import SNAPSHOT_MAX_AGE_S, TimerWheel, WaiterHub
from cards import APPROVE_ACTION
from tests.harness import OWNER, Harness


async def test_the_timer_wheel_wakes_each_future_at_its_deadline_never_before() -> None:
    loop = asyncio.get_running_loop()
    wheel = TimerWheel(tick=0.02)
    start = loop.time()
    deadlines = [start + 0.05 + i * 0.003 for i in range(100)]
    futures: list[asyncio.Future[bool]] = []
    woke_at: list[float] = [0.0] * len(deadlines)
    for i, when in enumerate(deadlines):
        future: asyncio.Future[bool] = loop.create_future()
        future.add_done_callback(lambda _f, i=i: woke_at.__setitem__(i, loop.time()))
        wheel.wake_at(when, future)
        futures.append(future)
    early: asyncio.Future[bool] = loop.create_future()
    early.set_result(True)  # woken by a decision first: the wheel leaves it alone
    wheel.wake_at(start + 0.05, early)
    assert await asyncio.wait_for(asyncio.gather(*futures), 5) == [False] * len(futures)
    assert early.result() is True
    for when, woke in zip(deadlines, woke_at, strict=True):
        assert woke >= when - 1e-6, "never before its deadline"
    assert max(w - d for d, w in zip(deadlines, woke_at, strict=True)) < 1.0
    assert wheel.pending() == 0


async def test_a_snapshot_serves_only_while_its_id_is_watched_and_nothing_was_notified() -> None:
    hub = WaiterHub()
    reads: list[str] = []
    state = {"status": "pending"}

    async def fetch(key: str) -> dict[str, str]:
        reads.append(key)
        await asyncio.sleep(0)
        return dict(state)

    # Nobody watches "a": every read goes to the store.
    await hub.read_through("a", fetch)
    await hub.read_through("a", fetch)
    assert reads == ["a", "a"]

    first = hub.add("a")
    assert (await hub.read_through("a", fetch))["status"] == "pending"
    second = hub.add("a")
    assert (await hub.read_through("a", fetch))["status"] == "pending"
    assert len(reads) == 3, "the second long-poll answered from the snapshot"

    state["status"] = "approved"
    hub.notify("a")  # a decision here (or a store notification) drops the snapshot and wakes both
    assert first.result() is True and second.result() is True
    assert (await hub.read_through("a", fetch))["status"] == "approved"
    assert len(reads) == 4

    # A notification DURING a read: that read's result is not kept as a snapshot.
    async def racing(key: str) -> dict[str, str]:
        reads.append(key)
        snapshot = dict(state)
        state["status"] = "denied"
        hub.notify(key)
        return snapshot

    hub.discard("a", first)
    hub.discard("a", second)
    third = hub.add("a")
    await hub.read_through("a", racing)
    assert (await hub.read_through("a", fetch))["status"] == "denied"
    assert len(reads) == 6

    # The last long-poll leaving forgets the snapshot: the next one reads again.
    hub.discard("a", third)
    fourth = hub.add("a")
    await hub.read_through("a", fetch)
    assert len(reads) == 7
    hub.discard("a", fourth)


async def test_long_polls_arriving_on_a_watched_escalation_share_its_read_and_a_decision_answers_them_all(
    tmp_path: Path,
) -> None:
    h = Harness(tmp=tmp_path, settings_overrides={"max_open_escalations": 0, "recheck_s": 60})
    await h.start()
    try:
        token = await h.add_bot()
        esc = await h.escalate(token)
        waiters = h.runtime.service.waiters
        polls = [asyncio.create_task(h.get(token, esc["id"], wait=30))]
        await h.eventually(lambda: waiters.waiting(esc["id"]) == 1)

        statements: list[str] = []

        def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            # reads by id (the sweeper's periodic queries name no id)
            if "FROM escalations" in statement and ("json_each" in statement or "escalations.id = " in statement):
                statements.append(statement)

        engine = h.runtime.store.engine.sync_engine
        event.listen(engine, "before_cursor_execute", count)
        try:
            started = asyncio.get_running_loop().time()
            for i in range(20):
                polls.append(asyncio.create_task(h.get(token, esc["id"], wait=30)))
                await h.eventually(lambda i=i: waiters.waiting(esc["id"]) == i + 2)
            elapsed = asyncio.get_running_loop().time() - started
        finally:
            event.remove(engine, "before_cursor_execute", count)
        # One store read per SNAPSHOT_MAX_AGE_S at most (the snapshot's age bound), not one per long-poll.
        assert len(statements) <= elapsed / SNAPSHOT_MAX_AGE_S + 1, (len(statements), elapsed)
        assert len(statements) < 20

        await h.click(OWNER, esc["id"], APPROVE_ACTION)
        answers = await asyncio.wait_for(asyncio.gather(*polls), 20)
        assert [status for status, _ in answers] == [200] * 21
        assert {body["status"] for _, body in answers} == {"approved"}
        # A long-poll arriving after the decision sees it at once (no stale snapshot survives the decision).
        status, body = await asyncio.wait_for(h.get(token, esc["id"], wait=30), 5)
        assert status == 200 and body["status"] == "approved"
    finally:
        await h.close()


def test_the_server_freezes_its_startup_heap_and_collects_the_youngest_generation_less_often() -> None:
    # In a child process: freezing would change this test process's collector.
    code = (
        "import gc; from bot.limits import GC_YOUNGEST_THRESHOLD, tune_garbage_collector; "
        "frozen = tune_garbage_collector(); "
        "assert frozen > 1000 and gc.get_freeze_count() == frozen, frozen; "
        "assert gc.get_threshold()[0] == GC_YOUNGEST_THRESHOLD, gc.get_threshold(); print('ok')"
    )
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr


async def test_a_card_posted_while_long_polls_wait_shows_at_once_to_the_next_reader(tmp_path: Path) -> None:
    # Not a decision, but what the session reads changed: the waiting long-polls' snapshot must not hide it.
    h = Harness(tmp=tmp_path)
    await h.start()
    try:
        token = await h.add_bot()
        await h.fault("chat.postMessage", status=200, count=1, delay_s=0.5)  # a slow Slack: the card lands later
        status, esc = await h.post(token, h.body())
        assert status == 201 and esc["card"]["status"] == "queued"
        waiting = asyncio.create_task(h.get(token, esc["id"], wait=30))
        await h.eventually(lambda: h.runtime.service.waiters.waiting(esc["id"]) == 1)
        # The store records the post after Slack's reply reaches the job, a moment after the emulator holds it.
        posted = False

        async def card_posted() -> None:
            nonlocal posted
            stored = await h.runtime.store.get_escalation(esc["id"])
            posted = stored is not None and stored.card_status == "posted"

        for _ in range(200):
            await card_posted()
            if posted:
                break
            await asyncio.sleep(0.05)
        assert posted, "the card job never recorded its post"
        await h.eventually(lambda: h.runtime.service.waiters.waiting(esc["id"]) == 1)
        _, now = await h.get(token, esc["id"])
        assert now["card"]["status"] == "posted", now
        assert not waiting.done(), "still pending: the waiting long-poll waits on"
        waiting.cancel()
        await asyncio.gather(waiting, return_exceptions=True)
    finally:
        await h.close()


async def test_a_settled_notification_becomes_the_snapshot_so_woken_long_polls_read_nothing() -> None:
    hub = WaiterHub()
    reads: list[str] = []

    async def fetch(key: str) -> dict[str, str]:
        reads.append(key)
        return {"status": "pending"}

    woken = hub.add("a")
    assert (await hub.read_through("a", fetch))["status"] == "pending"
    hub.notify("a", settled={"status": "approved"})
    assert woken.result() is True
    assert (await hub.read_through("a", fetch))["status"] == "approved"
    assert reads == ["a"], "the woken long-poll answered from the decision, not from a new read"
    hub.notify("a")  # a plain notification (another replica's) drops it: the next reader reads the store
    assert (await hub.read_through("a", fetch))["status"] == "pending"
    assert reads == ["a", "a"]
    hub.discard("a", woken)
    hub.notify("a", settled={"status": "denied"})  # nobody waits: nothing is kept
    assert (await hub.read_through("a", fetch))["status"] == "pending"


async def test_an_approve_click_reads_its_escalation_once_and_the_waiting_session_is_answered_from_the_decision(
    tmp_path: Path,
) -> None:
    h = Harness(tmp=tmp_path, settings_overrides={"recheck_s": 60})
    await h.start()
    try:
        token = await h.add_bot()
        esc = await h.escalate(token)
        await h.eventually(lambda: h.card_for(esc["id"]) is not None)
        poll = asyncio.create_task(h.get(token, esc["id"], wait=30))
        await h.eventually(lambda: h.runtime.service.waiters.waiting(esc["id"]) == 1)
        await asyncio.sleep(SNAPSHOT_MAX_AGE_S)  # the long-poll's own first read is done

        reads: list[str] = []

        def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            if "FROM escalations" in statement and ("json_each" in statement or "escalations.id = " in statement):
                reads.append(statement)

        engine = h.runtime.store.engine.sync_engine
        event.listen(engine, "before_cursor_execute", count)
        try:
            clicked = await h.click(OWNER, esc["id"], APPROVE_ACTION)
            status, body = await asyncio.wait_for(poll, 10)
        finally:
            event.remove(engine, "before_cursor_execute", count)
        assert clicked["status"] == 200 and status == 200 and body["status"] == "approved"
        # One read before the decision (the off-card check's, shared by the stale check and the authorization)
        # and the decision's own re-read inside its transaction; the woken long-poll reads nothing.
        assert len(reads) == 2, reads
    finally:
        await h.close()
