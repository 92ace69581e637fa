"""A PostgreSQL group written in ONE statement (bot.store.group.write_group_at_once, issue 10: a group of auto-answers
was 7 round trips): the same rows, the same limits across replicas, one notice job per waiting notice, nothing half
written; groups that need a transaction still get one."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text

from bot.store import Bot, Escalation, NewEscalation, StandingApproval, Store, Tx, open_store
from bot.store.admission import AdmissionLimits, Refused
from bot.store.models import BotRequestCountRow, OutboxJobRow, RoomNoticeRow, StandingApprovalRow
from bot.store.records import Decision
from tests.pg import migrated_store

NOW = datetime.now(UTC).replace(second=1)
BOT = Bot(id="bot_o1", name="o1", owners=("U0OWNER01",), room="C0ONCE", created_at=NOW)
APPROVAL = StandingApproval(
    id="sa_o1", scope="bot", subject=BOT.id, bot_id=BOT.id, pattern="apt-get install", max_risk="system",
    contained_only=True, created_by="U0OWNER01", created_at=NOW)
OTHER = StandingApproval(
    id="sa_o2", scope="bot", subject=BOT.id, bot_id=BOT.id, pattern="apt-get install -y", max_risk="system",
    contained_only=True, created_by="U0OWNER02", created_at=NOW)
LIMITS = AdmissionLimits(max_open=20, per_minute=1000)


async def prepared(url: str) -> Store:
    s = await open_store(url)
    s.notice_deadlines.keep_s = 60.0  # as the app does (1 s): a group need not read the room's notice deadline
    return s


@pytest.fixture(params=["sqlite", "postgresql"])
async def url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    async with migrated_store(request.param, tmp_path) as made:
        s = await open_store(made)
        try:
            await s.add_bot(BOT, "o" * 64)
            await s.add_standing(APPROVAL)
            await s.add_standing(OTHER)
        finally:
            await s.close()
        yield made


@pytest.fixture
async def store(url: str) -> AsyncIterator[Store]:
    s = await prepared(url)
    try:
        yield s
    finally:
        await s.close()


def postgres_only(store: Store) -> None:
    if store.engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL: SQLite groups are one transaction of its own connection, in the loop's thread")


def new(escalation_id: str, *, at: datetime = NOW, key: str | None = None) -> NewEscalation:
    return NewEscalation(
        id=escalation_id, bot_id=BOT.id, session_id="s", command="apt-get install -y jq ‘é’", cwd="/w",
        file_policy="workspace-write", approval_policy="ask", contained=True, justification=None, room=BOT.room,
        risk="system", reasons=("installs a package",), created_at=at, expires_at=at + timedelta(minutes=10),
        idempotency_key=key, approvals_needed=1)


def auto(escalation_id: str, *, limits: AdmissionLimits | None = LIMITS, room: str = BOT.room,  # type: ignore[no-untyped-def]
         approval: StandingApproval = APPROVAL, key: str | None = None):
    """The service's auto-answer (bot.escalations._create): the notice deadline, admission, the row, its audit rows,
    the use count and the fold."""

    async def op(tx: Tx) -> Escalation:
        assert not await tx.notices_overdue(room, NOW)
        decision = Decision("approved", NOW, "U0OWNER01", "standing_approval", "standing approval", approval.id)
        escalation, created = await tx.add_escalation(new(escalation_id, key=key), limits=limits, decision=decision)
        if not created:
            return escalation
        await tx.audit("escalation.created", at=NOW, escalation_id=escalation_id, actor=BOT.id)
        await tx.count_standing_use([approval.id], at=NOW)
        await tx.audit("escalation.approved", at=NOW, escalation_id=escalation_id, source="standing_approval")
        await tx.fold_notice(room=room, bot_id=BOT.id, at=NOW, window_s=3600.0,
                             item={"escalation_id": escalation_id, "command": "apt-get install -y jq",
                                   "contained": True},
                             approvals=[{"id": approval.id, "scope": "bot", "pattern": "apt-get", "created_by": "U0"}])
        return escalation

    return op


def card(escalation_id: str, *, limits: AdmissionLimits = LIMITS):  # type: ignore[no-untyped-def]
    """The service's card escalation: pending, counted as open, its room's queue checked, its card job."""

    async def op(tx: Tx) -> Escalation:
        escalation, _ = await tx.add_escalation(new(escalation_id), card_status="queued", limits=limits)
        await tx.audit("escalation.created", at=NOW, escalation_id=escalation_id, actor=BOT.id)
        await tx.admit_card(BOT.room, BOT.id, limits, NOW)
        await tx.enqueue("card.post", ref=escalation_id, room=BOT.room, at=NOW)
        return escalation

    return op


async def scalars(store: Store, stmt: Any) -> list[Any]:
    async with store.transaction(write=False) as tx:
        return list((await tx.session.execute(stmt)).scalars())


async def test_a_group_of_auto_answers_on_postgresql_is_one_round_trip(store: Store) -> None:
    postgres_only(store)
    await store.grouped(auto("esc_w"), order=BOT.id)  # connects, and reads the room's notice deadline once
    db = await store.group_db()
    sent, at_once = db.statements, store.group_commits_at_once  # type: ignore[attr-defined]
    answered = await asyncio.gather(*(store.grouped(auto(f"esc_{i}"), order=BOT.id) for i in range(8)))
    assert db.statements - sent == 1, "BEGIN, counters, rows, use count, notice, COMMIT: all in one statement"  # type: ignore[attr-defined]
    assert store.group_commits_at_once - at_once == 1
    assert [await store.get_escalation(f"esc_{i}") for i in range(8)] == answered
    assert all(e.status == "approved" for e in answered)
    assert [e.event for e in await store.audit_log("esc_3")] == ["escalation.created", "escalation.approved"]
    assert sum(await scalars(store, select(BotRequestCountRow.count))) == 9
    assert [a.use_count for a in await scalars(store, select(StandingApprovalRow).where(
        StandingApprovalRow.id == APPROVAL.id))] == [9]
    notices = await scalars(store, select(RoomNoticeRow))
    assert [(n.count, [i["escalation_id"] for i in n.items]) for n in notices] == [
        (9, [f"esc_{i}" for i in range(3, 8)])]
    jobs = await scalars(store, select(OutboxJobRow))
    assert [(j.kind, j.ref) for j in jobs] == [("notice", notices[0].id)], "the notice's job, written once"


async def raw_notice(store: Store, room: str) -> tuple[str, str, int]:
    """The notice's items and approvals as stored (their JSON text) and its count."""
    cast = "::text" if store.engine.dialect.name == "postgresql" else ""
    async with store.engine.connect() as conn:
        row = (await conn.execute(text(f"SELECT items{cast}, approvals{cast}, count FROM room_notices "
                                       "WHERE room = :room"), {"room": room})).one()
    return str(row[0]), str(row[1]), int(row[2])


