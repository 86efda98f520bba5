"""The bus engines the cluster tests need (NATS, Redis): their URLs, checked by opening a bus.

An engine that cannot be reached skips the test, except where PostgreSQL is required (CI,
TAVOLO_REQUIRE_POSTGRES=1): there it fails it, as a missing PostgreSQL does."""

from __future__ import annotations

import os

from databases_or_skip import unavailable

from service.cluster.bus import BusUnavailable, open_bus


def engine_url(kind: str) -> str:
    if kind == "redis":
        return os.environ.get("TAVOLO_TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
    return os.environ.get("TAVOLO_TEST_NATS_URL") or "nats://127.0.0.1:4222"


async def reachable(kind: str) -> str:
    """The URL of the ``kind`` engine, once a bus has opened on it (else skip, or fail)."""
    url = engine_url(kind)
    try:
        probe = await open_bus(url)
    except BusUnavailable as exc:
        unavailable(str(exc))
    await probe.close()
    return url
