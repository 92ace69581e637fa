"""Every list FlyBot cuts says how many more there are and how to see them.

30 escalations pending for one owner: ``/flybot pending`` shows 20 and the command for the other 10 (its second page
shows them), the App Home shows 10 and points to ``/flybot pending``; 35 live standing approvals: ``/flybot
standing list`` shows 30 and how to see the rest; ``flybot escalations --limit 20`` says more match. A real FlyBot
against the Slack emulation (real signing); the operator's command runs as a real process.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.standing import StandingSpec
from tests.harness import ADMIN, OWNER, ROOM, Harness
from tests.test_bot_lifecycle import operator

PENDING = 30


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    harness = Harness(tmp=tmp_path, settings_overrides={"max_open_escalations": 0, "room_queue_max": 0})
    await harness.start()
    try:
        yield harness
    finally:
        await harness.close()


async def thirty_pending(h: Harness) -> list[str]:
    token = await h.add_bot()
    ids = []
    for i in range(PENDING):
        status, data = await h.post(token, h.body(session_id=f"s-{i}", command=f"sudo make target-{i}"))
        assert status == 201 and data["status"] == "pending", data
        ids.append(data["id"])
    return ids


def listed(reply: str) -> list[str]:
    return re.findall(r"`(esc_[0-9a-f]+)`", reply)


async def test_flybot_pending_with_30_waiting_shows_20_and_the_command_for_the_other_10(h: Harness) -> None:
    ids = await thirty_pending(h)
    first = await h.slash(OWNER, "pending")
    assert listed(first) == ids[:20]
    assert first.startswith("Waiting for a decision (1-20 of 30):"), first
    assert first.endswith("\u2026and 10 more escalations waiting for you: `/flybot pending 2` shows the next 10."), (
        first
    )
    second = await h.slash(OWNER, "pending 2")
    assert listed(second) == ids[20:]
    assert "more" not in second, second
    assert (await h.slash(OWNER, "pending 3")).startswith("Page 3 is empty: 30 escalations are waiting for you")
    assert (await h.slash(OWNER, "pending two")).startswith("Usage: `/flybot pending [PAGE]`")


async def test_app_home_with_30_waiting_shows_10_and_points_to_flybot_pending(h: Harness) -> None:
    await thirty_pending(h)
    view = await h.open_home(OWNER)
    text = str(view)
    assert "*Waiting for a decision* (30)" in text
    assert "\u2026and 20 more escalations waiting for you: `/flybot pending` lists them all, 20 a page." in text


async def test_flybot_standing_list_with_35_shows_30_and_how_to_see_the_rest(h: Harness) -> None:
    for i in range(35):
        await h.runtime.standing.create(ADMIN, StandingSpec(scope="room", subject=ROOM, pattern=f"make target-{i}"))
    reply = await h.slash(ADMIN, "standing list")
    assert len(re.findall(r"^• `sa_", reply, flags=re.MULTILINE)) == 30
    assert reply.endswith(
        "\u2026and 5 more standing approvals: narrow it with `--bot NAME` or `--room #CHANNEL`, or "
        "`flybot standing list` on the FlyBot server lists them all."
    ), reply
    narrowed = await h.slash(ADMIN, f"standing list --room {ROOM}")
    assert narrowed.endswith(
        "\u2026and 5 more standing approvals: `flybot standing list` on the FlyBot server lists them all."
    ), narrowed


async def test_flybot_escalations_says_when_more_match_than_its_limit(h: Harness) -> None:
    await thirty_pending(h)
    cut = await operator(h, "escalations", "--pending", "--limit", "20")
    assert cut.returncode == 0, cut.stderr
    assert len(cut.stdout.strip().splitlines()) == 20
    assert "the newest 20 shown; more match: pass a larger --limit" in cut.stderr, cut.stderr
    whole = await operator(h, "escalations", "--pending", "--limit", "30")
    assert len(whole.stdout.strip().splitlines()) == 30 and "more match" not in whole.stderr
    bad = await operator(h, "escalations", "--limit", "0")
    assert bad.returncode == 2 and "--limit must be 1 or more" in bad.stderr
