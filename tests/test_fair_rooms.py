"""Fair rooms: one Bot cannot fill another's room.

- An escalation that ends before its card is posted (withdrawn, expired, decided elsewhere) takes its card out of the
  room's queue in the same transaction: the card is never posted and its place is free at once. A card job a worker
  already holds posts nothing for an ended escalation.
- The room's queue (``FLYBOT_ROOM_QUEUE_MAX``) is shared between the Bots that use the room: a Bot refused
  ``room_busy`` counts as one of them, and a Bot holding its share gets no more places while another waits.
- A request may name only the Bot's own room or one an operator allowed for it (``--allow-room``); any other is
  ``403 room_not_allowed`` and writes nothing.

Real FlyBot replicas over HTTP against the Slack emulation, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from sqlalchemy import func, select, update

from bot.app import RUNTIME, utcnow
from bot.bots import register_bot
from bot.store import Store
from bot.store.models import AuditRow, BotRequestCountRow, EscalationRow, OutboxJobRow, RoomPaceRow
from tests.harness import OWNER, ROOM, Harness
from tests.pg import BACKENDS, migrated_store
from tests.test_admission import BODY, post
from tests.test_cli import clean_env
from tests.test_outbox import tagged
from tests.test_replicas import Cluster

LIMITS = {
    "max_open_escalations": 0,
    "rate_per_minute": 0,
    "slack_room_interval_s": 60.0,
    "slack_room_burst": 1,
    "delivery_deadline_s": 600.0,
}
"""The room sends one message a minute: cards queued after the first stay queued for the whole test."""
OTHER_ROOM = "C0GENERAL"


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    async with migrated_store(request.param, tmp_path) as url:
        yield url


@pytest.fixture
async def cluster(database: str, tmp_path: Path) -> AsyncIterator[Cluster]:
    c = Cluster(database, tmp_path)
    try:
        yield c
    finally:
        await c.close()


async def withdraw(http: aiohttp.ClientSession, url: str, token: str, escalation_id: str) -> dict[str, Any]:
    async with http.post(
        f"{url}/v1/escalations/{escalation_id}/withdraw", headers={"Authorization": f"Bearer {token}"}
    ) as response:
        assert response.status == 200, await response.text()
        return dict(await response.json())


async def card_jobs(store: Store, escalation_id: str) -> list[tuple[str, str]]:
    """``(kind, status)`` of the escalation's card posts in the outbox."""
    async with store.transaction(write=False) as tx:
        rows = await tx.session.execute(
            select(OutboxJobRow.kind, OutboxJobRow.status).where(
                OutboxJobRow.ref == escalation_id, OutboxJobRow.kind == "card.post"
            )
        )
        return [(str(k), str(s)) for k, s in rows]


async def test_a_withdrawn_escalations_card_leaves_the_room_queue_and_frees_its_place(cluster: Cluster) -> None:
    await cluster.start(replicas=2, **LIMITS, room_queue_max=2)
    store = cluster.apps[0][RUNTIME].store
    _bot, token = await register_bot(store, "bot-a", [OWNER], ROOM)
    await cluster.escalate(0, token, session_id="first")  # takes the room's one message of the minute
    queued = [await post(cluster.http, cluster.urls[i % 2], token, f"q{i}") for i in range(2)]
    assert [(s, b["card"]["status"]) for s, b, _ in queued] == [(201, "queued")] * 2
    status, body, _ = await post(cluster.http, cluster.urls[1], token, "over")
    assert status == 429 and body["code"] == "room_busy"

    gone = queued[0][1]["id"]
    withdrawn = await withdraw(cluster.http, cluster.urls[1], token, gone)
    assert withdrawn["status"] == "withdrawn" and withdrawn["card"]["status"] == "cancelled"
    assert await card_jobs(store, gone) == [], "its card job went with the withdrawal: it can never be posted"
    assert [e.event for e in await store.audit_log(gone)] == ["escalation.created", "escalation.withdrawn"]
    # Its place is free at once, on either replica; then the room is full again.
    status, body, _ = await post(cluster.http, cluster.urls[0], token, "after")
    assert status == 201 and body["card"]["status"] == "queued", body
    status, body, _ = await post(cluster.http, cluster.urls[1], token, "over-again")
    assert status == 429 and body["code"] == "room_busy" and "2 approval cards waiting" in body["detail"]


