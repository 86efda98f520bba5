"""Fixtures shared by the whole suite: a fresh database per test, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from service.tools.databases import PostgresUnavailable, fresh_database, postgres_required

from service.store import Store


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of a new, empty (unmigrated) database; dropped after the test."""
    kind: str = request.param
    try:
        url, cleanup = await fresh_database(kind, tmp_path)
    except PostgresUnavailable as exc:
        if postgres_required():
            pytest.fail(str(exc))
        pytest.skip(str(exc))
    try:
        yield url
    finally:
        await cleanup()


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    """A Store on ``database_url``, migrated to head; closed after the test."""
    opened = Store(database_url)
    await opened.upgrade()
    try:
        yield opened
    finally:
        await opened.close()
