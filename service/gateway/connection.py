"""Runs one conversation over one link: the read loop, the writer task, and the cleanup."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from service.protocol.framing import FrameError
from service.sessions.dialects import Dialect
from service.sessions.hub import Hub
from service.sessions.peer import Link, Peer

log = logging.getLogger(__name__)


async def serve_connection(hub: Hub, dialect: Dialect, link: Link,
                           frames: AsyncIterator[str | FrameError], *, name: str,
                           outbox: int) -> None:
    """Feed frames to a fresh conversation in order until the client or the peer closes."""
    peer = Peer(link, name=name, outbox=outbox)
    conversation = dialect.conversation(hub, peer)
    writer = asyncio.create_task(peer.run_writer(), name=f"writer {name}")
    try:
        await conversation.on_open()
        async for frame in _until_closed(frames, peer):
            await conversation.on_frame(frame)
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        await conversation.on_close()
        peer.close()
        await asyncio.gather(writer, return_exceptions=True)
        log.debug("%s closed", name)


async def _until_closed(frames: AsyncIterator[str | FrameError],
                        peer: Peer) -> AsyncIterator[str | FrameError]:
    async for frame in frames:
        if peer.closing:
            return
        yield frame
