"""A ``/flybot`` answer that takes longer than Slack's acknowledgement window still reaches the caller: the command
is acknowledged in time with a "working on it" line, and the answer follows through the command's response_url.
Nothing the store does holds up the acknowledgement, not even the check that the request is no replay."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg

from bot.slack.commands import WORKING_TEXT
from tests.harness import ADMIN, OWNER, ROOM, Harness
from tests.pg import migrated_store


@asynccontextmanager
async def table_locked(url: str, table: str) -> AsyncIterator[Callable[[float], Awaitable[None]]]:
    """Another session on the PostgreSQL store at ``url`` (a SQLAlchemy ``postgresql+asyncpg://`` URL) takes
    ``table`` in ACCESS EXCLUSIVE mode inside a transaction, so every read or write of it by FlyBot waits. Yields
    ``release(hold_s)``: keeps the lock ``hold_s`` more seconds (slept on the server, 0 for none), then rolls the
    transaction back. The session is closed on exit, which also drops a lock never released."""
    locker = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        lock = locker.transaction()
        await lock.start()
        await locker.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")

        async def release(hold_s: float) -> None:
            if hold_s > 0:
                await locker.execute("SELECT pg_sleep($1)", hold_s)
            await lock.rollback()

        yield release
    finally:
        await locker.close()


async def test_a_slow_store_answers_through_the_response_url_and_the_change_is_made(tmp_path: Path) -> None:
    async with migrated_store("postgresql", tmp_path) as url:
        harness = Harness(tmp=tmp_path, settings_overrides={"database_url": url})
        await harness.start()
        # Another session locks the program rules for longer than Slack waits for an acknowledgement (3 s): the
        # rule's write waits for the lock, so its answer cannot be ready in time. (The request's replay check
        # writes elsewhere and is not held up.)
        try:
            async with table_locked(url, "program_rules") as release:
                started = time.monotonic()
                async with harness.http.post(
                    f"{harness.emu_url}/page/command",
                    json={
                        "user": ADMIN,
                        "channel": ROOM,
                        "text": "rule set acmecc workspace_write",
                        "command": "/flybot",
                    },
                ) as response:
                    data = await response.json()
                acked_after = time.monotonic() - started
                # Without the early acknowledgement bolt answers 404 "unhandled request" after 3 s.
                assert data["status"] == 200, data
                assert acked_after < 3.0
                assert harness.ephemerals(ADMIN)[-1] == WORKING_TEXT
                await release(1.5)  # still locked after the acknowledgement window
                await harness.eventually(lambda: harness.ephemerals(ADMIN)[-1] != WORKING_TEXT, timeout=20)
                assert harness.ephemerals(ADMIN)[-1] == "Program rule saved: `acmecc` is graded workspace_write."
                assert [r.program for r in await harness.runtime.store.program_rules()] == ["acmecc"]
        finally:
            await harness.close()


async def test_a_quick_answer_is_the_acknowledgement_itself(harness: Harness) -> None:
    reply = await harness.slash(ADMIN, "rule set acmecc workspace_write")
    assert reply == "Program rule saved: `acmecc` is graded workspace_write."
    assert WORKING_TEXT not in harness.ephemerals(ADMIN)


async def test_a_store_too_slow_to_check_for_replays_does_not_hold_up_the_acknowledgement(tmp_path: Path) -> None:
    """Every command that reads or changes the store first records its signed request (a replay of it is refused);
    that write waits like any other when the store is slow (here: another session locks the table it writes). The
    acknowledgement does not wait for it."""
    async with migrated_store("postgresql", tmp_path) as url:
        harness = Harness(tmp=tmp_path, settings_overrides={"database_url": url})
        await harness.start()
        await harness.add_bot()
        try:
            async with table_locked(url, "slack_events") as release:
                started = time.monotonic()
                async with harness.http.post(
                    f"{harness.emu_url}/page/command",
                    json={
                        "user": OWNER,
                        "channel": ROOM,
                        "text": "standing add --bot ci-bot make test",
                        "command": "/flybot",
                    },
                ) as response:
                    data = await response.json()
                acked_after = time.monotonic() - started
                assert data["status"] == 200, data
                assert acked_after < 3.0, f"acknowledged after {acked_after:.1f} s"
                assert harness.ephemerals(OWNER)[-1] == WORKING_TEXT
                await release(1.5)  # still locked after the acknowledgement window
                await harness.eventually(lambda: harness.ephemerals(OWNER)[-1] != WORKING_TEXT, timeout=20)
                assert harness.ephemerals(OWNER)[-1].startswith("Saved: "), harness.ephemerals(OWNER)[-1]
                assert [a.pattern for a in await harness.runtime.store.list_standing()] == ["make test"]
        finally:
            await harness.close()


async def test_the_answer_budget_counts_from_the_requests_arrival(tmp_path: Path) -> None:
    async with migrated_store("postgresql", tmp_path) as url:
        harness = Harness(tmp=tmp_path, settings_overrides={"database_url": url})
        await harness.start()
        # Slack's 3 s count from the request's arrival. Bolt's own first step (reading FlyBot's identity with
        # auth.test) takes 1.5 s here, and the rule's write waits on a lock: the acknowledgement must still be in
        # time, so the listener's wait is what is left of the budget, not a fresh 2 s.
        await harness.fault("auth.test", status=200, count=1, delay_s=1.5)
        try:
            async with table_locked(url, "program_rules") as release:
                started = time.monotonic()
                async with harness.http.post(
                    f"{harness.emu_url}/page/command",
                    json={
                        "user": ADMIN,
                        "channel": ROOM,
                        "text": "rule set acmecc workspace_write",
                        "command": "/flybot",
                    },
                ) as response:
                    data = await response.json()
                acked_after = time.monotonic() - started
                assert data["status"] == 200, data
                assert acked_after < 3.0
                assert harness.ephemerals(ADMIN)[-1] == WORKING_TEXT
                await release(0)
                await harness.eventually(lambda: harness.ephemerals(ADMIN)[-1] != WORKING_TEXT, timeout=20)
                assert harness.ephemerals(ADMIN)[-1] == "Program rule saved: `acmecc` is graded workspace_write."
        finally:
            await harness.close()
