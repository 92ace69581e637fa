"""admission control: per-Bot request counters a minute; index for a Bot's open escalations; cache triggers

On PostgreSQL, statement triggers on ``bots`` and ``standing_approvals`` NOTIFY ``cache:<table>`` on the channel
``flybot_decisions`` whenever a change commits (any writer), so every replica drops its in-memory copies
(bot/store/cache.py). Standing approvals notify only for the columns that decide matching, not for use counts.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_request_counts",
        sa.Column("bot_id", sa.String(length=40), nullable=False),
        sa.Column("window", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("bot_id", "window"),
    )
    with op.batch_alter_table("escalations", schema=None) as batch_op:
        batch_op.create_index("ix_escalations_bot_status", ["bot_id", "status"], unique=False)
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE OR REPLACE FUNCTION flybot_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN PERFORM pg_notify('flybot_decisions', 'cache:' || TG_TABLE_NAME); RETURN NULL; END $$"
        )
        op.execute(
            "CREATE TRIGGER flybot_cache_bots AFTER INSERT OR DELETE OR UPDATE ON bots "
            "FOR EACH STATEMENT EXECUTE FUNCTION flybot_cache_notify()"
        )
        op.execute(
            "CREATE TRIGGER flybot_cache_standing AFTER INSERT OR DELETE OR UPDATE OF scope, subject, bot_id, "
            "pattern, max_risk, contained_only, expires_at, revoked_at ON standing_approvals "
            "FOR EACH STATEMENT EXECUTE FUNCTION flybot_cache_notify()"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS flybot_cache_standing ON standing_approvals")
        op.execute("DROP TRIGGER IF EXISTS flybot_cache_bots ON bots")
        op.execute("DROP FUNCTION IF EXISTS flybot_cache_notify()")
    with op.batch_alter_table("escalations", schema=None) as batch_op:
        batch_op.drop_index("ix_escalations_bot_status")
    op.drop_table("bot_request_counts")
