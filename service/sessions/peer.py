"""A connected client as the session layer sees it: a bounded outbox and one writer task.

Sessions never write to a socket directly: they put frames into the outbox,
which never blocks. A client that does not read fills its outbox and is dropped;
it can never stall a match.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from service import metrics

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
        self.outbox = outbox
        # one slot more than the outbox, so the close marker always fits
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(outbox + 1)
        self._closing = False
        self.dropped_for_overflow = False

    @property
    def closing(self) -> bool:
        return self._closing

    def send(self, frame: str) -> None:
        """Queue one frame; never blocks. A full outbox drops the peer."""
        if self._closing:
            return
        if self._queue.qsize() >= self.outbox:
            log.warning("%s: outbox full, dropping a client that does not read", self.name)
            self.dropped_for_overflow = True
            metrics.SLOW_CLIENTS.inc()
            self.drop()
            return
        self._queue.put_nowait(frame)

    def close(self) -> None:
        """Stop taking frames; the writer sends what is queued, then closes the link."""
        if not self._closing:
            self._closing = True
            self._queue.put_nowait(None)

    def drop(self) -> None:
        """Cut the client off now, unsent frames and all (the writer may be stuck on it)."""
        self.close()
        self.link.abort()

    async def run_writer(self) -> None:
        """Drain the outbox into the link until the close marker; then close the link."""
        try:
            while not self.dropped_for_overflow:
                frame = await self._queue.get()
                if frame is None:
                    break
                await self.link.send(frame)
        except (ConnectionError, RuntimeError):
            pass  # the client went away; the read side notices and cleans up
        finally:
            await self.link.close()
