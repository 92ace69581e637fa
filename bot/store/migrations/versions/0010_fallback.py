"""fallback approvers: a Bot's fallback owners and groups, when they were asked, and the DM copies of the card

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "card_copies",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("escalation_id", sa.String(length=40), nullable=False),
        sa.Column("user", sa.String(length=40), nullable=False),
        sa.Column("channel", sa.String(length=40), nullable=False),
        sa.Column("ts", sa.String(length=40), nullable=False),
        sa.Column("created_at", bot.store.models.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("card_copies", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_card_copies_escalation_id"), ["escalation_id"], unique=False)
    with op.batch_alter_table("bots", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fallback_owners", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("fallback_groups", sa.JSON(), nullable=True))
    with op.batch_alter_table("escalations", schema=None) as batch_op:
        batch_op.add_column(sa.Column("fallback_at", bot.store.models.UTCDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("escalations", schema=None) as batch_op:
        batch_op.drop_column("fallback_at")
    with op.batch_alter_table("bots", schema=None) as batch_op:
        batch_op.drop_column("fallback_groups")
        batch_op.drop_column("fallback_owners")
    with op.batch_alter_table("card_copies", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_card_copies_escalation_id"))
    op.drop_table("card_copies")
