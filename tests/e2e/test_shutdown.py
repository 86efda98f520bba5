"""Issue 25: SIGTERM ends a real server process within a bounded time whatever its clients do:
a WebSocket client that completes the upgrade and then ignores everything (the close frame
too), and a TCP client that has the server's output queued and never reads it."""

from __future__ import annotations

import asyncio
import base64
import os
import signal
import socket
import time

import pytest

from service.tools.process import ServerProcess

pytestmark = pytest.mark.slow

#: a generous wait for the exit (the bound the README states is far below it)
EXIT_WAIT = 60.0


async def deaf_websocket(port: int) -> socket.socket:
    """A raw socket that completes a WebSocket upgrade on /ws, then never reads or answers."""
    sock = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    sock.settimeout(30)
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = await asyncio.to_thread(sock.recv, 4096)
        assert chunk, "the server closed during the upgrade"
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 101"), answer[:100]
    return sock


async def answer_pings_only(sock: socket.socket) -> int | None:
    """Read the server's frames; answer each ping with a pong (so no heartbeat ever gives up
    on this client), and never anything else: not the close frame. Returns the status code
    of the server's close frame (None if none came) once the server hangs up."""
    sock.setblocking(False)
    loop = asyncio.get_running_loop()
    buffer, closed_with = b"", None
    while True:
        try:
            chunk = await loop.sock_recv(sock, 65536)
        except ConnectionError:
            return closed_with
        if not chunk:
            return closed_with
        buffer += chunk
        while (frame := _server_frame(buffer)) is not None:
            opcode, payload, buffer = frame
            if opcode == 0x9:  # ping
                await loop.sock_sendall(sock, _masked(0xA, payload))
            elif opcode == 0x8:  # close: noted, never answered
                closed_with = int.from_bytes(payload[:2], "big")


def _server_frame(buffer: bytes) -> tuple[int, bytes, bytes] | None:
    """One unmasked frame off the front of ``buffer``: (opcode, payload, the rest)."""
    if len(buffer) < 2:
        return None
    length, start = buffer[1] & 0x7F, 2
    if length == 126:
        length, start = int.from_bytes(buffer[2:4], "big"), 4
    elif length == 127:
        length, start = int.from_bytes(buffer[2:10], "big"), 10
    if len(buffer) < start + length:
        return None
    return buffer[0] & 0x0F, buffer[start:start + length], buffer[start + length:]


def _masked(opcode: int, payload: bytes) -> bytes:
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + body


async def deaf_tcp_client(port: int, megabytes: int) -> socket.socket:
    """A canonical JSON-lines client with a tiny receive buffer that asks for ``megabytes`` of
    pongs (each echoes a 32 KiB id) and never reads one: they fill the server's socket buffer
    (a few MB at most), and the rest waits in the server's outbox."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.setblocking(False)
    ping = b'{"type":"ping","id":"%s"}\n' % (b"x" * 32 * 1024)
    hello = b'{"type":"hello","nickname":"deaf"}\n'  # a known client: its frames are not paced
    await asyncio.get_running_loop().sock_sendall(sock, hello + ping * (megabytes * 32))
    return sock


async def test_sigterm_ends_the_server_whatever_the_clients_do(database_url: str) -> None:
    # outbox: room for every pong, so the deaf client is not dropped as a slow reader first
    server = await ServerProcess(database_url, dialects=("canonical",),
                                 extra_args=("--set", "outbox=100000")).start()
    assert server.process is not None
    deaf_ws = [await deaf_websocket(server.ports["http"]) for _ in range(3)]
    pinged = [await deaf_websocket(server.ports["http"]) for _ in range(2)]
    ponging = [asyncio.create_task(answer_pings_only(sock)) for sock in pinged]
    deaf_tcp = await deaf_tcp_client(server.ports["canonical"], 12)
    await asyncio.sleep(1)  # nothing to wait for: just let the server write what it can
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    code = await asyncio.wait_for(server.process.wait(), EXIT_WAIT)
    print(f"exited {code} {time.monotonic() - started:.1f} s after SIGTERM")
    assert code == 0  # not -SIGKILL: it ended by itself, cleanly
    # they were told "going away" by the shutdown (not given up on by a heartbeat)
    assert await asyncio.wait_for(asyncio.gather(*ponging), EXIT_WAIT) == [1001, 1001]
    for sock in (*deaf_ws, *pinged, deaf_tcp):
        sock.close()
