"""Fresh, isolated databases for tests and benchmarks: a SQLite file or a new PostgreSQL database.

Plain functions (no pytest), so end-to-end tests can hand the URL to server subprocesses::

    url, cleanup = await fresh_database("postgres")
    try: ...
    finally: await cleanup()
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
from sqlalchemy.engine import make_url

DEFAULT_POSTGRES_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
KINDS: tuple[str, ...] = ("sqlite", "postgres")

Cleanup = Callable[[], Awaitable[None]]


class PostgresUnavailable(RuntimeError):
    """The test PostgreSQL server cannot be reached."""


def postgres_base_url() -> str:
    return os.environ.get("TAVOLO_TEST_POSTGRES_URL") or DEFAULT_POSTGRES_URL


def postgres_required() -> bool:
    """True where a missing PostgreSQL must fail the run instead of skipping (CI)."""
    return os.environ.get("CI") == "true" or os.environ.get("TAVOLO_REQUIRE_POSTGRES") == "1"


async def fresh_database(kind: str, directory: Path | None = None) -> tuple[str, Cleanup]:
    """A new empty database of ``kind`` ("sqlite" or "postgres") and its cleanup.

    SQLite lives in ``directory`` (a new temporary directory when None). PostgreSQL raises
    :class:`PostgresUnavailable` when the server at ``TAVOLO_TEST_POSTGRES_URL`` is down.
    """
    if kind == "sqlite":
        return _fresh_sqlite(directory)
    if kind == "postgres":
        return await _fresh_postgres(postgres_base_url())
    raise ValueError(f"unknown database kind {kind!r}; expected one of {KINDS}")


def _fresh_sqlite(directory: Path | None) -> tuple[str, Cleanup]:
    owned = directory is None
    folder = Path(tempfile.mkdtemp(prefix="tavolo-")) if directory is None else directory
    path = folder / f"tavolo-{uuid.uuid4().hex[:8]}.db"

    async def cleanup() -> None:
        if owned:
            shutil.rmtree(folder, ignore_errors=True)

    return f"sqlite+aiosqlite:///{path}", cleanup


def asyncpg_dsn(url: str) -> str:
    """The DSN asyncpg takes for a database URL of SQLAlchemy's (``postgresql+asyncpg://...``)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _admin(base_url: str, statement: str) -> None:
    """Run one statement outside a transaction, as CREATE/DROP DATABASE need."""
    connection = await asyncpg.connect(asyncpg_dsn(base_url), timeout=10)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


async def _fresh_postgres(base_url: str) -> tuple[str, Cleanup]:
    name = f"tavolo_t_{uuid.uuid4().hex[:16]}"
    try:
        await _admin(base_url, f'CREATE DATABASE "{name}" TEMPLATE template0')
    except Exception as exc:  # noqa: BLE001 - any failure to create it means "no server"
        raise PostgresUnavailable(f"PostgreSQL at {base_url} is unavailable: {exc}") from exc
    url = make_url(base_url).set(drivername="postgresql+asyncpg", database=name)

    async def cleanup() -> None:
        await _admin(base_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return url.render_as_string(hide_password=False), cleanup
