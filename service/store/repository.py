"""The store's one repository: players, matches, seats and the action log.

Every method runs in its own short transaction (``Store._tx``) and returns immutable
records. Database failures surface as :class:`StoreError` (``store/unavailable``);
integrity violations as :class:`StoreConflict` (``store/conflict``), both translated in
``_translated`` only.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime
from contextlib import asynccontextmanager
from typing import Any, TypeVar, cast

from functools import lru_cache

from sqlalchemy import (CursorResult, Select, and_, bindparam, func, insert, or_, select, text,
                        update)
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload
from sqlalchemy.sql.dml import Update

from service import metrics
from service.errors import NicknameTaken, SessionError
from service.store import migrate
from service.store.accounts import AccountQueries
from service.store.admin import AdminQueries
from service.store.appender import SqliteAppender, create_appender
from service.store.failures import StoreConflict
from service.store.failures import translated as _translated
from service.store.episodes import FailureEpisodes
from service.store.engine import (
    PoolSize,
    SqliteSynchronous,
    create_engine,
    is_sqlite_url,
    normalise_url,
)
from service.store.group_commit import GroupCommitter, PendingAppend
from service.store.lanes import for_strangers
from service.store.models import (FIRST_DEVICE, Action, Device, HealthProbe, Match, Player, Seat,
                                  utcnow)
from service.store.probe import WriteProbe
from service.store.ratings import RatingQueries
from service.store.nicknames import nickname_key
from service.store.records import (
    ActionRecord,
    MatchRecord,
    PlayerRecord,
    SeatRecord,
    action_record,
    match_record,
    player_record,
)

T = TypeVar("T")
S = TypeVar("S", bound=Select[Any])

#: the inserts of the set-up path, built once: the values go in as parameters
_INSERT_PLAYER = insert(Player.__table__).returning(Player.__table__.c.id)
_INSERT_MATCH = insert(Match.__table__).returning(Match.__table__.c.id)
_INSERT_SEAT = insert(Seat.__table__)
_INSERT_DEVICE = insert(Device.__table__)

_SEATS, _MATCHES = Seat.__table__, Match.__table__
#: a seat given to a player (Store.sit): empty, or already theirs
_TAKE_SEAT = (update(_SEATS)
              .where(_SEATS.c.match_id == bindparam("match_id_"), _SEATS.c.seat == bindparam("seat_"))
              .where(or_(_SEATS.c.player_id.is_(None), _SEATS.c.player_id == bindparam("player_")))
              .values(player_id=bindparam("player_")))
#: how many matches in some statuses a player holds a seat in (the admission check)
_COUNT_HELD = (select(func.count()).select_from(_MATCHES)
               .where(_MATCHES.c.status.in_(bindparam("statuses_", expanding=True)))
               .where(_MATCHES.c.id.in_(select(_SEATS.c.match_id)
                                        .where(_SEATS.c.player_id == bindparam("player_")))))

#: the write of the health probe (Store.write_probe)
_TOUCH_PROBE = update(HealthProbe.__table__).where(HealthProbe.__table__.c.id == 1)

#: matches whose log tails one query reads (SQLite's expression depth stays far below 1000)
TAILS_PER_QUERY = 100

#: the largest key the id columns hold on every backend (PostgreSQL INTEGER)
MAX_ID = 2**31 - 1

#: the strangers' lane by default: two connections, none added, 10 s to get one
STRANGERS_POOL = PoolSize(size=2, overflow=0, timeout=10.0)

#: (seat, player_id, team, label)
SeatSpec = tuple[int, int | None, int | None, str | None]

#: how often the whole state is written with an action by default: every 16th action (and at
#: the start and the end of a match); a load replays at most 15 logged actions (README,
#: "Write volume and set-up")
SNAPSHOT_EVERY = 16


def _rowcount(connection: Connection, statement: Update) -> int:
    return cast("CursorResult[Any]", connection.execute(statement)).rowcount


class Store(AccountQueries, AdminQueries, RatingQueries):
    """Async persistence of Tavolo over SQLite or PostgreSQL."""

    def __init__(self, url: str, *, echo: bool = False,
                 sqlite_synchronous: SqliteSynchronous = "FULL", pool: PoolSize | None = None,
                 strangers_pool: PoolSize | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY) -> None:
        if snapshot_every < 1:
            raise ValueError(f"snapshot_every must be at least 1, not {snapshot_every}")
        #: an action whose number is a multiple of this writes the whole state (snapshot_due)
        self.snapshot_every = snapshot_every
        self.url = normalise_url(url)
        self.is_sqlite = is_sqlite_url(self.url)
        self.engine = create_engine(self.url, echo=echo, sqlite_synchronous=sqlite_synchronous,
                                    pool=pool)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        #: the strangers' lane (store/lanes.py): its own small pool
        self.strangers_engine = create_engine(
            self.url, echo=echo, sqlite_synchronous=sqlite_synchronous,
            pool=strangers_pool or STRANGERS_POOL)
        self._strangers_sessions = async_sessionmaker(self.strangers_engine, expire_on_commit=False)
        #: failures logged once per episode, with their cause (store/episodes.py)
        self.episodes = FailureEpisodes(self.engine.url.render_as_string(hide_password=True))
        self._appender = create_appender(self.url, is_sqlite=self.is_sqlite,
                                         sqlite_synchronous=sqlite_synchronous,
                                         episodes=self.episodes)
        #: whether the store can write, asked at most once per interval (/api/health)
        self.write_probe = WriteProbe(self._touch_probe_row)
        self._committer = GroupCommitter(self._write_appends)

    def __repr__(self) -> str:
        return f"Store({self.engine.url.render_as_string(hide_password=True)!r})"

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[AsyncSession]:
        """A unit of work: commits when the block ends, rolls back if it raises."""
        sessions = self._strangers_sessions if for_strangers() else self._sessions
        with _translated(self.episodes):
            async with sessions.begin() as session:
                yield session

    async def _read(self, work: Callable[[Connection], T]) -> T:
        """A short read (SQLAlchemy Core) in one unit, as ``_write`` runs one: on SQLite one
        hop to the appender's thread instead of aiosqlite's hop per statement and the ORM
        session's bookkeeping (the match set-up path, issue 23)."""
        return await self._write(work, wrote=False)

    async def _write(self, work: Callable[[Connection], T], *, wrote: bool = True) -> T:
        """Run ``work`` (plain SQL statements, SQLAlchemy Core) as one transaction: committed
        when it returns, rolled back if it raises. No ORM session, identity map or flush, which
        cost several times the statements themselves. On SQLite the whole unit runs in one hop
        on the appender's thread and connection (the one writer); aiosqlite would hop threads
        for every statement. On PostgreSQL it runs on a pooled asyncpg connection."""
        strangers = for_strangers()
        if isinstance(self._appender, SqliteAppender) and not strangers:
            return await self._appender.run(work, wrote=wrote)
        # strangers' writes never queue on the append path's thread
        with _translated(self.episodes, wrote=wrote):
            async with (self.strangers_engine if strangers else self.engine).begin() as connection:
                return await connection.run_sync(work)

    def snapshot_due(self, seq: int, status: str) -> bool:
        """Whether action ``seq``, leaving its match in ``status``, is saved with the whole
        state: every ``snapshot_every``-th action, and the one that ends the match. The others
        are saved as their log row (and the match's version, status and clocks) only; a load
        replays them on the last snapshot."""
        return status != "active" or seq % self.snapshot_every == 0

    # -- lifecycle -------------------------------------------------------------------

    async def upgrade(self) -> None:
        """``alembic upgrade head`` on this store's database."""
        with _translated(self.episodes, wrote=True):
            await migrate.run_on_engine(self.engine)

    async def close(self) -> None:
        await self._committer.close()
        await self._appender.close()
        await self.engine.dispose()
        await self.strangers_engine.dispose()

    async def ping(self) -> None:
        """Round trip to the database; StoreError when it cannot be reached."""
        with _translated(self.episodes):
            async with self.engine.connect() as connection:
                await connection.execute(text("SELECT 1"))

    async def _touch_probe_row(self) -> None:
        """One small committed write through the path every other write takes (on SQLite the
        appender's connection): the one-row ``health_probe`` table's time is moved on."""
        def touch(connection: Connection) -> None:
            if not _rowcount(connection, _TOUCH_PROBE.values(probed_at=utcnow())):
                connection.execute(insert(HealthProbe.__table__).values(id=1, probed_at=utcnow()))

        try:
            await self._write(touch)
        except StoreConflict:  # another node put the row back at the same time: it wrote
            pass

    # -- players ---------------------------------------------------------------------

    async def create_player(self, nickname: str, token_hash: str | None, *,
                            bot_level: str | None = None,
                            label: str = FIRST_DEVICE) -> PlayerRecord:
        """A new player; with ``token_hash``, holding that token (its first device, claimed);
        with ``bot_level``, a computer player of that level."""
        now = utcnow()
        values = {"nickname": nickname, "nickname_key": nickname_key(nickname),
                  "claimed_at": now if token_hash is not None else None,
                  "bot_level": bot_level, "created_at": now, "last_seen_at": now}

        def insert_player(connection: Connection) -> int:
            player_id = connection.execute(_INSERT_PLAYER, values).scalar_one()
            if token_hash is not None:
                connection.execute(_INSERT_DEVICE, {
                    "player_id": player_id, "token_hash": token_hash, "label": label,
                    "created_at": now, "last_used_at": now})
            return int(player_id)

        try:
            player_id = await self._write(insert_player)
        except StoreConflict as exc:
            raise NicknameTaken(f"the nickname {nickname!r} is taken") from exc
        return PlayerRecord(id=player_id, nickname=nickname, created_at=now,
                            has_token=token_hash is not None, bot_level=bot_level,
                            last_seen_at=now)

    async def player_by_nickname(self, nickname: str) -> PlayerRecord | None:
        return await self._player_where(Player.nickname_key == nickname_key(nickname))

    async def player_by_token_hash(self, token_hash: str) -> PlayerRecord | None:
        """The player one of whose devices holds this token."""
        return await self._player_where(Player.id.in_(
            select(Device.player_id).where(Device.token_hash == token_hash)))

    async def _player_where(self, condition: Any) -> PlayerRecord | None:
        async with self._tx() as session:
            player = await session.scalar(select(Player).where(condition))
            return player_record(player) if player is not None else None

    async def get_or_create_player(self, nickname: str) -> PlayerRecord:
        """The player with this nickname, created (without a token) if new; race-safe."""
        found = await self.player_by_nickname(nickname)
        if found is not None:
            return found
        try:
            return await self.create_player(nickname, None)
        except SessionError:
            found = await self.player_by_nickname(nickname)
            if found is None:
                raise
            return found

    async def claim_player(self, player_id: int, token_hash: str) -> bool:
        """Give a player nobody claimed yet its first token (its first device); False if it
        was claimed already (a race lost: nothing changed)."""
        now = utcnow()
        statement = (update(Player).where(Player.id == player_id, Player.claimed_at.is_(None))
                     .values(claimed_at=now, last_seen_at=now))

        def claim(connection: Connection) -> bool:
            if _rowcount(connection, statement) != 1:
                return False
            connection.execute(_INSERT_DEVICE, {
                "player_id": player_id, "token_hash": token_hash, "label": FIRST_DEVICE,
                "created_at": now, "last_used_at": now})
            return True

        return await self._write(claim)

    async def touch_player(self, player_id: int) -> None:
        await self._update(player_id, last_seen_at=utcnow())

    # -- matches ---------------------------------------------------------------------

    async def create_match(
        self,
        *,
        game: str,
        options: dict[str, Any],
        seed: int,
        seats: list[SeatSpec],
        snapshot: dict[str, Any],
        status: str,
        dialect: str | None = None,
        rematch_of: int | None = None,
        invite_hash: str | None = None,
        clock: dict[str, Any] | None = None,
        clock_deadline: datetime | None = None,
    ) -> MatchRecord:
        """A new match; with ``rematch_of``, the one rematch of that match (idempotent);
        with ``invite_hash``, a private one; with ``clock``, its time control (and, when it
        starts at once, when the first flag falls)."""
        if rematch_of is not None:
            existing = await self._rematch_of(rematch_of)
            if existing is not None:
                return existing
        now = utcnow()
        values = {"game": game, "options": options, "seed": seed, "status": status, "version": 0,
                  "result": None, "rematch_of": rematch_of, "dialect": dialect,
                  "invite_hash": invite_hash, "created_at": now, "updated_at": now,
                  "clock": clock, "snapshot_version": 0}

        def insert_match(connection: Connection) -> tuple[int, dict[int, Any]]:
            match_id = connection.execute(
                _INSERT_MATCH, {**values, "snapshot": snapshot,
                                "clock_deadline": clock_deadline}).scalar_one()
            connection.execute(_INSERT_SEAT, [
                {"match_id": match_id, "seat": s, "player_id": p, "team": t, "label": lb}
                for s, p, t, lb in seats])
            return match_id, _players_by_id(connection, [p for _, p, _, _ in seats if p])

        try:  # one transaction; the record is built from what was written, not read back
            match_id, players = await self._write(insert_match)
        except StoreConflict:
            existing = await self._rematch_of(rematch_of) if rematch_of is not None else None
            if existing is None:
                raise
            return existing
        return MatchRecord(
            id=match_id, rematch_id=None, saved_snapshot=snapshot, **values, seats=tuple(
                SeatRecord(seat=s, player_id=p, team=t, label=lb,
                           nickname=players[p].nickname if p else None,
                           bot_level=players[p].bot_level if p else None)
                for s, p, t, lb in sorted(seats)))

    async def _rematch_of(self, match_id: int) -> MatchRecord | None:
        found = await self._matches(select(Match).where(Match.rematch_of == match_id))
        return found[0] if found else None

    async def get_match(self, match_id: int) -> MatchRecord | None:
        if not 0 < match_id <= MAX_ID:  # no such key can exist; the database would refuse it
            return None
        found = await self._matches(select(Match).where(Match.id == match_id))
        return found[0] if found else None

    async def list_matches(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        player_id: int | None = None,
        limit: int = 100,
        offset: int = 0,
        all_private: bool = True,
        private_of: int | None = None,
    ) -> list[MatchRecord]:
        """Matches, newest first, filtered by game, status and seated player. Private matches
        are listed with ``all_private`` (operators); else only those in which the player
        ``private_of`` has a seat. The records carry no log tail: a match's state is read
        with ``get_match`` (a list's reader wants its summary, and a sweep of hundreds of
        active matches would read up to 15 actions of each)."""
        statuses = (status,) if status is not None else None
        statement = _filtered(game=game, statuses=statuses, player_id=player_id)
        if not all_private:
            seen = Match.invite_hash.is_(None)
            if private_of is not None:
                seen = or_(seen, Match.id.in_(
                    select(Seat.match_id).where(Seat.player_id == private_of)))
            statement = statement.where(seen)
        return await self._matches(statement.limit(limit).offset(offset), with_tails=False)

    async def matches_of_player(
        self,
        player_id: int,
        *,
        statuses: tuple[str, ...] = ("waiting", "active"),
        game: str | None = None,
    ) -> list[MatchRecord]:
        """Matches where ``player_id`` holds a seat, newest first."""
        return await self._matches(_filtered(game=game, statuses=statuses, player_id=player_id))

    async def count_matches_of_player(self, player_id: int, *,
                                      statuses: tuple[str, ...]) -> int:
        """How many matches in ``statuses`` ``player_id`` holds a seat in (no records read)."""
        held = {"statuses_": list(statuses), "player_": player_id}  # the set-up path: prepared
        return int(await self._read(lambda connection: connection.scalar(_COUNT_HELD, held)) or 0)

    async def statuses_of(self, match_ids: Sequence[int]) -> dict[int, str]:
        """The status of each of ``match_ids`` that exists, in one query."""
        if not match_ids:
            return {}
        statement = select(Match.id, Match.status).where(Match.id.in_(list(match_ids)))
        async with self._tx() as session:
            return {match_id: status for match_id, status in (await session.execute(statement))}

    async def matches_with_bots(self, *, statuses: tuple[str, ...] = ("active",)) -> list[int]:
        """Ids of the matches in ``statuses`` where a computer player holds a seat, oldest first."""
        statement = (select(Seat.match_id).join(Player, Seat.player_id == Player.id)
                     .join(Match, Seat.match_id == Match.id)
                     .where(Player.bot_level.is_not(None), Match.status.in_(statuses))
                     .distinct().order_by(Seat.match_id))
        async with self._tx() as session:
            return list((await session.scalars(statement)).all())

    async def matches_with_stand_ins(self, key: str) -> list[int]:
        """Ids of the active matches whose ``dialect_data`` holds ``key`` (the stand-ins of
        away seats, sessions/match.py), oldest first."""
        statement = (select(Match.id, Match.dialect_data)
                     .where(Match.status == "active", Match.dialect_data.is_not(None))
                     .order_by(Match.id))
        async with self._tx() as session:
            rows = (await session.execute(statement)).all()
        return [match_id for match_id, data in rows if data and data.get(key)]

    async def _matches(self, statement: Select[Match], *,
                       with_tails: bool = True) -> list[MatchRecord]:
        async with self._tx() as session:
            matches = (await session.scalars(statement.options(selectinload(Match.seats)))).all()
            rematches = await _rematch_ids(session, [match.id for match in matches])
            tails = await _tails(session, matches) if with_tails else {}
            return [match_record(match, rematches.get(match.id), tails.get(match.id, ()))
                    for match in matches]

    # -- seats and lifecycle ---------------------------------------------------------

    async def sit(
        self,
        match_id: int,
        seat: int,
        player_id: int,
        *,
        snapshot: dict[str, Any] | None = None,
        status: str | None = None,
        clock: dict[str, Any] | None = None,
        clock_deadline: datetime | None = None,
    ) -> None:
        """Give an empty seat (or the player's own) to ``player_id``; race-safe. The match's
        clocks (when it starts with this seat) are saved in the same transaction."""
        seat_values = {"match_id_": match_id, "seat_": seat, "player_": player_id}
        values = _present(snapshot=snapshot, status=status, clock=clock,
                          clock_deadline=clock_deadline)
        touch = _touch_statement(tuple(sorted(values)))  # prepared once per set of columns

        def take_seat(connection: Connection) -> None:
            if cast("CursorResult[Any]", connection.execute(_TAKE_SEAT, seat_values)).rowcount == 0:
                _explain_unseatable(connection, match_id, seat)
            connection.execute(touch, {**values, "match_id_": match_id, "updated_at": utcnow()})

        await self._write(take_seat)

    async def unsit(self, match_id: int, seat: int, player_id: int) -> bool:
        """Free ``seat`` of a match that has not started, if ``player_id`` holds it.
        False (and nothing changed) when the match has started or the seat is not theirs."""
        waiting = select(Match.id).where(Match.id == match_id, Match.status == "waiting")
        statement = (
            update(Seat)
            .where(Seat.match_id == match_id, Seat.seat == seat, Seat.player_id == player_id)
            .where(Seat.match_id.in_(waiting))
            .values(player_id=None)
        )

        def free_seat(connection: Connection) -> bool:
            freed = _rowcount(connection, statement) == 1
            if freed:
                _rowcount(connection, _touch_match(match_id))
            return freed

        return await self._write(free_seat)

    async def set_status(
        self, match_id: int, status: str, *, result: dict[str, Any] | None = None,
        clock: dict[str, Any] | None = None, snapshot: dict[str, Any] | None = None,
        snapshot_version: int | None = None
    ) -> None:
        """Change the status (and, when given, the result and the clocks) of a match; a match
        that ends has no clock deadline any more. With ``snapshot``, the state after
        ``snapshot_version`` actions is saved too (a match that ends keeps its whole state)."""
        ended = {"clock_deadline": None} if status in ("finished", "aborted") else {}
        if (snapshot is None) != (snapshot_version is None):
            raise ValueError("a snapshot is saved with the version it is at")
        await self._update_match(match_id, **_present(status=status, result=result, clock=clock,
                                                      snapshot=snapshot,
                                                      snapshot_version=snapshot_version),
                                 **ended)

    async def set_clock(self, match_id: int, clock: dict[str, Any],
                        deadline: datetime | None) -> None:
        """Save a match's clocks outside an action (its start, a stand-in's seat stopped)."""
        await self._update_match(match_id, clock=clock, clock_deadline=deadline)

    async def overdue_clocks(self, now: datetime, *, limit: int = 100) -> list[int]:
        """Active matches whose first flag fell by ``now`` (oldest deadline first)."""
        statement = (select(Match.id).where(Match.status == "active",
                                            Match.clock_deadline <= now)
                     .order_by(Match.clock_deadline).limit(limit))
        async with self._tx() as session:
            return list(await session.scalars(statement))

    async def set_rematch_votes(self, match_id: int, seats: Sequence[int]) -> None:
        """Save the seats that agreed to a rematch (they survive a restart)."""
        await self._update_match(match_id, rematch_votes=sorted(set(seats)) or None)

    async def set_dialect_data(self, match_id: int, dialect: str, data: Any) -> None:
        """Save what ``dialect`` remembers about a match (JSON; None forgets it). The other
        dialects' data stays as it is."""
        statement = select(Match.dialect_data).where(Match.id == match_id).with_for_update()

        def merge(connection: Connection) -> None:
            found = connection.execute(statement).first()
            if found is None:
                raise SessionError(f"no match {match_id}", code="session/no_such_match")
            saved = {k: v for k, v in (found[0] or {}).items() if k != dialect}
            if data is not None:
                saved[dialect] = data
            _rowcount(connection, _touch_match(match_id, dialect_data=saved or None))

        await self._write(merge)

    async def _update_match(self, match_id: int, **values: Any) -> None:
        statement = _touch_match(match_id, **values)
        if await self._write(lambda connection: _rowcount(connection, statement)) == 0:
            raise SessionError(f"no match {match_id}", code="session/no_such_match")

    # -- the action log --------------------------------------------------------------

    async def append_action(
        self,
        match_id: int,
        *,
        seq: int,
        seat: int,
        action: dict[str, Any],
        snapshot: dict[str, Any] | None,
        status: str,
        result: dict[str, Any] | None,
        client_id: str | None = None,
        clock: dict[str, Any] | None = None,
        clock_deadline: datetime | None = None,
    ) -> None:
        """Durably log action ``seq`` (with the clocks after it, when the match has them) and,
        when ``snapshot_due``, the state after it (``snapshot``; the caller may leave it out
        when it is not due), or raise ``store/conflict``. Otherwise the saved snapshot stays
        where it was: a load replays the actions after it.

        Returns only after the commit. Appends of many matches that arrive together share
        one transaction (see ``group_commit``); each still succeeds or fails on its own.
        """
        if not self.snapshot_due(seq, status):
            snapshot = None
        append = PendingAppend(match_id, seq, seat, action, snapshot, status, result, client_id,
                               clock, clock_deadline)
        await self._committer.submit(append)

    async def _write_appends(self, batch: list[PendingAppend]) -> list[BaseException | None]:
        """One group-commit batch through the appender, measured for /metrics."""
        metrics.COMMIT_BATCH.observe(len(batch))
        with metrics.COMMIT_SECONDS.time():
            return await self._appender.write(batch)

    async def recent_client_ids(self, match_id: int, *, limit: int) -> list[ActionRecord]:
        """The newest ``limit`` actions of a match that carry a client id, newest first."""
        statement = (
            select(Action)
            .where(Action.match_id == match_id, Action.client_id.is_not(None))
            .order_by(Action.seq.desc())
            .limit(limit)
        )
        async with self._tx() as session:
            return [action_record(action) for action in await session.scalars(statement)]

    async def actions(
        self, match_id: int, *, after: int = 0, limit: int | None = None
    ) -> list[ActionRecord]:
        """The logged actions of a match with ``seq > after``, in order."""
        statement = (
            select(Action)
            .where(Action.match_id == match_id, Action.seq > after)
            .order_by(Action.seq)
            .limit(limit)
        )
        async with self._tx() as session:
            return [action_record(action) for action in await session.scalars(statement)]


