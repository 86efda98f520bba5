"""The bounded outbox: a peer that does not read is dropped; one that reads gets everything in order."""

from __future__ import annotations

import asyncio

from service.sessions.peer import Peer


class FakeLink:
    """A link whose sends block until released, like a socket whose reader stopped reading."""

    def __init__(self, *, stalled: bool) -> None:
        self.sent: list[str] = []
        self.closed = False
        self.aborted = False
        self.flowing = asyncio.Event()
        if not stalled:
            self.flowing.set()

    async def send(self, frame: str) -> None:
        await self.flowing.wait()
        self.sent.append(frame)

    async def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True
        self.flowing.set()


async def test_a_reading_peer_gets_every_frame_in_order() -> None:
    link = FakeLink(stalled=False)
    peer = Peer(link, outbox=4)
    writer = asyncio.create_task(peer.run_writer())
    for i in range(100):
        peer.send(f"f{i}")
        await asyncio.sleep(0)
    peer.close()
    await writer
    assert link.sent == [f"f{i}" for i in range(100)] and link.closed


async def test_a_peer_that_does_not_read_is_dropped_without_blocking_the_sender() -> None:
    link = FakeLink(stalled=True)
    peer = Peer(link, outbox=3)
    writer = asyncio.create_task(peer.run_writer())
    await asyncio.sleep(0)
    for i in range(10):
        peer.send(f"f{i}")  # never blocks, even with the link stalled
    assert peer.dropped_for_overflow and peer.closing and link.aborted
    await asyncio.wait_for(writer, 1)
    assert link.closed and len(link.sent) <= 1
    peer.send("late")  # a closed peer ignores frames
    assert "late" not in link.sent
