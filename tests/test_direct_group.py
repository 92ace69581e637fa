"""The group commit's direct driver path (bot.store.direct): rows as the ORM writes them, errors as SQLAlchemy's."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from bot.store import Bot, Escalation, NewEscalation, StandingApproval, Store, Tx, open_store
from bot.store.direct import sqlite_time
from bot.store.models import AuditRow, OutboxJobRow, RoomNoticeRow, StandingApprovalRow
from bot.store.records import Decision
from tests.pg import migrated_store

NOW = datetime(2026, 11, 30, 21, 5, 7, 4321, tzinfo=UTC)
BOT = Bot(id="bot_d1", name="d1", owners=("U0OWNER01",), room="C0APPROVE", created_at=NOW)
APPROVAL = StandingApproval(
    id="sa_d1", scope="bot", subject=BOT.id, bot_id=BOT.id, pattern="apt-get install", max_risk="system",
    contained_only=True, created_by="U0OWNER01", created_at=NOW)


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async with migrated_store(request.param, tmp_path) as url:
        s = await open_store(url)
        try:
            await s.add_bot(BOT, "d" * 64)
            await s.add_standing(APPROVAL)
            yield s
        finally:
            await s.close()


def new(escalation_id: str, key: str | None = None) -> NewEscalation:
    return NewEscalation(
        id=escalation_id, bot_id=BOT.id, session_id="s", command="apt-get install -y jq ‘é’", cwd="/w",
        file_policy="workspace-write", approval_policy="ask", contained=True, justification="needs «jq»",
        room="C0APPROVE", risk="system", reasons=("installs a package", "ünïcode"), created_at=NOW,
        expires_at=NOW + timedelta(minutes=10), idempotency_key=key, approvals_needed=1,
    )


async def answer(tx: Tx, escalation_id: str, room: str, key: str | None = None) -> Escalation:
    """What the service does for an auto-answer (bot.escalations), through ``tx`` (alone or in a group)."""
    decision = Decision("approved", NOW, "U0OWNER01", "standing_approval", "standing approval sa_d1", APPROVAL.id)
    escalation, _created = await tx.add_escalation(new(escalation_id, key), decision=decision)
    await tx.audit("escalation.approved", at=NOW, escalation_id=escalation_id, actor="U0OWNER01",
                   source="standing_approval", standing_ids=[APPROVAL.id], nested={"ü": [1, None, True, 2.5]})
    await tx.count_standing_use([APPROVAL.id], at=NOW)
    await tx.enqueue("tell", ref=escalation_id, room=room, at=NOW, payload={"text": "ok ✓", "n": [1, 2]},
                     due_at=NOW + timedelta(seconds=3))
    await tx.fold_notice(room=room, bot_id=BOT.id, at=NOW, window_s=60.0,
                         item={"escalation_id": escalation_id, "command": "apt-get install -y jq", "contained": True},
                         approvals=[{"id": APPROVAL.id, "scope": "bot", "pattern": "apt-get", "created_by": "U0"}])
    return escalation


async def raw_rows(store: Store, table: str, where: str, skip: set[str]) -> list[dict[str, Any]]:
    """The rows as stored (on PostgreSQL each column as its text form), without the columns in ``skip``."""
    async with store.engine.connect() as conn:
        columns = [c for c in (await conn.exec_driver_sql(f"SELECT * FROM {table} LIMIT 0")).keys() if c not in skip]
        listed = ", ".join(f'"{c}"::text' if store.engine.dialect.name == "postgresql" else f'"{c}"' for c in columns)
        found = await conn.exec_driver_sql(f"SELECT {listed} FROM {table} WHERE {where}")
        return [dict(zip(columns, row, strict=True)) for row in found]


async def test_rows_written_by_a_group_are_stored_exactly_as_the_orm_stores_them(store: Store) -> None:
    async with store.transaction() as tx:
        by_orm = await answer(tx, "esc_orm", "C0ORM")
    by_group = await store.grouped(lambda tx: answer(tx, "esc_grp", "C0GRP"))

    assert by_group == dataclasses.replace(by_orm, id="esc_grp")
    assert await store.get_escalation("esc_grp") == by_group and await store.get_escalation("esc_orm") == by_orm
    skip_id = {"id"}
    assert (await raw_rows(store, "escalations", "id = 'esc_grp'", skip_id)
            == await raw_rows(store, "escalations", "id = 'esc_orm'", skip_id))
    assert (await raw_rows(store, "audit", "escalation_id = 'esc_grp'", {"id", "escalation_id"})
            == await raw_rows(store, "audit", "escalation_id = 'esc_orm'", {"id", "escalation_id"}))
    assert (await raw_rows(store, "outbox_jobs", "room = 'C0GRP'", {"id", "ref", "room"})
            == await raw_rows(store, "outbox_jobs", "room = 'C0ORM'", {"id", "ref", "room"}))
    notice_skip = {"id", "open_key", "room", "items"}
    assert (await raw_rows(store, "room_notices", "room = 'C0GRP'", notice_skip)
            == await raw_rows(store, "room_notices", "room = 'C0ORM'", notice_skip))
    async with store.transaction(write=False) as tx:
        audits = (await tx.session.execute(select(AuditRow).order_by(AuditRow.id))).scalars().all()
        assert [a.detail for a in audits if a.escalation_id == "esc_grp"] == [
            a.detail for a in audits if a.escalation_id == "esc_orm"]
        assert [a.at for a in audits if a.escalation_id == "esc_grp"] == [NOW]
        jobs = (await tx.session.execute(select(OutboxJobRow).order_by(OutboxJobRow.id))).scalars().all()
        assert {(j.kind, j.room, j.payload.get("text")) for j in jobs} == {
            ("tell", "C0ORM", "ok ✓"), ("notice", "C0ORM", None), ("tell", "C0GRP", "ok ✓"), ("notice", "C0GRP", None)}
        assert all(j.due_at.tzinfo is not None for j in jobs)
        used = await tx.session.get(StandingApprovalRow, APPROVAL.id)
        assert used is not None and used.use_count == 2 and used.last_used_at == NOW


async def test_a_second_group_folds_into_the_notice_and_writes_no_second_job_while_one_waits(store: Store) -> None:
    await asyncio.gather(*(store.grouped(lambda tx, i=i: answer(tx, f"esc_f{i}", "C0FOLD")) for i in range(3)))
    await store.grouped(lambda tx: answer(tx, "esc_f3", "C0FOLD"))
    async with store.transaction(write=False) as tx:
        notices = (await tx.session.execute(select(RoomNoticeRow))).scalars().all()
        jobs = (await tx.session.execute(
            select(OutboxJobRow).where(OutboxJobRow.kind == "notice"))).scalars().all()
    assert [(n.count, [i["escalation_id"] for i in n.items], len(n.approvals)) for n in notices] == [
        (4, ["esc_f0", "esc_f1", "esc_f2", "esc_f3"], 1)]
    assert len(jobs) == 1 and jobs[0].ref == notices[0].id, "one job per notice while one waits unclaimed"


async def test_a_repeated_idempotency_key_finds_the_committed_escalation_as_the_orm_reads_it(store: Store) -> None:
    first = await store.grouped(lambda tx: answer(tx, "esc_k1", "C0KEY", key="key-1"))

    async def again(tx: Tx) -> tuple[Escalation, bool]:
        return await tx.add_escalation(new("esc_k2", "key-1"))

    found, created = await store.grouped(again)
    assert not created and found == first == await store.get_escalation("esc_k1")
    assert await store.get_escalation("esc_k2") is None


async def test_a_driver_integrity_error_fails_only_its_own_request_as_sqlalchemys_error(store: Store) -> None:
    await store.grouped(lambda tx: answer(tx, "esc_dup", "C0DUP"))
    results = await asyncio.gather(
        store.grouped(lambda tx: answer(tx, "esc_dup", "C0DUP")),  # the same id again: the PRIMARY KEY refuses it
        store.grouped(lambda tx: answer(tx, "esc_ok", "C0DUP")), return_exceptions=True)
    assert isinstance(results[0], IntegrityError)
    assert isinstance(results[1], Escalation) and await store.get_escalation("esc_ok") == results[1]


async def test_a_group_after_the_postgresql_connection_was_cut_reconnects(store: Store) -> None:
    if store.engine.dialect.name != "postgresql":
        pytest.skip("PostgreSQL: the group writer's own connection")
    await store.grouped(lambda tx: answer(tx, "esc_c1", "C0CUT"))
    async with store.engine.connect() as conn:
        cut = await conn.execute(text(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND application_name = ''"))
        assert any(row[0] for row in cut)
    await asyncio.sleep(0.1)
    assert await store.grouped(lambda tx: answer(tx, "esc_c2", "C0CUT")) == await store.get_escalation("esc_c2")


def test_sqlite_times_are_stored_in_sqlalchemys_format() -> None:
    assert sqlite_time(NOW) == "2026-11-30 21:05:07.004321"
    assert sqlite_time(NOW.replace(microsecond=0).astimezone(tz=None)) == "2026-11-30 21:05:07.000000"
    with pytest.raises(ValueError, match="naive"):
        sqlite_time(NOW.replace(tzinfo=None))


async def notice_job(store: Store, room: str, deadline_at: datetime) -> int:
    """A queued notice job of ``room`` whose delivery deadline is ``deadline_at`` (as a first claim sets it)."""
    async with store.transaction() as tx:
        row = OutboxJobRow(kind="notice", priority=2, room=room, ref="ntc_x", payload={}, status="queued", attempts=1,
                           uncertain=False, created_at=NOW, due_at=NOW, deadline_at=deadline_at)
        tx.session.add(row)
        await tx.session.flush()
        return row.id


async def overdue(store: Store, room: str) -> bool:
    return await store.grouped(lambda tx: tx.notices_overdue(room, datetime.now(UTC)))


async def test_a_remembered_notice_deadline_is_met_exactly_and_an_overdue_answer_is_read_again(store: Store) -> None:
    store.notice_deadlines.keep_s = 30.0  # far longer than the app's (min(1 s, deadline / 4)), to show what it keeps
    first = await notice_job(store, "C0MEM", datetime.now(UTC) + timedelta(seconds=0.3))
    assert not await overdue(store, "C0MEM")
    # Not a deadline production can write after the read (a first claim sets now + the delivery deadline, later than
    # the memory's end): here it shows that the room was not read again...
    late = await notice_job(store, "C0MEM", datetime.now(UTC) - timedelta(seconds=5))
    assert not await overdue(store, "C0MEM"), "remembered: the room was not read again"
    await asyncio.sleep(0.35)
    assert await overdue(store, "C0MEM"), "the remembered deadline is compared with each request's now"
    async with store.transaction() as tx:
        await tx.job_done(first, datetime.now(UTC))
        await tx.job_done(late, datetime.now(UTC))
    assert not await overdue(store, "C0MEM"), "an overdue answer is not reused: delivered notices count at once"


async def test_without_memory_each_group_reads_the_rooms_notice_deadline(store: Store) -> None:
    assert store.notice_deadlines.keep_s == 0, "off unless the app sets it"
    assert not await overdue(store, "C0NOW")
    await notice_job(store, "C0NOW", datetime.now(UTC) - timedelta(seconds=1))
    assert await overdue(store, "C0NOW")


async def test_an_in_memory_sqlite_store_groups_through_its_engines_connection() -> None:
    """No file, so no second connection would see the same database: the group's SQL runs on the engine's own."""
    from bot.store.direct import EngineDb

    s = await open_store("sqlite+aiosqlite://")
    try:
        await s.add_bot(BOT, "d" * 64)
        await s.add_standing(APPROVAL)
        answered = await asyncio.gather(*(s.grouped(lambda tx, i=i: answer(tx, f"esc_m{i}", "C0MEM")) for i in range(3)))
        assert isinstance(await s.group_db(), EngineDb)
        assert [await s.get_escalation(f"esc_m{i}") for i in range(3)] == answered
        assert [e.event for e in await s.audit_log("esc_m0")] == ["escalation.approved"]
    finally:
        await s.close()


async def test_a_value_json_cannot_write_fails_its_request_and_writes_nothing(store: Store) -> None:
    async def odd(tx: Tx) -> Escalation:
        escalation = await answer(tx, "esc_odd", "C0ODD")
        await tx.audit("escalation.noted", at=NOW, escalation_id="esc_odd", when=NOW)  # a datetime in JSON detail
        return escalation

    with pytest.raises(TypeError):
        await store.grouped(odd)
    assert await store.get_escalation("esc_odd") is None and await store.audit_log("esc_odd") == []


async def test_non_ascii_text_on_a_sql_ascii_postgresql_database_is_stored_as_the_orm_stores_it(tmp_path: Path) -> None:
    """A database made under the C locale (``initdb`` without a UTF-8 locale) is ``SQL_ASCII``: the ORM's parameters
    are stored there as given, but the group's rows went as JSON with ``\\uXXXX`` escapes, which such a server
    refuses to turn into text: every request with one non-ASCII character was a 500 (review, issue 10)."""
    from bot.app import utcnow
    from tests.harness import OWNER, Harness
    from tests.pg import throwaway_database

    async with throwaway_database(encoding="SQL_ASCII") as url:
        s = await open_store(url, migrate=True)
        await s.close()
        harness = Harness(tmp=tmp_path, settings_overrides={"database_url": url})
        await harness.start()
        try:
            token = await harness.add_bot()
            store = harness.runtime.store
            bot = await store.bot_by_name("ci-bot")
            assert bot is not None
            await store.add_standing(StandingApproval(
                id="sa_ascii", scope="bot", subject=bot.id, bot_id=bot.id, pattern="apt-get install",
                max_risk="system", contained_only=True, created_by=OWNER, created_at=utcnow()))
            asked = {"command": "apt-get install -y jq  # ü ‘é’ 😀", "justification": "needs «jq» \u202e 🧪",
                     "cwd": "/wörk/репо", "session_id": "sess-é"}
            auto = await harness.post(token, harness.body(contained=True, **asked))
            card = await harness.post(token, harness.body(contained=False, **asked))
            assert (auto[0], auto[1]["status"], card[0], card[1]["status"]) == (201, "approved", 201, "pending")
            for answered in (auto[1], card[1]):
                stored = await store.get_escalation(answered["id"])
                assert stored is not None
                assert {k: getattr(stored, k) for k in asked} == asked
                assert [a.detail.get("contained") for a in await store.audit_log(answered["id"])][:1] == [
                    answered["contained"]]
            async with store.transaction(write=False) as tx:
                notices = (await tx.session.execute(select(RoomNoticeRow))).scalars().all()
            assert [[i["command"] for i in n.items] for n in notices] == [[asked["command"]]]
        finally:
            await harness.close()


async def test_the_delivery_reads_a_notice_after_a_fold_in_progress_commits(store: Store) -> None:
    """Issue 10 (PostgreSQL p99 at the notice slot): the delivery reads its claimed notice in ONE statement on its
    own (:meth:`Store.notice_to_deliver`), not in a transaction. Nothing approved unseen still holds: a fold that
    bumped the row before the read (and may have seen the job unclaimed, so wrote no job) is waited for and read."""
    await store.grouped(lambda tx: answer(tx, "esc_n0", "C0READ"))
    async with store.transaction() as tx:
        job = await tx.claim_job(NOW + timedelta(seconds=1), interval_s=1.0, burst=3, lease_s=60.0, deadline_s=120.0)
    assert job is not None and job.kind == "notice"
    notice = await store.notice_to_deliver(job.ref)
    assert notice is not None and (notice.id, notice.room, notice.bot_id, notice.count) == (
        job.ref, "C0READ", BOT.id, 1)
    assert [i["escalation_id"] for i in notice.items] == ["esc_n0"] and notice.window_start == NOW
    assert await store.notice_to_deliver("ntc_missing") is None
    if store.engine.dialect.name != "postgresql":
        return  # SQLite: one writer at a time; the read is a transaction after the claim's, as before
    async with store.engine.connect() as fold:  # a fold in progress: the row bumped, not committed yet
        await fold.execute(text("UPDATE room_notices SET count = count + 1 WHERE id = :id"), {"id": job.ref})
        read = asyncio.create_task(store.notice_to_deliver(job.ref))
        await asyncio.sleep(0.3)
        assert not read.done(), "the read did not wait for the fold in progress"
        await fold.commit()
    notice = await asyncio.wait_for(read, 5)
    assert notice is not None and notice.count == 2


def test_the_sqlite_text_of_each_instant_of_an_ambiguous_hour_is_its_own() -> None:
    """sqlite_time remembers recent texts by value; two datetimes of one zone compare equal and hash alike by their
    wall time, so the second 01:30 of a DST change (``fold=1``, an hour after the first) got the first's text (review).
    FlyBot's own times are UTC; any other zone is written as its instant."""
    from datetime import tzinfo

    class Eastern(tzinfo):  # America/New_York around 2026-11-01 01:30 (no tz database needed)
        def utcoffset(self, dt: datetime | None) -> timedelta:
            return timedelta(hours=-5 if dt is not None and dt.fold else -4)

        def dst(self, dt: datetime | None) -> timedelta:
            return timedelta(hours=0 if dt is not None and dt.fold else 1)

    zone = Eastern()
    first, second = (datetime(2026, 11, 1, 1, 30, tzinfo=zone, fold=fold) for fold in (0, 1))
    assert first == second and first.astimezone(UTC) != second.astimezone(UTC)  # Python's rule for one zone
    assert [sqlite_time(first), sqlite_time(second)] == ["2026-11-01 05:30:00.000000", "2026-11-01 06:30:00.000000"]
    now = datetime.now(UTC)
    assert sqlite_time(now) == sqlite_time(now) == now.replace(tzinfo=None).isoformat(" ", "microseconds")
    with pytest.raises(ValueError):
        sqlite_time(now.replace(tzinfo=None))
