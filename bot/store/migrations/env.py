"""Alembic environment for FlyBot: run with a connection handed in by :mod:`bot.store.migrate` (sync, via run_sync)."""

from __future__ import annotations

from alembic import context

from bot.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - FlyBot always hands a connection in
    raise RuntimeError("run migrations through `flybot db upgrade` (bot.store.migrate), not the alembic CLI")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
