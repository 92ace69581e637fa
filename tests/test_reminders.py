"""Reminders, end to end: two FlyBot replicas (real servers, real bolt apps) on one store (SQLite file
or PostgreSQL), the Slack emulation over HTTP with real request signing; short lifetimes stand in for a clock.

An escalation still pending at ``FLYBOT_REMIND_AT`` of its lifetime (default halfway) gets ONE reminder in its card's
thread, mentioning its owners and owner groups (the only mention FlyBot makes); a decided one gets none.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.app import RUNTIME
from bot.bots import register_bot
from tests.harness import OWNER, ROOM, Harness
from tests.routing import audit, click, eventually
from tests.test_replicas import Cluster

GROUP = "S0ONCALL1"
LIFETIME_S = 10  # the reminder is due 5 s after the request


async def start(replicas: Cluster, **settings: object) -> str:
    await replicas.start(replicas=2, **settings)
    _bot, token = await register_bot(replicas.apps[0][RUNTIME].store, "ci-bot", [OWNER], ROOM, owner_groups=[GROUP])
    return token


def replies(replicas: Cluster, card_ts: str) -> list[str]:
    return [m.text for m in replicas.emulator.messages if m.thread_ts == card_ts]


async def test_one_reminder_in_the_cards_thread_at_half_the_lifetime_mentioning_the_owners(replicas: Cluster) -> None:
    token = await start(replicas)
    esc = await replicas.escalate(0, token, timeout_s=LIFETIME_S)
    card_ts = esc["card"]["ts"]
    created = datetime.fromisoformat(esc["created_at"].replace("Z", "+00:00"))
    seen_early = replies(replicas, card_ts)  # the card is out, well before half its lifetime (5 s)
    assert seen_early == [] or (datetime.now(UTC) - created).total_seconds() >= LIFETIME_S / 2, "not before its time"
    await eventually(lambda: replies(replicas, card_ts), timeout=15)
    text = replies(replicas, card_ts)[0]
    assert f"<@{OWNER}>" in text and f"<!subteam^{GROUP}>" in text and "*ci-bot*" in text
    assert "still waiting for a decision" in text and "expires at" in text
    # The delivery sends, then records the job and its audit row in the next transaction: the reply can be seen first.
    rows: list[tuple[str, dict[str, Any]]] = []
    deadline = asyncio.get_running_loop().time() + 10
    while not rows and asyncio.get_running_loop().time() < deadline:
        rows = [(e, d) for e, _a, d in await audit(replicas, esc["id"]) if e == "escalation.reminded"]
        await asyncio.sleep(0 if rows else 0.05)
    assert len(rows) == 1 and rows[0][1]["owners"] == [OWNER] and rows[0][1]["groups"] == [GROUP]
    entries = [
        e for e in await replicas.apps[0][RUNTIME].store.audit_log(esc["id"]) if e.event == "escalation.reminded"
    ]
    due = (entries[0].at - created).total_seconds()
    assert LIFETIME_S / 2 - 0.05 <= due < LIFETIME_S, due
    reminder = next(m for m in replicas.emulator.messages if m.thread_ts == card_ts)
    await asyncio.sleep(1.5)  # both replicas' workers had many more passes
    assert len(replies(replicas, card_ts)) == 1, "reminded once"
    assert reminder.metadata == {"event_type": "flybot_reminder", "event_payload": {"key": esc["id"]}}
    final = await replicas.get(1, token, esc["id"], wait=10)
    assert final["status"] == "expired"
    assert len(replies(replicas, card_ts)) == 1


async def test_no_reminder_for_an_escalation_decided_in_time(replicas: Cluster) -> None:
    token = await start(replicas)
    esc = await replicas.escalate(0, token, timeout_s=LIFETIME_S)
    await click(replicas, OWNER, esc["id"], replica=1)
    assert (await replicas.get(0, token, esc["id"], wait=10))["status"] == "approved"
    await asyncio.sleep(LIFETIME_S / 2 + 1.0)
    assert replies(replicas, esc["card"]["ts"]) == []
    assert "escalation.reminded" not in [e for e, _a, _d in await audit(replicas, esc["id"])]
    async with replicas.apps[0][RUNTIME].store.transaction() as tx:
        assert await tx.queue_stats(datetime.now().astimezone()) == {}, "the reminder job is done, not waiting"


async def test_remind_at_zero_turns_reminders_off(replicas: Cluster) -> None:
    token = await start(replicas, remind_at=0)
    esc = await replicas.escalate(0, token, timeout_s=5)
    assert (await replicas.get(0, token, esc["id"], wait=10))["status"] == "expired"
    assert replies(replicas, esc["card"]["ts"]) == []


async def test_a_reminder_whose_post_timed_out_but_landed_is_not_posted_twice(tmp_path: Path) -> None:
    harness = Harness(tmp=tmp_path, settings_overrides={"slack_timeout_s": 1.0, "delivery_deadline_s": 30.0})
    await harness.start()
    try:
        token = await harness.add_bot()
        esc = await harness.escalate(token, timeout_s=LIFETIME_S)
        await harness.fault("chat.postMessage", count=1, delay_s=1.6)  # the reminder lands after FlyBot stopped waiting
        card_ts = esc["card"]["ts"]
        await harness.eventually(
            lambda: any(e for e in [m for m in harness.emulator.messages if m.thread_ts == card_ts]), timeout=15
        )
        rows: list[Any] = []
        for _ in range(100):
            rows = [e for e in await harness.runtime.store.audit_log(esc["id"]) if e.event == "escalation.reminded"]
            if rows:
                break
            await asyncio.sleep(0.1)
        assert [e.detail["found_in_history"] for e in rows] == [True], "the retry looked in the thread and found it"
        assert any(c["method"] == "conversations.replies" for c in harness.emulator.calls)
        assert len([m for m in harness.emulator.messages if m.thread_ts == card_ts]) == 1
    finally:
        await harness.close()
