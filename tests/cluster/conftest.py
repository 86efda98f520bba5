"""Cluster tests run against the real engines: Redis, NATS and PostgreSQL on this machine.

An engine that cannot be reached skips its tests, except where PostgreSQL is required (CI,
TAVOLO_REQUIRE_POSTGRES=1): there it fails them, as a missing PostgreSQL does.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from databases_or_skip import fresh_or_skip
from engines_or_skip import reachable

from service.cluster.bus import Bus, open_bus

ENGINES = ("memory", "redis", "nats", "postgresql")

OpenBus = Callable[[], Awaitable[Bus]]


@pytest.fixture
async def postgres_url(tmp_path: Path) -> AsyncIterator[str]:
    """A new, empty PostgreSQL database (dropped after the test)."""
    async with fresh_or_skip("postgres", tmp_path) as url:
        yield url


@pytest.fixture(params=ENGINES)
async def bus_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of each bus in turn ("" for the in-process one); the engine is checked first."""
    kind: str = request.param
    if kind == "memory":
        yield ""
        return
    if kind == "postgresql":
        async with fresh_or_skip("postgres", tmp_path) as url:
            yield url
        return
    yield await reachable(kind)


@pytest.fixture
async def redis_url() -> str:
    return await reachable("redis")


@pytest.fixture
async def nats_url() -> str:
    return await reachable("nats")


@pytest.fixture
async def nodes(bus_url: str) -> AsyncIterator[OpenBus]:
    """Opens buses on ``bus_url`` as separate nodes would (the in-process bus is one and the
    same: it has no other node); every one is closed after the test."""
    opened: list[Bus] = []

    async def open_node() -> Bus:
        if not bus_url and opened:
            return opened[0]
        bus = await open_bus(bus_url, name=f"test-{len(opened)}")
        opened.append(bus)
        return bus

    try:
        yield open_node
    finally:
        for bus in opened:
            await bus.close()


@pytest.fixture
def subject() -> str:
    """A subject root of this test alone (tests share the Redis and NATS servers)."""
    return f"t{uuid.uuid4().hex[:12]}"
