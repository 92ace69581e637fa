"""Alembic migrations: the same scripts build the schema on SQLite and PostgreSQL, matching the models exactly."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.ext.asyncio import create_async_engine

from bot.store import open_store
from bot.store.migrate import SchemaBehind, _config, current_revision, head_revision, upgrade
from tests.pg import throwaway_database
from tests.test_cli import clean_env


async def _assert_models_match(url: str) -> None:
    engine = create_async_engine(url)
    try:
        await upgrade(engine)
        assert await current_revision(engine) == head_revision()

        def check(connection: Any) -> None:
            command.check(_config(connection))  # raises when the models and the migrations disagree

        async with engine.connect() as conn:
            await conn.run_sync(check)
    finally:
        await engine.dispose()


async def test_migrations_match_the_models_on_sqlite(tmp_path: Path) -> None:
    await _assert_models_match(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")


async def test_migrations_match_the_models_on_postgresql() -> None:
    async with throwaway_database() as url:
        await _assert_models_match(url)


async def test_postgresql_start_up_refuses_a_schema_that_is_behind() -> None:
    async with throwaway_database() as url:
        with pytest.raises(SchemaBehind, match="flybot db upgrade"):
            await open_store(url)
        store = await open_store(url, migrate=True)
        await store.close()
        store = await open_store(url)  # now current: opens without migrating
        await store.close()


async def test_flybot_db_upgrade_and_serve_refusal_on_postgresql(tmp_path: Path) -> None:
    async with throwaway_database() as url:
        env = clean_env(
            FLYBOT_DATABASE_URL=url,
            SLACK_BOT_TOKEN="xoxb-1",
            SLACK_SIGNING_SECRET="s",
            FLYBOT_SLACK_API_URL="http://127.0.0.1:9/api/",
        )
        current = subprocess.run(
            [sys.executable, "-m", "bot", "db", "current"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert current.returncode == 1 and "empty" in current.stdout
        serve = subprocess.run(
            [sys.executable, "-m", "bot", "serve", "--port", "0"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert serve.returncode == 2 and "flybot db upgrade" in serve.stderr
        assert "Traceback" not in serve.stderr
        upgraded = subprocess.run(
            [sys.executable, "-m", "bot", "db", "upgrade"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert upgraded.returncode == 0 and str(head_revision()) in upgraded.stdout, upgraded.stderr
        current = subprocess.run(
            [sys.executable, "-m", "bot", "db", "current"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert current.returncode == 0


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_webfetch_approvals_saved_per_host_cover_that_host_over_https_after_the_upgrade(
    backend: str, tmp_path: Path
) -> None:
    async def run(url: str) -> None:
        engine = create_async_engine(url)
        try:
            await upgrade(engine, "0015")
            now: object = "2026-12-01 00:00:00.000000"
            if backend == "postgresql":
                now = datetime(2026, 12, 1, tzinfo=UTC)
            insert = sa.text(
                "INSERT INTO standing_approvals (id, scope, subject, bot_id, pattern, max_risk, contained_only, "
                "created_by, created_at) VALUES (:id, 'bot', 'b1', NULL, :pattern, 'network', false, 'U0ADMIN01', "
                ":at)"
            )
            patterns = {
                "sa1": "tool:WebFetch host:docs.python.org",
                "sa2": "tool:WebFetch",
                "sa3": "apt-get install",
                "sa4": "tool:Read path:/srv/x",
            }
            async with engine.begin() as conn:
                for key, pattern in patterns.items():
                    await conn.execute(insert, {"id": key, "pattern": pattern, "at": now})
            await upgrade(engine)
            async with engine.connect() as conn:
                rows = dict((await conn.execute(sa.text("SELECT id, pattern FROM standing_approvals"))).all())
            assert rows == {**patterns, "sa1": "tool:WebFetch host:https://docs.python.org"}
        finally:
            await engine.dispose()

    if backend == "sqlite":
        await run(f"sqlite+aiosqlite:///{tmp_path / 'flybot.db'}")
    else:
        async with throwaway_database() as url:
            await run(url)