async def test_folded_items_and_approvals_are_stored_as_the_orm_folds_them(store: Store) -> None:
    """The one statement merges a notice's items (the latest five) and approvals (new ids after the known ones) in
    SQL: the text stored is the text the ORM's fold (json.dumps of the merged lists) stores."""
    approvals = [{"id": f"sa_{n}", "scope": "bot", "pattern": f"pât {n} \"q\" \\", "created_by": "U0"} for n in range(4)]

    def folds(group: int) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
        return [({"escalation_id": f"esc_{group}_{i}", "command": f"apt-get install -y jq-ü ‘{i}’ 😀 \u202e",
                  "contained": i % 2 == 0}, approvals[(group + i) % 4:(group + i) % 4 + 2]) for i in range(3)]

    for group in range(4):
        for item, shown in folds(group):
            async with store.transaction() as tx:
                await tx.fold_notice(room="C0ORM", bot_id=BOT.id, at=NOW, window_s=3600.0, item=item, approvals=shown)

        async def fold_all(tx: Tx, group: int = group) -> None:
            for item, shown in folds(group):
                await tx.fold_notice(room="C0GRP", bot_id=BOT.id, at=NOW, window_s=3600.0, item=item,
                                     approvals=shown)

        await store.grouped(fold_all)
    by_orm, by_group = await raw_notice(store, "C0ORM"), await raw_notice(store, "C0GRP")
    assert by_group == by_orm
    items, shown, count = by_group
    assert count == 12 and json.dumps(json.loads(items)) == items and json.dumps(json.loads(shown)) == shown
    assert [i["escalation_id"] for i in json.loads(items)] == ["esc_2_1", "esc_2_2", "esc_3_0", "esc_3_1", "esc_3_2"]
    assert [a["id"] for a in json.loads(shown)] == ["sa_0", "sa_1", "sa_2", "sa_3"]
    if store.engine.dialect.name == "postgresql":
        assert store.group_commits_at_once == 4


