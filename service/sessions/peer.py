"""A connected client as the session layer sees it: a bounded outbox and a writer task.

Sessions never write to a socket directly: they put frames into the outbox,
which never blocks. A client that does not read fills its outbox and is dropped;
it can never stall a match.

An idle connection holds neither an outbox nor a writer (issue 23: 20,000 open connections
in under 1 GB): the first frame queued starts a writer task, which ends once it has written
everything queued; the next frame starts another. There is never more than one at a time, so
frames are written in the order they were queued.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections import deque
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
    __slots__ = ("link", "name", "outbox", "dropped_for_overflow", "_frames", "_writer",
                 "_closing", "_context")

    def __init__(self, link: Link, *, name: str = "peer", outbox: int = DEFAULT_OUTBOX) -> None:
        self.link = link
        self.name = name
        self.outbox = outbox
        self.dropped_for_overflow = False
        #: frames queued and not yet taken by the writer (None: none, nothing allocated)
        self._frames: deque[str] | None = None
        #: the writer task while one runs; once it has closed the link (after close(), or
        #: when a send failed) it stays here, done, and no other writer starts
        self._writer: asyncio.Task[None] | None = None
        self._closing = False
        #: writers run in the context the peer was made in (its connection's log context),
        #: not in that of the task that happened to queue a frame
        self._context = contextvars.copy_context()

    @property
    def closing(self) -> bool:
        return self._closing

    def send(self, frame: str) -> None:
        """Queue one frame; never blocks. A full outbox drops the peer."""
        if self._closing:
            return
        if self._frames is None:
            self._frames = deque()
        elif len(self._frames) >= self.outbox:
            log.warning("%s: outbox full, dropping a client that does not read", self.name)
            self.dropped_for_overflow = True
            metrics.SLOW_CLIENTS.inc()
            self.drop()
            return
        self._frames.append(frame)
        self._start_writer()

    def close(self) -> None:
        """Stop taking frames; the writer sends what is queued, then closes the link."""
        if not self._closing:
            self._closing = True
            self._start_writer()

    def drop(self) -> None:
        """Cut the client off now, unsent frames and all (the writer may be stuck on it)."""
        self.close()
        self.link.abort()

    async def wait_closed(self) -> None:
        """After ``close``: until the writer has sent what was queued (or the client went
        away) and closed the link. Cancelling this cancels the writer (the link is closed
        all the same)."""
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)

    def _start_writer(self) -> None:
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(
                self._write(), name=f"writer {self.name}", context=self._context)

    async def _write(self) -> None:
        """Drain the outbox into the link. Then end, leaving the link open, unless the peer
        is closing (or a send failed): then close the link."""
        close = True
        try:
            while self._frames and not self.dropped_for_overflow:
                await self.link.send(self._frames.popleft())
            close = self._closing  # (a dropped peer is closing too)
        except (ConnectionError, RuntimeError):
            pass  # the client went away; the read side notices and cleans up
        finally:  # (a cancelled writer closes the link too)
            if close:
                await self.link.close()
            else:  # idle again: the next frame starts a writer
                self._frames, self._writer = None, None
