"""Alembic environment of Tavolo: async engines, URL from code, ``-x url=``, env or ini.

``service.store.migrate`` hands over an open (sync-facing) connection in
``config.attributes["connection"]``; the ``alembic`` command line builds its own async engine.
"""

from __future__ import annotations

import asyncio
import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection

from service.store.engine import DEFAULT_URL, create_engine
from service.store.models import Base

config = context.config
target_metadata = Base.metadata


def database_url() -> str:
    """The URL to migrate: config attribute, ``-x url=``, env, ini, then the default."""
    candidates = (
        config.attributes.get("url"),
        context.get_x_argument(as_dictionary=True).get("url"),
        os.environ.get("TAVOLO_DATABASE_URL"),
        config.get_main_option("sqlalchemy.url"),
    )
    return next((url for url in candidates if url), DEFAULT_URL)


def do_run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations(url: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(do_run_migrations)
            await connection.commit()
    finally:
        await engine.dispose()


def run_migrations_offline() -> None:
    context.configure(
        url=database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        do_run_migrations(connection)
    else:
        asyncio.run(run_async_migrations(database_url()))


if config.config_file_name is not None:
    fileConfig(config.config_file_name)

if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