async def test_auto_answers_on_two_replicas_are_counted_exactly(url: str) -> None:
    """The one statement admits a group as if the store held no earlier request, and has the store refuse it when the
    Bot's counter row says otherwise: then the group runs in a transaction, which counts exactly."""
    limits = AdmissionLimits(max_open=0, per_minute=5)
    a, b = await prepared(url), await prepared(url)
    try:
        first = await asyncio.gather(*(a.grouped(auto(f"esc_a{i}", limits=limits), order=BOT.id) for i in range(3)))
        second = await asyncio.gather(*(b.grouped(auto(f"esc_b{i}", limits=limits), order=BOT.id) for i in range(3)),
                                      return_exceptions=True)
        assert all(isinstance(e, Escalation) for e in first)
        refused = [r for r in second if isinstance(r, Refused)]
        assert len(refused) == 1 and refused[0].reason == "rate"
        assert sum(1 for r in second if isinstance(r, Escalation)) == 2
        assert sum(await scalars(a, select(BotRequestCountRow.count))) == 5
        notices = await scalars(a, select(RoomNoticeRow))
        assert [n.count for n in notices] == [5]
        if a.engine.dialect.name == "postgresql":
            assert (a.group_commits_at_once, b.group_commits_at_once) == (1, 0)
            assert b.group_commits == 1, "refused by the store, then one transaction"
    finally:
        await a.close()
        await b.close()


