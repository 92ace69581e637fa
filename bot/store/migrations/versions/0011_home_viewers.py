"""home viewers: who opened FlyBot's App Home, so that a decision redraws every copy there

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "home_viewers",
        sa.Column("user", sa.String(length=40), nullable=False),
        sa.Column("opened_at", bot.store.models.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user"),
    )
    with op.batch_alter_table("home_viewers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_home_viewers_opened_at"), ["opened_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("home_viewers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_home_viewers_opened_at"))
    op.drop_table("home_viewers")
