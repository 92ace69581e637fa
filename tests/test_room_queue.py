"""Admission control: a room's queue of undelivered approval cards is capped (``FLYBOT_ROOM_QUEUE_MAX``);
beyond it a request that needs a card answers ``429 room_busy`` problem+json with ``Retry-After`` and nothing is
created, whichever Bot asks and whichever replica answers (the count is in the store; on PostgreSQL the replicas'
transactions lock the room in turn). Two replicas on one SQLite file, on one PostgreSQL database, and on one behind
PgBouncer; the room is paced at one message a minute so queued cards stay queued."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.app import RUNTIME
from bot.bots import register_bot
from bot.store import StandingApproval
from tests.harness import OWNER, ROOM, add_standing
from tests.pg import BACKENDS, migrated_store
from tests.test_admission import post, refused_metric
from tests.test_replicas import Cluster

LIMITS = {
    "max_open_escalations": 0,
    "rate_per_minute": 0,
    "room_queue_max": 3,
    "slack_room_interval_s": 60.0,
    "slack_room_burst": 1,
    "delivery_deadline_s": 600.0,
}


@pytest.fixture(params=BACKENDS)
async def cluster(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Cluster]:
    async with migrated_store(request.param, tmp_path) as url:
        c = Cluster(url, tmp_path)
        try:
            yield c
        finally:
            await c.close()


async def test_a_full_room_answers_429_room_busy_to_every_bot_on_every_replica_and_nothing_is_created(
    cluster: Cluster,
) -> None:
    await cluster.start(replicas=2, **LIMITS)
    store = cluster.apps[0][RUNTIME].store
    _a, token_a = await register_bot(store, "bot-a", [OWNER], ROOM)
    b, token_b = await register_bot(store, "bot-b", [OWNER], ROOM)
    _c, token_c = await register_bot(store, "bot-c", [OWNER], "C0ELSEWHERE")
    # The first card takes the room's one message of the minute; the next ones wait in its queue.
    await cluster.escalate(0, token_a, session_id="first")

    # A burst from two Bots through both replicas: their transactions take the room in turn, each counting the cards
    # queued before it: exactly three places.
    results = await asyncio.gather(
        *(post(cluster.http, cluster.urls[i % 2], token_a if i % 3 else token_b, f"s{i}") for i in range(40))
    )
    assert sorted(status for status, _, _ in results) == [201] * 3 + [429] * 37
    # The other replica sees the full room too.
    results.append(await post(cluster.http, cluster.urls[1], token_b, "late"))
    for status, body, headers in results:
        if status == 201:
            assert body["card"]["status"] == "queued"
            continue
        assert status == 429, body
        assert headers["Content-Type"].startswith("application/problem+json")
        assert body["code"] == "room_busy" and body["status"] == 429
        assert "3 approval cards waiting" in body["detail"]
        assert 1 <= int(headers["Retry-After"]) <= 120
    assert len(await store.pending_escalations()) == 1 + 3, "a refused request creates nothing"
    assert await refused_metric(cluster.http, cluster.urls, "room_queue") == 38

    # Another room's queue is its own.
    status, body, _ = await post(cluster.http, cluster.urls[1], token_c, "elsewhere")
    assert status == 201 and body["card"]["status"] == "queued"
    # A request answered by a standing approval needs no card: not refused by the full room.
    await add_standing(
        store,
        StandingApproval(
            id="sa_" + uuid.uuid4().hex[:12],
            scope="bot",
            subject=b.id,
            bot_id=b.id,
            pattern="apt-get install",
            max_risk="system",
            contained_only=True,
            created_by=OWNER,
            created_at=datetime.now(UTC),
        ),
    )
    async with cluster.http.post(
        f"{cluster.urls[0]}/v1/escalations",  # the replica that wrote the approval (no wait for NOTIFY's news)
        json={
            "session_id": "covered",
            "command": "sudo apt-get install -y jq",
            "cwd": "/w",
            "file_policy": "workspace-write",
            "approval_policy": "ask",
            "contained": True,
        },
        headers={"Authorization": f"Bearer {token_b}"},
    ) as response:
        covered = await response.json()
        assert response.status == 201 and covered["status"] == "approved", covered


async def test_a_room_queue_cap_of_zero_refuses_nothing(cluster: Cluster) -> None:
    await cluster.start(replicas=1, **{**LIMITS, "room_queue_max": 0})
    _bot, token = await cluster.add_bot()
    results = await asyncio.gather(*(post(cluster.http, cluster.urls[0], token, f"s{i}") for i in range(8)))
    assert [status for status, _, _ in results] == [201] * 8
