"""Running the alembic migrations from code, on the async engine, from any directory."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import func, select
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from service.store.engine import create_engine, normalise_url

#: ``migrations/`` beside the ``service`` package (the repository root), not the CWD
MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"

#: PostgreSQL advisory lock held while migrating (an arbitrary constant: "tavolo" in ASCII)
MIGRATION_LOCK_KEY = 0x746176_6F6C6F


def alembic_config(url: str) -> Config:
    """An in-memory alembic Config for ``url``; logging configuration is left alone."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("path_separator", "os")
    config.attributes["url"] = normalise_url(url)
    return config


async def run_on_engine(
    engine: AsyncEngine, revision: str = "head", *, down: bool = False
) -> None:
    """Upgrade (or downgrade) the database of an existing engine to ``revision``."""
    config = alembic_config(engine.url.render_as_string(hide_password=False))

    def run(connection: Connection) -> None:
        config.attributes["connection"] = connection
        if down:
            command.downgrade(config, revision)
        else:
            command.upgrade(config, revision)

    sqlite = engine.dialect.name == "sqlite"
    async with engine.connect() as connection:
        if sqlite:  # batch migrations copy tables: a drop must not cascade (0007's devices)
            await _sqlite_foreign_keys(connection, on=False)
        try:
            async with connection.begin():
                await _lock_for_migration(connection)
                await connection.run_sync(run)
                if sqlite:
                    await _check_foreign_keys(connection)
        finally:
            if sqlite:
                await _sqlite_foreign_keys(connection, on=True)


async def _sqlite_foreign_keys(connection: AsyncConnection, *, on: bool) -> None:
    """SQLite takes this pragma outside a transaction only (it is a no-op inside one)."""
    await connection.exec_driver_sql(f"PRAGMA foreign_keys={'ON' if on else 'OFF'}")
    await connection.commit()


async def _check_foreign_keys(connection: AsyncConnection) -> None:
    """With the checks off while migrating, look once at the end: a violation undoes it all."""
    broken = (await connection.exec_driver_sql("PRAGMA foreign_key_check")).all()
    if broken:
        raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")


async def _lock_for_migration(connection: AsyncConnection) -> None:
    """Servers starting together on one database migrate one after the other."""
    if connection.dialect.name == "postgresql":
        await connection.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK_KEY)))
    elif connection.dialect.name == "sqlite":
        await connection.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock, waits busy_timeout


async def _run(url: str, revision: str, *, down: bool = False) -> None:
    engine = create_engine(url)
    try:
        await run_on_engine(engine, revision, down=down)
    finally:
        await engine.dispose()


async def upgrade(url: str, revision: str = "head") -> None:
    """``alembic upgrade head`` (or ``revision``) on the database at ``url``."""
    await _run(url, revision)


async def downgrade(url: str, revision: str = "base") -> None:
    """``alembic downgrade`` to ``revision`` (everything, by default)."""
    await _run(url, revision, down=True)


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


async def current_revision(url: str) -> str | None:
    """The revision the database at ``url`` is at (None when unmigrated)."""
    engine = create_engine(url)

    def read(connection: Connection) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    try:
        async with engine.connect() as connection:
            return await connection.run_sync(read)
    finally:
        await engine.dispose()
