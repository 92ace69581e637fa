"""The same signed Slack request, re-posted within the 5-minute signing window, is processed at most
once -- on this replica, after a restart, on a second replica of the same store, and whatever headers are added
to it.

The requests are built as Slack sends them and signed by the emulation's real v0 signer; no FlyBot code is patched.
"""

from __future__ import annotations

import secrets
import urllib.parse
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import RUNTIME
from tests.harness import ADMIN, OWNER, ROOM, Harness
from tests.pg import throwaway_database
from tests.test_replicas import Cluster


def slash_form(harness: Harness, user: str, text: str) -> str:
    """A ``/flybot`` slash command body, as Slack posts it."""
    return urllib.parse.urlencode(
        {
            "token": "local-verification-token",
            "team_id": "T0LOCAL01",
            "team_domain": "flybot-local",
            "channel_id": ROOM,
            "channel_name": "flybot-approvals",
            "user_id": user,
            "user_name": "u",
            "command": "/flybot",
            "text": text,
            "api_app_id": "A0FLYBOT1",
            "response_url": f"{harness.emu_url}/response/{secrets.token_hex(6)}",
            "trigger_id": f"1.{secrets.token_hex(8)}",
        }
    )


async def post_signed(harness: Harness, body: str, headers: dict[str, str], content_type: str) -> tuple[int, str]:
    async with harness.http.post(
        f"{harness.url}/slack/events", data=body.encode(), headers={"Content-Type": content_type, **headers}
    ) as response:
        return response.status, await response.text()


async def test_a_replayed_standing_add_does_not_recreate_a_revoked_approval(harness: Harness) -> None:
    await harness.add_bot()
    body = slash_form(harness, OWNER, "standing add --bot ci-bot apt-get install --expires 7d")
    signed = harness.emulator.sign(body)
    status, answer = await post_signed(harness, body, signed, "application/x-www-form-urlencoded")
    assert status == 200 and "Saved" in answer, answer
    (approval,) = await harness.runtime.store.list_standing()
    await harness.runtime.standing.revoke(OWNER, approval.id)
    assert await harness.runtime.store.list_standing(live_at=harness.runtime.standing.clock()) == []
    for extra in ({}, {"X-Slack-Retry-Num": "1"}):
        status, answer = await post_signed(harness, body, {**signed, **extra}, "application/x-www-form-urlencoded")
        assert status == 200 and "Saved" not in answer
    assert len(await harness.runtime.store.list_standing()) == 1, "the replay made a second approval"
    # the same command typed again (new timestamp, new signature) is a new request and works
    fresh = slash_form(harness, OWNER, "standing add --bot ci-bot apt-get install --expires 7d")
    status, answer = await post_signed(
        harness, fresh, harness.emulator.sign(fresh), "application/x-www-form-urlencoded"
    )
    assert "Saved" in answer


async def test_a_replay_is_refused_after_a_restart_too(harness: Harness) -> None:
    await harness.add_bot()
    body = slash_form(harness, ADMIN, "standing add --room npm test")
    signed = harness.emulator.sign(body)
    assert "Saved" in (await post_signed(harness, body, signed, "application/x-www-form-urlencoded"))[1]
    await harness.restart_flybot()  # nothing in memory survives; the store remembers the signature
    (approval,) = await harness.runtime.store.list_standing()
    await harness.runtime.standing.revoke(ADMIN, approval.id)
    status, answer = await post_signed(harness, body, signed, "application/x-www-form-urlencoded")
    assert status == 200 and "Saved" not in answer
    assert len(await harness.runtime.store.list_standing()) == 1


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[Cluster]:
    """Two FlyBot replicas on one throw-away PostgreSQL database (tests/test_replicas.py's Cluster)."""
    from bot.store import open_store

    async with throwaway_database() as url:
        store = await open_store(url, migrate=True)
        await store.close()
        c = Cluster(url, tmp_path)
        try:
            yield c
        finally:
            await c.close()


async def test_a_replay_to_a_second_replica_on_the_same_store_is_refused(cluster: Cluster) -> None:
    await cluster.start(replicas=2)
    await cluster.add_bot()
    form = urllib.parse.urlencode(
        {
            "token": "local-verification-token",
            "team_id": "T0LOCAL01",
            "channel_id": ROOM,
            "user_id": OWNER,
            "user_name": "u",
            "command": "/flybot",
            "text": "standing add --bot ci-bot apt-get install --expires 7d",
            "api_app_id": "A0FLYBOT1",
            "response_url": f"{cluster.emu_url}/response/{secrets.token_hex(6)}",
            "trigger_id": f"1.{secrets.token_hex(8)}",
        }
    )
    signed = cluster.emulator.sign(form)
    headers = {"Content-Type": "application/x-www-form-urlencoded", **signed}

    async def post_to(replica: int) -> str:
        async with cluster.http.post(
            f"{cluster.urls[replica]}/slack/events", data=form.encode(), headers=headers
        ) as response:
            assert response.status == 200
            return await response.text()

    assert "Saved" in await post_to(0)
    first, second = (cluster.apps[i][RUNTIME] for i in (0, 1))
    (approval,) = await first.store.list_standing()
    await first.standing.revoke(OWNER, approval.id)
    assert "Saved" not in await post_to(1), "the second replica took the replayed bytes"
    assert len(await second.store.list_standing()) == 1
    assert await second.store.list_standing(live_at=second.standing.clock()) == []
