"""outbox: chat effects as durable jobs, per-room pace, folded standing-approval notices

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "outbox_jobs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("room", sa.String(length=60), nullable=False),
        sa.Column("ref", sa.String(length=60), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("uncertain", sa.Boolean(), nullable=False),
        sa.Column("created_at", bot.store.models.UTCDateTime(timezone=True), nullable=False),
        sa.Column("due_at", bot.store.models.UTCDateTime(timezone=True), nullable=False),
        sa.Column("deadline_at", bot.store.models.UTCDateTime(timezone=True), nullable=True),
        sa.Column("claimed_until", bot.store.models.UTCDateTime(timezone=True), nullable=True),
        sa.Column("slot_at", bot.store.models.UTCDateTime(timezone=True), nullable=True),
        sa.Column("done_at", bot.store.models.UTCDateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=200), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("outbox_jobs", schema=None) as batch_op:
        batch_op.create_index("ix_outbox_ref", ["ref"], unique=False)
        batch_op.create_index("ix_outbox_room_status", ["room", "status"], unique=False)
        batch_op.create_index("ix_outbox_status_due", ["status", "due_at"], unique=False)

    op.create_table(
        "room_pace",
        sa.Column("room", sa.String(length=60), nullable=False),
        sa.Column("tat", bot.store.models.UTCDateTime(timezone=True), nullable=False),
        sa.Column("paused_until", bot.store.models.UTCDateTime(timezone=True), nullable=True),
        sa.Column("ready_at", bot.store.models.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("room"),
    )
    with op.batch_alter_table("room_pace", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_room_pace_ready_at"), ["ready_at"], unique=False)

    op.create_table(
        "room_notices",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("open_key", sa.String(length=140), nullable=False),
        sa.Column("room", sa.String(length=60), nullable=False),
        sa.Column("bot_id", sa.String(length=40), nullable=False),
        sa.Column("window_start", bot.store.models.UTCDateTime(timezone=True), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("items", sa.JSON(), nullable=False),
        sa.Column("approvals", sa.JSON(), nullable=False),
        sa.Column("channel", sa.String(length=40), nullable=True),
        sa.Column("ts", sa.String(length=40), nullable=True),
        sa.Column("updated_at", bot.store.models.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("open_key", name="uq_room_notice_open"),
    )
    with op.batch_alter_table("escalations", schema=None) as batch_op:
        batch_op.add_column(sa.Column("card_status", sa.String(length=10), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("escalations", schema=None) as batch_op:
        batch_op.drop_column("card_status")
    op.drop_table("room_notices")
    with op.batch_alter_table("room_pace", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_room_pace_ready_at"))
    op.drop_table("room_pace")
    with op.batch_alter_table("outbox_jobs", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_status_due")
        batch_op.drop_index("ix_outbox_room_status")
        batch_op.drop_index("ix_outbox_ref")
    op.drop_table("outbox_jobs")