def _filtered(
    *, game: str | None, statuses: Sequence[str] | None, player_id: int | None
) -> Select[Match]:
    return _where(select(Match).order_by(Match.id.desc()), game=game, statuses=statuses,
                  player_id=player_id)


def _where(statement: S, *, game: str | None, statuses: Sequence[str] | None,
           player_id: int | None) -> S:
    """``statement`` (a select from matches) narrowed to a game, statuses and a seated player."""
    if game is not None:
        statement = statement.where(Match.game == game)
    if statuses is not None:
        statement = statement.where(Match.status.in_(statuses))
    if player_id is not None:
        seated = select(Seat.match_id).where(Seat.player_id == player_id)
        statement = statement.where(Match.id.in_(seated))
    return statement


def _players_by_id(connection: Connection, ids: list[int]) -> dict[int, Any]:
    """id -> (nickname, bot_level) of these players."""
    if not ids:
        return {}
    statement = select(Player.id, Player.nickname, Player.bot_level).where(Player.id.in_(ids))
    return {row.id: row for row in connection.execute(statement)}


async def _rematch_ids(session: AsyncSession, match_ids: list[int]) -> dict[int, int]:
    """old match id -> id of its rematch, for those of ``match_ids`` that have one."""
    if not match_ids:
        return {}
    statement = select(Match.rematch_of, Match.id).where(Match.rematch_of.in_(match_ids))
    return {old: new for old, new in await session.execute(statement)}


