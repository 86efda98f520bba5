"""A node's bus connection cut under it (the engine closes it, as a restart or a network cut
would): the bus reconnects by itself and its subscriptions receive again. What was published
meanwhile may be lost (at most once): listeners catch up by version from the store."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager

import asyncpg
import pytest

from service.cluster.bus import Bus, open_bus
from service.cluster.ownership import asyncpg_dsn

WAIT = 30.0


@asynccontextmanager
async def two_nodes(listen_url: str, listener: str, publish_url: str,
                    publisher: str) -> AsyncIterator[tuple[Bus, Bus]]:
    """A listening and a publishing bus, opened as two nodes would (connections named after
    ``listener`` and ``publisher``); both closed at the end."""
    async with AsyncExitStack() as opened:
        listening = await opened.enter_async_context(await open_bus(listen_url, name=listener))
        publishing = await opened.enter_async_context(await open_bus(publish_url, name=publisher))
        yield listening, publishing


async def received_again(publisher: Bus, listener: Bus, cut: Callable[[], Awaitable[int]]) -> None:
    """Cut ``listener``'s connection, then publish until its subscription gets messages
    again; those that arrive come in order."""
    subject = f"t{uuid.uuid4().hex[:12]}.match.1"
    got: list[int] = []
    arrived = asyncio.Event()

    async def on_message(_: str, data: bytes) -> None:
        got.append(int(data))
        arrived.set()

    await listener.subscribe(subject, on_message)
    await publisher.publish(subject, b"0")
    await asyncio.wait_for(arrived.wait(), WAIT)
    assert await cut() >= 1, "no connection was cut"

    async def publish_until_heard() -> None:
        n = 1
        while len(got) < 2 or got[-1] < n - 1:
            await publisher.publish(subject, b"%d" % n)
            n += 1
            await asyncio.sleep(0.05)
    await asyncio.wait_for(publish_until_heard(), WAIT)
    assert got == sorted(got) and len(set(got)) == len(got)


async def test_postgresql_bus_listens_again_after_its_connection_is_killed(
        postgres_url: str) -> None:
    async with two_nodes(postgres_url, "cut", postgres_url, "other") as (listener, publisher):
        admin = await asyncpg.connect(asyncpg_dsn(postgres_url))
        try:
            async def cut() -> int:
                return len(await admin.fetch(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = 'cut-bus' AND datname = current_database()"))
            await received_again(publisher, listener, cut)
        finally:
            await admin.close()


async def test_redis_bus_subscribes_again_after_its_connection_is_killed(redis_url: str) -> None:
    import redis.asyncio as aioredis
    url = redis_url
    name = f"cut{uuid.uuid4().hex[:8]}"
    async with two_nodes(url, name, url, "other") as (listener, publisher):
        admin = aioredis.from_url(url)
        try:
            async def cut() -> int:
                killed = 0
                for client in await admin.client_list():
                    if client.get("name") == f"{name}-bus":  # the subscriber connection
                        killed += await admin.client_kill_filter(_id=client["id"])
                return killed
            await received_again(publisher, listener, cut)
        finally:
            await admin.aclose()


async def test_nats_bus_subscribes_again_after_its_connection_is_cut(nats_url: str) -> None:
    """nats-py reconnects (here through a proxy whose connections were all closed) and
    registers its subscriptions again."""
    from netfault import FreezableProxy

    url = nats_url
    host, port = url.split("://", 1)[1].rsplit(":", 1)
    proxy = await FreezableProxy(host, int(port)).start()
    try:
        async with two_nodes(f"nats://127.0.0.1:{proxy.port}", "cut", url, "other") as (
                listener, publisher):
            async def cut() -> int:
                return proxy.cut()
            await received_again(publisher, listener, cut)
    finally:
        await proxy.close()


@pytest.fixture(autouse=True)
def _quiet_reconnect_warnings(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("ERROR", logger="service.cluster.bus")


async def test_postgresql_bus_sends_again_after_its_sending_connection_is_killed(
        postgres_url: str) -> None:
    """The publish that meets the dead connection fails (BusUnavailable: the sender hears of
    it); the next ones go out on a new connection."""
    from service.cluster.bus import BusUnavailable

    subject = f"t{uuid.uuid4().hex[:12]}.match.1"
    got: list[bytes] = []
    arrived = asyncio.Event()

    async def on_message(_: str, data: bytes) -> None:
        got.append(data)
        arrived.set()

    async with two_nodes(postgres_url, "other", postgres_url, "cutout") as (listener, publisher):
        admin = await asyncpg.connect(asyncpg_dsn(postgres_url))
        try:
            await listener.subscribe(subject, on_message)
            await publisher.publish(subject, b"before")
            await asyncio.wait_for(arrived.wait(), WAIT)
            assert await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE application_name = 'cutout-bus-out' AND datname = current_database()") == 1

            async def publish_until_sent() -> None:
                while True:
                    try:
                        await publisher.publish(subject, b"after")
                        return
                    except BusUnavailable:  # the one that met the dead connection
                        await asyncio.sleep(0.05)
            await asyncio.wait_for(publish_until_sent(), WAIT)
            arrived.clear()
            while got[-1] != b"after":
                await asyncio.wait_for(arrived.wait(), WAIT)
                arrived.clear()
            assert got == [b"before", b"after"]
        finally:
            await admin.close()
