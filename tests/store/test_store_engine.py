from __future__ import annotations

import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from service.store import create_engine, is_sqlite_url, normalise_url
from service.store.engine import create_sync_sqlite_engine


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("sqlite:///x.db", "sqlite+aiosqlite:///x.db"),
        ("sqlite:////abs/x.db", "sqlite+aiosqlite:////abs/x.db"),
        ("sqlite://", "sqlite+aiosqlite://"),
        ("sqlite+aiosqlite:///x.db", "sqlite+aiosqlite:///x.db"),
        ("postgresql://u:p@h:5432/db", "postgresql+asyncpg://u:p@h:5432/db"),
        ("postgres://u@h/db", "postgresql+asyncpg://u@h/db"),
        ("postgresql+asyncpg://u@h/db", "postgresql+asyncpg://u@h/db"),
    ],
)
def test_normalise_url(given: str, expected: str) -> None:
    assert normalise_url(given) == expected


def test_normalise_url_rejects_non_urls() -> None:
    with pytest.raises(ValueError):
        normalise_url("tavolo.db")


def test_is_sqlite_url() -> None:
    assert is_sqlite_url("sqlite:///x.db")
    assert not is_sqlite_url("postgres://u@h/db")


async def test_sqlite_connections_get_the_pragmas(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'p.db'}")
    try:
        async with engine.connect() as connection:
            pragma = (lambda name: connection.execute(text(f"PRAGMA {name}")))  # noqa: E731
            assert (await pragma("journal_mode")).scalar() == "wal"
            assert (await pragma("foreign_keys")).scalar() == 1
            assert (await pragma("busy_timeout")).scalar() >= 1000
            assert (await pragma("synchronous")).scalar() == 2  # FULL: survives an OS crash
    finally:
        await engine.dispose()


async def test_a_setting_may_lower_sqlite_durability_to_normal(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'p.db'}", sqlite_synchronous="NORMAL")
    try:
        async with engine.connect() as connection:
            assert (await connection.execute(text("PRAGMA synchronous"))).scalar() == 1
    finally:
        await engine.dispose()
    with pytest.raises(ValueError):
        create_engine(f"sqlite:///{tmp_path / 'q.db'}", sqlite_synchronous="FULL; DROP")  # type: ignore[arg-type]


def test_servers_opening_one_old_database_together_all_get_wal(tmp_path: Path) -> None:
    """Several connections switching a rollback-journal file to WAL at the same moment: SQLite
    refuses all but one at once (a deadlock it will not wait out), so the switch is retried."""
    rounds, openers = 200, 4

    def open_and_read(engine: Engine, start: threading.Barrier) -> str:
        start.wait()
        with engine.connect() as connection:
            return str(connection.exec_driver_sql("PRAGMA journal_mode").scalar())

    for round_ in range(rounds):
        path = tmp_path / f"old-{round_}.db"
        with closing(sqlite3.connect(path)) as old:  # an existing file in rollback-journal mode
            old.execute("CREATE TABLE t (x)")
            old.commit()
        engines = [create_sync_sqlite_engine(f"sqlite:///{path}") for _ in range(openers)]
        start = threading.Barrier(openers)
        try:
            with ThreadPoolExecutor(openers) as pool:
                modes = list(pool.map(open_and_read, engines, [start] * openers))
        finally:
            for engine in engines:
                engine.dispose()
        assert modes == ["wal"] * openers
