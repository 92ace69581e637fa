"""Admission control per Bot: open escalations and requests a minute, counted in the store so the limits
hold across replicas (two FlyBots on one PostgreSQL) and on SQLite; refusals are 429 problem+json with Retry-After."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.store import open_store
from bot.store.admission import retry_after_s
from tests.harness import Harness
from tests.pg import throwaway_database
from tests.test_replicas import Cluster

BODY = {
    "command": "sudo apt-get install -y jq",
    "cwd": "/w",
    "file_policy": "workspace-write",
    "approval_policy": "ask",
    "contained": False,
}


async def post(
    http: aiohttp.ClientSession, url: str, token: str, session_id: str, key: str | None = None
) -> tuple[int, dict[str, Any], dict[str, str]]:
    headers = {"Authorization": f"Bearer {token}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    async with http.post(f"{url}/v1/escalations", json={**BODY, "session_id": session_id}, headers=headers) as r:
        return r.status, await r.json(content_type=None), dict(r.headers)


async def refused_metric(http: aiohttp.ClientSession, urls: list[str], reason: str) -> float:
    total = 0.0
    for url in urls:
        async with http.get(f"{url}/metrics") as response:
            for line in (await response.text()).splitlines():
                if line.startswith(f'flybot_rate_limited_total{{reason="{reason}"}}'):
                    total += float(line.split()[-1])
    return total


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


def check_refusal(status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
    assert status == 429, body
    assert headers["Content-Type"].startswith("application/problem+json")
    assert body["code"] == "rate_limited" and body["status"] == 429
    assert 1 <= int(headers["Retry-After"]) <= 120


async def test_open_escalations_past_the_limit_answer_429_across_two_replicas(cluster: Cluster) -> None:
    await cluster.start(replicas=2, max_open_escalations=3, rate_per_minute=0)
    _, token = await cluster.add_bot()
    results = await asyncio.gather(*(post(cluster.http, cluster.urls[i % 2], token, f"s{i}") for i in range(10)))
    accepted = [body for status, body, _ in results if status == 201]
    assert len(accepted) == 3
    for status, body, headers in results:
        if status != 201:
            check_refusal(status, body, headers)
            assert "open escalations" in body["detail"]
    assert await refused_metric(cluster.http, cluster.urls, "open_escalations") == 7
    # A retry of an accepted request (same Idempotency-Key) is answered, limit or not.
    keyed = await asyncio.gather(
        *(post(cluster.http, cluster.urls[1], token, f"k{i}", key=f"key-{i}") for i in range(1))
    )
    assert keyed[0][0] == 429
    # One decision frees one place, on whichever replica asks next.
    cluster.events_to(0)
    await cluster.click(accepted[0]["id"])
    final = await cluster.get(1, token, accepted[0]["id"], wait=10)
    assert final["status"] == "approved"
    again = await asyncio.gather(*(post(cluster.http, cluster.urls[i % 2], token, f"t{i}") for i in range(3)))
    assert sorted(status for status, _, _ in again) == [201, 429, 429]


async def test_requests_a_minute_past_the_limit_answer_429_across_two_replicas(cluster: Cluster) -> None:
    await cluster.start(replicas=2, max_open_escalations=0, rate_per_minute=5)
    _, token = await cluster.add_bot()
    results = await asyncio.gather(
        *(post(cluster.http, cluster.urls[i % 2], token, f"s{i}", key=f"key-{i}") for i in range(12))
    )
    accepted = [(i, body) for i, (status, body, _) in enumerate(results) if status == 201]
    assert len(accepted) == 5
    for status, body, headers in results:
        if status != 201:
            check_refusal(status, body, headers)
            assert "in the last minute" in body["detail"]
    assert await refused_metric(cluster.http, cluster.urls, "rate") == 7
    # Retrying an accepted request with its Idempotency-Key is not a new request: answered, not refused.
    i, first = accepted[0]
    status, retried, _ = await post(cluster.http, cluster.urls[(i + 1) % 2], token, f"s{i}", key=f"key-{i}")
    assert status == 201 and retried["id"] == first["id"]


@pytest.mark.parametrize("limit", ["open", "rate"])
async def test_limits_hold_for_concurrent_requests_on_sqlite(tmp_path: Path, limit: str) -> None:
    overrides = (
        {"max_open_escalations": 4, "rate_per_minute": 0}
        if limit == "open"
        else {"max_open_escalations": 0, "rate_per_minute": 4}
    )
    h = Harness(tmp=tmp_path, settings_overrides=overrides)
    await h.start()
    try:
        token = await h.add_bot()
        other = await h.add_bot("other-bot")
        results = await asyncio.gather(*(post(h.http, h.url, token, f"s{i}") for i in range(10)))
        assert sorted(status for status, _, _ in results) == [201] * 4 + [429] * 6
        for status, body, headers in results:
            if status == 429:
                check_refusal(status, body, headers)
        # Limits are per Bot: another Bot is not refused.
        status, _, _ = await post(h.http, h.url, other, "o1")
        assert status == 201
    finally:
        await h.close()


def test_retry_after_tells_when_one_more_request_fits_the_sliding_window() -> None:
    # Last minute 100 requests, this minute 30 so far (and this one), 25% into it, limit 120:
    # estimate 100 * 0.75 + 31 = 106 fits; with 61 this minute: 75 + 61 = 136 > 120 -> wait until 100*(0.75-t)+61
    # <= 120, t = 0.16 minute.
    assert retry_after_s(100, 61, 0.25, 120) == pytest.approx(60 * 0.16)
    # Over the limit within this minute alone: wait for the next minute and part of it.
    assert 45 <= retry_after_s(0, 121, 0.25, 120) <= 60
    assert retry_after_s(0, 1, 0.99, 1) >= 1
