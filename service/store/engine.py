"""Building the async engine: SQLite (aiosqlite, WAL) by default, PostgreSQL via asyncpg."""

from __future__ import annotations

import random
import sqlite3
import time
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal
from urllib.parse import quote

import orjson
from sqlalchemy import Engine, event
from sqlalchemy import create_engine as create_sync_engine
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

DEFAULT_URL = "sqlite+aiosqlite:///tavolo.db"

#: milliseconds a SQLite writer waits for the lock before giving up
SQLITE_BUSY_TIMEOUT_MS = 5000

#: SQLite's durability level (PRAGMA synchronous). FULL (the default) syncs the WAL on every
#: commit, so an OS crash or power cut loses nothing acknowledged; NORMAL loses nothing on a
#: process crash but may lose the last commits on an OS crash.
SqliteSynchronous = Literal["EXTRA", "FULL", "NORMAL", "OFF"]

#: seconds to wait for a PostgreSQL connection before the store reports itself unavailable
POSTGRES_CONNECT_TIMEOUT_S = 10

_SCHEMES: dict[str, str] = {
    "sqlite": "sqlite+aiosqlite",
    "postgres": "postgresql+asyncpg",
    "postgresql": "postgresql+asyncpg",
}


def normalise_url(url: str) -> str:
    """Give a bare ``sqlite://`` / ``postgres(ql)://`` URL its async driver.

    URLs that already name a driver (``sqlite+aiosqlite://``) are returned unchanged.
    """
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"not a database URL: {url!r}")
    return f"{_SCHEMES.get(scheme.lower(), scheme)}://{rest}"


def is_sqlite_url(url: str) -> bool:
    return make_url(normalise_url(url)).get_backend_name() == "sqlite"


def dump_json(value: Any) -> str:
    """JSON text of a value to save (orjson: about ten times faster than ``json.dumps``)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def read_only_url(url: str) -> str:
    """``url`` (a SQLite file) opened read-only and immutable: a backup, a file or folder this
    process may not write. SQLite then writes nothing, not even the ``-shm`` and ``-wal``
    files beside it, and reads the file as it is (no lock: nothing may change it meanwhile)."""
    path = make_url(normalise_url(url)).database or ""
    return f"sqlite+aiosqlite:///file:{quote(path)}?mode=ro&immutable=1&uri=true"


def is_read_only_url(url: str | URL) -> bool:
    return make_url(url).query.get("mode") == "ro"


def _sqlite_pragmas(synchronous: SqliteSynchronous, read_only: bool, dbapi_connection: Any,
                    connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        if not read_only:  # a read-only file stays in the journal mode it was saved in
            _use_wal(cursor)
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
    finally:
        cursor.close()


def _use_wal(cursor: Any) -> None:
    """Put the database file in WAL mode (it stays so; later connections only read the mode).

    Switching needs an exclusive lock, and SQLite refuses at once, without waiting out the busy
    timeout, when several connections try it together (each holds a read lock the others wait
    on): servers starting together on a new file. So the switch is retried for a while.
    """
    cursor.execute("PRAGMA journal_mode")
    if cursor.fetchone()[0].lower() == "wal":
        return
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")  # in-memory databases answer "memory"
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(random.uniform(0.001, 0.02))


def _install_pragmas(engine: Engine, synchronous: SqliteSynchronous) -> None:
    """Every new connection of ``engine`` (a SQLite one) gets the pragmas."""
    if synchronous not in ("EXTRA", "FULL", "NORMAL", "OFF"):  # it goes into SQL text
        raise ValueError(f"bad SQLite synchronous level {synchronous!r}")
    event.listen(engine, "connect",
                 partial(_sqlite_pragmas, synchronous, is_read_only_url(engine.url)))


def create_sync_sqlite_engine(url: str, synchronous: SqliteSynchronous = "FULL") -> Engine:
    """A synchronous (pysqlite) engine on the same SQLite file, with the same pragmas: the
    append path drives it from its own thread (store/appender.py)."""
    sync_url = make_url(normalise_url(url)).set(drivername="sqlite")
    engine = create_sync_engine(sync_url, connect_args={"check_same_thread": False},
                                json_serializer=dump_json)
    _install_pragmas(engine, synchronous)
    return engine


@dataclass(frozen=True)
class PoolSize:
    """Connections an engine keeps (``size``), may add under load (``overflow``), and how long
    a unit of work waits for one (``timeout``, s) before the store is unavailable to it."""

    size: int = 5
    overflow: int = 10
    timeout: float = 30.0


def create_engine(url: str, *, echo: bool = False, sqlite_synchronous: SqliteSynchronous = "FULL",
                  pool: PoolSize | None = None) -> AsyncEngine:
    """The AsyncEngine for ``url`` (normalised first), with SQLite pragmas installed."""
    url = normalise_url(url)
    pool = pool or PoolSize()
    sizes: dict[str, float] = {"pool_size": pool.size, "max_overflow": pool.overflow,
                               "pool_timeout": pool.timeout}
    if is_sqlite_url(url):
        if make_url(url).database in (None, "", ":memory:"):
            sizes = {}  # one in-memory database, one connection (StaticPool): nothing to size
        engine = create_async_engine(url, echo=echo, json_serializer=dump_json, **sizes)
        _install_pragmas(engine.sync_engine, sqlite_synchronous)
        return engine
    connect_args = {"timeout": POSTGRES_CONNECT_TIMEOUT_S}
    return create_async_engine(url, echo=echo, pool_pre_ping=True, connect_args=connect_args,
                               json_serializer=dump_json, **sizes)
