"""TCP listeners, one per dialect, each line- or length-framed by its dialect's framer."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from service.gateway.connection import serve_connection
from service.gateway.limits import ConnectionGate
from service.protocol.framing import FrameError, Framer
from service.sessions.dialects import Dialect
from service.sessions.hub import Hub

log = logging.getLogger(__name__)

READ_CHUNK = 64 * 1024


class StreamLink:
    def __init__(self, writer: asyncio.StreamWriter, framer: Framer) -> None:
        self.writer = writer
        self.framer = framer

    async def send(self, frame: str) -> None:
        self.writer.write(self.framer.encode(frame))
        await self.writer.drain()

    def abort(self) -> None:
        self.writer.transport.abort()

    async def close(self) -> None:
        if not self.writer.is_closing():
            self.writer.close()
        try:
            await asyncio.wait_for(self.writer.wait_closed(), timeout=2)
        except (ConnectionError, asyncio.TimeoutError, OSError):
            pass


async def _frames(reader: asyncio.StreamReader, framer: Framer) -> AsyncIterator[str | FrameError]:
    while True:
        data = await reader.read(READ_CHUNK)
        if not data:
            return
        for frame in framer.feed(data):
            yield frame


class TcpListener:
    """One dialect's TCP server and the connections it is serving."""

    def __init__(self, hub: Hub, dialect: Dialect, *, outbox: int, gate: ConnectionGate,
                 idle_timeout: float | None = None) -> None:
        self.hub, self.dialect, self.outbox = hub, dialect, outbox
        self.gate, self.idle_timeout = gate, idle_timeout
        self.server: asyncio.Server | None = None
        self._clients: set[asyncio.StreamWriter] = set()
        self._handlers: set[asyncio.Task[None]] = set()

    @property
    def port(self) -> int:
        assert self.server is not None and self.server.sockets
        return int(self.server.sockets[0].getsockname()[1])

    async def start(self, host: str, port: int) -> None:
        self.server = await asyncio.start_server(self._on_client, host, port, limit=READ_CHUNK)

    async def _on_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if not self.gate.admit(address):
            writer.transport.abort()
            return
        framer = self.dialect.framer()
        name = f"{self.dialect.name} tcp {peer}"
        task = asyncio.current_task()
        assert task is not None
        self._clients.add(writer)
        self._handlers.add(task)
        try:
            await serve_connection(self.hub, self.dialect, StreamLink(writer, framer),
                                   _frames(reader, framer), name=name, outbox=self.outbox,
                                   address=address, idle_timeout=self.idle_timeout)
        finally:
            self._clients.discard(writer)
            self._handlers.discard(task)
            self.gate.release(address)

    async def close(self, timeout: float = 5.0) -> None:
        """Stop accepting, hang up on every client, and let their handlers finish."""
        if self.server is not None:
            self.server.close()
        for writer in list(self._clients):
            writer.close()  # the read loop sees EOF and the conversation cleans up
        if self._handlers:
            await asyncio.wait(list(self._handlers), timeout=timeout)
