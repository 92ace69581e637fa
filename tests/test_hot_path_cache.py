"""The Bot of a token and the live standing approvals are served from memory, and every change
reaches every replica at once (PostgreSQL NOTIFY from triggers: any writer, not only FlyBot), never waiting for the
TTL. Two replicas on one PostgreSQL, real HTTP; on SQLite the same process's changes drop the copy at once."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest

from bot.app import RUNTIME
from bot.bots import hash_token
from bot.store import StandingApproval, open_store
from bot.store.cache import StoreCache
from bot.store.notify import asyncpg_dsn
from tests.harness import OWNER, add_standing
from tests.pg import throwaway_database
from tests.test_replicas import Cluster

BODY = {
    "session_id": "s",
    "command": "apt-get install -y jq",
    "cwd": "/w",
    "file_policy": "workspace-write",
    "approval_policy": "ask",
    "contained": True,
}


@pytest.fixture(params=["postgresql", "pgbouncer"])
async def cluster(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Cluster]:
    async with throwaway_database(pooled=request.param == "pgbouncer") as url:
        store = await open_store(url, migrate=True)
        await store.close()
        c = Cluster(url, tmp_path)
        try:
            yield c
        finally:
            await c.close()


async def escalate(http: aiohttp.ClientSession, url: str, token: str) -> tuple[int, dict[str, Any]]:
    async with http.post(f"{url}/v1/escalations", json=BODY, headers={"Authorization": f"Bearer {token}"}) as r:
        return r.status, await r.json(content_type=None)


async def wait_for_generation(cluster: Cluster, replica: int, kind: str, above: int) -> None:
    cache = cluster.apps[replica][RUNTIME].store.cache
    await _eventually(lambda: cache.generation(kind) > above)


async def _eventually(check: Any, timeout: float = 10.0) -> None:
    import asyncio
    import time

    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not within the timeout"
        await asyncio.sleep(0.02)


async def test_a_revocation_anywhere_stops_auto_answers_on_every_replica_at_once(cluster: Cluster) -> None:
    # TTL 300 s: only the notification can make replica 0 drop its copy in time.
    await cluster.start(replicas=2, cache_ttl_s=300.0)
    bot_id, token = await cluster.add_bot()
    await _eventually(lambda: all(app[RUNTIME].store.cache.live for app in cluster.apps))
    approval = StandingApproval(
        id="sa_" + uuid.uuid4().hex[:12],
        scope="bot",
        subject=bot_id,
        bot_id=bot_id,
        pattern="apt-get install",
        max_risk="system",
        contained_only=True,
        expires_at=None,
        created_by=OWNER,
        created_at=datetime.now(UTC),
    )
    generation = cluster.apps[0][RUNTIME].store.cache.generation("standing")
    await add_standing(cluster.apps[1][RUNTIME].store, approval)  # written through replica 1
    await wait_for_generation(cluster, 0, "standing", generation)
    status, first = await escalate(cluster.http, cluster.urls[0], token)
    assert status == 201 and first["status"] == "approved", first  # replica 0 now holds the approval in memory
    status, again = await escalate(cluster.http, cluster.urls[0], token)
    assert again["status"] == "approved"

    # Revoked by a plain SQL statement, as an operator's script would: the trigger tells every replica.
    generation = cluster.apps[0][RUNTIME].store.cache.generation("standing")
    conn = await asyncpg.connect(asyncpg_dsn(cluster.database_url))
    try:
        await conn.execute(
            "UPDATE standing_approvals SET revoked_at = now(), revoked_by = 'ops' WHERE id = $1", approval.id
        )
    finally:
        await conn.close()
    await wait_for_generation(cluster, 0, "standing", generation)
    status, after = await escalate(cluster.http, cluster.urls[0], token)
    assert status == 201 and after["status"] == "pending", "the revoked approval no longer answers"


async def test_a_rotated_token_stops_working_on_every_replica_at_once(cluster: Cluster) -> None:
    await cluster.start(replicas=2, cache_ttl_s=300.0)
    bot_id, token = await cluster.add_bot()
    await _eventually(lambda: all(app[RUNTIME].store.cache.live for app in cluster.apps))
    status, _ = await escalate(cluster.http, cluster.urls[0], token)
    assert status == 201  # replica 0 remembers the token
    generation = cluster.apps[0][RUNTIME].store.cache.generation("bots")
    await cluster.apps[1][RUNTIME].store.set_token_hash(bot_id, hash_token("fbt_new-token"))
    await wait_for_generation(cluster, 0, "bots", generation)
    status, body = await escalate(cluster.http, cluster.urls[0], token)
    assert status == 401 and body["code"] == "unauthorized"


async def test_an_owner_removed_on_one_replica_can_no_longer_decide_on_another_at_once(cluster: Cluster) -> None:
    # TTL 300 s: replica 0 holds the Bot (read by id to authorize a click) in memory; only the notification of the
    # owners' change can make it drop that copy in time.
    await cluster.start(replicas=2, cache_ttl_s=300.0)
    bot_id, token = await cluster.add_bot()
    await _eventually(lambda: all(app[RUNTIME].store.cache.live for app in cluster.apps))
    cluster.events_to(0)
    first = await cluster.escalate(0, token)
    await cluster.click(first["id"])
    assert (await cluster.get(0, token, first["id"], wait=10))["status"] == "approved"
    store = cluster.apps[0][RUNTIME].store
    assert await store.get_bot(bot_id) is await store.get_bot(bot_id)  # one copy, served from memory
    generation = store.cache.generation("bots")
    await cluster.apps[1][RUNTIME].store.update_bot(bot_id, owners=["U0SOMEONE9"])  # written through replica 1
    await wait_for_generation(cluster, 0, "bots", generation)
    second = await cluster.escalate(0, token)
    await cluster.click(second["id"])  # the old owner, on replica 0
    assert (await cluster.get(0, token, second["id"]))["status"] == "pending"
    assert (await store.get_bot(bot_id)).owners == ("U0SOMEONE9",)  # type: ignore[union-attr]


def test_nothing_is_served_from_memory_while_notifications_may_be_missed() -> None:
    now = [0.0]
    cache = StoreCache(ttl_s=10.0, live=True, clock=lambda: now[0])
    approval = StandingApproval(
        id="sa_1",
        scope="bot",
        subject="b",
        bot_id="b",
        pattern="*",
        max_risk="system",
        contained_only=True,
        expires_at=None,
        created_by=OWNER,
        created_at=datetime.now(UTC),
    )
    cache.put_standing([approval], cache.generation("standing"))
    assert cache.standing() == [approval]
    cache.set_live(False)  # the LISTEN connection dropped
    assert cache.standing() is None
    cache.put_standing([approval], cache.generation("standing"))
    assert cache.standing() is None
    cache.set_live(True)
    generation = cache.generation("standing")
    cache.invalidate("standing_approvals")  # a change raced this load: the load is not kept
    cache.put_standing([approval], generation)
    assert cache.standing() is None
    cache.put_standing([approval], cache.generation("standing"))
    now[0] = 10.5  # past the TTL
    assert cache.standing() is None


async def test_any_write_through_the_engine_drops_the_copy_but_an_auto_answer_does_not(tmp_path: Path) -> None:
    from sqlalchemy import text

    from tests.harness import Harness

    h = Harness(tmp=tmp_path, settings_overrides={"cache_ttl_s": 300.0})
    await h.start()
    try:
        token = await h.add_bot()
        reply = await h.slash(OWNER, "standing add --bot ci-bot apt-get install --max-risk network")
        assert reply.startswith("Saved"), reply
        store = h.runtime.store
        status, first = await escalate(h.http, h.url, token)
        assert first["status"] == "approved"
        generation = store.cache.generation("standing")
        status, second = await escalate(h.http, h.url, token)  # served from memory
        assert second["status"] == "approved" and store.cache.generation("standing") == generation
        async with store.engine.begin() as conn:  # not through any Store method
            await conn.execute(
                text("UPDATE standing_approvals SET revoked_at = :at, revoked_by = 'ops'"),
                {"at": datetime.now(UTC).replace(tzinfo=None)},
            )
        assert store.cache.generation("standing") > generation
        status, third = await escalate(h.http, h.url, token)
        assert status == 201 and third["status"] == "pending"
    finally:
        await h.close()


def test_which_statements_change_a_cached_table() -> None:
    from bot.store.cache import changed_table

    assert changed_table("UPDATE standing_approvals SET revoked_at=?, revoked_by=? WHERE ...") == "standing_approvals"
    assert changed_table("INSERT INTO standing_approvals (id, scope) VALUES (?, ?)") == "standing_approvals"
    assert changed_table("UPDATE bots SET token_hash=$1::VARCHAR WHERE bots.id = $2::VARCHAR") == "bots"
    assert changed_table("DELETE FROM bots WHERE id = ?") == "bots"
    assert changed_table("SELECT * FROM bots") is None
    assert changed_table("INSERT INTO escalations (id) VALUES (?)") is None


# -- the cover memo (bot.standing.Covers): answers of find_cover, valid while the store serves the same copy ---------
class _Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


async def _covering(tmp_path: Path, *, ttl: float = 300.0) -> tuple[Any, Any, Any, Any, _Clock]:
    """A SQLite store with caching on, a Bot, a StandingService on a settable clock, and the graded request."""
    from bot.bots import register_bot
    from bot.escalations import grade
    from bot.standing import StandingService

    store = await open_store(f"sqlite+aiosqlite:///{tmp_path}/flybot.db", migrate=True, cache_ttl_s=ttl)
    bot, _token = await register_bot(store, "ci-bot", [OWNER], "C0APPROVE")
    clock = _Clock()

    async def no_workspace_admin(_user: str) -> bool:
        return False

    service = StandingService(store, admins=frozenset(), is_workspace_admin=no_workspace_admin, clock=clock)
    assessment = grade("sudo apt-get install -y jq", contained=True, cwd="/w")
    return store, bot, service, assessment, clock


async def _cover(service: Any, bot: Any, assessment: Any) -> Any:
    return await service.find_cover(
        bot, session_id="s", room=bot.room, risk=assessment.risk, contained=True, commands=assessment.commands
    )


async def _approve(service: Any, bot: Any, **extra: Any) -> StandingApproval:
    from bot.standing import StandingSpec

    spec = StandingSpec(scope="bot", subject=bot.id, pattern="apt-get install", max_risk="system", **extra)
    approval: StandingApproval = await service.create(OWNER, spec, operator=True)
    return approval


async def test_a_revoked_approval_stops_matching_at_once_with_the_cover_memo_warm(tmp_path: Path) -> None:
    store, bot, service, assessment, _clock = await _covering(tmp_path)
    try:
        approval = await _approve(service, bot)
        first = await _cover(service, bot, assessment)
        assert [a.id for a in first] == [approval.id]
        assert await _cover(service, bot, assessment) is first  # remembered
        await service.revoke(OWNER, approval.id, operator=True)
        assert await _cover(service, bot, assessment) is None
    finally:
        await store.close()


async def test_a_revocation_by_another_process_stops_the_memo_at_once_on_sqlite(tmp_path: Path) -> None:
    store, bot, service, assessment, _clock = await _covering(tmp_path)
    other = await open_store(f"sqlite+aiosqlite:///{tmp_path}/flybot.db")  # an operator's `flybot standing revoke`
    try:
        approval = await _approve(service, bot)
        first = await _cover(service, bot, assessment)
        assert await _cover(service, bot, assessment) is first
        async with other.transaction() as tx:
            assert await tx.revoke_standing(approval.id, by="ops", at=datetime.now(UTC))
        assert await _cover(service, bot, assessment) is None
    finally:
        await other.close()
        await store.close()


async def test_an_expired_approval_stops_matching_at_once_with_the_cover_memo_warm(tmp_path: Path) -> None:
    from datetime import timedelta

    store, bot, service, assessment, clock = await _covering(tmp_path)
    try:
        await _approve(service, bot, expires="1m")
        first = await _cover(service, bot, assessment)
        assert first is not None and await _cover(service, bot, assessment) is first
        clock.now += timedelta(seconds=61)  # no write, no TTL: only the clock moved
        assert await _cover(service, bot, assessment) is None
    finally:
        await store.close()


async def test_a_new_approval_answers_at_once_where_the_memo_remembered_no_cover(tmp_path: Path) -> None:
    store, bot, service, assessment, _clock = await _covering(tmp_path)
    try:
        assert await _cover(service, bot, assessment) is None
        assert await _cover(service, bot, assessment) is None
        approval = await _approve(service, bot)
        cover = await _cover(service, bot, assessment)
        assert cover is not None and [a.id for a in cover] == [approval.id]
    finally:
        await store.close()


async def test_the_memo_keeps_no_answer_for_a_long_command(tmp_path: Path) -> None:
    """The memo's key holds the request's commands: one answer per distinct 100,000-character command pinned it in
    memory, up to 4096 of them. Long commands are matched each time, short ones still remembered."""
    from bot.escalations import grade

    store, bot, service, assessment, _clock = await _covering(tmp_path)
    try:
        await _approve(service, bot)
        long = grade("apt-get install -y " + " ".join(f"pkg{i}" for i in range(2000)), contained=True, cwd="/w")
        for _ in range(2):
            cover = await _cover(service, bot, long)
            assert cover is not None and len(cover) == 1
        assert not service.covers._answers, "no answer kept for a long command"
        assert await _cover(service, bot, assessment) is not None
        assert len(service.covers._answers) == 1, "a short one is still remembered"
    finally:
        await store.close()


async def test_the_memo_remembers_nothing_when_the_store_serves_no_copy(tmp_path: Path) -> None:
    store, bot, service, assessment, _clock = await _covering(tmp_path, ttl=0.0)
    try:
        await _approve(service, bot)
        assert await _cover(service, bot, assessment) is not None
        assert not service.covers._answers
        store.cache.ttl_s, store.cache.live = 300.0, False  # PostgreSQL with its notifications lost
        assert await _cover(service, bot, assessment) is not None
        assert not service.covers._answers
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_concurrent_misses_share_one_read_of_the_live_approvals(backend: str, tmp_path: Path) -> None:
    """The requests in flight when the copy ends share one read of the store (not one each, which is hundreds of
    reads a second under load), and each still filters by its own time."""
    import asyncio
    from datetime import timedelta

    from sqlalchemy import event

    from bot.bots import register_bot
    from tests.pg import migrated_store

    async with migrated_store(backend, tmp_path) as url:
        store = await open_store(url, cache_ttl_s=300.0)
        try:
            bot, _token = await register_bot(store, "ci-bot", [OWNER], "C0APPROVE")
            now = datetime.now(UTC)
            await add_standing(
                store,
                StandingApproval(
                    id="sa_live",
                    scope="bot",
                    subject=bot.id,
                    bot_id=bot.id,
                    pattern="apt-get install",
                    max_risk="system",
                    contained_only=True,
                    created_by=OWNER,
                    created_at=now,
                ),
            )
            await add_standing(
                store,
                StandingApproval(
                    id="sa_soon",
                    scope="bot",
                    subject=bot.id,
                    bot_id=bot.id,
                    pattern="make",
                    max_risk="system",
                    contained_only=True,
                    created_by=OWNER,
                    created_at=now,
                    expires_at=now + timedelta(seconds=30),
                ),
            )
            reads: list[str] = []

            def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
                if statement.lstrip().upper().startswith("SELECT") and "FROM standing_approvals" in statement:
                    reads.append(statement)

            event.listen(store.engine.sync_engine, "before_cursor_execute", count)
            store.cache.invalidate("standing")
            # 50 requests at once, one of them 31 s later than the others (sa_soon has expired for it).
            times = [now] * 49 + [now + timedelta(seconds=31)]
            found = await asyncio.gather(
                *(store.live_standing_for(bot_id=bot.id, session_id="s", room=bot.room, now=at) for at in times)
            )
            assert 1 <= len(reads) <= 2, len(reads)
            assert all(sorted(a.id for a in f) == ["sa_live", "sa_soon"] for f in found[:49])
            assert [a.id for a in found[49]] == ["sa_live"]
            reads.clear()
            await store.live_standing_for(bot_id=bot.id, session_id="s", room=bot.room, now=now)
            # SQLite: served from the copy. PostgreSQL: this store has no LISTEN connection, so nothing is served
            # from memory (a change could go unnoticed), and the lone read is its own query.
            assert len(reads) == (0 if backend == "sqlite" else 1)
        finally:
            await store.close()


async def test_another_processs_change_is_seen_on_the_next_pass_of_the_event_loop(tmp_path: Path) -> None:
    """The sidecar file is looked at once per pass of the event loop (each request read it twice, and a group
    commit's answers resume together): a change by another process drops the copies on the next pass."""
    import asyncio
    import os

    from bot.bots import register_bot

    store = await open_store(f"sqlite+aiosqlite:///{tmp_path}/flybot.db", migrate=True, cache_ttl_s=300.0)
    try:
        bot, _token = await register_bot(store, "ci-bot", [OWNER], "C0APPROVE")
        await asyncio.sleep(0)
        await store.live_standing_for(bot_id=bot.id, session_id="s", room=bot.room, now=datetime.now(UTC))
        assert store.cache.standing() is not None
        generation = store.cache.generation("standing")
        change_file = store.cache.change_file
        assert change_file is not None
        other = change_file.with_name(change_file.name + ".other")
        other.write_bytes(b"")
        os.replace(other, change_file)  # what another process's commit does (bot.store.cache.StoreCache.mark_changed)
        assert store.cache.standing() is not None  # this pass already looked
        await asyncio.sleep(0)
        assert store.cache.standing() is None and store.cache.generation("standing") > generation
    finally:
        await store.close()


def test_a_pass_of_a_closed_event_loop_does_not_stop_the_next_loop_from_looking(tmp_path: Path) -> None:
    """The once-a-pass look is tied to the loop that made it: a store whose loop closed before the pass ended (its
    reset never ran) still notices another process's change in the next loop."""
    import asyncio
    import os

    change_file = tmp_path / "flybot.db-changes"
    change_file.write_bytes(b"")
    cache = StoreCache(ttl_s=300.0, change_file=change_file)

    def warm() -> None:
        assert cache.enabled  # the first look takes the file's identity
        cache.put_standing([], cache.generation("standing"))
        assert cache.standing() == []

    first = asyncio.new_event_loop()
    first.call_soon(warm)
    first.call_soon(first.stop)  # the loop ends with this pass: the look's reset, due next pass, never runs
    first.run_forever()
    first.close()
    other = change_file.with_name("other")
    other.write_bytes(b"")
    os.replace(other, change_file)  # another process's commit

    async def read() -> object:
        return cache.standing()

    assert asyncio.run(read()) is None
