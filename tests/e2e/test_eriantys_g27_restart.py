"""Seed 004: SIGKILL the server mid-game, restart on the same database, resume through LOADGAME.

The players' view after the restart is exactly the last one acknowledged before the kill, the game
finishes, and ``matches replay`` reproduces the saved snapshot (SQLite and PostgreSQL).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from clients import newest_match_replays
from eriantys_g27_client import Bot, G27Client, join_game, request_name

from service.protocol import eriantys_g27 as wire
from service.protocol.eriantys_g27 import Typed
from service.tools.process import ServerProcess

pytestmark = pytest.mark.slow
NAME = "eriantys-g27"




async def play_some(clients: list[G27Client], actions: int) -> dict[str, Any]:
    """Play ``actions`` actions one at a time; returns the view every player acknowledged last."""
    bots = [Bot(c, random.Random(40 + i), character_odds=0.0) for i, c in enumerate(clients)]
    infos = [await next_info(c) for c in clients]
    for _ in range(actions):
        acting = int(infos[0]["CURRENTPLAYER"][1:])  # players are p0, p1, ...
        ask = await clients[acting].until("REQUESTACTION")
        await bots[acting].answer(ask)
        if str(request_name(ask)).startswith("CHOOSECLOUD"):  # the cloud goes with ENDTHISTURN
            await bots[acting].answer(await clients[acting].until("REQUESTACTION", "ENDTURN"))
        infos = [await next_info(c) for c in clients]
        assert "ERROR" not in infos[0] and all(i == infos[0] for i in infos)
    return infos[0]


async def next_info(client: G27Client) -> dict[str, Any]:
    message = await client.until("SENDINFO")
    assert message.value is not None
    return wire.read_info_map(message.value)


async def come_back(port: int, name: str, age: int) -> G27Client:
    client = await G27Client.connect(port, name)
    assert request_name(await client.register(name, age)) == "LOADGAME"
    await client.respond("LOADGAMECHOICE", Typed(wire.BOOLEAN, True))
    return client


async def test_sigkill_mid_game_then_loadgame_and_finish(database_url: str) -> None:
    server = await ServerProcess(database_url, dialects=(NAME,)).start()
    try:
        clients = await join_game(server.ports[NAME], 2, expert=True, ages=[3, 4])
        acknowledged = await play_some(clients, 17)
        await server.kill()

        await server.start()
        port = server.ports[NAME]
        back = [await come_back(port, "p0", 3), await come_back(port, "p1", 4)]
        for client in back:
            await client.expect("GAMESTART")
            assert await next_info(client) == acknowledged
        bots = [Bot(c, random.Random(60 + i)) for i, c in enumerate(back)]
        tallies = await asyncio.wait_for(asyncio.gather(*(b.play() for b in bots)), 120)
        assert all(t.result is not None for t in tallies)
        assert await server.terminate() == 0
    finally:
        await server.kill()
    newest_match_replays(database_url)

