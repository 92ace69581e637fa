"""Shared by the approval-routing tests: two FlyBot replicas on SQLite or PostgreSQL, and what a person
does and sees through the Slack emulation."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import RUNTIME
from cards import APPROVE_ACTION
from tests.pg import BACKENDS, migrated_store
from tests.test_replicas import Cluster


@pytest.fixture(params=BACKENDS)
async def replicas(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Cluster]:
    async with migrated_store(request.param, tmp_path) as url:
        c = Cluster(url, tmp_path)
        try:
            yield c
        finally:
            await c.close()


async def click(
    cluster: Cluster, user: str, escalation_id: str, action: str = APPROVE_ACTION, replica: int = 0
) -> None:
    cluster.events_to(replica)
    card = cluster.card(escalation_id)
    async with cluster.http.post(
        f"{cluster.emu_url}/page/click",
        json={
            "user": user,
            "channel": card.channel,
            "ts": card.ts,
            "action_id": action,
            "block_id": "",
            "value": escalation_id,
        },
    ) as response:
        assert response.status == 200
        data = await response.json()
        assert data["status"] == 200, data


def ephemerals(cluster: Cluster, user: str) -> list[str]:
    return [m.text for m in cluster.emulator.messages if m.ephemeral_to == user]


async def eventually(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.05)


async def audit(cluster: Cluster, escalation_id: str) -> list[tuple[str, str | None, dict[str, Any]]]:
    return [(e.event, e.actor, e.detail) for e in await cluster.apps[1][RUNTIME].store.audit_log(escalation_id)]
