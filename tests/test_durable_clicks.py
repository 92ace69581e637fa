"""A click is durable before it is acknowledged, for the clicks that decide AND grant: a card's "Approve
for this session" (the decision and the session's standing approvals) and a blocked report's "… for this Bot" (the
decision and the Bot-wide standing approval). Each is ONE transaction with its audit rows and chat jobs: when a write
in it fails, nothing of the click is stored (never an approved escalation without its approvals, nor an approval
without its decision), the clicker is told, and the same click works once the store accepts writes again.

The failure is the database's own: a trigger refuses one audit row (the grant's, or the decision's), on SQLite and
on PostgreSQL. With the decision and the grant in two transactions, the first one's rows stayed behind."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from bot.slack.actions import GENERIC_FAILURE
from cards import STANDING_SESSION_ACTION
from tests.harness import OWNER, Harness
from tests.pg import BACKENDS, migrated_store
from tests.test_reports import add_bot as add_report_bot
from tests.test_reports import approve_for_bot, get_report, report_ok


@pytest.fixture(params=BACKENDS)
async def h(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Harness]:
    async with migrated_store(request.param, tmp_path) as url:
        harness = Harness(tmp=tmp_path, settings_overrides={"database_url": url})
        await harness.start()
        try:
            yield harness
        finally:
            await harness.close()


async def refuse_audit(h: Harness, event_name: str) -> None:
    """From now on the database refuses to insert an audit row ``event_name`` (a trigger)."""
    engine = h.runtime.store.engine
    async with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            await conn.execute(
                text(
                    "CREATE TRIGGER refuse_audit BEFORE INSERT ON audit WHEN NEW.event = :event "
                    "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END".replace(":event", f"'{event_name}'")
                )
            )
        else:
            await conn.execute(
                text(
                    "CREATE FUNCTION refuse_audit() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; "
                    "END $$ LANGUAGE plpgsql"
                )
            )
            await conn.execute(
                text(
                    f"CREATE TRIGGER refuse_audit BEFORE INSERT ON audit FOR EACH ROW WHEN (NEW.event = '{event_name}') "
                    "EXECUTE FUNCTION refuse_audit()"
                )
            )


async def accept_audit(h: Harness) -> None:
    engine = h.runtime.store.engine
    async with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            await conn.execute(text("DROP TRIGGER refuse_audit"))
        else:
            await conn.execute(text("DROP TRIGGER refuse_audit ON audit"))
            await conn.execute(text("DROP FUNCTION refuse_audit()"))


async def events(h: Harness, **detail: Any) -> list[str]:
    rows = await h.runtime.store.audit_log()
    return [
        r.event
        for r in rows
        if all(r.detail.get(k) == v or (k == "escalation_id" and r.escalation_id == v) for k, v in detail.items())
    ]


async def test_approve_for_this_session_stores_the_decision_and_its_approvals_together_or_not_at_all(
    h: Harness,
) -> None:
    token = await h.add_bot()
    esc = await h.escalate(token, command="sudo apt-get install -y jq", contained=False)
    await h.card_settled(token, esc)
    store = h.runtime.store

    await refuse_audit(h, "standing.created")  # the grant's audit row cannot be written
    await h.click(OWNER, esc["id"], STANDING_SESSION_ACTION)
    await h.eventually(lambda: GENERIC_FAILURE in h.ephemerals(OWNER))
    _, still = await h.get(token, esc["id"])
    assert still["status"] == "pending", "no decision without its approvals"
    assert await store.list_standing() == []
    assert "escalation.approved" not in await events(h, escalation_id=esc["id"])

    await accept_audit(h)
    await h.click(OWNER, esc["id"], STANDING_SESSION_ACTION)
    _, approved = await h.get(token, esc["id"])
    assert approved["status"] == "approved" and approved["decided_by"] == OWNER
    approvals = await store.list_standing(scope="session", subject=esc["session_id"])
    assert [a.pattern for a in approvals] == ["apt-get install"]
    rows = await store.audit_log()
    assert [r.detail["standing_id"] for r in rows if r.event == "standing.created"] == [approvals[0].id]
    assert [r.event for r in rows if r.escalation_id == esc["id"]].count("escalation.approved") == 1
    await h.eventually(lambda: any("Approved. Until the session ends" in t for t in h.ephemerals(OWNER)))


async def test_approve_for_this_bot_stores_the_decision_and_its_approval_together_or_not_at_all(h: Harness) -> None:
    token = await add_report_bot(h)
    report = await report_ok(h, token)
    store = h.runtime.store

    await refuse_audit(h, "report.approved_bot")  # the decision's audit row cannot be written
    await approve_for_bot(h, OWNER, report["id"], on_host=False)
    await h.eventually(lambda: GENERIC_FAILURE in h.ephemerals(OWNER))
    _, still = await get_report(h, token, report["id"])
    assert still["status"] == "open" and still["standing_approval_id"] is None
    assert await store.list_standing() == [], "no approval without its decision"
    assert "standing.created" not in await events(h)

    await accept_audit(h)
    await approve_for_bot(h, OWNER, report["id"], on_host=False)
    _, data = await get_report(h, token, report["id"])
    assert data["status"] == "approved_bot" and data["standing_approval_id"]
    [approval] = await store.list_standing()
    assert approval.id == data["standing_approval_id"] and approval.scope == "bot"
    rows = await store.audit_log()
    assert [r.detail["standing_id"] for r in rows if r.event == "standing.created"] == [approval.id]
    [decision] = [r for r in rows if r.event == "report.approved_bot"]
    assert decision.detail["standing_id"] == approval.id
