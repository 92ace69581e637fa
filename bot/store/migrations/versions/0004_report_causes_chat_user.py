"""blocked-report causes, host OS and Bot words; a Bot's chat identity

Revision ID: 0004
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("bots", schema=None) as batch_op:
        batch_op.add_column(sa.Column("chat_user", sa.String(length=40), nullable=True))
    with op.batch_alter_table("blocked_reports", schema=None) as batch_op:
        batch_op.add_column(sa.Column("findings", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("host_os", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("note", sa.String(length=600), nullable=True))
        batch_op.add_column(sa.Column("grant_on_host", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("blocked_reports", schema=None) as batch_op:
        batch_op.drop_column("grant_on_host")
        batch_op.drop_column("note")
        batch_op.drop_column("host_os")
        batch_op.drop_column("findings")
    with op.batch_alter_table("bots", schema=None) as batch_op:
        batch_op.drop_column("chat_user")
