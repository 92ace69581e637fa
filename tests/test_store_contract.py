"""One contract for every store backend: SQLite (embedded default) and PostgreSQL (production)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update

from bot.errors import Conflict
from bot.store import Bot, NewEscalation, StandingApproval, Store, open_store
from bot.store.models import OutboxJobRow
from bot.store.records import Decision, RoomQueue
from tests.pg import throwaway_database

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        s = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'contract.db'}")
        try:
            yield s
        finally:
            await s.close()
        return
    async with throwaway_database() as url:
        s = await open_store(url, migrate=True)
        try:
            yield s
        finally:
            await s.close()


def bot(name: str = "b1") -> Bot:
    return Bot(id=f"bot_{name}", name=name, owners=("U0OWNER01",), room="C0APPROVE", created_at=NOW)


def new(escalation_id: str, key: str | None = None, *, expires: datetime | None = None) -> NewEscalation:
    return NewEscalation(
        id=escalation_id,
        bot_id="bot_b1",
        session_id="s",
        command="ls",
        cwd="/w",
        file_policy="workspace-write",
        approval_policy="ask",
        contained=True,
        justification=None,
        room="C0APPROVE",
        risk="read_only",
        reasons=({"subject": "ls", "rule": "r", "level": "read_only", "detail": "d", "downgraded": False},),
        created_at=NOW,
        expires_at=expires or NOW + timedelta(minutes=10),
        idempotency_key=key,
    )


async def test_bots_round_trip_and_names_are_unique(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    assert await store.bot_by_token_hash("h" * 64) == bot()
    assert await store.bot_by_name("b1") == bot()
    with pytest.raises(Conflict):
        await store.add_bot(Bot(id="bot_x", name="b1", owners=("U1",), room=None, created_at=NOW), "g" * 64)
    await store.set_token_hash("bot_b1", "k" * 64)
    assert await store.bot_by_token_hash("h" * 64) is None


async def test_timestamps_come_back_aware_utc(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    escalation, _ = await store.add_escalation(new("e1"))
    fetched = await store.get_escalation("e1")
    assert fetched is not None and fetched.created_at == NOW and fetched.created_at.tzinfo is not None
    assert fetched.reasons == escalation.reasons


async def test_an_idempotency_key_yields_one_escalation_even_under_concurrency(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    results = await asyncio.gather(*(store.add_escalation(new(f"e{i}", key="same")) for i in range(8)))
    created = [e for e, was_created in results if was_created]
    assert len(created) == 1
    assert {e.id for e, _ in results} == {created[0].id}


async def test_exactly_one_concurrent_decision_wins(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    await store.add_escalation(new("e1"))
    outcomes = await asyncio.gather(
        *(
            store.decide("e1", status="approved" if i % 2 else "denied", at=NOW, decided_by=f"U{i:03d}", source="owner")
            for i in range(12)
        )
    )
    winners = [o for o in outcomes if o is not None]
    assert len(winners) == 1
    final = await store.get_escalation("e1")
    assert final is not None and final.status == winners[0].status and final.decided_by == winners[0].decided_by


async def test_due_for_expiry_lists_only_pending_past_due(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    await store.add_escalation(new("old", expires=NOW - timedelta(seconds=1)))
    await store.add_escalation(new("new", expires=NOW + timedelta(minutes=5)))
    await store.add_escalation(new("done", expires=NOW - timedelta(seconds=1)))
    await store.decide("done", status="approved", at=NOW, decided_by="U1", source="owner")
    assert [e.id for e in await store.due_for_expiry(NOW)] == ["old"]


def approval(approval_id: str, scope: str, subject: str, **kw: object) -> StandingApproval:
    values: dict[str, object] = dict(
        id=approval_id,
        scope=scope,
        subject=subject,
        pattern="npm test",
        max_risk="workspace_write",
        contained_only=True,
        created_by="U0ADMIN01",
        created_at=NOW,
    )
    values.update(kw)
    return StandingApproval(**values)  # type: ignore[arg-type]


async def test_live_standing_approvals_by_session_bot_and_room(store: Store) -> None:
    await store.add_standing(approval("a_bot", "bot", "bot_b1"))
    await store.add_standing(approval("a_room", "room", "C0APPROVE"))
    await store.add_standing(approval("a_sess", "session", "s-1", bot_id="bot_b1"))
    await store.add_standing(approval("a_other_sess", "session", "s-1", bot_id="bot_b2"))
    await store.add_standing(approval("a_expired", "bot", "bot_b1", expires_at=NOW - timedelta(seconds=1)))
    await store.add_standing(approval("a_revoked", "bot", "bot_b1"))
    assert await store.revoke_standing("a_revoked", by="U0ADMIN01", at=NOW) is not None
    assert await store.revoke_standing("a_revoked", by="U0ADMIN01", at=NOW) is None
    live = await store.live_standing_for(bot_id="bot_b1", session_id="s-1", room="C0APPROVE", now=NOW)
    assert {a.id for a in live} == {"a_bot", "a_room", "a_sess"}
    no_room = await store.live_standing_for(bot_id="bot_b1", session_id="s-2", room=None, now=NOW)
    assert {a.id for a in no_room} == {"a_bot"}


async def test_use_counts_are_the_escalations_each_approval_answered(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    await store.add_standing(approval("a1", "bot", "bot_b1"))
    answer = Decision(status="approved", at=NOW, decided_by="U0ADMIN01", source="standing_approval")

    async def answered(i: int) -> None:
        async with store.transaction() as tx:
            await tx.add_escalation(new(f"e{i}"), decision=replace(answer, standing_approval_id="a1"))

    await asyncio.gather(*(answered(i) for i in range(10)))
    await store.add_escalation(new("e_other"))
    counted = await store.get_standing("a1")
    assert counted is not None and counted.use_count == 10 and counted.last_used_at == NOW


async def test_audit_is_append_only_and_ordered(store: Store) -> None:
    for i in range(5):
        await store.audit(f"event.{i}", at=NOW, escalation_id="e1", actor="U1", n=i)
    entries = await store.audit_log("e1")
    assert [e.event for e in entries] == [f"event.{i}" for i in range(5)]
    assert entries[2].detail == {"n": 2}


async def test_a_bots_audit_page_holds_its_escalations_rows_and_its_own_even_once_removed(store: Store) -> None:
    await store.add_bot(bot("b1"), "h" * 64, actor="operator:ops")
    await store.add_bot(bot("b2"), "g" * 64, actor="operator:ops")
    async with store.transaction() as tx:
        await tx.add_escalation(new("esc_1"))
        await tx.audit("escalation.created", at=NOW, escalation_id="esc_1", actor="bot_b1")
    await store.remove_bot("bot_b1", token_hash="i" * 64, at=NOW)
    await store.audit("bot.removed", at=NOW, actor="operator:ops", bot_id="bot_b1", bot="b1")
    removed = await store.bot_by_name("b1", removed=True)
    assert removed is not None and removed.removed_at is not None and await store.bot_by_name("b1") is None
    assert [b.name for b in await store.list_bots(removed=True)] == ["b1", "b2"]
    rows = await store.audit_page(bot_id="bot_b1", limit=100)
    assert [(r.event, r.escalation_id) for r in rows] == [
        ("bot.created", None),
        ("escalation.created", "esc_1"),
        ("bot.removed", None),
    ]
    other = await store.audit_page(bot_id="bot_b2", limit=100)
    assert [(r.event, r.detail["bot"]) for r in other] == [("bot.created", "b2")]


async def test_an_audit_page_keeps_the_rows_from_since_up_to_but_not_at_until(store: Store) -> None:
    for minutes in range(5):
        await store.audit("test.row", at=NOW + timedelta(minutes=minutes), n=minutes)
    rows = await store.audit_page(since=NOW + timedelta(minutes=1), until=NOW + timedelta(minutes=3), limit=100)
    assert [r.detail["n"] for r in rows] == [1, 2]


async def test_a_rooms_queue_counts_its_waiting_cards_per_bot_and_the_bots_marked_waiting(store: Store) -> None:
    """The room queue admission reads (bot.store.admission.admit_card) has two implementations, the ORM
    transaction's and the group commit's driver SQL: per Bot, the card posts waiting of its pending escalations,
    and the Bots marked waiting for a place. An ending deletes its unposted card (the card is then ``cancelled``)."""
    for name in ("b1", "b2"):
        await store.add_bot(bot(name), name * 32)
    async with store.transaction() as tx:
        for escalation_id, bot_id in (
            ("e1", "bot_b1"),
            ("e2", "bot_b1"),
            ("e3", "bot_b1"),
            ("e4", "bot_b2"),
            ("e5", "bot_b2"),
        ):
            await tx.add_escalation(replace(new(escalation_id), bot_id=bot_id), card_status="queued")
            await tx.enqueue("card.post", ref=escalation_id, room="C0APPROVE", at=NOW)
    async with store.transaction() as tx:  # a worker holds e5's card job
        await tx.session.execute(
            update(OutboxJobRow).where(OutboxJobRow.ref == "e5").values(claimed_until=NOW + timedelta(seconds=60))
        )
    withdrawn = await store.decide("e3", status="withdrawn", at=NOW, decided_by="bot_b1", source="session")
    assert withdrawn is not None and withdrawn.card_status == "cancelled"
    in_flight = await store.decide("e5", status="denied", at=NOW, decided_by="U0OWNER01", source="owner")
    assert in_flight is not None and in_flight.card_status == "queued", "the worker's job stays, not counted"
    await store.note_room_wait("C0APPROVE", "bot_b3", until=NOW + timedelta(seconds=30), now=NOW)
    await store.note_room_wait("C0APPROVE", "bot_b4", until=NOW - timedelta(seconds=1), now=NOW - timedelta(minutes=1))
    expected = RoomQueue({"bot_b1": 2, "bot_b2": 1}, frozenset({"bot_b3"}))
    async with store.transaction() as tx:
        assert await tx.room_queue("C0APPROVE", NOW) == expected
    assert expected.total == 3 and expected.bots("bot_b5") == 4


async def test_program_rules_are_set_replaced_and_removed_in_transactions(store: Store) -> None:
    from bot.store import ProgramRule

    gcc = ProgramRule(
        program="gcc", subcommand=None, grade="workspace_write", set_by="U0ADMIN01", set_at=NOW, note="our compiler"
    )
    bazel = ProgramRule(program="bazel", subcommand="build", grade="workspace_write", set_by="U0ADMIN01", set_at=NOW)
    async with store.transaction() as tx:
        await tx.set_program_rule(gcc)
        await tx.set_program_rule(bazel)
    assert await store.program_rules() == [bazel, gcc]
    raised = replace(gcc, grade="network", set_by="U0ADMIN02")
    async with store.transaction() as tx:
        assert await tx.get_program_rule("gcc", None) == gcc
        await tx.set_program_rule(raised)  # the same program and subcommand: replaced, not added
    assert await store.program_rules() == [bazel, raised]
    async with store.transaction() as tx:
        assert await tx.remove_program_rule("bazel", "build")
        assert not await tx.remove_program_rule("bazel", "build")
        assert not await tx.remove_program_rule("bazel", None)
    assert await store.program_rules() == [raised]


async def test_two_replicas_folding_into_a_notice_whose_job_was_claimed_write_one_new_job(store: Store) -> None:
    """Two replicas fold auto-answers into one notice at once after its job was claimed: the notice counts them all
    and exactly one new job will show them (nothing approved unseen, no second notice job)."""
    await store.add_bot(bot(), "h" * 64)
    other = await open_store(store.engine.url.render_as_string(hide_password=False))
    try:

        async def fold(s: Store, n: int) -> str:
            async with s.transaction() as tx:
                return await tx.fold_notice(
                    room="C0NOTICE", bot_id="bot_b1", at=NOW, window_s=60.0, item={"n": n}, approvals=[{"id": "sa_1"}]
                )

        await fold(store, 0)
        async with store.transaction() as tx:
            job = await tx.claim_job(NOW, interval_s=1.0, burst=3, lease_s=60.0, deadline_s=120.0)
        assert job is not None and job.kind == "notice"
        await asyncio.gather(fold(store, 1), fold(other, 2))
        async with store.transaction(write=False) as tx:
            jobs = (
                (
                    await tx.session.execute(
                        select(OutboxJobRow).where(OutboxJobRow.kind == "notice").order_by(OutboxJobRow.id)
                    )
                )
                .scalars()
                .all()
            )
            notice = await tx.get_notice(job.ref)
        assert [(j.ref, j.claimed_until is None) for j in jobs] == [(job.ref, False), (job.ref, True)]
        assert notice is not None and notice.count == 3
    finally:
        await other.close()
