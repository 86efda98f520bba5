"""Seed 004: SIGKILL the server mid-game, restart on the same database, resume through LOADGAME.

Each original-like client's model after the restart (the MODEL sent on resume) is the one it had
built from the deltas acknowledged before the kill, the game finishes, and ``matches replay`` reproduces the saved snapshot (SQLite and PostgreSQL).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from clients import newest_match_replays
from eriantys_g27_client import Bot, G27Client, fields_of, join_game, request_name

from service.protocol import eriantys_g27 as wire
from service.protocol.eriantys_g27 import Message, Typed
from service.tools.process import ServerProcess

pytestmark = pytest.mark.slow
NAME = "eriantys-g27"




async def play_some(clients: list[G27Client], actions: int) -> list[Bot]:
    """Let the bots answer ``actions`` requests in all, then stop; returns them once every
    client has read everything the server sent (a REQUESTVALUE answered last proves it)."""
    bots = [Bot(c, random.Random(40 + i), character_odds=0.0) for i, c in enumerate(clients)]
    budget = [actions]
    stopped = asyncio.Event()
    tasks = [asyncio.create_task(until_budget(b, budget, stopped)) for b in bots]
    await asyncio.wait_for(stopped.wait(), 60)
    for task in tasks:
        task.cancel()
    for client in clients:
        await client.send(Message("REQUESTVALUE", Typed(wire.GAME_VALUES, "MOTHERNATURE")))
    await asyncio.wait_for(asyncio.gather(*(drained(b) for b in bots)), 30)
    return bots


async def until_budget(bot: Bot, budget: list[int], stopped: asyncio.Event) -> None:
    while True:
        message = await bot.client.recv()
        if message.type == "SENDINFO":
            bot.see(message)
        elif message.type == "REQUESTACTION":
            if budget[0] == 0:
                stopped.set()
                return
            budget[0] -= 1
            await bot.answer(message)


async def drained(bot: Bot) -> None:
    while True:
        message = await bot.client.recv()
        if message.type == "SENDINFO":
            fields = fields_of(message.value)
            if list(fields) == ["MOTHERNATURE"] and bot.model.data is not None \
                    and fields["MOTHERNATURE"] == bot.model.mother_nature():
                return
            bot.see(message)


def comparable(model: dict[str, Any]) -> dict[str, Any]:
    """What a client's model must show after a restart: all but the per-connection slot order
    of the entrances, the remembered last cards and the bag (the original sends no bag deltas)."""
    out = {k: v for k, v in model.items() if k != "bag"}
    players = []
    for wrapper in model["players"]["players"]:
        player = dict(wrapper["player"], lastPlayedCard=None)
        board = dict(player["schoolBoard"])
        board["entrance"] = sorted(board["entrance"]["students"]["colors"])
        player["schoolBoard"] = board
        players.append(player)
    out["players"] = players
    return out


async def come_back(port: int, name: str, age: int) -> G27Client:
    client = await G27Client.connect(port, name)
    assert request_name(await client.register(name, age)) == "LOADGAME"
    await client.respond("LOADGAMECHOICE", Typed(wire.BOOLEAN, True))
    return client


async def test_sigkill_mid_game_then_loadgame_and_finish(database_url: str) -> None:
    server = await ServerProcess(database_url, dialects=(NAME,)).start()
    try:
        clients = await join_game(server.ports[NAME], 2, expert=True, ages=[3, 4])
        before = await play_some(clients, 17)
        await server.kill()

        await server.start()
        port = server.ports[NAME]
        back = [await come_back(port, "p0", 3), await come_back(port, "p1", 4)]
        bots = [Bot(c, random.Random(60 + i)) for i, c in enumerate(back)]
        for bot, old in zip(bots, before):
            await bot.client.expect("GAMESTART")
            bot.see(await bot.client.expect("SENDINFO"))  # CHARACTERCARDARRAY and the MODEL
            assert bot.model.data is not None and old.model.data is not None
            assert comparable(bot.model.data) == comparable(old.model.data)
        tallies = await asyncio.wait_for(asyncio.gather(*(b.play() for b in bots)), 120)
        assert all(t.result is not None for t in tallies)
        assert [c.strange for c in back] == [[], []]
        assert await server.terminate() == 0
    finally:
        await server.kill()
    newest_match_replays(database_url)

