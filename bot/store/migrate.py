"""Alembic migrations, applied programmatically (``flybot db upgrade``) and checked at start-up.

The same migrations serve SQLite and PostgreSQL (batch mode on SQLite). Source of the scripts:
``bot/store/migrations/versions``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).parent / "migrations"


class StoreProblem(Exception):
    """The store cannot be used as configured; ``str()`` is one line naming ``FLYBOT_DATABASE_URL`` and the fix.

    Subclasses: :class:`SchemaBehind`, :class:`StoreMissing`, :class:`StoreUnreachable`.
    """


class SchemaBehind(StoreProblem):
    """The database schema is older than this FlyBot (or not created); ``str()`` says how to fix it."""


class StoreMissing(StoreProblem):
    """An operator command found no store where it looked (it never creates one: ``flybot serve`` does)."""


class StoreUnreachable(StoreProblem):
    """The database could not be opened or reached (server down, bad credentials, unwritable directory)."""


def _config(connection: Any = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str | None:
    """The newest migration this FlyBot ships."""
    return ScriptDirectory.from_config(_config()).get_current_head()


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at (None: never migrated)."""

    def read(connection: Any) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with engine.connect() as conn:
        return await conn.run_sync(read)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Apply migrations up to ``revision`` (idempotent)."""

    def run(connection: Any) -> None:
        command.upgrade(_config(connection), revision)

    async with engine.begin() as conn:
        await conn.run_sync(run)


async def check_current(engine: AsyncEngine) -> None:
    """Raise :class:`SchemaBehind` unless the database is at the head revision."""
    current, head = await current_revision(engine), head_revision()
    if current != head:
        raise SchemaBehind(
            f"the database schema is at {current or 'nothing (empty database)'} but this FlyBot needs {head}: "
            "run `flybot db upgrade`"
        )
