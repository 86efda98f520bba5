"""TCP listeners, one per dialect, each line- or length-framed by its dialect's framer."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from service.gateway.connection import serve_connection
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


async def start_listener(hub: Hub, dialect: Dialect, host: str, port: int,
                         *, outbox: int) -> asyncio.Server:
    async def on_client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        framer = dialect.framer()
        peer_name = writer.get_extra_info("peername")
        name = f"{dialect.name} tcp {peer_name}"
        await serve_connection(hub, dialect, StreamLink(writer, framer), _frames(reader, framer),
                               name=name, outbox=outbox)

    return await asyncio.start_server(on_client, host, port, limit=READ_CHUNK)
