"""What lived only in memory is saved with the match, and PostgreSQL keeps JSON as jsonb.

* matches.rematch_votes: the seats that agreed to a rematch (a JSON list; NULL: none yet);
* matches.dialect_data: what a dialect remembers about a match between messages (a JSON
  object per dialect, e.g. the Santorini dialect's basic-turn choice made mid-turn);
* on PostgreSQL every JSON column becomes ``jsonb`` (indexable, compact; key order is not
  kept, which nothing relies on). SQLite has one JSON type: nothing changes there.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: (table, column, nullable) of every JSON column kept before this revision
JSON_COLUMNS = (("matches", "options", False), ("matches", "snapshot", False),
                ("matches", "result", True), ("actions", "action", False))


def _is_postgres() -> bool:
    return op.get_bind().dialect.name == "postgresql"


def _retype(to_jsonb: bool) -> None:
    new, old = (postgresql.JSONB(), sa.JSON()) if to_jsonb else (sa.JSON(), postgresql.JSONB())
    cast = "jsonb" if to_jsonb else "json"
    columns = JSON_COLUMNS + (("matches", "rematch_votes", True), ("matches", "dialect_data", True))
    for table, column, nullable in columns:
        op.alter_column(table, column, type_=new, existing_type=old, existing_nullable=nullable,
                        postgresql_using=f"{column}::{cast}")


def upgrade() -> None:
    op.add_column("matches", sa.Column("rematch_votes", sa.JSON(), nullable=True))
    op.add_column("matches", sa.Column("dialect_data", sa.JSON(), nullable=True))
    if _is_postgres():
        _retype(to_jsonb=True)


def downgrade() -> None:
    if _is_postgres():
        _retype(to_jsonb=False)
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("dialect_data")
        batch.drop_column("rematch_votes")
