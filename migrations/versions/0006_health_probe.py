"""A one-row table that /api/health writes to (at most every few seconds per node) to learn
that the store can write: a full disk, a read-only file or database, a lock held too long show
there although reads still work.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    table = op.create_table(
        "health_probe",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("probed_at", sa.DateTime(timezone=True), server_default=sa.func.now(),
                  nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_health_probe")),
    )
    op.bulk_insert(table, [{"id": 1}])


def downgrade() -> None:
    op.drop_table("health_probe")
