"""A connected client as the session layer sees it: a bounded outbox and one writer task.

Sessions never write to a socket directly: they put frames into the outbox,
which never blocks. A client that does not read fills its outbox and is dropped;
it can never stall a match.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

log = logging.getLogger(__name__)

DEFAULT_OUTBOX = 512


class Link(Protocol):
    """The transport under a peer (TCP stream or WebSocket); implemented in gateway/."""

    async def send(self, frame: str) -> None: ...

    async def close(self) -> None: ...

    def abort(self) -> None:
        """Drop the connection now, discarding anything unsent."""


class Peer:
    def __init__(self, link: Link, *, name: str = "peer", outbox: int = DEFAULT_OUTBOX) -> None:
        self.link = link
        self.name = name
        self._queue: asyncio.Queue[str] = asyncio.Queue(outbox)
        self._closing = asyncio.Event()
        self.dropped_for_overflow = False

    @property
    def closing(self) -> bool:
        return self._closing.is_set()

    def send(self, frame: str) -> None:
        """Queue one frame; never blocks. A full outbox drops the peer."""
        if self._closing.is_set():
            return
        try:
            self._queue.put_nowait(frame)
        except asyncio.QueueFull:
            log.warning("%s: outbox full, dropping a client that does not read", self.name)
            self.dropped_for_overflow = True
            self.close()
            self.link.abort()  # the writer may be stuck on this client: cut it loose

    def close(self) -> None:
        """Ask the writer to stop after nothing more; the transport closes the link."""
        self._closing.set()

    async def run_writer(self) -> None:
        """Drain the outbox into the link until closed; then close the link."""
        closing = asyncio.ensure_future(self._closing.wait())
        try:
            while not self._closing.is_set():
                getter = asyncio.ensure_future(self._queue.get())
                done, _ = await asyncio.wait({getter, closing}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    break
                await self.link.send(getter.result())
            await self._flush_if_polite()
        except (ConnectionError, asyncio.CancelledError, RuntimeError):
            pass
        finally:
            closing.cancel()
            await self.link.close()

    async def _flush_if_polite(self) -> None:
        """On a normal close, send what is queued (never for a peer dropped as too slow)."""
        if self.dropped_for_overflow:
            return
        while not self._queue.empty():
            await asyncio.wait_for(self.link.send(self._queue.get_nowait()), timeout=1.0)
