"""A TCP proxy on loopback whose link can be frozen: both directions stop carrying bytes and
every socket stays open, as a network that silently drops everything (a cable pulled, a
partition) looks to both ends. Closing one side closes the other."""

from __future__ import annotations

import asyncio
import contextlib


class FreezableProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self.frozen = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> FreezableProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def freeze(self) -> None:
        self.frozen.set()

    def cut(self) -> int:
        """Close every connection through the proxy (new ones are still let through); how
        many there were."""
        writers, self._writers = self._writers, set()
        for writer in writers:
            writer.close()
        return len(writers) // 2

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self._writers |= {writer, up_writer}
        pumps = [asyncio.create_task(self._pump(reader, up_writer)),
                 asyncio.create_task(self._pump(up_reader, writer))]
        self._tasks.update(pumps)
        await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        for task in pumps:  # one side closed: close the other
            task.cancel()
        for end in (writer, up_writer):
            end.close()

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            if self.frozen.is_set():
                continue  # dropped on the floor; the sender hears nothing
            writer.write(data)
            await writer.drain()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for writer in self._writers:
            with contextlib.suppress(Exception):
                writer.close()
