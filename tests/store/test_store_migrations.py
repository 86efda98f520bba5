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
