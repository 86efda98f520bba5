"""The bounded outbox: a peer that does not read is dropped; one that reads gets everything in order.
An idle peer holds no writer task and no outbox (issue 23: open connections' memory)."""

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


class BrokenLink(FakeLink):
    async def send(self, frame: str) -> None:
        raise ConnectionResetError("gone")


async def test_a_reading_peer_gets_every_frame_in_order() -> None:
    link = FakeLink(stalled=False)
    peer = Peer(link, outbox=4)
    for i in range(100):
        peer.send(f"f{i}")
        if i % 3 == 0:  # now and then the writer catches up and ends, and another starts
            await asyncio.sleep(0)
    peer.close()
    await peer.wait_closed()
    assert link.sent == [f"f{i}" for i in range(100)] and link.closed


async def test_an_idle_peer_holds_no_writer_and_no_outbox() -> None:
    link = FakeLink(stalled=False)
    peer = Peer(link, outbox=4)
    assert peer._writer is None and peer._frames is None
    peer.send("a")
    peer.send("b")
    writer = peer._writer
    assert writer is not None
    await writer
    assert link.sent == ["a", "b"] and not link.closed
    assert peer._writer is None and peer._frames is None
    peer.send("c")  # a new writer for the next frame, the link still open
    peer.close()
    await peer.wait_closed()
    assert link.sent == ["a", "b", "c"] and link.closed


async def test_closing_an_idle_peer_closes_its_link() -> None:
    link = FakeLink(stalled=False)
    peer = Peer(link)
    peer.close()
    await peer.wait_closed()
    assert link.closed and link.sent == []
    peer.send("late")
    await asyncio.sleep(0)
    assert link.sent == []


async def test_a_peer_that_does_not_read_is_dropped_without_blocking_the_sender() -> None:
    link = FakeLink(stalled=True)
    peer = Peer(link, outbox=3)
    peer.send("f0")
    await asyncio.sleep(0)  # the writer takes f0 and is stuck sending it
    for i in range(1, 10):
        peer.send(f"f{i}")  # never blocks, even with the link stalled
    assert peer.dropped_for_overflow and peer.closing and link.aborted
    await asyncio.wait_for(peer.wait_closed(), 1)
    assert link.closed and len(link.sent) <= 1
    peer.send("late")  # a closed peer ignores frames
    assert "late" not in link.sent


async def test_a_failed_send_closes_the_link_and_starts_no_more_writers() -> None:
    link = BrokenLink(stalled=False)
    peer = Peer(link, outbox=3)
    peer.send("f0")
    await asyncio.sleep(0)
    assert link.closed
    peer.send("f1")  # queued for nobody, as the outbox of a gone client always was
    assert peer._writer is not None and peer._writer.done()
    peer.close()
    await peer.wait_closed()
    assert link.sent == []
