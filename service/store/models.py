"""SQLAlchemy 2 declarative models of the Tavolo schema.

Alembic owns the schema (``migrations/``); these models describe the same tables
for the repository. Timestamps are always timezone-aware UTC, on SQLite too.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
    func,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

#: Stable constraint names, so migrations can refer to them on every backend.
NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

MATCH_STATUSES: tuple[str, ...] = ("waiting", "active", "finished", "aborted")
#: what the token a player gets at first contact is called among their devices
FIRST_DEVICE = "first device"


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware timestamp; SQLite (which drops the zone) is read back as UTC."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None or value.tzinfo is not None:
            return value
        return value.replace(tzinfo=timezone.utc)


#: JSON: ``jsonb`` on PostgreSQL (migration 0005), the one JSON type elsewhere
Json = JSON().with_variant(JSONB(), "postgresql")
#: the same where SQL NULL (not JSON ``null``) stands for None
NullableJson = JSON(none_as_null=True).with_variant(JSONB(none_as_null=True), "postgresql")

#: An auto-incrementing big key; SQLite only auto-increments ``INTEGER PRIMARY KEY``.
BigId = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {dict[str, Any]: Json, datetime: UTCDateTime}


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    nickname: Mapped[str] = mapped_column(String(100))
    nickname_key: Mapped[str] = mapped_column(String(200), unique=True)
    #: when a secret first reached the player: from then on a nickname alone never does
    #: (seed dialects answer "nickname taken"); None: a seed dialects' nickname player
    claimed_at: Mapped[datetime | None] = mapped_column(nullable=True)
    #: argon2id (argon2-cffi) of the password that protects the nickname; None: a guest
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    #: SHA-256 of the one-time recovery code (random, 128 bits): shown once, then only this
    recovery_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: wrong passwords and codes in a row, and until when the next one waits (sessions/accounts)
    login_failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    login_blocked_until: Mapped[datetime | None] = mapped_column(nullable=True)
    banned_at: Mapped[datetime | None] = mapped_column(nullable=True)
    ban_reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    #: the level of a computer player (service/bots); None for a person
    bot_level: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, server_default=func.now())
    last_seen_at: Mapped[datetime] = mapped_column(default=utcnow, server_default=func.now())


class Match(Base):
    __tablename__ = "matches"
    __table_args__ = (Index("ix_matches_game_status", "game", "status"),
                      Index("ix_matches_clock_deadline", "clock_deadline"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]]
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16))
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: the state after ``snapshot_version`` actions: written every few actions (and when the
    #: match starts or ends), not with each one; the state at ``version`` is this with the log's
    #: actions after ``snapshot_version`` replayed (records.MatchRecord.snapshot, migration 0009)
    snapshot: Mapped[dict[str, Any]]
    snapshot_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    result: Mapped[dict[str, Any] | None] = mapped_column(NullableJson)
    rematch_of: Mapped[int | None] = mapped_column(ForeignKey("matches.id"), unique=True)
    dialect: Mapped[str | None] = mapped_column(String(32))
    #: hash of the invitation code of a private match (None: public, anyone may join)
    invite_hash: Mapped[str | None] = mapped_column(String(64))
    #: the seats that agreed to a rematch, ascending (None: nobody yet)
    rematch_votes: Mapped[list[int] | None] = mapped_column(NullableJson)
    #: per dialect, what it remembers about this match between messages (None: nothing)
    dialect_data: Mapped[dict[str, Any] | None] = mapped_column(NullableJson)
    #: the time control and each seat's time left (sessions/clocks.py); None: no clock
    clock: Mapped[dict[str, Any] | None] = mapped_column(NullableJson)
    #: when the first flag falls if nobody moves (None: no clock runs)
    clock_deadline: Mapped[datetime | None] = mapped_column(nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, server_default=func.now())

    seats: Mapped[list[Seat]] = relationship(
        back_populates="match", order_by="Seat.seat", cascade="all, delete-orphan"
    )


class Seat(Base):
    __tablename__ = "seats"

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), index=True)
    team: Mapped[int | None] = mapped_column(Integer)
    label: Mapped[str | None] = mapped_column(String(64))

    match: Mapped[Match] = relationship(back_populates="seats")
    player: Mapped[Player | None] = relationship(lazy="joined")


class Action(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("match_id", "seq", name="uq_actions_match_id_seq"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]]
    #: the id the client sent the action with, so a resent command is recognised after a restart
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, server_default=func.now())


class Device(Base):
    """A secret token that reaches a player: the first one (a guest's), or one per signed-in
    browser or program. Revoking a device deletes its row."""

    __tablename__ = "devices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, server_default=func.now())
    last_used_at: Mapped[datetime] = mapped_column(default=utcnow, server_default=func.now())


class OperatorLog(Base):
    """What operators did to players (reset, rename, ban, unban), with who did it."""

    __tablename__ = "operator_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, server_default=func.now())
    operator: Mapped[str] = mapped_column(String(200))
    what: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[int | None] = mapped_column(Integer, index=True, nullable=True)
    detail: Mapped[dict[str, Any] | None] = mapped_column(NullableJson)


class Rating(Base):
    """A player's OpenSkill (Weng-Lin Plackett-Luce) rating in one game, with the counts of
    their rated matches there."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game_mu", "game", "mu"),)

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"),
                                           primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    wins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    losses: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    draws: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, server_default=func.now())


class RatedMatch(Base):
    """A finished match the ratings have taken in, in the order they took it (``seq``):
    rated, or with the reason it is not (``unrated``)."""

    __tablename__ = "rated_matches"

    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          unique=True)
    game: Mapped[str] = mapped_column(String(64))
    unrated: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: per seat: player, mu and sigma before and after
    changes: Mapped[dict[str, Any] | None] = mapped_column(NullableJson)
    rated_at: Mapped[datetime] = mapped_column(default=utcnow, server_default=func.now())


class HealthProbe(Base):
    """One row (id 1) whose time ``/api/health`` moves on, at most every few seconds, to
    learn that the store can write (Store.write_probe)."""

    __tablename__ = "health_probe"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    probed_at: Mapped[datetime] = mapped_column(default=utcnow, server_default=func.now())
