"""Issue 25: a client that hangs up during the WebSocket upgrade is no fault: one INFO line,
never "GET /ws failed" at ERROR with a traceback, and its place at the gate is given back."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import socket
import struct
from typing import Any

import pytest
from clients import CanonicalClient

from service.app import create_app
from service.settings import Settings

HANG_UPS = 5


def upgrade_and_reset(port: int, path: str) -> None:
    """Ask for a WebSocket upgrade and reset the connection at once. (Blocking calls on the
    test's own event loop: the server reads the request and the reset together, before its
    handler can answer.)"""
    sock = socket.create_connection(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # RST
    sock.close()


@pytest.mark.parametrize("path", ["/ws", "/ws/santorini"])
async def test_a_client_hanging_up_during_the_upgrade_is_one_info_line(
        aiohttp_client: Any, database_url: str, path: str,
        caplog: pytest.LogCaptureFixture) -> None:
    client = await aiohttp_client(create_app(Settings.for_tests(database_url,
                                                                max_connections_per_address=1)))
    caplog.set_level(logging.INFO)

    def hung_up() -> list[logging.LogRecord]:
        return [r for r in caplog.records if "hung up during the WebSocket upgrade" in r.getMessage()]

    for _ in range(HANG_UPS):
        upgrade_and_reset(client.port, path)

    async def all_seen() -> None:
        while len(hung_up()) < HANG_UPS:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(all_seen(), 30)
    assert all(r.levelno == logging.INFO and not r.exc_info for r in hung_up())
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    alice = CanonicalClient(await client.ws_connect("/ws"))  # the one place per address is free
    assert (await alice.call({"type": "ping"}))["type"] == "pong"
