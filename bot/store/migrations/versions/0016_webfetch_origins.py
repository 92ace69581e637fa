"""WebFetch standing approvals name an origin: ``host:HOST`` becomes ``host:https://HOST``

A WebFetch pattern's host word once covered the host under any scheme and port; it now names one origin (scheme,
host, and a port other than the scheme's default). An approval saved in the old form keeps covering the common case,
HTTPS on port 443; plain HTTP or another port asks again.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

OLD = "tool:WebFetch host:"
NEW = "tool:WebFetch host:https://"


def upgrade() -> None:
    approvals = sa.table("standing_approvals", sa.column("id", sa.Text), sa.column("pattern", sa.Text))
    bind = op.get_bind()
    rows = bind.execute(sa.select(approvals.c.id, approvals.c.pattern).where(approvals.c.pattern.startswith(OLD)))
    for row_id, pattern in list(rows):
        host = pattern[len(OLD) :]
        if "://" not in host:
            bind.execute(sa.update(approvals).where(approvals.c.id == row_id).values(pattern=NEW + host))


def downgrade() -> None:
    approvals = sa.table("standing_approvals", sa.column("id", sa.Text), sa.column("pattern", sa.Text))
    bind = op.get_bind()
    rows = bind.execute(sa.select(approvals.c.id, approvals.c.pattern).where(approvals.c.pattern.startswith(NEW)))
    for row_id, pattern in list(rows):
        origin = pattern[len(NEW) :]
        if ":" not in origin:  # an origin with a port has no old form
            bind.execute(sa.update(approvals).where(approvals.c.id == row_id).values(pattern=OLD + origin))
