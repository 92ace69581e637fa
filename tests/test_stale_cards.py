"""A click on an approval card whose escalation is no longer pending redraws that card at once.

The card still shows live buttons when its redraw did not land (here: Slack refused the ``chat.update`` once, so the
redraw job was given up). A click on it -- by anyone, Approve, Deny or a standing-approval button -- queues the
card's redraw with the click's audit row in one transaction, and the clicker is told who decided it; it is never
only refused, leaving the buttons live. The same for a blocked-host report's DMs. A real FlyBot against the Slack emulation (real signing), on SQLite and
PostgreSQL.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cards import APPROVE_ACTION, DENY_ACTION, REPORT_RESOLVE_ACTION, STANDING_BOT_ACTION, STANDING_SESSION_ACTION
from tests.harness import OTHER, OWNER, Harness
from tests.pg import migrated_store
from tests.test_outbox import has_buttons, tagged
from tests.test_reports import OWNER2, action_ids, dms, get_report, report_ok
from tests.test_reports import add_bot as add_report_bot


@pytest.fixture(params=["sqlite", "postgresql"])
async def h(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    async with migrated_store(request.param, tmp_path) as url:
        harness = Harness(tmp=tmp_path, settings_overrides={"database_url": url})
        await harness.start()
        try:
            yield harness
        finally:
            await harness.close()


def card_is_live(h: Harness, escalation_id: str) -> bool:
    [card] = tagged(h, escalation_id)
    return has_buttons(card.blocks)


async def decided_with_a_live_card(h: Harness) -> tuple[str, str]:
    """An escalation approved by OWNER whose card still shows its buttons: Slack refused the redraw for good."""
    token = await h.add_bot()
    esc = await h.escalate(token)
    await h.fault("chat.update", status=200, count=1, error="cant_update_message")
    await h.click(OWNER, esc["id"], APPROVE_ACTION)
    _, now = await h.get(token, esc["id"])
    assert now["status"] == "approved"
    await h.outbox_drained()  # the redraw was given up (and OWNER was told the message may still show buttons)
    assert card_is_live(h, esc["id"])
    return token, esc["id"]


@pytest.mark.parametrize("action", [APPROVE_ACTION, DENY_ACTION, STANDING_SESSION_ACTION, STANDING_BOT_ACTION])
async def test_a_click_on_a_stale_card_redraws_it_and_says_who_decided(h: Harness, action: str) -> None:
    token, escalation_id = await decided_with_a_live_card(h)
    before = len(h.ephemerals(OWNER))
    await h.click(OWNER, escalation_id, action)
    await h.eventually(lambda: not card_is_live(h, escalation_id), timeout=10)
    await h.eventually(lambda: len(h.ephemerals(OWNER)) > before)
    assert h.ephemerals(OWNER)[-1].startswith(f"This request was already approved by <@{OWNER}>"), h.ephemerals(OWNER)
    _, now = await h.get(token, escalation_id)
    assert now["status"] == "approved" and now["decided_by"] == OWNER  # nothing else changed
    assert await h.runtime.store.list_standing() == []
    events = [r.event for r in await h.runtime.store.audit_log(escalation_id)]
    assert events.count("escalation.approved") == 1 and "decision.refused" in events


async def test_a_stale_card_clicked_by_someone_who_may_not_decide_is_redrawn_too(h: Harness) -> None:
    _token, escalation_id = await decided_with_a_live_card(h)
    await h.click(OTHER, escalation_id, APPROVE_ACTION)
    await h.eventually(lambda: not card_is_live(h, escalation_id), timeout=10)
    await h.eventually(lambda: h.ephemerals(OTHER))
    assert h.ephemerals(OTHER)[-1].startswith("This request was already approved"), h.ephemerals(OTHER)
    refused = [r for r in await h.runtime.store.audit_log(escalation_id) if r.event == "decision.refused"]
    assert [(r.actor, r.detail.get("why")) for r in refused] == [(OTHER, "already_decided")]


async def test_a_click_on_a_decided_reports_stale_dm_redraws_every_dm_of_it(h: Harness) -> None:
    token = await add_report_bot(h)  # owners OWNER and OWNER2, each with a DM of the report
    report = await report_ok(h, token)
    await h.fault("chat.update", status=200, count=2, error="message_not_found")  # neither DM is redrawn
    await h.click(OWNER, report["id"], REPORT_RESOLVE_ACTION)
    _, data = await get_report(h, token, report["id"], wait=10)
    assert data["status"] == "resolved"
    await h.outbox_drained()
    assert all(action_ids(dms(h, o, report["id"])[0]) for o in (OWNER, OWNER2)), "both DMs still show buttons"
    await h.click(OWNER2, report["id"], REPORT_RESOLVE_ACTION)
    await h.eventually(lambda: not any(action_ids(dms(h, o, report["id"])[0]) for o in (OWNER, OWNER2)), timeout=10)
    await h.eventually(lambda: any(t.startswith("This report is already resolved") for t in h.ephemerals(OWNER2)))
    _, still = await get_report(h, token, report["id"])
    assert still["status"] == "resolved" and still["decided_by"] == OWNER
