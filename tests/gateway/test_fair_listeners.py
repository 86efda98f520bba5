"""Issue 25: no listener can be filled by a few addresses (each /24 or /64 gets a share of it),
and the TCP idle timeout counts complete frames, not bytes. Real sockets from several loopback
addresses (127.0.0.0/24 and 127.0.1.0/24 are two networks) against a real in-process app."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import aiohttp
import pytest
from clients import LineClient

from service.app import create_app
from service.gateway.keys import LISTENERS
from service.gateway.limits import ConnectionGate, DescriptorBudget, network_of, network_share
from service.settings import Settings

WAIT = 30.0


async def limited(aiohttp_client: Any, database_url: str, **settings: Any) -> Any:
    return await aiohttp_client(create_app(Settings.for_tests(database_url, **settings)))


async def line_from(source: str, port: int) -> LineClient:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    return LineClient(reader, writer)


async def served(client: LineClient) -> bool:
    """Whether the canonical JSON-lines server answers this client's ping."""
    try:
        await client.send('{"type":"ping","id":1}')
        return json.loads(await client.recv(WAIT)) == {"type": "pong", "re": 1}
    except ConnectionError:
        return False


# --- a share per network --------------------------------------------------------------------


def test_networks_are_ipv4_24s_and_ipv6_64s() -> None:
    assert network_of("192.0.2.77") == network_of("192.0.2.1") == "192.0.2.0/24"
    assert network_of("::ffff:192.0.2.9") == "192.0.2.0/24"  # IPv4-mapped counts as IPv4
    assert network_of("2001:db8:1:2:aaaa::1") == network_of("2001:db8:1:2::9") == "2001:db8:1:2::/64"
    assert network_of("2001:db8:1:3::1") != network_of("2001:db8:1:2::1")
    assert network_share(10_000, 0.05) == 500 and network_share(10, 0.01) == 1


def test_a_gate_gives_each_network_its_share() -> None:
    gate = ConnectionGate("g", per_address=100, total=10, per_network=3,
                          budget=DescriptorBudget(reserve=0))
    assert all(gate.admit(f"198.51.100.{i}") for i in range(3))
    assert not gate.admit("198.51.100.200")  # a fourth address of the same /24
    assert gate.admit("198.51.101.1")  # the next network is served
    gate.release("198.51.100.1")
    assert gate.admit("198.51.100.200")


async def test_a_tcp_listener_gives_each_network_its_share(aiohttp_client: Any,
                                                          database_url: str) -> None:
    client = await limited(aiohttp_client, database_url, listen={"canonical": 0},
                           max_connections_per_listener=10, network_connection_share=0.3)
    port = client.server.app[LISTENERS]["canonical"].port
    first = [await line_from(f"127.0.0.{i}", port) for i in (1, 2, 3)]
    assert all([await served(c) for c in first])
    fourth = await line_from("127.0.0.4", port)  # a fresh address, but the /24 has its share
    assert await fourth.closed(WAIT)
    other = await line_from("127.0.1.1", port)  # another network is served
    assert await served(other)
    await first[0].close()
    fifth = await line_from("127.0.0.5", port)  # a place came free: served again
    while not await served(fifth):  # (the first's handler may not have ended yet)
        await fifth.close()
        fifth = await line_from("127.0.0.5", port)
    for c in (*first[1:], other, fifth):
        await c.close()


async def test_websockets_give_each_network_its_share(aiohttp_client: Any,
                                                      database_url: str) -> None:
    client = await limited(aiohttp_client, database_url, max_connections_per_listener=10,
                           network_connection_share=0.2)  # two per network
    url = client.make_url("/ws")
    sessions = {source: aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0)))
                for source in ("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.1.1")}
    try:
        kept = [await sessions[s].ws_connect(url) for s in ("127.0.0.1", "127.0.0.2")]
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await sessions["127.0.0.3"].ws_connect(url)
        assert refused.value.status == 503
        other = await sessions["127.0.1.1"].ws_connect(url)
        await other.send_str('{"type":"ping","id":7}')
        assert json.loads((await other.receive(WAIT)).data) == {"type": "pong", "re": 7}
        for ws in (*kept, other):
            await ws.close()
    finally:
        for session in sessions.values():
            await session.close()


# --- idleness counts frames, not bytes --------------------------------------------------------


async def trickle_until_closed(client: LineClient, piece: bytes) -> bool:
    """Send ``piece`` every 0.1 s until the server hangs up (True) or WAIT passes (False)."""
    async def trickle() -> None:
        while True:
            client.writer.write(piece)
            await client.writer.drain()
            await asyncio.sleep(0.1)

    sender = asyncio.create_task(trickle())
    try:
        return await client.closed(WAIT)
    except ConnectionError:
        return True
    finally:
        sender.cancel()
        await asyncio.gather(sender, return_exceptions=True)


@pytest.mark.parametrize("piece", [b" ", b"\n", b"\r\n"], ids=["bytes", "blank", "crlf"])
async def test_the_idle_timeout_counts_frames_not_bytes(aiohttp_client: Any, database_url: str,
                                                       piece: bytes,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    client = await limited(aiohttp_client, database_url, listen={"canonical": 0},
                           tcp_idle_timeout=0.5)
    port = client.server.app[LISTENERS]["canonical"].port
    with caplog.at_level(logging.INFO, logger="service.gateway.connection"):
        trickler = await line_from("127.0.0.1", port)
        await trickler.send('{"type":"ping"}')  # one complete frame, then nothing but filler
        assert json.loads(await trickler.recv()) == {"type": "pong"}
        assert await trickle_until_closed(trickler, piece)
    assert any("idle for 0.5 s, closing" in r.getMessage() for r in caplog.records)
    await trickler.close()

