"""Long-polls (issue 10) and a decision made by another replica that sends no notification: two replicas on one
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
from tests.harness import OWNER, ROOM
from tests.routing import click
from tests.test_replicas import Cluster


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
