"""Runs one conversation over one link: the read loop, the peer's writes, and the cleanup."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from service import metrics
from service.errors import ServiceError
from service.protocol.framing import FrameError
from service.sessions.dialects import Dialect
from service.sessions import logcontext
from service.sessions.budget import ConnectionBudget
from service.sessions.hub import Hub
from service.sessions.peer import Link, Peer

log = logging.getLogger(__name__)


async def serve_connection(hub: Hub, dialect: Dialect, link: Link,
                           frames: AsyncIterator[str | FrameError], *, name: str,
                           outbox: int, address: str | None = None,
                           idle_timeout: float | None = None, transport: str = "tcp") -> None:
    """Feed frames to a fresh conversation in order until the client or the peer closes.
    What the conversation creates is charged to ``address`` (see sessions.limits). With
    ``idle_timeout``, a client of a dialect without a heartbeat that sends nothing for that
    long is closed (a heartbeat dialect drops silent clients itself)."""
    open_connections = metrics.CONNECTIONS.labels(dialect.name, transport)
    open_connections.inc()
    logcontext.dialect_var.set(dialect.name)  # this connection's task and what it starts
    logcontext.peer_var.set(name)
    peer = Peer(link, name=name, outbox=outbox)  # its writers log in this context too
    budget = hub.frame_budgets.connection(address)
    with hub.limits.client_scope(address):
        budget.enter()  # this task's frames are charged to it (sessions/budget.py)
        conversation = dialect.conversation(hub, peer)
        conversation.budget = budget
        try:
            await conversation.on_open()
            idle = None if conversation.has_heartbeat else idle_timeout
            async for frame in _until_closed(frames, peer, idle, name, budget):
                async with budget.handling():  # a stranger's frame waits for its address's turn
                    await conversation.on_frame(frame)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError):
            pass
        finally:
            try:
                await conversation.on_close()
            except ServiceError as exc:  # the client is gone either way: nothing to answer
                # (the store away while a seat is given up: the seat stays taken, as saved)
                log.warning("%s: cleaning up after the close failed: %s (%s)", name, exc.code,
                            exc.message)
            peer.close()
            await peer.wait_closed()
            open_connections.dec()
            log.debug("%s closed", name)


async def _until_closed(frames: AsyncIterator[str | FrameError], peer: Peer, idle: float | None,
                        name: str, budget: ConnectionBudget) -> AsyncIterator[str | FrameError]:
    loop = asyncio.get_running_loop()
    heard = loop.time()  # the last complete frame was handled (bytes alone do not count)
    while True:
        try:
            if idle is None:  # (no wait_for: its frame would be held as long as the wait)
                frame = await anext(frames)
            else:
                frame = await asyncio.wait_for(anext(frames), max(heard + idle - loop.time(), 0.0))
        except StopAsyncIteration:
            return
        except asyncio.TimeoutError:
            log.info("%s: idle for %s s, closing", name, idle)
            return
        await budget.before_frame(lambda: peer.closing or _closing(peer.link))  # no reads
        if peer.closing:
            return
        yield frame
        if isinstance(frame, str) and frame.strip():  # a blank line or a FrameError is no frame
            heard = loop.time()


def _closing(link: Link) -> bool:
    """Whether the server is closing the transport (shutdown, a drop): a paused connection
    then stops waiting. TCP links have a stream writer, WebSocket links a response."""
    writer = getattr(link, "writer", None)
    if writer is not None:
        return bool(writer.is_closing())
    ws = getattr(link, "ws", None)
    return bool(ws is not None and ws.closed)