async def _tails(session: AsyncSession,
                 matches: Sequence[Match]) -> dict[int, tuple[ActionRecord, ...]]:
    """match id -> its logged actions after its snapshot, up to the version just read (an
    action saved since is not part of the record), for the matches whose snapshot is behind."""
    behind = [m for m in matches if m.snapshot_version < m.version]
    tails: dict[int, list[ActionRecord]] = {}
    for start in range(0, len(behind), TAILS_PER_QUERY):
        statement = (select(Action).where(or_(*(
            and_(Action.match_id == m.id, Action.seq > m.snapshot_version, Action.seq <= m.version)
            for m in behind[start:start + TAILS_PER_QUERY]))).order_by(Action.match_id, Action.seq))
        for action in await session.scalars(statement):
            tails.setdefault(action.match_id, []).append(action_record(action))
    return {match_id: tuple(tail) for match_id, tail in tails.items()}


def _explain_unseatable(connection: Connection, match_id: int, seat: int) -> None:
    statement = select(Seat.player_id).where(Seat.match_id == match_id, Seat.seat == seat)
    holder = connection.execute(statement).first()
    if holder is None:
        raise SessionError(f"match {match_id} has no seat {seat}", code="session/no_such_seat")
    raise SessionError(f"seat {seat} is taken", code="session/seat_taken", seat=seat)


@lru_cache(maxsize=32)
def _touch_statement(columns: tuple[str, ...]) -> Update:
    """The match's ``columns`` (and ``updated_at``) set from parameters of the same names, the
    match by ``match_id_``; with ``snapshot``, its version is the match's version now."""
    statement = (update(_MATCHES).where(_MATCHES.c.id == bindparam("match_id_"))
                 .values({name: bindparam(name) for name in (*columns, "updated_at")}))
    if "snapshot" in columns:
        statement = statement.values(snapshot_version=_MATCHES.c.version)
    return statement


def _touch_match(match_id: int, **values: Any) -> Update:
    return update(Match).where(Match.id == match_id).values(updated_at=utcnow(), **values)


def _present(**values: Any) -> dict[str, Any]:
    return {name: value for name, value in values.items() if value is not None}
