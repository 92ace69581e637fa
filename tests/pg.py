"""A throw-away PostgreSQL database for tests (PostgreSQL runs on 127.0.0.1:5432 with trust auth here and in CI).

``FLYBOT_TEST_POSTGRES`` overrides the server URL (an asyncpg DSN of a database to connect to for CREATE DATABASE).
Without a reachable server the PostgreSQL tests are skipped locally and FAIL under ``CI=true``.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

ADMIN_DSN = os.environ.get("FLYBOT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")


async def _admin() -> asyncpg.Connection:
    try:
        return await asyncpg.connect(ADMIN_DSN, timeout=5)
    except (OSError, asyncpg.PostgresError) as exc:
        if os.environ.get("CI") == "true":
            raise RuntimeError(f"PostgreSQL is required in CI and is not reachable at {ADMIN_DSN}: {exc}") from exc
        pytest.skip(f"PostgreSQL not reachable at {ADMIN_DSN}: {exc}")


@asynccontextmanager
async def throwaway_database(encoding: str | None = None) -> AsyncIterator[str]:
    """Create a fresh database (in ``encoding``, e.g. ``SQL_ASCII``, else the server's default), yield its SQLAlchemy
    URL (``postgresql+asyncpg://``), drop it afterwards."""
    name = f"flybot_test_{uuid.uuid4().hex[:12]}"
    admin = await _admin()
    try:
        options = f" ENCODING '{encoding}' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'" if encoding else ""
        await admin.execute(f'CREATE DATABASE "{name}"{options}')
    finally:
        await admin.close()
    base = ADMIN_DSN.rsplit("/", 1)[0]
    try:
        yield f"{base.replace('postgresql://', 'postgresql+asyncpg://', 1)}/{name}"
    finally:
        admin = await _admin()
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@asynccontextmanager
async def migrated_store(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """A migrated store for a test parametrized over ``sqlite`` and ``postgresql``: yields its SQLAlchemy URL (a
    SQLite file under ``tmp_path``, or a throw-away PostgreSQL database, dropped afterwards)."""
    from bot.store import open_store

    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'flybot.db'}"
        store = await open_store(url, migrate=True)
        await store.close()
        yield url
        return
    async with throwaway_database() as url:
        store = await open_store(url, migrate=True)
        await store.close()
        yield url
