"""Metrics: the outbox's queue depth and oldest job age per kind, its deliveries and retries,
and the requests refused by admission control, as a Prometheus scrape of a real server shows them."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.harness import OWNER, Harness
from tests.test_admission import post


def scrape(text: str, name: str, **labels: str) -> float | None:
    """The sample ``name{labels}`` of a text exposition, or None when absent."""
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        key, _, value = line.rpartition(" ")
        metric, _, rest = key.partition("{")
        if metric == name and ",".join(sorted(rest.rstrip("}").split(","))) == want:
            return float(value)
    return None


async def metrics_text(h: Harness) -> str:
    async with h.http.get(f"{h.url}/metrics") as response:
        assert response.status == 200
        return await response.text()


async def test_metrics_show_queue_depth_and_oldest_age_per_kind_deliveries_retries_and_refusals(
    tmp_path: Path,
) -> None:
    h = Harness(
        tmp=tmp_path,
        settings_overrides={
            "slack_room_interval_s": 60.0,
            "slack_room_burst": 1,
            "delivery_deadline_s": 600.0,
            "room_queue_max": 2,
            "max_open_escalations": 0,
        },
    )
    await h.start()
    try:
        token = await h.add_bot()
        first = await h.escalate(token, session_id="first")
        await h.card_settled(token, first)  # the room's one message of the minute
        for i in range(2):
            status, _, _ = await post(h.http, h.url, token, f"queued{i}")
            assert status == 201
        status, body, _ = await post(h.http, h.url, token, "refused")
        assert status == 429 and body["code"] == "room_busy"
        await asyncio.sleep(0.3)

        text = await metrics_text(h)
        assert scrape(text, "flybot_outbox_queue_depth", kind="card.post") == 2
        age = scrape(text, "flybot_outbox_oldest_job_age_seconds", kind="card.post")
        assert age is not None and 0.3 <= age < 60
        for kind in ("card.update", "notice", "report.dm", "report.update"):
            assert scrape(text, "flybot_outbox_queue_depth", kind=kind) == 0, kind
            assert scrape(text, "flybot_outbox_oldest_job_age_seconds", kind=kind) == 0, kind
        assert scrape(text, "flybot_deliveries_total", kind="card.post", outcome="delivered") == 1
        assert scrape(text, "flybot_rate_limited_total", reason="room_queue") == 1

        # A failed send is retried later (another pacing key: a Bot without a room gets its card by DM).
        await h.fault("chat.postMessage", status=500, count=1)
        dm_token = await h.add_bot("dm-bot", owners=(OWNER,), room=None)
        status, _, _ = await post(h.http, h.url, dm_token, "dm")
        assert status == 201

        async def retried() -> bool:
            found = scrape(await metrics_text(h), "flybot_deliveries_total", kind="card.post", outcome="retried")
            return found == 1

        deadline = asyncio.get_running_loop().time() + 20
        while not await retried():
            assert asyncio.get_running_loop().time() < deadline, "the failed send was not counted as retried"
            await asyncio.sleep(0.05)
    finally:
        await h.close()
