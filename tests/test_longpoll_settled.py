"""Long-polls and a decision made by another replica that sends no notification: two replicas on one
SQLite file (no LISTEN/NOTIFY; the safety net's recheck is the only wake-up, every ``FLYBOT_RECHECK_S``).

Once a replica reads the decision for one session (a new long-poll, its snapshot at most 1 s old), the long-polls it
already holds on that escalation answer too, instead of waiting for the next recheck (or their whole wait) while the
same replica tells newcomers the escalation is approved. Real servers, the Slack emulation with real signing.
"""

from __future__ import annotations

import asyncio
import time

from bot.app import RUNTIME
from bot.bots import register_bot
from cards import REPORT_RESOLVE_ACTION
from tests.harness import OWNER, ROOM
from tests.routing import click
from tests.test_replicas import Cluster
from tests.test_reports import PREFLIGHT_LINE


async def test_a_replica_that_reads_a_decision_answers_the_long_polls_it_holds(replicas: Cluster) -> None:
    await replicas.start(replicas=2, recheck_s=30.0)  # the safety net out of reach of this test
    _bot, token = await register_bot(replicas.apps[0][RUNTIME].store, "ci-bot", [OWNER], ROOM)
    esc = await replicas.escalate(0, token)
    held = asyncio.create_task(replicas.get(1, token, esc["id"], wait=25))
    waiters = replicas.apps[1][RUNTIME].service.waiters
    deadline = time.monotonic() + 10
    while waiters.waiting(esc["id"]) < 1:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.02)
    await click(replicas, OWNER, esc["id"], replica=0)
    deadline = time.monotonic() + 5
    while (now := await replicas.get(1, token, esc["id"]))["status"] == "pending":  # a newcomer on replica 1
        assert time.monotonic() < deadline, now
        await asyncio.sleep(0.1)
    answered_at = time.monotonic()
    final = await asyncio.wait_for(held, 5)
    assert final["status"] == "approved", final
    assert time.monotonic() - answered_at < 2.0


async def test_a_replica_that_reads_a_report_decision_answers_the_long_polls_it_holds(replicas: Cluster) -> None:
    await replicas.start(replicas=2, recheck_s=30.0)
    _bot, token = await register_bot(replicas.apps[0][RUNTIME].store, "ci-bot", [OWNER], ROOM)
    headers = {"Authorization": f"Bearer {token}"}
    async with replicas.http.post(
        f"{replicas.urls[0]}/v1/reports",
        headers=headers,
        json={"line": PREFLIGHT_LINE, "host": "ci-7", "session_id": "s-42"},
    ) as response:
        assert response.status in (200, 201)
        report_id = (await response.json())["id"]

    async def get(replica: int, wait: float = 0) -> dict[str, object]:
        async with replicas.http.get(
            f"{replicas.urls[replica]}/v1/reports/{report_id}", params={"wait": str(wait)}, headers=headers
        ) as response:
            assert response.status == 200
            return dict(await response.json())

    deadline = time.monotonic() + 15
    while not any(report_id in str(m.blocks) for m in replicas.emulator.messages):  # the owner's DM
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    held = asyncio.create_task(get(1, wait=25))
    waiters = replicas.apps[1][RUNTIME].deps.reports.waiters
    while waiters.waiting(report_id) < 1:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.02)
    await click(replicas, OWNER, report_id, REPORT_RESOLVE_ACTION, replica=0)
    deadline = time.monotonic() + 5
    while (now := await get(1))["status"] == "open":  # a newcomer on replica 1
        assert time.monotonic() < deadline, now
        await asyncio.sleep(0.1)
    answered_at = time.monotonic()
    final = await asyncio.wait_for(held, 5)
    assert final["status"] == "resolved", final
    assert time.monotonic() - answered_at < 2.0
