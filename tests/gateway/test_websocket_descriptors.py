"""A WebSocket holds one descriptor of the server, and the descriptor budget counts it once.

The HTTP port's gate counts every connection it accepts against the process's descriptor
budget; an upgrade to a WebSocket is the same socket. It used to be counted again by the
WebSocket gate, so a server shed WebSockets with half its descriptors still free
(benchmarks/connections.py opened 9,942 of 19,800 under a limit of 20,000)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import aiohttp
import pytest

from service.tools.process import ServerProcess

pytestmark = pytest.mark.slow

NOFILE = 400
RESERVE = 64  # the default fd_reserve


async def _open(session: aiohttp.ClientSession, url: str) -> aiohttp.ClientWebSocketResponse | None:
    """A served WebSocket (it answered a ping), or None when the server refused it."""
    try:
        ws = await session.ws_connect(url, heartbeat=None)
    except (aiohttp.WSServerHandshakeError, aiohttp.ClientError):
        return None
    await ws.send_str(json.dumps({"type": "ping", "id": 1}))
    answer = await ws.receive(timeout=60)
    if answer.type == aiohttp.WSMsgType.TEXT and '"pong"' in answer.data:
        return ws
    await ws.close()
    return None


async def test_websockets_fill_the_descriptor_budget_not_half_of_it(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'fd.db'}", dialects=(), extra_args=(
        "--set", "max_connections_per_address=1000000", "--set", "network_connection_share=1"))
    await server.start(prefix=("prlimit", f"--nofile={NOFILE}:{NOFILE}"))
    assert server.process is not None
    sockets: list[aiohttp.ClientWebSocketResponse] = []
    try:
        at_start = len(os.listdir(f"/proc/{server.process.pid}/fd"))
        budget = NOFILE - at_start - RESERVE  # about what DescriptorBudget computed
        url = f"http://127.0.0.1:{server.ports['http']}/ws"
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            for _ in range(NOFILE):  # more than fit: the server must start refusing
                ws = await _open(session, url)
                if ws is None:
                    break
                sockets.append(ws)
            else:
                raise AssertionError(f"{NOFILE} WebSockets served under a limit of {NOFILE}")
            # the store's files come and go with its pool, so allow some slack; counted
            # twice, only about budget / 2 were served
            assert len(sockets) >= budget - 20, (len(sockets), budget)
            # what is served is served well: the first and the last still answer
            for ws in (sockets[0], sockets[-1]):
                await ws.send_str(json.dumps({"type": "ping", "id": 2}))
                assert '"pong"' in (await ws.receive(timeout=60)).data
            for ws in sockets:
                await ws.close()
    finally:
        await server.terminate()