async def test_two_replicas_folding_at_once_write_one_notice_job(url: str) -> None:
    """Two replicas fold into one notice whose job was claimed: both wait for the notice row, and the second's job
    lookup (a statement after the row's lock, so it sees the first's job) writes no second job."""
    a, b = await prepared(url), await prepared(url)
    try:
        if a.engine.dialect.name != "postgresql":
            pytest.skip("PostgreSQL: two replicas' groups at once (SQLite has one writer)")
        await a.grouped(auto("esc_0"), order=BOT.id)
        async with a.transaction() as tx:
            claimed = await tx.claim_job(NOW + timedelta(seconds=1), interval_s=1.0, burst=3, lease_s=60.0,
                                         deadline_s=120.0)
        assert claimed is not None and claimed.kind == "notice"
        async with a.engine.connect() as holder:  # a third writer holds the notice row
            await holder.execute(text("UPDATE room_notices SET updated_at = updated_at WHERE id = :id"),
                                 {"id": claimed.ref})
            # No admission, and two standing approvals: the Bot's counter row and the approval's, locked before the
            # notice's, would queue the second group behind the first.
            both = asyncio.gather(a.grouped(auto("esc_a", limits=None), order=BOT.id),
                                  b.grouped(auto("esc_b", limits=None, approval=OTHER), order=BOT.id))
            await asyncio.sleep(0.5)
            async with a.engine.connect() as look:
                waiting = (await look.execute(text(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND query LIKE '%flybot_group%'"))).scalar_one()
            assert waiting == 2, "both replicas' statements wait for the notice row"
            await holder.commit()
        await asyncio.wait_for(both, 10)
        jobs = await scalars(a, select(OutboxJobRow).where(OutboxJobRow.kind == "notice").order_by(OutboxJobRow.id))
        assert [(j.ref, j.claimed_until is None) for j in jobs] == [(claimed.ref, False), (claimed.ref, True)]
        assert [n.count for n in await scalars(a, select(RoomNoticeRow))] == [3]
        assert (a.group_commits_at_once, b.group_commits_at_once) == (2, 1)
    finally:
        await a.close()
        await b.close()


async def test_a_group_cut_off_in_its_statement_wrote_nothing_and_its_requests_commit_again(store: Store) -> None:
    """The connection is lost while the one statement waits: nothing of the group is written (one implicit
    transaction), and the retry rules run each request again, alone, on a new connection."""
    postgres_only(store)
    await store.grouped(auto("esc_0"), order=BOT.id)
    async with store.engine.connect() as holder:
        await holder.execute(text("UPDATE room_notices SET updated_at = updated_at"))
        both = asyncio.gather(*(store.grouped(auto(f"esc_{i}"), order=BOT.id) for i in (1, 2)))
        await asyncio.sleep(0.3)
        async with store.engine.connect() as cut:
            killed = (await cut.execute(text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND query LIKE '%flybot_group%'"))).scalars().all()
        assert killed == [True]
        await holder.rollback()
    answered = await asyncio.wait_for(both, 10)
    assert [await store.get_escalation(f"esc_{i}") for i in (1, 2)] == answered
    assert sum(await scalars(store, select(BotRequestCountRow.count))) == 3
    assert [n.count for n in await scalars(store, select(RoomNoticeRow))] == [3]
    assert [a.use_count for a in await scalars(store, select(StandingApprovalRow).where(
        StandingApprovalRow.id == APPROVAL.id))] == [3]


async def test_a_group_that_needs_its_transaction_gets_one(store: Store) -> None:
    """A card escalation (its room locked, its open count and room queue read under the locks) with auto-answers in
    one group; and auto-answers whose limit the group itself reaches: both commit in a transaction, exactly."""
    results = await asyncio.gather(
        store.grouped(card("esc_card"), order=BOT.id, lock=f"flybot-room:{BOT.room}"),
        *(store.grouped(auto(f"esc_{i}"), order=BOT.id) for i in range(3)))
    assert [e.status for e in results] == ["pending", "approved", "approved", "approved"]
    assert await scalars(store, select(OutboxJobRow.kind).order_by(OutboxJobRow.id)) == ["card.post", "notice"]
    tight = AdmissionLimits(max_open=20, per_minute=6)
    rated = await asyncio.gather(*(store.grouped(auto(f"esc_r{i}", limits=tight), order=BOT.id) for i in range(4)),
                                 return_exceptions=True)
    assert [isinstance(r, Refused) for r in rated] == [False, False, True, True]
    assert sum(await scalars(store, select(BotRequestCountRow.count))) == 6
    assert store.group_commits_at_once == 0


async def test_a_groups_idempotency_keys_are_looked_up_in_one_statement(store: Store) -> None:
    """Clients send a key with every request: the group reads all its keys at once (one round trip, not one per
    request), a key committed earlier is found, and a key another replica commits after that read still ends in
    one escalation (the insert fails on the unique key, the group runs again and finds it)."""
    postgres_only(store)
    first = await store.grouped(auto("esc_k0", key="k0"), order=BOT.id, key=(BOT.id, "k0"))
    db = await store.group_db()
    sent = db.statements  # type: ignore[attr-defined]
    answered = await asyncio.gather(
        *(store.grouped(auto(f"esc_k{i}", key=f"k{i}"), order=BOT.id, key=(BOT.id, f"k{i}")) for i in range(8)))
    assert db.statements - sent == 2, "the group's keys in one statement, then the group in one"  # type: ignore[attr-defined]
    assert answered[0] == first and [e.id for e in answered] == [f"esc_k{i}" for i in range(8)]
    assert [n.count for n in await scalars(store, select(RoomNoticeRow))] == [8], "the repeated request wrote nothing"

    other = await open_store(store.engine.url.render_as_string(hide_password=False))
    raced = False

    async def racing(tx: Tx) -> Escalation:
        nonlocal raced
        if not raced:  # the group has read its keys: another replica commits this one now
            raced = True
            await other.add_escalation(new("theirs", key="k9"))
        return await auto("mine", key="k9")(tx)

    try:
        mine, neighbour = await asyncio.gather(store.grouped(racing, order=BOT.id, key=(BOT.id, "k9")),
                                               store.grouped(auto("esc_n", key="kn"), order=BOT.id, key=(BOT.id, "kn")))
    finally:
        await other.close()
    assert mine.id == "theirs" and await store.get_escalation("mine") is None
    assert neighbour == await store.get_escalation("esc_n")


async def test_a_role_that_may_not_make_temporary_objects_still_commits_groups_in_transactions(tmp_path: Path) -> None:
    """``pg_temp.flybot_group`` needs the TEMPORARY privilege: a database that withholds it gets every group in a
    transaction, as before (a warning at connect), not a failing request."""
    import uuid

    import asyncpg
    from sqlalchemy import make_url

    from tests.pg import throwaway_database

    role = f"flybot_notemp_{uuid.uuid4().hex[:8]}"
    async with throwaway_database() as made:
        s = await open_store(made, migrate=True)
        await s.add_bot(BOT, "o" * 64)
        await s.add_standing(APPROVAL)
        await s.close()
        plain = made.replace("postgresql+asyncpg://", "postgresql://", 1)
        admin = await asyncpg.connect(plain)
        try:
            name = plain.rsplit("/", 1)[1]
            await admin.execute(f"CREATE ROLE {role} LOGIN")
            await admin.execute(f'REVOKE TEMPORARY ON DATABASE "{name}" FROM PUBLIC')
            await admin.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
            await admin.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}")
            await admin.execute(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {role}")
            as_role = make_url(made).set(username=role, password=None).render_as_string(hide_password=False)
            restricted = await prepared(as_role)
            try:
                answered = await asyncio.gather(*(restricted.grouped(auto(f"esc_t{i}"), order=BOT.id) for i in range(3)))
                assert [await restricted.get_escalation(f"esc_t{i}") for i in range(3)] == answered
                assert (restricted.group_commits, restricted.group_commits_at_once) == (1, 0)
            finally:
                await restricted.close()
        finally:
            await admin.execute(f"DROP OWNED BY {role}")
            await admin.execute(f"DROP ROLE {role}")
            await admin.close()


async def test_approvals_the_servers_json_cannot_read_as_text_are_folded_in_a_transaction(tmp_path: Path) -> None:
    """The one statement reads a notice's approval ids with ``->>``, which decodes every string of the approval: on a
    ``SQL_ASCII`` database a non-ASCII escape fails it (an approval made with ``flybot standing``, whose actor is
    ``operator:<login>``). Such a notice is folded in a transaction, and stored as the ORM stores it (review: the
    second fold of the notice failed every time, on each retry alone too: a 500 for each auto-answer)."""
    from tests.pg import throwaway_database

    made_by = StandingApproval(
        id="sa_op", scope="bot", subject=BOT.id, bot_id=BOT.id, pattern="apt-get install", max_risk="system",
        contained_only=True, created_by="operator:josé", created_at=NOW)
    shown = [{"id": made_by.id, "scope": "bot", "pattern": made_by.pattern, "created_by": made_by.created_by}]

    async def fold(tx: Tx, room: str, n: int) -> None:
        await tx.fold_notice(room=room, bot_id=BOT.id, at=NOW, window_s=3600.0, approvals=shown,
                             item={"escalation_id": f"esc_{n}", "command": "apt-get install -y jq", "contained": True})

    async with throwaway_database(encoding="SQL_ASCII") as made:
        s = await open_store(made, migrate=True)
        await s.add_bot(BOT, "o" * 64)
        await s.add_standing(made_by)
        await s.close()
        store = await prepared(made)
        try:
            for n in range(3):
                async with store.transaction() as tx:
                    await fold(tx, "C0ORM", n)
                await store.grouped(lambda tx, n=n: fold(tx, "C0GRP", n))  # type: ignore[misc]
            assert await raw_notice(store, "C0GRP") == await raw_notice(store, "C0ORM")
            assert (await raw_notice(store, "C0GRP"))[2] == 3
            assert (store.group_commits, store.group_commits_at_once) == (3, 1), "the first fold inserts the notice"
        finally:
            await store.close()


async def test_a_request_alone_in_its_group_whose_key_another_replica_just_committed_gets_that_escalation(
        store: Store) -> None:
    """A client's retry of a request with its Idempotency-Key reaches another replica while the first still runs: each
    is alone in its group, both read the key before either commits, and the second's insert fails on the unique key.
    Its group runs once more and finds the first's escalation (review: only a group of several ran again, and a
    group of one handed the IntegrityError over, a 500 to the client)."""
    postgres_only(store)
    other = await open_store(store.engine.url.render_as_string(hide_password=False))
    raced = False

    async def racing(tx: Tx) -> Escalation:
        nonlocal raced
        if not raced:  # the group has read its key: another replica commits the same key now
            raced = True
            await other.add_escalation(new("theirs", key="k1"))
        return await auto("mine", key="k1")(tx)

    try:
        mine = await store.grouped(racing, order=BOT.id, key=(BOT.id, "k1"))
    finally:
        await other.close()
    assert mine.id == "theirs" and await store.get_escalation("mine") is None
    assert sum(await scalars(store, select(BotRequestCountRow.count))) == 0, "the retry of an accepted request"


async def test_a_session_that_lost_its_group_function_writes_groups_in_transactions(store: Store) -> None:
    """``pg_temp.flybot_group`` lives in the group writer's session: a session that lost it (``DISCARD TEMP``, or a
    pooler in transaction mode, which runs each statement on some server session) gets its groups in transactions,
    not a 500 for every auto-answer (review: the call failed, and each request alone again the same way)."""
    postgres_only(store)
    await store.grouped(auto("esc_0"), order=BOT.id)
    assert store.group_commits_at_once == 1
    db = await store.group_db()
    await db._conn.execute("DISCARD TEMP")  # type: ignore[attr-defined]  # the writer's own session, as a pooler's
    answered = await asyncio.gather(*(store.grouped(auto(f"esc_{i}"), order=BOT.id) for i in range(1, 4)))
    answered.append(await store.grouped(auto("esc_4"), order=BOT.id))
    assert [await store.get_escalation(f"esc_{i}") for i in range(1, 5)] == answered
    assert all(e.status == "approved" for e in answered)
    assert (store.group_commits, store.group_commits_at_once) == (3, 1), "in transactions from then on"
    assert [n.count for n in await scalars(store, select(RoomNoticeRow))] == [5]