async def test_an_escalation_that_ends_before_its_card_is_posted_never_gets_one(database: str, tmp_path: Path) -> None:
    harness = Harness(tmp=tmp_path, settings_overrides={"database_url": database})
    await harness.start()
    try:
        token = await harness.add_bot()
        store = harness.runtime.store
        now = utcnow()
        async with store.transaction() as tx:  # the room waits (as after Slack's Retry-After): cards stay queued
            await tx.pause_room(ROOM, now + timedelta(hours=1), now)
        status, gone = await harness.post(token, harness.body(session_id="gone"))
        assert status == 201 and gone["card"]["status"] == "queued"
        status, expiring = await harness.post(token, harness.body(session_id="expiring", timeout_s=5))
        assert status == 201
        async with harness.http.post(
            f"{harness.url}/v1/escalations/{gone['id']}/withdraw", headers={"Authorization": f"Bearer {token}"}
        ) as response:
            assert response.status == 200
        _, expired = await harness.get(token, expiring["id"], wait=10)
        assert expired["status"] == "expired" and expired["card"]["status"] == "cancelled"
        async with store.transaction() as tx:  # the room may send again
            await tx.session.execute(
                update(RoomPaceRow).where(RoomPaceRow.room == ROOM).values(paused_until=None, tat=now, ready_at=now)
            )
        shown = await harness.escalate(token, session_id="shown")  # a card queued after them is posted
        assert shown["card"]["status"] == "posted"
        await harness.outbox_drained()
        for ended in (gone["id"], expiring["id"]):
            assert tagged(harness, ended) == [], "no card is ever posted for an escalation that ended unposted"
            _, data = await harness.get(token, ended)
            assert data["card"]["status"] == "cancelled"
            assert await card_jobs(store, ended) == []
        assert len(tagged(harness, shown["id"])) == 1
    finally:
        await harness.close()


async def test_a_card_job_in_flight_posts_nothing_once_its_escalation_ended(database: str, tmp_path: Path) -> None:
    """The post failed unsure (its job stays, marked uncertain, for the retry): the escalation is withdrawn meanwhile;
    the retry looks in the room's history, finds no card, and posts none."""
    harness = Harness(
        tmp=tmp_path, settings_overrides={"database_url": database, "slack_timeout_s": 1.0, "delivery_deadline_s": 60.0}
    )
    await harness.start()
    try:
        token = await harness.add_bot()
        await harness.fault("chat.postMessage", status=500, count=1)
        status, data = await harness.post(token, harness.body())
        assert status == 201
        await harness.eventually(lambda: any(c["method"] == "chat.postMessage" for c in harness.emulator.calls))
        async with harness.http.post(
            f"{harness.url}/v1/escalations/{data['id']}/withdraw", headers={"Authorization": f"Bearer {token}"}
        ) as response:
            assert response.status == 200
        assert await card_jobs(harness.runtime.store, data["id"]) == [("card.post", "queued")], (
            "a job a worker holds, or whose attempt may have landed, is left to the worker"
        )
        settled = await harness.card_settled(token, data)
        assert settled["status"] == "withdrawn" and settled["card"]["status"] == "cancelled"
        await harness.outbox_drained()
        assert tagged(harness, data["id"]) == []
        assert any(c["method"] == "conversations.history" for c in harness.emulator.calls), "it looked first"
        events = [e.event for e in await harness.runtime.store.audit_log(data["id"])]
        assert "card.cancelled" in events and "card.posted" not in events
    finally:
        await harness.close()


