"""A fresh database for a test, or the test skipped when its server is down (failed instead
where PostgreSQL is required: CI, TAVOLO_REQUIRE_POSTGRES=1). The suite's fixtures and the
cluster tests' share it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import NoReturn

import pytest
from service.tools.databases import PostgresUnavailable, fresh_database, postgres_required


def unavailable(reason: str) -> NoReturn:
    """Skip the test for ``reason``, or fail it where PostgreSQL is required."""
    if postgres_required():
        pytest.fail(reason)
    pytest.skip(reason)


@asynccontextmanager
async def fresh_or_skip(kind: str, directory: Path) -> AsyncIterator[str]:
    """The URL of a new, empty (unmigrated) database of ``kind``; dropped afterwards."""
    try:
        url, cleanup = await fresh_database(kind, directory)
    except PostgresUnavailable as exc:
        unavailable(str(exc))
    try:
        yield url
    finally:
        await cleanup()
