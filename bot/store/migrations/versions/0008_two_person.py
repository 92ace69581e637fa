"""two-person rule: a Bot's setting, and the first of two approvals on an escalation

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import bot.store.models

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("bots", schema=None) as batch_op:
        batch_op.add_column(sa.Column("two_person", sa.String(length=30), nullable=True))
    with op.batch_alter_table("escalations", schema=None) as batch_op:
        batch_op.add_column(sa.Column("approvals_needed", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("first_approver", sa.String(length=80), nullable=True))
        batch_op.add_column(sa.Column("first_approved_at", bot.store.models.UTCDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("escalations", schema=None) as batch_op:
        batch_op.drop_column("first_approved_at")
        batch_op.drop_column("first_approver")
        batch_op.drop_column("approvals_needed")
    with op.batch_alter_table("bots", schema=None) as batch_op:
        batch_op.drop_column("two_person")
