"""Snapshots every few actions (issue 23): ``matches.snapshot`` is the state after
``matches.snapshot_version`` actions, written every ``snapshot_every`` actions and when a match
starts or ends, no longer with every action; the state at ``version`` is the snapshot with the
log's actions after ``snapshot_version`` replayed. Existing rows hold the state at their version.

On PostgreSQL, ``toast_tuple_target`` 128: a row that PostgreSQL toasts at all (over about 2 kB:
it calls its toaster only above TOAST_TUPLE_THRESHOLD, whatever the target) has its snapshot
moved out of the row rather than compressed in it, so the row that every action rewrites
(version, clocks, status) stays a few hundred bytes and an unchanged snapshot is carried by its
TOAST pointer, not copied (Eriantys). A smaller row (Santorini's) is still rewritten whole by
each UPDATE, unchanged snapshot included (README, "Write volume and set-up"). The small JSON
columns are ``STORAGE MAIN`` (kept in the row). The downgrade first brings every snapshot up to its
match's version (replaying the tails), as the code before this revision reads it.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(sa.dialects.postgresql.JSONB(), "postgresql")
#: the JSON columns of matches that stay in the row on PostgreSQL
INLINE_JSON = ("options", "result", "rematch_votes", "dialect_data", "clock")


def upgrade() -> None:
    op.add_column("matches", sa.Column("snapshot_version", sa.Integer(), server_default="0",
                                       nullable=False))
    op.execute("UPDATE matches SET snapshot_version = version")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE matches SET (toast_tuple_target = 128)")
        for column in INLINE_JSON:
            op.execute(f"ALTER TABLE matches ALTER COLUMN {column} SET STORAGE MAIN")


def downgrade() -> None:
    _bring_snapshots_up_to_date()
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE matches RESET (toast_tuple_target)")
        for column in INLINE_JSON:
            op.execute(f"ALTER TABLE matches ALTER COLUMN {column} SET STORAGE EXTENDED")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("snapshot_version")


def _bring_snapshots_up_to_date() -> None:
    """Every match whose snapshot is behind its version gets the state at its version."""
    from service.store.records import ActionRecord, replayed  # the games' rules replay the tails

    matches = sa.table("matches", sa.column("id", sa.Integer()), sa.column("game", sa.String()),
                       sa.column("version", sa.Integer()), sa.column("snapshot", JSON),
                       sa.column("snapshot_version", sa.Integer()))
    actions = sa.table("actions", sa.column("match_id", sa.Integer()),
                       sa.column("seq", sa.Integer()), sa.column("seat", sa.Integer()),
                       sa.column("action", JSON))
    connection = op.get_bind()
    behind = connection.execute(
        sa.select(matches.c.id, matches.c.game, matches.c.version, matches.c.snapshot,
                  matches.c.snapshot_version)
        .where(matches.c.snapshot_version < matches.c.version)).all()
    for match_id, game, version, snapshot, at in behind:
        tail = tuple(ActionRecord(seq=seq, seat=seat, action=action, created_at=None)  # type: ignore[arg-type]
                     for seq, seat, action in connection.execute(
                         sa.select(actions.c.seq, actions.c.seat, actions.c.action)
                         .where(actions.c.match_id == match_id, actions.c.seq > at,
                                actions.c.seq <= version)
                         .order_by(actions.c.seq)))
        connection.execute(matches.update().where(matches.c.id == match_id).values(
            snapshot=replayed(game, snapshot, tail), snapshot_version=version))
