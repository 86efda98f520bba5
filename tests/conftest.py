"""Fixtures shared by the whole suite: a fresh database per test, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from databases_or_skip import fresh_or_skip

from service.store import Store


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of a new, empty (unmigrated) database; dropped after the test."""
    async with fresh_or_skip(request.param, tmp_path) as url:
        yield url


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    """A Store on ``database_url``, migrated to head; closed after the test."""
    opened = Store(database_url)
    await opened.upgrade()
    try:
        yield opened
    finally:
        await opened.close()