async def test_a_bot_that_filled_a_shared_room_cannot_keep_another_bot_out(cluster: Cluster) -> None:
    await cluster.start(replicas=2, **LIMITS, room_queue_max=4)
    store = cluster.apps[0][RUNTIME].store
    _a, token_a = await register_bot(store, "bot-a", [OWNER], ROOM)
    _b, token_b = await register_bot(store, "bot-b", [OWNER], ROOM)
    await cluster.escalate(0, token_a, session_id="first")  # takes the room's one message of the minute
    http, urls = cluster.http, cluster.urls

    # Alone in the room, Bot A may fill it (through both replicas at once).
    flood = await asyncio.gather(*(post(http, urls[i % 2], token_a, f"a{i}") for i in range(10)))
    assert sorted(status for status, _, _ in flood) == [201] * 4 + [429] * 6
    a_cards = [body["id"] for status, body, _ in flood if status == 201]
    status, body, headers = await post(http, urls[1], token_b, "b0")
    assert status == 429 and body["code"] == "room_busy", "the room is full: B now waits for a place"
    assert headers["Content-Type"].startswith("application/problem+json") and int(headers["Retry-After"]) >= 1

    # A place frees (one of A's cards leaves the queue). A holds 3, over its share (4 places, 2 Bots: 2 each), so
    # the place is B's, whichever replica each asks.
    await withdraw(http, urls[0], token_a, a_cards[0])
    status, body, _ = await post(http, urls[0], token_a, "a-more")
    assert status == 429 and body["code"] == "room_busy", body
    assert "this Bot already has 3 of the 3 approval cards waiting" in body["detail"] and "share" in body["detail"]
    status, body, _ = await post(http, urls[1], token_b, "b1")
    assert status == 201 and body["card"]["status"] == "queued", body
    status, body, _ = await post(http, urls[0], token_b, "b2")
    assert status == 429 and "4 approval cards waiting" in body["detail"], "the room's cap still holds"

    await withdraw(http, urls[1], token_a, a_cards[1])
    status, body, _ = await post(http, urls[1], token_a, "a-at-share")
    assert status == 429 and "share" in body["detail"], "A is at its share (2) while B uses the room"
    status, body, _ = await post(http, urls[0], token_b, "b3")
    assert status == 201, body
    # Each Bot holds its share now; A gets a place again once it holds less than its share.
    await withdraw(http, urls[0], token_a, a_cards[2])
    status, body, _ = await post(http, urls[1], token_a, "a-again")
    assert status == 201, body

    async with store.transaction(write=False) as tx:
        waiting = (
            await tx.session.execute(
                select(EscalationRow.bot_id, func.count())
                .join(OutboxJobRow, OutboxJobRow.ref == EscalationRow.id)
                .where(
                    OutboxJobRow.kind == "card.post", OutboxJobRow.status == "queued", EscalationRow.status == "pending"
                )
                .group_by(EscalationRow.bot_id)
            )
        ).all()
    assert sorted(n for _, n in waiting) == [2, 2]
    assert len(await store.pending_escalations()) == 1 + 2 + 2, "no refused request created anything"


def flybot(database: str, tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``flybot ARGS`` as an operator runs it against the server's store (another process)."""
    where = tmp / "operator"
    where.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=where,
        env=clean_env(FLYBOT_DATABASE_URL=database),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


async def test_a_request_naming_another_room_is_refused_unless_an_operator_allowed_it(
    cluster: Cluster,
    database: str,
    tmp_path: Path,
) -> None:
    await cluster.start(replicas=1)
    store = cluster.apps[0][RUNTIME].store
    added = await asyncio.to_thread(
        flybot, database, tmp_path, "bots", "add", "bot-a", "--owner", OWNER, "--room", ROOM
    )
    assert added.returncode == 0, added.stderr
    token = added.stdout.strip().splitlines()[-1]

    async def ask(room: str, session_id: str) -> tuple[int, dict[str, Any], dict[str, str]]:
        async with cluster.http.post(
            f"{cluster.urls[0]}/v1/escalations",
            json={**BODY, "session_id": session_id, "room": room},
            headers={"Authorization": f"Bearer {token}"},
        ) as response:
            return response.status, await response.json(content_type=None), dict(response.headers)

    async def written() -> tuple[int, int, int, int]:
        async with store.transaction(write=False) as tx:
            counts = []
            for table in (EscalationRow, OutboxJobRow, BotRequestCountRow):
                counts.append(int((await tx.session.execute(select(func.count()).select_from(table))).scalar_one()))
            audit = select(func.count()).select_from(AuditRow).where(AuditRow.event != "bot.created")
            counts.append(int((await tx.session.execute(audit)).scalar_one()))
            return counts[0], counts[1], counts[2], counts[3]

    before = await written()
    status, body, headers = await ask(OTHER_ROOM, "foreign")
    assert status == 403, body
    assert headers["Content-Type"].startswith("application/problem+json")
    assert body["code"] == "room_not_allowed" and body["status"] == 403 and OTHER_ROOM in body["detail"]
    assert await written() == before, "nothing written: no escalation, job, request count or audit row"
    status, body, _ = await ask(ROOM, "own")  # its own room, named: as before
    assert status == 201 and body["room"] == ROOM

    allowed = await asyncio.to_thread(flybot, database, tmp_path, "bots", "set", "bot-a", "--allow-room", OTHER_ROOM)
    assert allowed.returncode == 0, allowed.stderr
    assert "may also use rooms" in allowed.stdout, allowed.stdout
    listed = await asyncio.to_thread(flybot, database, tmp_path, "bots", "list", "--json")
    [bot] = json.loads(listed.stdout)
    assert bot["allowed_rooms"] == [OTHER_ROOM]
    deadline = time.monotonic() + 15
    while True:  # another process changed the Bot: this server's copy of it is renewed within its cache's TTL
        status, body, _ = await ask(OTHER_ROOM, "allowed")
        if status != 403 or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.05)
    assert status == 201 and body["room"] == OTHER_ROOM and body["card"]["status"] == "queued", body
    assert (
        await asyncio.to_thread(
            flybot, database, tmp_path, "bots", "add", "bot-x", "--owner", OWNER, "--allow-room", "#ops"
        )
    ).returncode == 2, "a bad channel ID is refused"


