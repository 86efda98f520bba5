"""Initial schema: players, matches, seats, actions.

Revision ID: 0001
Revises:
Create Date: 2025-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _timestamp(name: str) -> sa.Column[object]:
    kind = sa.DateTime(timezone=True)
    return sa.Column(name, kind, server_default=sa.func.now(), nullable=False)


def _big_id() -> sa.Column[object]:
    big = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
    return sa.Column("id", big, primary_key=True, autoincrement=True)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("nickname", sa.String(100), nullable=False),
        sa.Column("nickname_key", sa.String(200), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        _timestamp("created_at"),
        _timestamp("last_seen_at"),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("nickname_key", name="uq_players_nickname_key"),
        sa.UniqueConstraint("token_hash", name="uq_players_token_hash"),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), server_default="0", nullable=False),
        sa.Column("snapshot", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("rematch_of", sa.Integer(), nullable=True),
        sa.Column("dialect", sa.String(32), nullable=True),
        _timestamp("created_at"),
        _timestamp("updated_at"),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
        sa.ForeignKeyConstraint(
            ["rematch_of"], ["matches.id"], name="fk_matches_rematch_of_matches"
        ),
        sa.UniqueConstraint("rematch_of", name="uq_matches_rematch_of"),
    )
    op.create_index("ix_matches_game_status", "matches", ["game", "status"])
    op.create_table(
        "seats",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("team", sa.Integer(), nullable=True),
        sa.Column("label", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_seats"),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_seats_match_id_matches", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name="fk_seats_player_id_players"
        ),
    )
    op.create_index("ix_seats_player_id", "seats", ["player_id"])
    op.create_table(
        "actions",
        _big_id(),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        _timestamp("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_actions"),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_actions_match_id_matches", ondelete="CASCADE"
        ),
        sa.UniqueConstraint("match_id", "seq", name="uq_actions_match_id_seq"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_seats_player_id", table_name="seats")
    op.drop_table("seats")
    op.drop_index("ix_matches_game_status", table_name="matches")
    op.drop_table("matches")
    op.drop_table("players")
