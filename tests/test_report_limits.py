"""Over real HTTP (the server, the bolt app, the Slack emulation, SQLite): one Bot cannot flood its owners' DMs with
blocked-host reports, and report DMs and redraws never go ahead of approval cards."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.reports import MAX_OPEN_REPORTS, REPORTS_PER_MINUTE
from bot.store.records import JOB_KINDS
from tests.harness import OWNER, Harness
from tests.pg import migrated_store
from tests.test_reports import OWNER2, PREFLIGHT_LINE, add_bot


async def _post(harness: Harness, token: str, host: str) -> tuple[int, dict[str, Any], dict[str, str]]:
    async with harness.http.post(
        f"{harness.url}/v1/reports",
        headers={"Authorization": f"Bearer {token}"},
        json={"line": PREFLIGHT_LINE, "host": host, "session_id": "s-1"},
    ) as response:
        return response.status, await response.json(content_type=None), dict(response.headers)


async def test_a_bot_reporting_a_new_host_every_request_is_refused_429_and_another_bot_is_not(harness: Harness) -> None:
    token = await add_bot(harness)
    other = await harness.add_bot("other-bot")
    for n in range(MAX_OPEN_REPORTS):
        status, data, _ = await _post(harness, token, f"host-{n}")
        assert status == 201, data
    status, data, headers = await _post(harness, token, "host-new")
    assert status == 429 and headers["Content-Type"].startswith("application/problem+json"), data
    assert "blocked hosts" in data["detail"] and int(headers["Retry-After"]) >= 1
    status, data, _ = await _post(harness, token, "host-0")  # the same host folds: no new DM
    assert status == 200, data
    sent = MAX_OPEN_REPORTS + 2
    while sent < REPORTS_PER_MINUTE:
        status, data, _ = await _post(harness, token, "host-0")
        assert status == 200, data
        sent += 1
    status, data, headers = await _post(harness, token, "host-0")
    assert status == 429 and "in the last minute" in data["detail"], data
    assert 1 <= int(headers["Retry-After"]) <= 60
    bot = await harness.runtime.store.bot_by_name("ci-bot")
    assert bot is not None
    async with harness.runtime.store.transaction() as tx:
        assert len(await tx.open_reports(bot.id)) == MAX_OPEN_REPORTS
    status, data, _ = await _post(harness, other, "host-x")
    assert status == 201, data


def test_report_dms_and_redraws_wait_behind_approval_cards_in_a_room() -> None:
    for card in ("card.post", "card.dm", "card.update"):
        assert JOB_KINDS["report.update"] > JOB_KINDS[card] and JOB_KINDS["report.dm"] > JOB_KINDS[card]


async def _queued(harness: Harness, room: str) -> list[str]:
    """The kinds of the outbox jobs still queued for ``room``."""
    from sqlalchemy import select

    from bot.store.models import OutboxJobRow

    async with harness.runtime.store.transaction() as tx:
        rows = await tx.session.execute(
            select(OutboxJobRow.kind).where(OutboxJobRow.room == room, OutboxJobRow.status == "queued")
        )
        return [str(kind) for kind in rows.scalars()]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_report_dms_count_against_the_room_queue_cap_so_a_bot_cannot_flood_an_owners_dm(
    tmp_path: Path, backend: str
) -> None:
    # The owner's DM is paced at one message a minute, so reports' DMs and redraws stay queued there.
    cap = 3
    async with migrated_store(backend, tmp_path) as url:
        harness = Harness(
            tmp=tmp_path,
            settings_overrides={
                "database_url": url,
                "room_queue_max": cap,
                "slack_room_interval_s": 60.0,
                "slack_room_burst": 1,
                "delivery_deadline_s": 600.0,
            },
        )
        await harness.start()
        try:
            await _flood_an_owners_dm(harness, cap)
        finally:
            await harness.close()


async def _flood_an_owners_dm(harness: Harness, cap: int) -> None:
    token = await add_bot(harness, owners=(OWNER,))
    status, data, _ = await _post(harness, token, "host-0")
    assert status == 201, data
    # Its DM takes the minute's one message; from now on every DM and redraw waits in the owner's DM queue.
    for _ in range(200):
        if not await _queued(harness, f"user:{OWNER}"):
            break
        await asyncio.sleep(0.05)
    accepted = 1
    status, data, headers = 0, {}, {}
    for n in range(1, MAX_OPEN_REPORTS):
        status, data, headers = await _post(harness, token, f"host-{n}")
        if status != 201:
            break
        accepted += 1
    assert status == 429 and data["code"] == "room_busy", (accepted, data)
    assert headers["Content-Type"].startswith("application/problem+json") and int(headers["Retry-After"]) >= 1
    assert "blocked-host reports" in data["detail"] and f"({cap})" in data["detail"], data
    queued = await _queued(harness, f"user:{OWNER}")
    assert len(queued) == cap and set(queued) <= {"report.dm", "report.update"}, queued
    assert accepted < MAX_OPEN_REPORTS, "the DM's cap refused before the open-report limit"
    bot = await harness.runtime.store.bot_by_name("ci-bot")
    assert bot is not None
    async with harness.runtime.store.transaction() as tx:
        assert len(await tx.open_reports(bot.id)) == accepted, "a refused report records nothing"
    # A fold of an open host would queue a redraw in the same full DM: refused too.
    status, data, _ = await _post(harness, token, "host-0")
    assert status == 429 and data["code"] == "room_busy", data
    # Another Bot whose owner's DM is empty is not refused.
    other = await harness.add_bot("other-bot", owners=(OWNER2,))
    status, data, _ = await _post(harness, other, "host-x")
    assert status == 201, data