async def test_an_ended_escalations_reminder_takes_no_slot_from_another_bots_reminder(
    database: str, tmp_path: Path
) -> None:
    """Bot B ends ten escalations (withdrawn before their cards go out); their reminders would have been due at the
    same time as Bot A's, in the same room, at a pace of one message a second. Ending them removes their reminder and
    fallback jobs, so A's reminder is posted on time, well before A's escalation expires."""
    harness = Harness(
        tmp=tmp_path,
        settings_overrides={
            "database_url": database,
            "max_open_escalations": 0,
            "rate_per_minute": 0,
            "slack_room_interval_s": 1.0,
            "slack_room_burst": 1,
            "delivery_deadline_s": 600.0,
            "remind_at": 0.5,
        },
    )
    await harness.start()
    try:
        store = harness.runtime.store
        token_b = await harness.add_bot("bot-b")
        token_a = await harness.add_bot("bot-a")
        ended = []
        for i in range(10):
            status, data = await harness.post(token_b, harness.body(session_id=f"b{i}", timeout_s=10))
            assert status == 201, data
            async with harness.http.post(
                f"{harness.url}/v1/escalations/{data['id']}/withdraw", headers={"Authorization": f"Bearer {token_b}"}
            ) as response:
                assert response.status == 200
            ended.append(data["id"])
        started = time.monotonic()
        a = await harness.escalate(token_a, session_id="a", timeout_s=10)
        assert a["card"]["status"] == "posted"
        async with store.transaction(write=False) as tx:
            left = (
                await tx.session.execute(
                    select(OutboxJobRow.kind).where(OutboxJobRow.ref.in_(ended), OutboxJobRow.status == "queued")
                )
            ).all()
        assert left == [], "an ended escalation keeps no reminder or fallback job"
        await harness.eventually(lambda: tagged(harness, a["id"], "flybot_reminder"), timeout=9.0)
        assert time.monotonic() - started < 8.0, "A's reminder went out on time, not behind B's ended escalations"
        _, now = await harness.get(token_a, a["id"])
        assert now["status"] == "pending", "reminded while it could still be decided"
    finally:
        await harness.close()


async def test_another_bots_queue_of_cards_cannot_hold_back_a_reminder_past_its_escalations_end(
    database: str, tmp_path: Path
) -> None:
    """The room sends one message a second. Bot A's escalation (20 s) is reminded of at 10 s; Bot B has queued 30
    cards just before, which come first by kind. A reminder waiting past its time ranks with the cards, so A's goes
    out while A's escalation can still be decided, not after B's 30 cards."""
    harness = Harness(
        tmp=tmp_path,
        settings_overrides={
            "database_url": database,
            "max_open_escalations": 0,
            "rate_per_minute": 0,
            "slack_room_interval_s": 1.0,
            "slack_room_burst": 1,
            "delivery_deadline_s": 600.0,
            "remind_at": 0.5,
        },
    )
    await harness.start()
    try:
        token_a = await harness.add_bot("bot-a")
        token_b = await harness.add_bot("bot-b")
        started = time.monotonic()
        a = await harness.escalate(token_a, session_id="a", timeout_s=20)
        assert a["card"]["status"] == "posted"
        for i in range(30):
            status, data = await harness.post(token_b, harness.body(session_id=f"b{i}", timeout_s=600))
            assert status == 201 and data["card"]["status"] == "queued", data
        await harness.eventually(lambda: tagged(harness, a["id"], "flybot_reminder"), timeout=19.0)
        assert time.monotonic() - started < 18.0, "A's reminder came before its escalation's end"
        _, now = await harness.get(token_a, a["id"])
        assert now["status"] == "pending", "reminded while it could still be decided"
        posted_b = sum(
            1
            for m in harness.emulator.messages
            if m.channel == ROOM and (m.metadata or {}).get("event_type") == "flybot_card"
        )
        assert posted_b < 30, "B's cards were still waiting: the reminder did not wait for all of them"
    finally:
        await harness.close()
