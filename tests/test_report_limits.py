"""Over real HTTP (the server, the bolt app, the Slack emulation, SQLite): one Bot cannot flood its owners' DMs with
blocked-host reports, and report DMs and redraws never go ahead of approval cards."""

from __future__ import annotations

from typing import Any

from bot.reports import MAX_OPEN_REPORTS, REPORTS_PER_MINUTE
from bot.store.records import JOB_KINDS
from tests.harness import Harness
from tests.test_reports import PREFLIGHT_LINE, add_bot


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
