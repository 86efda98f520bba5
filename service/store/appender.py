"""The hot append path: one group-commit batch written with the least overhead the driver allows.

* SQLite: the whole batch (read versions, bump matches, insert log rows, commit) runs in ONE
  call on the appender's own thread, on its own long-lived synchronous connection (SQLAlchemy
  Core, same pragmas, ``synchronous=FULL`` by default): one thread hop per batch instead of
  one per statement.
* PostgreSQL: a dedicated asyncpg connection, no pool checkout and no pre-ping per batch, and
  ONE statement per batch, in one round trip (autocommit): it moves each match of the batch
  to its new version only where the saved version is the one the batch follows (the version
  check, done by the database under the row's lock) and logs the actions of the matches it
  moved. Prepared once (asyncpg's statement cache). A broken connection is dropped and a new
  one opened by the next batch.

The whole state (the snapshot) goes with an append only when the runtime hands one over (every
few actions, ``Store.snapshot_due``), with the version it is at; the other appends move the
match's version, status, result and clocks and log the action, and leave the saved snapshot
where it was (a load replays the log after it). Per match and batch the row is written once:
the last append's version, and the newest snapshot among its appends.

Durability is unchanged: the caller hears of the batch only after the commit returned. A
failure before the commit saved nothing (``store/unavailable``); a failed commit may have
saved everything (``store/unknown_outcome``); on PostgreSQL an error the server reports for
the statement saved nothing (a statement is atomic), any other failure of it leaves the
outcome unknown. ``connect`` and ``commit`` are the seams the fault tests cut
(tests/store_faults.py).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import asyncpg
from sqlalchemy import Connection, bindparam, insert, select, update
from sqlalchemy.engine import make_url

from service.store.engine import (
    POSTGRES_CONNECT_TIMEOUT_S,
    SqliteSynchronous,
    create_sync_sqlite_engine,
    dump_json,
)
from service.store.failures import (
    DATABASE_ERRORS,
    StoreConflict,
    at_commit,
    before_commit,
    translated,
)
from service.store.episodes import FailureEpisodes
from service.store.group_commit import PendingAppend
from service.store.models import Action, Match, utcnow

Outcomes = list[BaseException | None]
T = TypeVar("T")


class Appender(Protocol):
    async def write(self, batch: list[PendingAppend]) -> Outcomes: ...

    async def close(self) -> None: ...


def create_appender(url: str, *, is_sqlite: bool, sqlite_synchronous: SqliteSynchronous,
                    episodes: FailureEpisodes | None = None) -> Appender:
    if is_sqlite:
        return SqliteAppender(url, sqlite_synchronous, episodes)
    return PostgresAppender(url, episodes)


def behind(append: PendingAppend) -> StoreConflict:
    """The conflict that refuses ``append``: its match is not at the version it follows."""
    return StoreConflict(f"match {append.match_id} is not at version {append.seq - 1}",
                         match_id=append.match_id, seq=append.seq)


def check_versions(batch: list[PendingAppend], current: dict[int, int]) -> Outcomes:
    """Per append: None when it follows its match's saved version (or the append before it
    in this batch), else the conflict that refuses it alone."""
    outcomes: Outcomes = []
    for append in batch:
        if current.get(append.match_id) == append.seq - 1:
            current[append.match_id] = append.seq
            outcomes.append(None)
        else:
            outcomes.append(behind(append))
    return outcomes


# -- SQLite ---------------------------------------------------------------------------------

_MATCHES, _ACTIONS = Match.__table__, Action.__table__
#: a match ended meanwhile (aborted by an operator from another process) takes no action:
#: it is left out, and its appends are refused as conflicts
_VERSIONS = select(_MATCHES.c.id, _MATCHES.c.version).where(
    _MATCHES.c.id.in_(bindparam("ids", expanding=True)), _MATCHES.c.status == "active")
#: one executemany statement that moves each match of a batch to its new version...
_BUMP = (update(_MATCHES).where(_MATCHES.c.id == bindparam("b_id"))
         .values(version=bindparam("b_version"),
                 status=bindparam("b_status"), result=bindparam("b_result"),
                 clock=bindparam("b_clock"), clock_deadline=bindparam("b_deadline"),
                 updated_at=bindparam("b_now")))
#: ...and one for the matches whose appends carry a snapshot
_BUMP_SNAPSHOT = _BUMP.values(snapshot=bindparam("b_snapshot"),
                              snapshot_version=bindparam("b_snapshot_version"))
_LOG = insert(_ACTIONS)


def per_match(appends: list[PendingAppend]) -> list[tuple[PendingAppend, PendingAppend | None]]:
    """Per match (its appends follow one another): its last append, and its last append
    that carries a snapshot (None: none does)."""
    rows: dict[int, tuple[PendingAppend, PendingAppend | None]] = {}
    for append in appends:
        snapshot = append if append.snapshot is not None else rows.get(
            append.match_id, (append, None))[1]
        rows[append.match_id] = (append, snapshot)
    return list(rows.values())


class SqliteAppender:
    def __init__(self, url: str, synchronous: SqliteSynchronous,
                 episodes: FailureEpisodes | None = None) -> None:
        self.engine = create_sync_sqlite_engine(url, synchronous)
        self.episodes = episodes
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="tavolo-append")
        self._connection: Connection | None = None

    async def write(self, batch: list[PendingAppend]) -> Outcomes:
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._write, batch)

    def _write(self, batch: list[PendingAppend]) -> Outcomes:
        try:
            with before_commit(self.episodes):
                connection = self.connect()
                outcomes = self._rows(connection, batch)
            with at_commit(self.episodes):
                self.commit(connection)
        except BaseException:
            self._drop()  # whatever failed, the next batch starts on a fresh connection
            raise
        return outcomes

    async def run(self, work: Callable[[Connection], T], *, wrote: bool = True) -> T:
        """Any other unit of work (SQLAlchemy Core on this connection) in one hop on this
        thread: committed when ``work`` returns, rolled back if it raises (``wrote``: False
        for a read, whose success says nothing about writing)."""
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._run, work,
                                                                wrote)

    def _run(self, work: Callable[[Connection], T], wrote: bool = True) -> T:
        with translated(self.episodes, wrote=wrote):
            connection = self.connect()
            try:
                result = work(connection)
                connection.commit()
            except BaseException:
                try:
                    connection.rollback()  # e.g. a seat taken: the connection itself is fine
                except DATABASE_ERRORS:
                    self._drop()
                raise
        return result

    def connect(self) -> Connection:
        if self._connection is None:
            self._connection = self.engine.connect()
        return self._connection

    def commit(self, connection: Connection) -> None:
        connection.commit()

    @staticmethod
    def _rows(connection: Connection, batch: list[PendingAppend]) -> Outcomes:
        ids = sorted({a.match_id for a in batch})
        current = dict(connection.execute(_VERSIONS, {"ids": ids}).all())  # type: ignore[arg-type]
        outcomes = check_versions(batch, current)
        written = [a for a, error in zip(batch, outcomes) if error is None]
        if written:
            now = utcnow()
            bare, full = [], []
            for last, snapshot in per_match(written):
                row = {"b_id": last.match_id, "b_version": last.seq, "b_status": last.status,
                       "b_result": last.result, "b_clock": last.clock,
                       "b_deadline": last.clock_deadline, "b_now": now}
                if snapshot is None:
                    bare.append(row)
                else:
                    full.append({**row, "b_snapshot": snapshot.snapshot,
                                 "b_snapshot_version": snapshot.seq})
            for statement, rows in ((_BUMP, bare), (_BUMP_SNAPSHOT, full)):
                if rows:  # different matches: the order of the two does not matter
                    connection.execute(statement, rows)
            connection.execute(_LOG, [
                {"match_id": a.match_id, "seq": a.seq, "seat": a.seat, "action": a.action,
                 "client_id": a.client_id, "created_at": now} for a in written])
        return outcomes

    def _drop(self) -> None:
        """Forget the connection (rolled back, closed): the next batch opens a fresh one."""
        connection, self._connection = self._connection, None
        if connection is not None:
            with suppress(*DATABASE_ERRORS):
                connection.close()

    async def close(self) -> None:
        await asyncio.get_running_loop().run_in_executor(self._thread, self._drop)
        self._thread.shutdown()
        self.engine.dispose()


# -- PostgreSQL -----------------------------------------------------------------------------

#: how the append connection shows in pg_stat_activity
APPLICATION_NAME = "tavolo-appender"
#: one batch in one statement: $1..$6, $13..$15 one row per match (id, the version the batch
#: follows, the new version, snapshot or NULL, status, result, clock, clock deadline, the
#: snapshot's version or NULL), $7 the time, $8..$12 one row per action. A NULL snapshot
#: keeps the saved one (and, TOASTed, it is not copied: migration 0009)
_PG_APPEND = """
WITH batch AS (
    SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[],
                         $13::text[], $14::timestamptz[], $15::int[])
        AS b(id, expected, version, snapshot, status, result, clock, deadline, at)
), bumped AS (
    UPDATE matches AS m
    SET version = batch.version, snapshot = COALESCE(batch.snapshot::jsonb, m.snapshot),
        snapshot_version = COALESCE(batch.at, m.snapshot_version), status = batch.status,
        result = batch.result::jsonb, clock = batch.clock::jsonb,
        clock_deadline = batch.deadline, updated_at = $7
    FROM batch
    WHERE m.id = batch.id AND m.version = batch.expected AND m.status = 'active'
    RETURNING m.id
), logged AS (
    INSERT INTO actions (match_id, seq, seat, action, client_id, created_at)
    SELECT a.match_id, a.seq, a.seat, a.action::jsonb, a.client_id, $7
    FROM unnest($8::int[], $9::int[], $10::int[], $11::text[], $12::text[])
        AS a(match_id, seq, seat, action, client_id)
    WHERE a.match_id IN (SELECT id FROM bumped)
)
SELECT id FROM bumped
"""


def chains(batch: list[PendingAppend]) -> tuple[dict[int, list[int]], Outcomes]:
    """Per match, the indexes of its appends that follow one another in the batch (the
    first must follow the saved version, which the database checks); every other append is
    refused as a conflict at once (its outcome here; None for those in a chain)."""
    runs: dict[int, list[int]] = {}
    outcomes: Outcomes = []
    for index, append in enumerate(batch):
        run = runs.setdefault(append.match_id, [])
        if run and batch[run[-1]].seq + 1 != append.seq:
            outcomes.append(behind(append))
            continue
        run.append(index)
        outcomes.append(None)
    return runs, outcomes


class PostgresAppender:
    def __init__(self, url: str, episodes: FailureEpisodes | None = None) -> None:
        self.episodes = episodes
        self._dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self._connection: asyncpg.Connection | None = None

    @property
    def backend_pid(self) -> int | None:
        """The server process of the current connection (operators and fault tests)."""
        return None if self._connection is None else self._connection.get_server_pid()

    async def write(self, batch: list[PendingAppend]) -> Outcomes:
        runs, outcomes = chains(batch)
        try:
            with before_commit(self.episodes):
                connection = await self.connect()
                arguments = self._rows(batch, runs)
            try:
                rows = await self.commit(lambda: connection.fetch(_PG_APPEND, *arguments))
            except asyncpg.PostgresError:
                with before_commit(self.episodes):  # the statement failed whole: nothing saved
                    raise
            except Exception:
                with at_commit(self.episodes):  # the answer was lost: saved or not
                    raise
        except BaseException:
            # after ANY error (asyncpg's own state may be wrong: "cannot switch to state 12;
            # another operation is in progress") the connection is never used again
            self._drop()
            raise
        if self.episodes is not None:
            self.episodes.succeeded(wrote=True)
        moved = {row[0] for row in rows}
        for match_id, run in runs.items():
            if match_id not in moved:
                for index in run:
                    outcomes[index] = behind(batch[index])
        return outcomes

    @staticmethod
    def _rows(batch: list[PendingAppend], runs: dict[int, list[int]]) -> list[Any]:
        """The statement's arguments: one row per match moved, one per action logged."""
        last = [batch[run[-1]] for run in runs.values()]
        first = [batch[run[0]] for run in runs.values()]
        snapshots = [per_match([batch[index] for index in run])[0][1] for run in runs.values()]
        actions = [batch[index] for run in runs.values() for index in run]
        return [
            [a.match_id for a in last], [a.seq - 1 for a in first], [a.seq for a in last],
            [None if s is None else dump_json(s.snapshot) for s in snapshots],
            [a.status for a in last],
            [None if a.result is None else dump_json(a.result) for a in last], utcnow(),
            [a.match_id for a in actions], [a.seq for a in actions], [a.seat for a in actions],
            [dump_json(a.action) for a in actions], [a.client_id for a in actions],
            [None if a.clock is None else dump_json(a.clock) for a in last],
            [a.clock_deadline for a in last], [None if s is None else s.seq for s in snapshots]]

    async def connect(self) -> asyncpg.Connection:
        if self._connection is None or self._connection.is_closed():
            self._connection = await asyncpg.connect(
                self._dsn, timeout=POSTGRES_CONNECT_TIMEOUT_S,
                server_settings={"application_name": APPLICATION_NAME})
        return self._connection

    async def commit(self, statement: Callable[[], Any]) -> Any:
        """Run the batch's statement: its end is the commit (autocommit)."""
        return await statement()

    def _drop(self) -> None:
        """Abandon the connection mid-transaction: the server rolls back what it held."""
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.terminate()

    async def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with suppress(*DATABASE_ERRORS):
                await connection.close(timeout=5)
