"""Clocks: a match's time control and each seat's time left (``matches.clock``), and when the
first flag falls if nobody moves (``matches.clock_deadline``, indexed: the lifecycle sweep
finds the matches whose time is up, loaded or not). Both are written with every action.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("matches", sa.Column(
        "clock", sa.JSON().with_variant(sa.dialects.postgresql.JSONB(), "postgresql"),
        nullable=True))
    op.add_column("matches", sa.Column("clock_deadline", sa.DateTime(timezone=True),
                                       nullable=True))
    op.create_index("ix_matches_clock_deadline", "matches", ["clock_deadline"])


def downgrade() -> None:
    op.drop_index("ix_matches_clock_deadline", table_name="matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("clock_deadline")
        batch.drop_column("clock")
