"""A decision in one place updates every copy, also when Slack refuses to edit one of them.

A card's redraw edits the room's card and each fallback approver's DM copy. If Slack refuses one edit for good (the
room's card deleted by a workspace admin, the room archived: ``message_not_found``, ``is_archived``...), the others
still lose their buttons: one refusal does not end the whole redraw, so no fallback approver's copy keeps live
Approve buttons on a decided request. The same for a blocked-host report's DMs to each owner. Two replicas (real
servers, real bolt apps) on SQLite or PostgreSQL, the Slack emulation with real signing.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

from sqlalchemy import select

from bot.app import RUNTIME
from bot.store import Store
from bot.store.models import OutboxJobRow
from cards import REPORT_RESOLVE_ACTION
from tests.harness import ADMIN, OTHER, OWNER, Harness, block_text
from tests.routing import click, eventually
from tests.test_fallback import BACKUP, dm_copy, has_buttons, start
from tests.test_replicas import Cluster
from tests.test_reports import OWNER2, action_ids, dms, get_report, report_ok
from tests.test_reports import add_bot as add_report_bot


async def drained(store: Store, timeout: float = 30.0) -> None:
    """Wait until no chat job is waiting (delivered or given up)."""
    deadline = time.monotonic() + timeout
    while True:
        async with store.transaction(write=False) as tx:
            if not await tx.queue_stats(datetime.now(UTC)):
                return
        assert time.monotonic() < deadline, "chat jobs still queued"
        await asyncio.sleep(0.05)


async def test_a_copy_slack_will_not_edit_does_not_leave_the_other_copies_with_buttons(replicas: Cluster) -> None:
    token = await start(replicas, fallback_owners=[BACKUP, ADMIN])
    esc = await replicas.escalate(0, token, timeout_s=60)
    store = replicas.apps[0][RUNTIME].store
    await eventually(lambda: all(dm_copy(replicas, u, esc["id"]) is not None for u in (BACKUP, ADMIN)), timeout=15)
    await eventually(lambda: "Fallback approvers asked" in block_text(replicas.card(esc["id"]).blocks))
    await drained(store)
    # The room's card is edited first: Slack now refuses that edit for good.
    async with replicas.http.post(
        f"{replicas.emu_url}/control/faults",
        json={"method": "chat.update", "status": 200, "count": 1, "error": "message_not_found"},
    ) as response:
        assert response.status == 200
    await click(replicas, OWNER, esc["id"], replica=1)
    final = await replicas.get(0, token, esc["id"], wait=10)
    assert final["status"] == "approved"
    await eventually(lambda: not any(has_buttons(dm_copy(replicas, u, esc["id"])) for u in (BACKUP, ADMIN)))
    await drained(store)
    async with store.transaction(write=False) as tx:
        rows = (
            await tx.session.execute(
                select(OutboxJobRow.status, OutboxJobRow.last_error).where(
                    OutboxJobRow.ref == esc["id"], OutboxJobRow.kind == "card.update"
                )
            )
        ).all()
    assert ("failed", "Slack refused: message_not_found") in [(s, e) for s, e in rows], rows  # and it is recorded


async def test_a_report_dm_slack_will_not_edit_does_not_leave_the_other_owners_dm_with_buttons(
    harness: Harness,
) -> None:
    token = await add_report_bot(harness)  # owners OWNER and OWNER2, each with a DM of the report
    report = await report_ok(harness, token)
    assert all(action_ids(dms(harness, o, report["id"])[0]) for o in (OWNER, OWNER2))
    await harness.fault("chat.update", status=200, count=1, error="message_not_found")  # the first DM's edit
    await harness.click(OWNER2, report["id"], REPORT_RESOLVE_ACTION)
    _, data = await get_report(harness, token, report["id"], wait=10)
    assert data["status"] == "resolved"
    await harness.eventually(
        lambda: sum(1 for o in (OWNER, OWNER2) if not action_ids(dms(harness, o, report["id"])[0])) == 1, timeout=10
    )


async def test_a_fallback_whose_group_slack_will_not_show_is_not_marked_asked_until_someone_is(
    replicas: Cluster,
) -> None:
    """A Bot whose only fallback is a group Slack will not show (missing scope, Slack down): nobody can be asked,
    so the card must not say "Fallback approvers asked", nor may the group's members get a say unasked; once Slack
    shows the group, its members get their copies."""
    token = await start(replicas, fallback_groups=["S0ONCALL1"])  # OWNER (has the card) and OTHER
    async with replicas.http.post(
        f"{replicas.emu_url}/control/faults",
        json={"method": "usergroups.users.list", "status": 200, "count": 1000, "error": "missing_scope"},
    ) as response:
        assert response.status == 200
    esc = await replicas.escalate(0, token, timeout_s=60)

    def lookups() -> int:
        return sum(1 for c in replicas.emulator.calls if c["method"] == "usergroups.users.list")

    await eventually(lambda: lookups() >= 1, timeout=15)  # the fallback's time came, and the group was unreadable
    now = await replicas.get(1, token, esc["id"])
    assert now["status"] == "pending" and now["fallback_at"] is None, now
    assert "Fallback approvers asked" not in block_text(replicas.card(esc["id"]).blocks)
    assert dm_copy(replicas, OTHER, esc["id"]) is None

    async with replicas.http.delete(f"{replicas.emu_url}/control/faults") as response:
        assert response.status == 200
    await eventually(lambda: dm_copy(replicas, OTHER, esc["id"]) is not None, timeout=20)
    now = await replicas.get(1, token, esc["id"])
    assert now["fallback_at"] is not None
    await eventually(lambda: "Fallback approvers asked" in block_text(replicas.card(esc["id"]).blocks))
