from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from service.store import create_engine, downgrade, upgrade
from service.store.migrate import current_revision, head_revision
from service.store.models import Base

REPO = Path(__file__).resolve().parents[2]
TABLES = {"players", "matches", "seats", "actions", "health_probe", "devices", "operator_log",
          "ratings", "rated_matches"}


async def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            names = await connection.run_sync(lambda sync: inspect(sync).get_table_names())
    finally:
        await engine.dispose()
    return set(names) - {"alembic_version"}


async def _model_diff(url: str) -> list[object]:
    engine = create_engine(url)

    def diff(connection: Connection) -> list[object]:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return compare_metadata(context, Base.metadata)

    try:
        async with engine.connect() as connection:
            return await connection.run_sync(diff)
    finally:
        await engine.dispose()


async def test_migrations_up_down_up(database_url: str) -> None:
    assert await current_revision(database_url) is None
    await upgrade(database_url)
    assert await current_revision(database_url) == head_revision()
    assert await _tables(database_url) == TABLES
    assert await _model_diff(database_url) == []  # the models describe the migrated schema
    await upgrade(database_url)  # idempotent
    await downgrade(database_url, "base")
    assert await current_revision(database_url) is None
    assert await _tables(database_url) == set()
    await upgrade(database_url)
    assert await _tables(database_url) == TABLES


async def test_concurrent_upgrades(database_url: str) -> None:
    """Several servers may start at once on one database."""
    await asyncio.gather(*(upgrade(database_url) for _ in range(3)))
    assert await current_revision(database_url) == head_revision()
    assert await _tables(database_url) == TABLES


async def test_upgrade_works_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    await upgrade("sqlite:///elsewhere.db")
    assert await _tables(f"sqlite:///{tmp_path / 'elsewhere.db'}") == TABLES


def test_alembic_command_line(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}"
    env = {**os.environ, "TAVOLO_DATABASE_URL": url}
    alembic = [sys.executable, "-m", "alembic", "-c", str(REPO / "alembic.ini")]
    subprocess.run([*alembic, "upgrade", "head"], cwd=tmp_path, env=env, check=True)
    shown = subprocess.run(
        [*alembic, "current"], cwd=tmp_path, env=env, check=True, capture_output=True, text=True
    )
    assert f"{head_revision()} (head)" in shown.stdout


async def test_0007_moves_each_token_into_a_first_device_and_back(database_url: str) -> None:
    """A player's token before accounts becomes their first device and keeps reaching them;
    a player without one stays a nickname-only player; the way down keeps the oldest token."""
    from sqlalchemy import text

    from service.store import Store

    await upgrade(database_url, "0006")
    engine = create_engine(database_url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text(
                "INSERT INTO players (nickname, nickname_key, token_hash) VALUES "
                "('ada', 'ada', :hash), ('bob', 'bob', NULL)"), {"hash": "a" * 64})
            # a seat refers to ada: copying the players table must neither fail nor cascade
            await connection.execute(text(
                "INSERT INTO matches (game, options, seed, status, version, snapshot) "
                "VALUES ('dolphinfox', '{}', 1, 'waiting', 0, '{}')"))
            await connection.execute(text(
                "INSERT INTO seats (match_id, seat, player_id) VALUES (1, 0, 1)"))
    finally:
        await engine.dispose()
    await upgrade(database_url)
    store = Store(database_url)
    try:
        ada = await store.player_by_token_hash("a" * 64)
        assert ada is not None and ada.nickname == "ada" and ada.has_token
        assert [d.label for d in await store.devices_of(ada.id)] == ["first device"]
        match = await store.get_match(1)
        assert match is not None and match.seats[0].player_id == ada.id
        bob = await store.player_by_nickname("bob")
        assert bob is not None and not bob.has_token
        await store.add_device(ada.id, "b" * 64, "laptop")
    finally:
        await store.close()
    await downgrade(database_url, "0006")
    engine = create_engine(database_url)
    try:
        async with engine.connect() as connection:
            rows = (await connection.execute(text(
                "SELECT nickname, token_hash FROM players ORDER BY id"))).all()
    finally:
        await engine.dispose()
    assert [tuple(r) for r in rows] == [("ada", "a" * 64), ("bob", None)]
