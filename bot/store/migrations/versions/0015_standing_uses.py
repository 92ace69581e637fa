"""standing approval uses: counted from the escalations each one answered, no longer kept on its row

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("escalations") as batch:
        batch.create_index("ix_escalations_standing", ["standing_approval_id"], unique=False)
    with op.batch_alter_table("standing_approvals") as batch:
        batch.drop_column("use_count")
        batch.drop_column("last_used_at")


def downgrade() -> None:
    with op.batch_alter_table("standing_approvals") as batch:
        batch.add_column(sa.Column("use_count", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("escalations") as batch:
        batch.drop_index("ix_escalations_standing")
