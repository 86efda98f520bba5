"""Accounts and ratings (issue "Players"): a player's tokens become devices (each revocable),
a nickname may be protected by a password (argon2id) and a one-time recovery code (hashed),
operators may ban; every operator's change to a player is logged; ratings per player and
game, and the order in which finished matches were rated.

``players.token_hash`` moves into ``devices`` (label "first device"); ``players.claimed_at``
keeps what the token said before: from then on the nickname is reached by a secret only.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIMESTAMP = sa.DateTime(timezone=True)


def _now() -> sa.Column[object]:
    return sa.Column("created_at", TIMESTAMP, server_default=sa.func.now(), nullable=False)


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("claimed_at", TIMESTAMP, nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(200), nullable=True))
        batch.add_column(sa.Column("recovery_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("login_failures", sa.Integer(), server_default="0",
                                   nullable=False))
        batch.add_column(sa.Column("login_blocked_until", TIMESTAMP, nullable=True))
        batch.add_column(sa.Column("banned_at", TIMESTAMP, nullable=True))
        batch.add_column(sa.Column("ban_reason", sa.String(200), nullable=True))
    op.create_table(
        "devices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("label", sa.String(100), nullable=False),
        _now(),
        sa.Column("last_used_at", TIMESTAMP, server_default=sa.func.now(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_devices_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_devices")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_devices_token_hash")),
    )
    op.create_index(op.f("ix_devices_player_id"), "devices", ["player_id"])
    op.execute("INSERT INTO devices (player_id, token_hash, label, created_at, last_used_at) "
               "SELECT id, token_hash, 'first device', created_at, last_seen_at FROM players "
               "WHERE token_hash IS NOT NULL")
    op.execute("UPDATE players SET claimed_at = created_at WHERE token_hash IS NOT NULL")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_token_hash", type_="unique")
        batch.drop_column("token_hash")
    op.create_table(
        "operator_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", TIMESTAMP, server_default=sa.func.now(), nullable=False),
        sa.Column("operator", sa.String(200), nullable=False),
        sa.Column("what", sa.String(32), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("detail", sa.JSON().with_variant(sa.dialects.postgresql.JSONB(), "postgresql"),
                  nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_operator_log")),
    )
    op.create_index(op.f("ix_operator_log_player_id"), "operator_log", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), server_default="0", nullable=False),
        sa.Column("wins", sa.Integer(), server_default="0", nullable=False),
        sa.Column("losses", sa.Integer(), server_default="0", nullable=False),
        sa.Column("draws", sa.Integer(), server_default="0", nullable=False),
        sa.Column("updated_at", TIMESTAMP, server_default=sa.func.now(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_ratings_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", "game", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_game_mu", "ratings", ["game", "mu"])
    op.create_table(
        "rated_matches",
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        # None: rated; else why not (docs/protocol.md, "Ratings")
        sa.Column("unrated", sa.String(32), nullable=True),
        # per seat: player, mu and sigma before and after
        sa.Column("changes", sa.JSON().with_variant(sa.dialects.postgresql.JSONB(), "postgresql"),
                  nullable=True),
        sa.Column("rated_at", TIMESTAMP, server_default=sa.func.now(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE",
                                name=op.f("fk_rated_matches_match_id_matches")),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_rated_matches")),
        sa.UniqueConstraint("match_id", name=op.f("uq_rated_matches_match_id")),
    )


def downgrade() -> None:
    op.drop_table("rated_matches")
    op.drop_index("ix_ratings_game_mu", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index(op.f("ix_operator_log_player_id"), table_name="operator_log")
    op.drop_table("operator_log")
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
    # the oldest device of each player keeps its token (the others are lost on the way down)
    op.execute("UPDATE players SET token_hash = (SELECT d.token_hash FROM devices d "
               "WHERE d.player_id = players.id ORDER BY d.id LIMIT 1)")
    with op.batch_alter_table("players") as batch:
        batch.create_unique_constraint("uq_players_token_hash", ["token_hash"])
        for column in ("ban_reason", "banned_at", "login_blocked_until", "login_failures",
                       "recovery_hash", "password_hash", "claimed_at"):
            batch.drop_column(column)
    op.drop_index(op.f("ix_devices_player_id"), table_name="devices")
    op.drop_table("devices")
