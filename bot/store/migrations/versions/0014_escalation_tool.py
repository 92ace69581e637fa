"""escalation tool: the call of a tool other than a shell that an escalation asks about (bot/risk/tools.py)

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("escalations") as batch:
        batch.add_column(sa.Column("tool", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("escalations") as batch:
        batch.drop_column("tool")
