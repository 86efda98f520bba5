"""SIGKILL a Masters of Renaissance server mid-turn, restart it on the same database, finish.

The seed-003 players come back by nickname; the resources ann took and stored before the
kill (acknowledged by "Resources bought") are still hers, so her turn can end at once; and
`matches replay` passes. SQLite and PostgreSQL, a real server process.
"""

from __future__ import annotations

import asyncio

import pytest
from clients import newest_match_replays
from renaissance_client import Player, RenaissanceClient, join

from service.protocol import renaissance as wire
from service.tools.process import ServerProcess

pytestmark = pytest.mark.slow


async def come_back(port: int, nickname: str) -> RenaissanceClient:
    c = await RenaissanceClient.open(port, nickname)
    assert await c.line() == wire.INSERT_NICKNAME
    await c.send(nickname)
    assert await c.line() == f"Welcome back {nickname}, your game goes on"
    return c


async def test_sigkill_mid_turn_loses_no_acknowledged_action(database_url: str) -> None:
    server = await ServerProcess(database_url, dialects=("renaissance",)).start()
    try:
        port = server.ports["renaissance"]
        ann, bob = await join(port, "ann", 2), await join(port, "bob", None)
        bobs = asyncio.create_task(Player(bob, 1, seed=1).play())
        await Player(ann, 0, seed=0, stop_at=(wire.RESOURCES_BOUGHT, 3)).play()
        bobs.cancel()
        await server.kill()
        for c in (ann, bob):
            await c.close()

        await server.start()
        port = server.ports["renaissance"]
        bob = await come_back(port, "bob")
        assert "Now it's ann's turn" in await bob.until("Now it's ann's turn")
        ann = await come_back(port, "ann")
        seen = await ann.until(wire.WHAT_TO_DO)
        assert "Personal board of ann" in seen
        await ann.send("End turn")  # refused if the market action had been lost
        assert await ann.line() == wire.END
        players = [Player(ann, 0, seed=10), Player(bob, 1, seed=11)]
        results = await asyncio.gather(*(p.play() for p in players))
        assert all(len(lines) == 2 and lines[0].startswith("First player: ") for lines in results)
        assert await server.terminate() == 0
    finally:
        await server.kill()
    newest_match_replays(database_url)
