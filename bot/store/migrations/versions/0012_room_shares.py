"""fair rooms: the rooms a Bot may name besides its own, and the Bots waiting for a place in a room's queue

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_waits",
        sa.Column("room", sa.String(length=60), nullable=False),
        sa.Column("bot_id", sa.String(length=40), nullable=False),
        sa.Column("until", bot.store.models.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("room", "bot_id"),
    )
    with op.batch_alter_table("bots", schema=None) as batch_op:
        batch_op.add_column(sa.Column("allowed_rooms", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bots", schema=None) as batch_op:
        batch_op.drop_column("allowed_rooms")
    op.drop_table("room_waits")
