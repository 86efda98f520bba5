"""Issue 25: plain HTTP is bounded like the other listeners, in a real server process: a request
head must come within ``http_header_timeout`` however slowly its bytes trickle in, one address
holds at most ``max_connections_per_address`` connections on the HTTP port and one /24 its
share of them, and whoever is within the limits is served meanwhile."""

from __future__ import annotations

import asyncio
import socket

import pytest

from service.tools.limits import setting_args
from service.tools.process import ServerProcess

pytestmark = pytest.mark.slow

WAIT = 30.0
HEAD = b"GET /api/health HTTP/1.1\r\nHost: x\r\n"  # no blank line: the head never ends


async def connect(port: int, source: str) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return sock


async def hung_up(sock: socket.socket) -> bool:
    """True once the server closes this connection (reads until EOF or a reset)."""
    loop = asyncio.get_running_loop()
    while True:
        try:
            if not await asyncio.wait_for(loop.sock_recv(sock, 65536), WAIT):
                return True
        except ConnectionError:
            return True


async def health(port: int, source: str) -> bytes:
    """The status line of GET /api/health from ``source`` (b"" if the server hung up)."""
    sock = await connect(port, source)
    loop = asyncio.get_running_loop()
    try:
        await loop.sock_sendall(sock, HEAD + b"Connection: close\r\n\r\n")
        answer = b""
        while b"\r\n" not in answer:
            chunk = await asyncio.wait_for(loop.sock_recv(sock, 65536), WAIT)
            if not chunk:
                break
            answer += chunk
        return answer.split(b"\r\n", 1)[0]
    except ConnectionError:
        return b""
    finally:
        sock.close()


async def trickle(sock: socket.socket) -> None:
    """A slow client: a request head that grows by one byte of a header every 0.2 s."""
    loop = asyncio.get_running_loop()
    await loop.sock_sendall(sock, HEAD + b"X-Slow: ")
    while True:
        await loop.sock_sendall(sock, b"a")
        await asyncio.sleep(0.2)


async def test_plain_http_is_bounded_per_address_per_network_and_in_time(database_url: str) -> None:
    server = await ServerProcess(database_url, dialects=(), extra_args=setting_args(
        max_connections_per_address=2, max_connections_per_listener=10,
        network_connection_share=0.3, http_header_timeout=1)).start()
    port = server.ports["http"]
    try:
        # two incomplete requests from one address: a third from it is refused at once...
        held = [await connect(port, "127.0.0.1") for _ in range(2)]
        await asyncio.get_running_loop().sock_sendall(held[0], HEAD)
        slow = asyncio.create_task(trickle(held[1]))
        assert await health(port, "127.0.0.1") == b""
        # ...one more from a neighbour fills the /24's share (3), and a third neighbour is refused
        neighbour = await connect(port, "127.0.0.2")
        assert await health(port, "127.0.0.3") == b""
        assert await health(port, "127.0.1.1") == b"HTTP/1.1 200 OK"  # another network: served
        # the header timeout drops the incomplete requests, the trickling one too
        assert await hung_up(held[0]) and await hung_up(held[1]) and await hung_up(neighbour)
        slow.cancel()
        await asyncio.gather(slow, return_exceptions=True)
        assert await health(port, "127.0.0.1") == b"HTTP/1.1 200 OK"  # their places came free
        for sock in (*held, neighbour):
            sock.close()
    finally:
        assert await server.terminate() == 0
    assert server.tracebacks == 0, "\n".join(server.output[-60:])
