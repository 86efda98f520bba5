"""/api/health writes to learn that the store can write (at most once per interval), and says
``degraded`` with the reason when it cannot; store failures are logged once per episode with
their cause, and once when they clear. Faults are real database refusals: SQLite's
``query_only`` (read-only) and ``max_page_count`` (full), PostgreSQL's
``default_transaction_read_only``."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from service.app import create_app
from service.errors import StoreError
from service.gateway.keys import HUB, STORE
from service.settings import Settings
from service.store import Store
from service.store.episodes import (
    CONNECTION_LOST,
    DISK_FULL,
    LOCK_TIMEOUT,
    READ_ONLY,
    FailureEpisodes,
    cause_of,
)

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[[web.Application], Awaitable[Client]]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def store_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "service.store"]


def wrapped(driver_error: BaseException) -> OperationalError:
    return OperationalError("UPDATE", {}, driver_error)


@pytest.mark.parametrize("error, cause", [
    (wrapped(sqlite3.OperationalError("database or disk is full")), DISK_FULL),
    (wrapped(sqlite3.OperationalError("attempt to write a readonly database")), READ_ONLY),
    (wrapped(sqlite3.OperationalError("database is locked")), LOCK_TIMEOUT),
    (wrapped(ConnectionResetError("connection lost")), CONNECTION_LOST),
    (asyncpg.DiskFullError("could not extend file"), DISK_FULL),
    (asyncpg.ReadOnlySQLTransactionError("cannot execute UPDATE in a read-only transaction"),
     READ_ONLY),
    (asyncpg.LockNotAvailableError("canceling statement due to lock timeout"), LOCK_TIMEOUT),
    (asyncpg.ConnectionDoesNotExistError("connection was closed"), CONNECTION_LOST),
    (OSError(28, "No space left on device"), DISK_FULL),
])
def test_the_cause_of_a_failure_is_named(error: BaseException, cause: str) -> None:
    found, detail = cause_of(error)
    assert found == cause and str(error.orig if hasattr(error, "orig") else error) in detail


def test_an_episode_is_logged_once_and_its_end_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="service.store")
    episodes = FailureEpisodes("db")
    read_only = wrapped(sqlite3.OperationalError("attempt to write a readonly database"))
    for _ in range(3):
        episodes.failed(read_only)
    episodes.succeeded(wrote=False)  # a read-only database still reads: not over
    assert episodes.current is not None and episodes.current.failures == 3
    episodes.failed(read_only)
    episodes.succeeded(wrote=True)
    assert episodes.current is None
    episodes.succeeded(wrote=True)
    lines = [(r.levelname, r.getMessage()) for r in store_records(caplog)]
    assert len(lines) == 2, lines
    assert lines[0][0] == "ERROR" and "failing: read-only" in lines[0][1]
    assert "attempt to write a readonly database" in lines[0][1]
    assert lines[1][0] == "WARNING" and "works again after read-only: 4 failure(s)" in lines[1][1]


def test_a_lost_connection_ends_with_any_success(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="service.store")
    episodes = FailureEpisodes("db")
    episodes.failed(wrapped(ConnectionRefusedError("refused")))
    episodes.succeeded(wrote=False)
    assert episodes.current is None
    assert [r.levelname for r in store_records(caplog)] == ["ERROR", "WARNING"]


async def sqlite_pragma(store: Store, pragma: str) -> Any:
    """A pragma on the connection every SQLite write takes (the appender's), on its thread,
    outside the store's bookkeeping (the pragma itself is no success of the store)."""
    appender: Any = store._appender

    def run() -> Any:
        result = appender.connect().exec_driver_sql(pragma)
        return result.scalar() if result.returns_rows else None

    return await asyncio.get_running_loop().run_in_executor(appender._thread, run)


class ReadOnly:
    """The store's database refuses writes (reads still work) until ``clear``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.admin: Any = None

    async def start(self) -> None:
        if self.store.is_sqlite:
            await sqlite_pragma(self.store, "PRAGMA query_only=1")
            return
        url = make_url(self.store.url)
        self.admin = await asyncpg.connect(url.set(drivername="postgresql").render_as_string(
            hide_password=False))  # its own session stays writable
        await self.admin.execute(
            f'ALTER DATABASE "{url.database}" SET default_transaction_read_only = on')
        await self.store.engine.dispose()  # new connections are read-only

    async def clear(self) -> None:
        if self.store.is_sqlite:
            await sqlite_pragma(self.store, "PRAGMA query_only=0")
            return
        await self.admin.execute(
            f'ALTER DATABASE "{make_url(self.store.url).database}" RESET default_transaction_read_only')
        await self.admin.close()
        await self.store.engine.dispose()


@pytest.fixture
async def client(aiohttp_client: MakeClient, database_url: str) -> Client:
    return await aiohttp_client(create_app(Settings.for_tests(database_url, listen={})))


async def health(client: Client) -> tuple[int, dict[str, Any]]:
    response = await client.get("/api/health")
    return response.status, await response.json()


async def test_health_probes_a_write_rate_limited_and_says_degraded_with_the_reason(
        client: Client, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="service.store")
    store: Store = client.server.app[STORE]
    probe, clock = store.write_probe, Clock()
    probe.clock = clock
    status, body = await health(client)
    assert (status, body["status"], probe.writes) == (200, "ok", 1)
    fault = ReadOnly(store)
    await fault.start()
    try:
        status, body = await health(client)  # within the interval: the kept answer
        assert (status, body["status"], probe.writes) == (200, "ok", 1)
        clock.now += probe.interval
        status, body = await health(client)
        assert (status, body["status"], probe.writes) == (503, "degraded", 2)
        assert body["reason"].startswith("the store cannot write: read-only (")
        assert "read" in body["reason"].split("(", 1)[1]  # the driver's own words
        assert body["live_matches"] == 0 and "node" in body
        for _ in range(3):
            clock.now += probe.interval
            assert (await health(client))[0] == 503
        assert probe.writes == 5
    finally:
        await fault.clear()
    clock.now += probe.interval
    status, body = await health(client)
    assert (status, body["status"], "reason" in body) == (200, "ok", False)
    lines = [(r.levelname, r.getMessage()) for r in store_records(caplog)]
    assert [level for level, _ in lines] == ["ERROR", "WARNING"], lines
    assert "failing: read-only" in lines[0][1] and "works again after read-only: 4" in lines[1][1]


class Shuttle:
    """Dolphins & Foxes moves that never end the match: each seat moves a unit out and back."""

    def __init__(self, runtime: Any) -> None:
        self.runtime, self.count = runtime, 0
        self.last: list[dict[str, Any] | None] = [None, None]
        self.pending: tuple[int, dict[str, Any]] | None = None

    def next(self) -> tuple[int, dict[str, Any]]:
        seat, previous = self.count % 2, self.last[self.count % 2]
        if previous is None:
            game = self.runtime.game
            action = game.dump_action(game.legal_actions(self.runtime.state, seat)[0])
        else:
            action = {**previous, "r1": previous["r2"], "c1": previous["c2"],
                      "r2": previous["r1"], "c2": previous["c1"]}
        self.pending = seat, action
        return seat, action

    def applied(self) -> None:
        assert self.pending is not None
        seat, action = self.pending
        self.last[seat] = None if self.last[seat] is not None else action
        self.count += 1


async def test_a_full_sqlite_database_refuses_actions_and_is_logged_once(
        client: Client, database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("max_page_count is SQLite's")
    caplog.set_level(logging.INFO, logger="service.store")
    hub, store = client.server.app[HUB], client.server.app[STORE]
    alice = (await hub.identify(nickname="alice")).player
    bob = (await hub.identify(nickname="bob")).player
    runtime, _ = await hub.quick_join("dolphinfox", alice, None)
    await hub.quick_join("dolphinfox", bob, None)
    pages = await sqlite_pragma(store, "PRAGMA page_count")
    await sqlite_pragma(store, f"PRAGMA max_page_count={pages}")
    players, failures = [alice, bob], 0
    moves = Shuttle(runtime)
    for _ in range(3000):  # each action's log row needs room; the file may not grow
        seat, action = moves.next()
        try:
            await runtime.act(players[seat].id, action)
        except StoreError as exc:
            assert exc.code == "store/unavailable"
            failures += 1
            recovery = hub.recovery(runtime.id)  # the match reloads what was saved
            if recovery is not None:
                await asyncio.wait_for(recovery, 60)
            runtime = moves.runtime = await hub.get(runtime.id)
            if failures == 3:
                break
            continue
        moves.applied()
    assert failures == 3
    await sqlite_pragma(store, "PRAGMA max_page_count=1073741823")
    seat, action = moves.next()
    await runtime.act(players[seat].id, action)
    lines = [(r.levelname, r.getMessage()) for r in store_records(caplog)]
    assert [level for level, _ in lines] == ["ERROR", "WARNING"], lines
    assert "failing: disk full" in lines[0][1] and "database or disk is full" in lines[0][1]
    assert "works again after disk full: 3 failure(s)" in lines[1][1]
