"""The store's contract: every public :class:`~bot.store.Store` and :class:`~bot.store.Tx` operation, through its
public API, on every backend (``tests.pg.BACKENDS``: SQLite, PostgreSQL, PostgreSQL behind PgBouncer in transaction
mode). Each test asserts what a caller sees (results, errors, idempotency, what commits together), never how the
store does it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from bot.errors import Conflict, RateLimited, RoomBusy
from bot.preflight.model import UnlockOption
from bot.store import Bot, NewEscalation, ProgramRule, StandingApproval, Store, open_store
from bot.store.admission import AdmissionLimits
from bot.store.records import Decision, Escalation, RoomQueue
from bot.store.reports import NewReport
from tests.harness import add_standing
from tests.pg import BACKENDS, throwaway_database

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        s = await open_store(f"sqlite+aiosqlite:///{tmp_path / 'contract.db'}")
        try:
            yield s
        finally:
            await s.close()
        return
    async with throwaway_database(pooled=request.param == "pgbouncer") as url:
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


async def add_escalation(store: Store, escalation: NewEscalation) -> tuple[Escalation, bool]:
    async with store.transaction() as tx:
        return await tx.add_escalation(escalation)


async def decide(store: Store, escalation_id: str, **decision: Any) -> Escalation | None:
    async with store.transaction() as tx:
        return await tx.decide(escalation_id, **decision)


async def set_card(store: Store, escalation_id: str, channel: str, ts: str) -> None:
    async with store.transaction() as tx:
        await tx.set_card(escalation_id, status="posted", channel=channel, ts=ts)


async def revoke_standing(store: Store, approval_id: str, *, by: str, at: datetime) -> StandingApproval | None:
    async with store.transaction() as tx:
        revoked = await tx.revoke_standing(approval_id, by=by, at=at)
    return await store.get_standing(approval_id) if revoked else None


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
    escalation, _ = await add_escalation(store, new("e1"))
    fetched = await store.get_escalation("e1")
    assert fetched is not None and fetched.created_at == NOW and fetched.created_at.tzinfo is not None
    assert fetched.reasons == escalation.reasons


async def test_an_idempotency_key_yields_one_escalation_even_under_concurrency(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    results = await asyncio.gather(*(add_escalation(store, new(f"e{i}", key="same")) for i in range(8)))
    created = [e for e, was_created in results if was_created]
    assert len(created) == 1
    assert {e.id for e, _ in results} == {created[0].id}


async def test_exactly_one_concurrent_decision_wins(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    await add_escalation(store, new("e1"))
    outcomes = await asyncio.gather(
        *(
            decide(
                store, "e1", status="approved" if i % 2 else "denied", at=NOW, decided_by=f"U{i:03d}", source="owner"
            )
            for i in range(12)
        )
    )
    winners = [o for o in outcomes if o is not None]
    assert len(winners) == 1
    final = await store.get_escalation("e1")
    assert final is not None and final.status == winners[0].status and final.decided_by == winners[0].decided_by


async def test_due_for_expiry_lists_only_pending_past_due(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    await add_escalation(store, new("old", expires=NOW - timedelta(seconds=1)))
    await add_escalation(store, new("new", expires=NOW + timedelta(minutes=5)))
    await add_escalation(store, new("done", expires=NOW - timedelta(seconds=1)))
    await decide(store, "done", status="approved", at=NOW, decided_by="U1", source="owner")
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
    await add_standing(store, approval("a_bot", "bot", "bot_b1"))
    await add_standing(store, approval("a_room", "room", "C0APPROVE"))
    await add_standing(store, approval("a_sess", "session", "s-1", bot_id="bot_b1"))
    await add_standing(store, approval("a_other_sess", "session", "s-1", bot_id="bot_b2"))
    await add_standing(store, approval("a_expired", "bot", "bot_b1", expires_at=NOW - timedelta(seconds=1)))
    await add_standing(store, approval("a_revoked", "bot", "bot_b1"))
    assert await revoke_standing(store, "a_revoked", by="U0ADMIN01", at=NOW) is not None
    assert await revoke_standing(store, "a_revoked", by="U0ADMIN01", at=NOW) is None
    live = await store.live_standing_for(bot_id="bot_b1", session_id="s-1", room="C0APPROVE", now=NOW)
    assert {a.id for a in live} == {"a_bot", "a_room", "a_sess"}
    no_room = await store.live_standing_for(bot_id="bot_b1", session_id="s-2", room=None, now=NOW)
    assert {a.id for a in no_room} == {"a_bot"}


async def test_use_counts_are_the_escalations_each_approval_answered(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    await add_standing(store, approval("a1", "bot", "bot_b1"))
    answer = Decision(status="approved", at=NOW, decided_by="U0ADMIN01", source="standing_approval")

    async def answered(i: int) -> None:
        async with store.transaction() as tx:
            await tx.add_escalation(new(f"e{i}"), decision=replace(answer, standing_approval_id="a1"))

    await asyncio.gather(*(answered(i) for i in range(10)))
    await add_escalation(store, new("e_other"))
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
    """Per Bot, the card posts waiting of its pending escalations, and the Bots marked waiting for a place. An
    ending cancels its unposted card; a card whose job a worker holds stays (and is not counted)."""
    for name in ("b1", "b2"):
        await store.add_bot(bot(name), name * 32)
    async with store.transaction() as tx:
        for escalation_id, bot_id in (
            ("e5", "bot_b2"),
            ("e1", "bot_b1"),
            ("e2", "bot_b1"),
            ("e3", "bot_b1"),
            ("e4", "bot_b2"),
        ):
            await tx.add_escalation(replace(new(escalation_id), bot_id=bot_id), card_status="queued")
            await tx.enqueue("card.post", ref=escalation_id, room="C0APPROVE", at=NOW)
    async with store.transaction() as tx:  # a worker holds e5's card job (the oldest)
        held = await tx.claim_job(NOW, interval_s=0.0, burst=10, lease_s=60.0, deadline_s=120.0)
    assert held is not None and held.ref == "e5"
    withdrawn = await decide(store, "e3", status="withdrawn", at=NOW, decided_by="bot_b1", source="session")
    assert withdrawn is not None and withdrawn.card_status == "cancelled"
    in_flight = await decide(store, "e5", status="denied", at=NOW, decided_by="U0OWNER01", source="owner")
    assert in_flight is not None and in_flight.card_status == "queued", "the worker's job stays, not counted"
    await store.note_room_wait("C0APPROVE", "bot_b3", until=NOW + timedelta(seconds=30), now=NOW)
    await store.note_room_wait("C0APPROVE", "bot_b4", until=NOW - timedelta(seconds=1), now=NOW - timedelta(minutes=1))
    expected = RoomQueue({"bot_b1": 2, "bot_b2": 1}, frozenset({"bot_b3"}))
    async with store.transaction() as tx:
        assert await tx.room_queue("C0APPROVE", NOW) == expected
    assert expected.total == 3 and expected.bots("bot_b5") == 4


async def test_a_room_wait_mark_keeps_its_later_end(store: Store) -> None:
    await store.note_room_wait("C0APPROVE", "bot_b1", until=NOW + timedelta(seconds=60), now=NOW)
    await store.note_room_wait("C0APPROVE", "bot_b1", until=NOW + timedelta(seconds=10), now=NOW)  # kept: 60 s
    await store.note_room_wait("C0APPROVE", "bot_b2", until=NOW + timedelta(seconds=10), now=NOW)
    await store.note_room_wait("C0APPROVE", "bot_b2", until=NOW + timedelta(seconds=90), now=NOW)  # moved on
    async with store.transaction() as tx:
        assert (await tx.room_queue("C0APPROVE", NOW + timedelta(seconds=30))).waiting == {"bot_b1", "bot_b2"}
        assert (await tx.room_queue("C0APPROVE", NOW + timedelta(seconds=75))).waiting == {"bot_b2"}


async def test_program_rules_are_set_replaced_and_removed_in_transactions(store: Store) -> None:

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
            job = await tx.claim_job(NOW, interval_s=0.0, burst=10, lease_s=60.0, deadline_s=120.0)
        assert job is not None and job.kind == "notice"
        await asyncio.gather(fold(store, 1), fold(other, 2))
        async with store.transaction() as tx:
            notice = await tx.get_notice(job.ref)
            await tx.job_done(job.id, NOW)
        assert notice is not None and notice.count == 3
        assert sorted(i["n"] for i in notice.items) == [0, 1, 2] and notice.approvals == ({"id": "sa_1"},)
        async with store.transaction() as tx:
            again = await tx.claim_job(NOW, interval_s=0.0, burst=10, lease_s=60.0, deadline_s=120.0)
            assert again is not None and (again.kind, again.ref) == ("notice", job.ref)
            assert await tx.claim_job(NOW, interval_s=0.0, burst=10, lease_s=60.0, deadline_s=120.0) is None
    finally:
        await other.close()


# -- transactions ---------------------------------------------------------------------------------------------------
async def test_a_transaction_commits_everything_or_nothing(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.add_escalation(new("e1"), card_status="queued")
            await tx.enqueue("card.post", ref="e1", room="C0APPROVE", at=NOW)
            await tx.audit("escalation.created", at=NOW, escalation_id="e1", actor="bot_b1")
            assert (await tx.get_escalation("e1")) is not None, "a transaction reads its own writes"
            raise RuntimeError("the caller fails before the end")
    assert await store.get_escalation("e1") is None
    assert await store.audit_log("e1") == []
    assert await store.next_job_due(NOW) is None
    async with store.transaction() as tx:
        await tx.add_escalation(new("e1"), card_status="queued")
        await tx.enqueue("card.post", ref="e1", room="C0APPROVE", at=NOW)
        await tx.audit("escalation.created", at=NOW, escalation_id="e1", actor="bot_b1")
    assert (await store.get_escalation("e1")) is not None
    assert [e.event for e in await store.audit_log("e1")] == ["escalation.created"]
    assert await store.next_job_due(NOW) == NOW
    async with store.transaction(write=False) as tx:
        seen = await tx.get_escalation("e1")
    assert seen is not None and seen.card_status == "queued"


async def test_commit_callbacks_name_the_rooms_of_new_jobs_and_the_decided_escalations(store: Store) -> None:
    rooms: list[list[str]] = []
    decided: list[str] = []
    store.on_jobs(lambda r: rooms.append(sorted(r)))
    store.on_decided(decided.append)
    await store.add_bot(bot(), "h" * 64)
    async with store.transaction() as tx:
        await tx.add_escalation(new("e1"))
        await tx.enqueue("card.post", ref="e1", room="C0APPROVE", at=NOW)
        await tx.enqueue("report.dm", ref="e1", room="D0OWNER", at=NOW)
    assert rooms[-1] == ["C0APPROVE", "D0OWNER"] and decided == []
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.decide("e1", status="approved", at=NOW, decided_by="U1", source="owner")
            raise RuntimeError("rolled back")
    assert decided == [], "nothing is announced for a transaction that rolled back"
    await decide(store, "e1", status="approved", at=NOW, decided_by="U1", source="owner")
    assert decided == ["e1"]


async def test_only_sqlite_has_one_writer_at_a_time(store: Store) -> None:
    sqlite = store.engine.dialect.name == "sqlite"
    assert (store.writer_lock() is not None) is sqlite
    async with store.transaction() as tx:
        assert tx.postgres is not sqlite


async def test_a_rooms_lock_orders_two_transactions_on_that_room(store: Store) -> None:
    order: list[str] = []
    first_holds = asyncio.Event()
    release = asyncio.Event()

    async def first() -> None:
        async with store.transaction() as tx:
            await tx.lock_room("C0APPROVE")
            first_holds.set()
            await release.wait()
            order.append("first ends")

    async def second() -> None:
        await first_holds.wait()
        async with store.transaction() as tx:
            await tx.lock_room("C0APPROVE")
            order.append("second holds")

    tasks = [asyncio.create_task(first()), asyncio.create_task(second())]
    await first_holds.wait()
    await asyncio.sleep(0.3)
    assert order == [], "the second waits while the first holds the room"
    release.set()
    await asyncio.gather(*tasks)
    assert order == ["first ends", "second holds"]


# -- Bots and admin tokens ------------------------------------------------------------------------------------------
async def test_a_bot_is_found_by_id_and_name_updated_and_listed(store: Store) -> None:
    created = await store.add_bot(bot(), "h" * 64, actor="operator:ops")
    assert created == bot() and await store.get_bot("bot_b1") == bot() and await store.get_bot("bot_x") is None
    changed = await store.update_bot(
        "bot_b1",
        owners=["U0OWNER02", "U0OWNER03"],
        chat_user="U0BOTUSER",
        two_person="destructive-host",
        owner_groups=["S0GROUP1"],
        fallback_owners=["U0FALL01"],
        fallback_groups=["S0FALL01"],
        allowed_rooms=["C0OTHER"],
    )
    assert changed is not None
    assert (changed.owners, changed.room, changed.chat_user, changed.two_person) == (
        ("U0OWNER02", "U0OWNER03"),
        "C0APPROVE",
        "U0BOTUSER",
        "destructive-host",
    )
    assert (changed.owner_groups, changed.fallback_owners, changed.fallback_groups, changed.allowed_rooms) == (
        ("S0GROUP1",),
        ("U0FALL01",),
        ("S0FALL01",),
        ("C0OTHER",),
    )
    cleared = await store.update_bot("bot_b1", room=None, chat_user=None, two_person=None)
    assert cleared is not None and (cleared.room, cleared.chat_user, cleared.two_person) == (None, None, None)
    assert await store.get_bot("bot_b1") == cleared
    assert await store.update_bot("bot_missing", owners=["U1"]) is None
    await store.add_bot(bot("a0"), "a" * 64)
    assert [b.name for b in await store.list_bots()] == ["a0", "b1"]
    assert [(e.event, e.actor) for e in await store.audit_page(bot_id="bot_b1")][:1] == [
        ("bot.created", "operator:ops")
    ]


async def test_a_removed_bots_token_stops_and_its_pending_escalations_are_listed_for_withdrawal(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    await add_escalation(store, new("e1"))
    await add_escalation(store, new("e2"))
    await decide(store, "e2", status="approved", at=NOW, decided_by="U1", source="owner")
    assert await store.pending_of_removed_bots() == []
    assert await store.remove_bot("bot_b1", token_hash="z" * 64, at=NOW)
    assert not await store.remove_bot("bot_b1", token_hash="y" * 64, at=NOW), "removed once"
    assert not await store.remove_bot("bot_missing", token_hash="x" * 64, at=NOW)
    assert await store.bot_by_token_hash("h" * 64) is None
    assert [e.id for e in await store.pending_of_removed_bots()] == ["e1"]
    assert await store.list_bots() == []


async def test_admin_tokens_are_added_found_listed_and_revoked(store: Store) -> None:
    await store.add_admin_token("adm_1", "a" * 64, "U0ADMIN01", NOW, actor="operator:ops")
    await store.add_admin_token("adm_2", "b" * 64, "U0ADMIN02", NOW + timedelta(seconds=1))
    assert await store.admin_by_token_hash("a" * 64) == "U0ADMIN01"
    assert await store.admin_by_token_hash("c" * 64) is None
    assert await store.list_admin_tokens() == [
        ("adm_1", "U0ADMIN01", NOW),
        ("adm_2", "U0ADMIN02", NOW + timedelta(seconds=1)),
    ]
    assert await store.revoke_admin_token("adm_1")
    assert not await store.revoke_admin_token("adm_1")
    assert await store.admin_by_token_hash("a" * 64) is None
    assert "admin_token.created" in [e.event for e in await store.audit_log()]


# -- escalations ----------------------------------------------------------------------------------------------------
async def test_escalations_are_listed_filtered_and_found_pending_or_settled(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    await store.add_bot(bot("b2"), "g" * 64)
    for i, (bot_id, minutes) in enumerate((("bot_b1", 0), ("bot_b2", 1), ("bot_b1", 2))):
        await add_escalation(store, replace(new(f"e{i}"), bot_id=bot_id, created_at=NOW + timedelta(minutes=minutes)))
    await add_escalation(
        store, replace(new("late", expires=NOW + timedelta(seconds=5)), created_at=NOW + timedelta(seconds=30))
    )
    await decide(store, "e2", status="denied", at=NOW, decided_by="U1", source="owner", reason="no")
    assert [e.id for e in await store.list_escalations()][:2] == ["e2", "e1"]
    newest_first = [e.id for e in await store.list_escalations(bot_id="bot_b1")]
    assert newest_first.index("e2") < newest_first.index("e0")
    assert [e.id for e in await store.list_escalations(status="denied")] == ["e2"]
    assert [e.id for e in await store.list_escalations(since=NOW + timedelta(minutes=1))] == ["e2", "e1"]
    assert len(await store.list_escalations(limit=2)) == 2
    assert [e.id for e in await store.pending_escalations()] == ["e0", "late", "e1"]
    assert [e.id for e in await store.pending_escalations(["bot_b2"])] == ["e1"]
    later = NOW + timedelta(seconds=10)
    assert await store.settled_escalations(["e0", "e1", "e2", "late"], later) == {"e2", "late"}
    assert await store.settled_escalations(["e0", "e2"], NOW) == {"e2"}
    denied = await store.get_escalation_shared("e2")
    assert denied is not None and (denied.status, denied.reason, denied.decision_source) == ("denied", "no", "owner")
    assert await store.get_escalation_shared("nope") is None


async def test_an_escalation_created_already_decided_keeps_its_decision(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    async with store.transaction() as tx:
        made, created = await tx.add_escalation(
            new("e1"),
            decision=Decision(
                status="approved", at=NOW, decided_by=None, source="standing", standing_approval_id="sa_1"
            ),
        )
    assert created and made.status == "approved"
    stored = await store.get_escalation("e1")
    assert stored is not None and (stored.status, stored.decision_source, stored.standing_approval_id) == (
        "approved",
        "standing",
        "sa_1",
    )
    assert await decide(store, "e1", status="denied", at=NOW, decided_by="U1", source="owner") is None


async def test_admission_refuses_past_a_bots_limits_and_changes_nothing(store: Store) -> None:
    async def add(escalation: NewEscalation, limits: AdmissionLimits) -> tuple[Escalation, bool]:
        async with store.transaction() as tx:
            made, created = await tx.add_escalation(escalation)
            await tx.admit(escalation.bot_id, NOW, limits, opened=created and made.pending)
            return made, created

    await store.add_bot(bot(), "h" * 64)
    limits = AdmissionLimits(max_open=2, per_minute=100, room_queue=0)
    await add(new("e1"), limits)
    await add(new("e2"), limits)
    with pytest.raises(RateLimited) as refused:
        await add(new("e3"), limits)
    assert refused.value.reason == "open_escalations" and refused.value.status == 429 and refused.value.retry_after
    assert await store.get_escalation("e3") is None
    await decide(store, "e1", status="denied", at=NOW, decided_by="U1", source="owner")
    admitted, created = await add(new("e3"), limits)
    assert created and admitted.pending, "a decision frees a place"
    rate = AdmissionLimits(max_open=0, per_minute=2, room_queue=0)
    await store.add_bot(bot("b2"), "g" * 64)
    for i in range(2):
        await add(replace(new(f"r{i}"), bot_id="bot_b2"), rate)
    with pytest.raises(RateLimited) as fast:
        await add(replace(new("r2"), bot_id="bot_b2"), rate)
    assert fast.value.reason == "rate" and await store.get_escalation("r2") is None


async def test_a_full_room_refuses_one_more_card(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    limits = AdmissionLimits(max_open=0, per_minute=0, room_queue=1, room_interval_s=2.0)
    async with store.transaction() as tx:
        await tx.admit_card("C0APPROVE", "bot_b1", limits, NOW)
        await tx.add_escalation(new("e1"), card_status="queued")
        await tx.enqueue("card.post", ref="e1", room="C0APPROVE", at=NOW)
    with pytest.raises(RoomBusy) as busy:
        async with store.transaction() as tx:
            await tx.admit_card("C0APPROVE", "bot_b1", limits, NOW)
            await tx.add_escalation(new("e2"), card_status="queued")
    assert busy.value.reason == "room_queue" and busy.value.retry_after == 2
    assert await store.get_escalation("e2") is None
    async with store.transaction() as tx:
        await tx.admit_card("C0OTHER", "bot_b1", limits, NOW)  # another room has room


async def test_two_person_approval_needs_two_different_people_once(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    await add_escalation(store, replace(new("e1"), approvals_needed=2))
    await add_escalation(store, new("one"))
    async with store.transaction() as tx:
        outcome, first = await tx.approve("e1", actor="U1", at=NOW, source="owner")
    assert outcome == "first" and first is not None and first.pending and first.first_approver == "U1"
    async with store.transaction() as tx:
        outcome, same = await tx.approve("e1", actor="U1", at=NOW, source="owner")
    assert outcome == "same_person" and same is not None and same.pending
    async with store.transaction() as tx:
        outcome, done = await tx.approve("e1", actor="U2", at=NOW, source="owner", reason="ok")
    assert outcome == "approved" and done is not None and (done.status, done.decided_by) == ("approved", "U2")
    async with store.transaction() as tx:
        assert (await tx.approve("e1", actor="U3", at=NOW, source="owner"))[0] == "not_pending"
        assert await tx.approve("nope", actor="U3", at=NOW, source="owner") == ("not_pending", None)
        outcome, single = await tx.approve("one", actor="U1", at=NOW, source="owner")
    assert outcome == "approved" and single is not None and single.decided_by == "U1"


async def test_concurrent_first_approvals_of_two_people_make_one_decision(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    await add_escalation(store, replace(new("e1"), approvals_needed=2))

    async def approve(actor: str) -> str:
        async with store.transaction() as tx:
            return (await tx.approve("e1", actor=actor, at=NOW, source="owner"))[0]

    outcomes = await asyncio.gather(approve("U1"), approve("U2"))
    assert sorted(outcomes) == ["approved", "first"]
    final = await store.get_escalation("e1")
    assert final is not None and final.status == "approved" and final.decided_by != final.first_approver


async def test_cards_their_copies_and_the_fallback_mark(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    async with store.transaction() as tx:
        await tx.add_escalation(new("e1"), card_status="queued")
        await tx.add_escalation(new("e2"))
        queued, plain = await tx.get_escalation("e1"), await tx.get_escalation("e2")
        assert queued is not None and queued.card_status == "queued"
        assert plain is not None and plain.card_status is None
    async with store.transaction() as tx:
        posted = await tx.set_card("e1", status="posted", channel="C0APPROVE", ts="1.000")
    assert posted is not None and (posted.card_status, posted.card_channel, posted.card_ts) == (
        "posted",
        "C0APPROVE",
        "1.000",
    )
    await set_card(store, "e2", "C0APPROVE", "2.000")
    e2 = await store.get_escalation("e2")
    assert e2 is not None and (e2.card_channel, e2.card_ts) == ("C0APPROVE", "2.000")
    async with store.transaction() as tx:
        marked = await tx.mark_fallback("e1", NOW)
        assert marked is not None and marked.fallback_at == NOW
        assert await tx.mark_fallback("e1", NOW + timedelta(minutes=1)) is None, "once"
        await tx.add_card_copy("e1", user="U0FALL01", channel="D0FALL01", ts="3.000", at=NOW)
        await tx.add_card_copy("e1", user="U0FALL02", channel="D0FALL02", ts="4.000", at=NOW + timedelta(seconds=1))
    assert await store.card_copies("e1") == [("D0FALL01", "3.000"), ("D0FALL02", "4.000")]
    assert await store.card_copies("e2") == []
    await decide(store, "e2", status="denied", at=NOW, decided_by="U1", source="owner")
    async with store.transaction() as tx:
        assert await tx.mark_fallback("e2", NOW) is None, "not once decided"


# -- standing approvals and program rules ---------------------------------------------------------------------------
async def test_standing_approvals_are_listed_by_scope_subject_and_liveness(store: Store) -> None:
    await add_standing(store, approval("a_old", "bot", "bot_b1", created_at=NOW - timedelta(minutes=1)))
    await add_standing(store, approval("a_room", "room", "C0APPROVE"))
    async with store.transaction() as tx:
        await tx.add_standing(approval("a_gone", "bot", "bot_b1", expires_at=NOW + timedelta(seconds=1)))
        await tx.audit("standing.created", at=NOW, actor="U0ADMIN01", approval_id="a_gone")
    assert {a.id for a in await store.list_standing()} == {"a_old", "a_room", "a_gone"}
    assert {a.id for a in await store.list_standing(scope="bot", subject="bot_b1")} == {"a_old", "a_gone"}
    later = NOW + timedelta(seconds=2)
    assert {a.id for a in await store.list_standing(live_at=later)} == {"a_old", "a_room"}
    async with store.transaction() as tx:
        assert await tx.revoke_standing("a_room", by="U0ADMIN01", at=NOW)
        assert not await tx.revoke_standing("a_room", by="U0ADMIN01", at=NOW)
        assert not await tx.revoke_standing("nope", by="U0ADMIN01", at=NOW)
    revoked = await store.get_standing("a_room")
    assert revoked is not None and (revoked.revoked_by, revoked.revoked_at) == ("U0ADMIN01", NOW)
    unused = await store.get_standing("a_old")
    assert unused is not None and unused.use_count == 0
    assert await store.get_standing("nope") is None


# -- Slack events, App Home viewers ---------------------------------------------------------------------------------
async def test_a_slack_event_is_claimed_once_even_at_once(store: Store) -> None:
    claims = await asyncio.gather(*(store.claim_event("Ev01", at=NOW) for _ in range(6)))
    assert sorted(claims) == [False] * 5 + [True]
    assert await store.claim_event("Ev02", at=NOW)


async def test_a_claims_unflushed_commit_stays_its_own_and_never_reaches_a_later_transaction(store: Store) -> None:
    # The claim's commit skips the WAL flush (PostgreSQL) for that transaction alone: every pooled connection
    # still commits decisions durably afterwards.
    claims = await asyncio.gather(*(store.claim_event(f"Ev-sync-{i}", at=NOW) for i in range(8)))
    assert all(claims)
    if store.engine.dialect.name != "postgresql":
        return

    async def setting() -> str:
        async with store.transaction() as tx:
            return str((await (await tx.connection()).execute(text("SHOW synchronous_commit"))).scalar_one())

    assert set(await asyncio.gather(*(setting() for _ in range(8)))) == {"on"}


async def test_slack_events_older_than_a_day_are_pruned_so_their_ids_are_new_again(store: Store) -> None:
    assert await store.claim_event("Ev-old", at=NOW - timedelta(days=2))
    assert await store.claim_event("Ev-recent", at=NOW - timedelta(hours=1))
    assert await store.claim_event("Ev-now", at=NOW)  # prunes what is older than a day
    assert await store.claim_event("Ev-old", at=NOW)
    assert not await store.claim_event("Ev-recent", at=NOW)
    assert not await store.claim_event("Ev-now", at=NOW)


async def test_app_home_viewers_are_remembered_once_each_newest_first(store: Store) -> None:
    await store.note_home_viewer("U1", NOW - timedelta(hours=2))
    await store.note_home_viewer("U2", NOW - timedelta(minutes=5))
    await store.note_home_viewer("U1", NOW)  # moves on, not a second row
    assert await store.home_viewers(NOW - timedelta(hours=3)) == ["U1", "U2"]
    assert await store.home_viewers(NOW - timedelta(minutes=1)) == ["U1"]


# -- the outbox -----------------------------------------------------------------------------------------------------
CLAIM = {"interval_s": 1.0, "burst": 1, "lease_s": 60.0, "deadline_s": 120.0}


async def test_a_job_is_claimed_once_then_retried_failed_or_done(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.enqueue("report.dm", ref="r1", room="D1", at=NOW, payload={"text": "hi"})
        await tx.enqueue("report.dm", ref="r2", room="D2", at=NOW, due_at=NOW + timedelta(minutes=5))
        assert await tx.may_claim(NOW)
        stats = await tx.queue_stats(NOW)
    assert stats["report.dm"][0] == 1, "a job scheduled later is not waiting yet"
    claim = await store.claim_job(NOW, **CLAIM)
    job = claim.job
    assert job is not None and (job.kind, job.ref, job.room, job.payload, job.attempts) == (
        "report.dm",
        "r1",
        "D1",
        {"text": "hi"},
        1,
    )
    assert claim.more_due is False and claim.ready_at is not None
    assert (await store.claim_job(NOW, **CLAIM)).job is None, "leased; the other is not due"
    async with store.transaction() as tx:
        await tx.job_retry(job.id, due_at=NOW + timedelta(seconds=30), error="timeout", uncertain=True)
    assert await store.next_job_due(NOW) == NOW + timedelta(seconds=30)
    again = (await store.claim_job(NOW + timedelta(seconds=31), **CLAIM)).job
    assert again is not None and again.id == job.id and again.uncertain and again.attempts == 2
    async with store.transaction() as tx:
        await tx.job_failed(again.id, NOW + timedelta(seconds=31), "channel_not_found")
    later = NOW + timedelta(minutes=6)
    last = (await store.claim_job(later, **CLAIM)).job
    assert last is not None and last.ref == "r2"
    await store.job_done(last.id, later)
    assert (await store.claim_job(later + timedelta(hours=1), **CLAIM)).job is None
    assert await store.next_job_due(later) is None
    async with store.transaction() as tx:
        assert not await tx.may_claim(later)
        await tx.prune_jobs(later + timedelta(days=1))
        assert await tx.queue_stats(later) == {} or all(n == 0 for n, _ in (await tx.queue_stats(later)).values())


async def test_a_rooms_pace_and_pause_hold_its_jobs_back(store: Store) -> None:
    async with store.transaction() as tx:
        for ref in ("a", "b"):
            await tx.enqueue("report.dm", ref=ref, room="D1", at=NOW)
        await tx.enqueue("report.dm", ref="c", room="D2", at=NOW)
    first = (await store.claim_job(NOW, **CLAIM)).job
    assert first is not None and first.ref == "a"
    second = (await store.claim_job(NOW, **CLAIM)).job
    assert second is not None and second.room == "D2", "D1 waits for its pace; D2 may send"
    assert (await store.claim_job(NOW, **CLAIM)).job is None
    assert await store.next_job_due(NOW) == NOW + timedelta(seconds=1)
    async with store.transaction() as tx:
        await tx.pause_room("D1", NOW + timedelta(seconds=10), NOW)
    assert (await store.claim_job(NOW + timedelta(seconds=2), **CLAIM)).job is None, "Slack said wait"
    resumed = (await store.claim_job(NOW + timedelta(seconds=10), **CLAIM)).job
    assert resumed is not None and resumed.ref == "b"


async def test_home_refreshes_fold_into_one_waiting_job(store: Store) -> None:
    for _ in range(3):
        async with store.transaction() as tx:
            await tx.refresh_homes(NOW)
    job = (await store.claim_job(NOW, **CLAIM)).job
    assert job is not None and job.kind == "home.refresh"
    async with store.transaction() as tx:
        await tx.refresh_homes(NOW)  # the claimed one may have read too early: one more
        await tx.job_done(job.id, NOW)
    again = (await store.claim_job(NOW + timedelta(seconds=5), **CLAIM)).job
    assert again is not None and again.kind == "home.refresh"
    assert (await store.claim_job(NOW + timedelta(seconds=10), **CLAIM)).job is None


async def test_notices_fold_are_posted_and_overdue_ones_are_told(store: Store) -> None:
    async with store.transaction() as tx:
        key = await tx.fold_notice(
            room="C0NOTICE", bot_id="bot_b1", at=NOW, window_s=60.0, item={"n": 3}, approvals=[{"id": "sa_3"}]
        )
    assert key.startswith("C0NOTICE bot_b1 ")
    claim = await store.claim_job(NOW, **CLAIM)
    assert claim.job is not None and claim.job.kind == "notice"
    async with store.transaction() as tx:
        notice = await tx.get_notice(claim.job.ref)
    assert notice is not None and notice.room == "C0NOTICE" and notice.bot_id == "bot_b1"
    assert notice.channel is None and notice.ts is None
    async with store.transaction() as tx:
        await tx.notice_posted(notice.id, "C0NOTICE", "9.000")
        await tx.job_done(claim.job.id, NOW)
        posted = await tx.get_notice(notice.id)
        assert await tx.get_notice("ntc_missing") is None
    assert posted is not None and (posted.channel, posted.ts) == ("C0NOTICE", "9.000")
    async with store.transaction() as tx:
        await tx.fold_notice(room="C0LATE", bot_id="bot_b1", at=NOW, window_s=60.0, item={}, approvals=[])
    async with store.transaction() as tx:
        assert not await tx.notices_overdue("C0LATE", NOW)
        assert not await tx.notices_overdue("C0NOTICE", NOW + timedelta(days=1))
    late = (await store.claim_job(NOW, **{**CLAIM, "deadline_s": 5.0})).job
    assert late is not None and late.room == "C0LATE"
    async with store.transaction() as tx:
        await tx.job_retry(late.id, due_at=NOW + timedelta(seconds=1), error="timeout", uncertain=False)
    async with store.transaction() as tx:
        assert await tx.notices_overdue("C0LATE", NOW + timedelta(seconds=6))


# -- blocked-host reports -------------------------------------------------------------------------------------------
def report(report_id: str, host: str = "ci-1", at: datetime = NOW) -> NewReport:
    return NewReport(
        id=report_id,
        bot_id="bot_b1",
        host=host,
        session_id="s",
        mode="contained",
        missing=("bubblewrap",),
        unlock=(
            UnlockOption(id="install-bubblewrap", text="Install bubblewrap", command="apt-get install bubblewrap"),
        ),
        at=at,
        source="api",
    )


async def test_reports_fold_per_host_are_decided_once_and_resolved_by_the_host(store: Store) -> None:
    await store.add_bot(bot(), "h" * 64)
    async with store.transaction() as tx:
        first, created = await tx.record_report(report("rep_1"))
        again, created_again = await tx.record_report(report("rep_2", at=NOW + timedelta(seconds=5)))
        other, _ = await tx.record_report(report("rep_3", host="ci-2"))
        assert (await tx.get_report("rep_1")) == again
    assert created and not created_again and again.id == "rep_1" and again.count == 2 and again.last_seen > NOW
    assert [r.id for r in await store.open_reports("bot_b1")] == ["rep_1", "rep_3"]
    async with store.transaction() as tx:
        assert [r.id for r in await tx.open_reports("bot_b1")] == ["rep_1", "rep_3"]
        with_dm = await tx.report_dm_posted("rep_1", "D0OWNER", "5.000")
    assert with_dm is not None and with_dm.dms == (("D0OWNER", "5.000"),)
    async with store.transaction() as tx:
        decided = await tx.decide_report(
            "rep_1", status="approved_bot", at=NOW, decided_by="U0OWNER01", source="owner", grant_on_host=True
        )
        assert await tx.decide_report("rep_1", status="approved_turn", at=NOW, decided_by="U2", source="owner") is None
    assert decided is not None and decided.status == "approved_bot" and decided.grant_on_host
    async with store.transaction() as tx:
        resolved = await tx.resolve_open_report("bot_b1", "ci-2", at=NOW)
        assert await tx.resolve_open_report("bot_b1", "ci-2", at=NOW) is None
    assert resolved is not None and resolved.status == "resolved" and resolved.decision_source == "host"
    assert await store.reports_decided_among(["rep_1", "rep_3", "rep_x"]) >= {"rep_1", "rep_3"}
    assert await store.open_reports("bot_b1") == []
    shared = await store.get_report_shared("rep_1")
    assert shared is not None and shared == await store.get_report("rep_1")
    assert await store.get_report("rep_x") is None
    async with store.transaction() as tx:
        fresh, created = await tx.record_report(report("rep_4"))
    assert created and fresh.id == "rep_4", "a decided report no longer folds new ones"
