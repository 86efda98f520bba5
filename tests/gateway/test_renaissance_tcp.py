"""Masters of Renaissance (seed 003) over real TCP: whole games for 1-4 players typed with the
seed's lines, the lobby, set-up dialogues, errors, heartbeat, several lobbies, resume, rematch."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from renaissance_client import Player, RenaissanceClient, join

from service.app import create_app
from service.gateway.keys import HUB, LISTENERS
from service.protocol import renaissance as wire
from service.sessions.dialects.renaissance import RenaissanceConversation
from service.settings import Settings

NICKS = ["ann", "bob", "cid", "dee"]


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


def port_of(client: Any) -> int:
    return client.server.app[LISTENERS]["renaissance"].port


async def lobby(port: int, count: int) -> list[RenaissanceClient]:
    return [await join(port, NICKS[i], count if i == 0 else None) for i in range(count)]


def runtime_of(client: Any) -> Any:
    return next(r for r in client.server.app[HUB].live() if r.game.name == "renaissance")


async def play_all(players: list[Player]) -> list[list[str]]:
    return list(await asyncio.gather(*(p.play() for p in players)))


@pytest.mark.parametrize("count", [2, 3, 4])
async def test_blind_players_finish_a_game_to_the_scores(client: Any, count: int) -> None:
    clients = await lobby(port_of(client), count)
    results = await play_all([Player(c, s, seed=s) for s, c in enumerate(clients)])
    runtime = runtime_of(client)
    assert runtime.status == "finished"
    scores = runtime.state.scores
    assert runtime.version > 10 * count and runtime.state.end_reason
    for lines in results:
        assert len(lines) == count
        assert [line.split(" player: ")[0] for line in lines] == list(wire.PLACES[:count])
        for line in lines:
            nick = line.split("player: ")[1].split(" Points")[0]
            assert line.endswith(f"Points: {scores[NICKS.index(nick)]}")
