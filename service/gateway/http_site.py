"""The HTTP port (plain HTTP and WebSocket upgrades) behind a ConnectionGate.

aiohttp's server takes every connection it is offered and holds a request head that never
ends for as long as its keep-alive timeout (an hour by default). Here each connection passes
the gate first (per address, per /24 or /64, per listener, the descriptor budget), and
``runner_options`` gives aiohttp a short keep-alive timeout, which is also how long a client
has to send a whole request head: aiohttp closes a connection that is still waiting for one
when it expires, however slowly its bytes trickle in.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from aiohttp import web

from service.gateway.limits import CLOSE_TIMEOUT, ConnectionGate

#: connections the kernel queues for the HTTP port while it is not accepting
BACKLOG = 128


def runner_options(header_timeout: float) -> dict[str, Any]:
    """``web.AppRunner`` options: a request head must come within ``header_timeout`` s of
    connecting (or of the last answer, on a kept-alive connection); at shutdown a running
    request gets CLOSE_TIMEOUT s to end, and as long again once cancelled."""
    return {"keepalive_timeout": header_timeout, "shutdown_timeout": CLOSE_TIMEOUT}


class GatedProtocol(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the gate: a connection over a limit is
    closed before aiohttp sees it, and the gate counts the others out when they end."""

    def __init__(self, inner: asyncio.Protocol, gate: ConnectionGate) -> None:
        self.inner, self.gate = inner, gate
        self.address: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if not self.gate.admit(address):
            cast(asyncio.Transport, transport).abort()
            return
        self.address = address
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.address is None:
            return
        self.gate.release(self.address)
        self.address = None
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.address is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.address is not None else None

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class GatedSite(web.BaseSite):
    """Like ``web.TCPSite``, with every connection passing ``gate`` first."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, gate: ConnectionGate,
                 *, reuse_port: bool = False) -> None:
        super().__init__(runner, backlog=BACKLOG)
        self._host, self._port, self.gate = host, port, gate
        #: SO_REUSEPORT: other processes listening the same way share the port (--workers)
        self.reuse_port = reuse_port

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        self._server = await asyncio.get_running_loop().create_server(
            lambda: GatedProtocol(server(), self.gate), self._host, self._port,
            backlog=self._backlog, reuse_address=True, reuse_port=self.reuse_port or None)
