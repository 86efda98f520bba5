"""Issue 25, the short version of benchmarks/fairness.py: while connections on every dialect
and transport flood a real server with bad frames (reconnecting whenever it closes them),
honest players on three dialects are still served: their acks arrive and nobody is dropped
(by a heartbeat or otherwise). No timing is asserted: the honest players only have to get
their acks, with the clients' own generous time-outs."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest
from fairness_clients import (
    DIALECTS,
    TARGETS,
    Honest,
    canonical_games,
    flood_tcp,
    flood_ws,
    g27_game,
    keep_playing,
    santorini_game,
)

from service.tools.process import ServerProcess

pytestmark = pytest.mark.slow

#: flooding connections: two per target
FLOOD = 2 * len(TARGETS)
#: acks each honest player must get while the flood runs
ACKS = 15


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[ServerProcess]:
    process = await ServerProcess(database_url, dialects=DIALECTS).start()  # default budgets
    try:
        yield process
    finally:
        await process.terminate()


async def _flood(server: ServerProcess, deadline: float, tally: list[int]) -> None:
    ports = server.ports
    await asyncio.gather(*(
        flood_ws(f"ws://127.0.0.1:{ports['http']}/ws", f"127.0.0.{2 + i}", random.Random(i),
                 tally, deadline) if transport == "ws" else
        flood_tcp(ports[dialect], dialect, f"127.0.0.{2 + i}", random.Random(i), tally, deadline)
        for i, (dialect, transport) in enumerate(TARGETS[i % len(TARGETS)] for i in range(FLOOD))))


async def _until_served(honest: list[Honest], since: float) -> None:
    while any(len(h.window(since, float("inf"))) < ACKS for h in honest):
        await asyncio.sleep(0.1)


async def test_honest_players_are_served_beside_a_flood(server: ServerProcess) -> None:
    ports = server.ports
    honest = [Honest("canonical ws"), Honest("santorini"), Honest("eriantys-g27")]
    stop, rng, serials = asyncio.Event(), random.Random(7), ([0], [0])
    tally = [0, 0]
    async with aiohttp.ClientSession() as session:
        url = f"ws://127.0.0.1:{ports['http']}/ws"
        players = [
            asyncio.create_task(keep_playing(honest[0], lambda: canonical_games(
                session, url, honest[0], rng, stop), stop)),
            asyncio.create_task(keep_playing(honest[1], lambda: santorini_game(
                ports["santorini"], honest[1], serials[0]), stop)),
            asyncio.create_task(keep_playing(honest[2], lambda: g27_game(
                ports["eriantys-g27"], honest[2], serials[1]), stop)),
        ]
        since = time.perf_counter()
        flood = asyncio.create_task(_flood(server, time.time() + 3600, tally))
        try:
            await asyncio.wait_for(_until_served(honest, since), timeout=240)
            troubles = [(h.name, what) for h in honest for _, what in h.troubles]
        finally:
            flood.cancel()
            stop.set()
            for task in players:
                task.cancel()
            await asyncio.gather(flood, *players, return_exceptions=True)
    assert tally[1] > FLOOD  # the flood was closed and came back
    assert troubles == []  # no honest player timed out or was dropped
    assert server.tracebacks == 0, "\n".join(server.output[-40:])
