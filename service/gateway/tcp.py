"""TCP listeners, one per dialect, each line- or length-framed by its dialect's framer."""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import AsyncIterator

from service.gateway.connection import serve_connection
from service.gateway.limits import CLOSE_TIMEOUT, ConnectionGate
from service.protocol.framing import FrameError, Framer
from service.sessions.dialects import Dialect
from service.sessions.hub import Hub

log = logging.getLogger(__name__)

READ_CHUNK = 64 * 1024
#: connections the kernel queues for a listener while it is not accepting
BACKLOG = 128
#: seconds to wait before accepting again after the process ran out of descriptors
ACCEPT_RETRY_DELAY = 1.0
OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


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
        """Flush what is queued and close; a client that does not read within CLOSE_TIMEOUT
        is cut off (else its socket would stay open for as long as it does not read)."""
        if not self.writer.is_closing():
            self.writer.close()
        try:
            await asyncio.wait_for(self.writer.wait_closed(), timeout=CLOSE_TIMEOUT)
        except asyncio.TimeoutError:
            self.abort()
        except (ConnectionError, OSError):
            pass


async def _frames(reader: asyncio.StreamReader, framer: Framer) -> AsyncIterator[str | FrameError]:
    while True:
        data = await reader.read(READ_CHUNK)
        if not data:
            return
        for frame in framer.feed(data):
            yield frame


def _address_of(conn: socket.socket) -> str:
    try:
        peer = conn.getpeername()
    except OSError:  # already gone
        return "?"
    return str(peer[0]) if isinstance(peer, tuple) and peer else "?"


class TcpListener:
    """One dialect's TCP server and the connections it is serving.

    It runs its own accept loop so that it can pause: while the process is near its file
    descriptor limit it stops accepting (clients wait in the kernel's backlog) instead of
    accepting sockets it cannot serve. (asyncio's own loop accepts up to 100 at a time and,
    past the limit, logs a traceback for every attempt.)"""

    def __init__(self, hub: Hub, dialect: Dialect, *, outbox: int, gate: ConnectionGate,
                 idle_timeout: float | None = None) -> None:
        self.hub, self.dialect, self.outbox = hub, dialect, outbox
        self.gate, self.idle_timeout = gate, idle_timeout
        self._socket: socket.socket | None = None
        self._acceptor: asyncio.Task[None] | None = None
        self._clients: set[asyncio.StreamWriter] = set()
        self._handlers: set[asyncio.Task[None]] = set()

    @property
    def port(self) -> int:
        assert self._socket is not None
        return int(self._socket.getsockname()[1])

    async def start(self, host: str, port: int, *, reuse_port: bool = False) -> None:
        """Listen on ``host:port``; with ``reuse_port`` other processes listening the same
        way share the port, the kernel spreading connections (``serve --workers``)."""
        self._socket = socket.create_server((host, port), backlog=BACKLOG, reuse_port=reuse_port)
        self._socket.setblocking(False)
        self._acceptor = asyncio.create_task(self._accept_loop(self._socket),
                                             name=f"accept {self.dialect.name}")

    async def _accept_loop(self, listening: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if self.gate.budget is not None:  # paused while the process is out of descriptors
                await self.gate.budget.room()
            try:
                conn, _ = await loop.sock_accept(listening)
            except OSError as exc:
                if exc.errno not in OUT_OF_RESOURCES:
                    raise
                self.gate.out_of_descriptors()
                await asyncio.sleep(ACCEPT_RETRY_DELAY)
                continue
            address = _address_of(conn)
            if not self.gate.admit(address):  # counted here, before the next accept
                conn.close()
                continue
            task = asyncio.create_task(self._on_client(conn, address))
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)

    async def _on_client(self, conn: socket.socket, address: str) -> None:
        try:
            try:
                reader, writer = await asyncio.open_connection(sock=conn, limit=READ_CHUNK)
            except OSError:
                conn.close()
                return
            framer = self.dialect.framer()
            name = f"{self.dialect.name} tcp {writer.get_extra_info('peername')}"
            self._clients.add(writer)
            try:
                await serve_connection(self.hub, self.dialect, StreamLink(writer, framer),
                                       _frames(reader, framer), name=name, outbox=self.outbox,
                                       address=address, idle_timeout=self.idle_timeout)
            finally:
                self._clients.discard(writer)
        finally:
            self.gate.release(address)

    async def close(self, timeout: float = CLOSE_TIMEOUT) -> None:
        """Stop accepting, hang up on every client, and let their handlers finish: within
        ``timeout`` for clients that take their queued output, and then at once, for those
        that do not read (they are cut off)."""
        if self._acceptor is not None:
            self._acceptor.cancel()
            await asyncio.gather(self._acceptor, return_exceptions=True)
        if self._socket is not None:
            self._socket.close()
        for writer in list(self._clients):
            writer.close()  # the read loop sees EOF and the conversation cleans up
        if self._handlers:
            await asyncio.wait(list(self._handlers), timeout=timeout)
        for writer in list(self._clients):
            writer.transport.abort()  # never read what was queued: cut off
        if self._handlers:
            await asyncio.wait(list(self._handlers), timeout=timeout)
