"""program rules: the organisation's grades for programs the classifier does not know, or grades it raises

On PostgreSQL a statement trigger NOTIFYs ``cache:program_rules`` at the commit of any change, so every replica
drops its in-memory copy of the rules (bot/store/cache.py), as for standing approvals.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "program_rules",
        sa.Column("program", sa.String(length=64), nullable=False),
        sa.Column("subcommand", sa.String(length=64), nullable=False),
        sa.Column("grade", sa.String(length=20), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("set_by", sa.String(length=80), nullable=False),
        sa.Column("set_at", bot.store.models.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("program", "subcommand"),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER flybot_cache_program_rules AFTER INSERT OR DELETE OR UPDATE ON program_rules "
            "FOR EACH STATEMENT EXECUTE FUNCTION flybot_cache_notify()"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS flybot_cache_program_rules ON program_rules")
    op.drop_table("program_rules")
