"""Masters of Renaissance (seed 003) over real TCP: whole games for 1-4 players typed with the
seed's lines, the lobby, set-up dialogues, errors, heartbeat, several lobbies, resume, rematch."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from renaissance_client import Player, RenaissanceClient, find_seed, join

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


def fixed_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The next matches are set up from ``seed`` (the hub draws it from ``secrets``)."""
    import types

    from service.sessions import hub
    monkeypatch.setattr(hub, "secrets", types.SimpleNamespace(randbits=lambda bits: seed))


@pytest.mark.parametrize("win", [True, False])
async def test_a_solo_game_against_lorenzo_is_won_or_lost(
        client: Any, monkeypatch: pytest.MonkeyPatch, win: bool) -> None:
    seed = find_seed(solo_win=win, start=21 if win else 0)
    fixed_seed(monkeypatch, seed)
    solo = await join(port_of(client), "sol", 1)
    player = Player(solo, 0, oracle=lambda: runtime_of(client).state, seed=0)
    [result] = await play_all([player])
    runtime = runtime_of(client)
    assert runtime.status == "finished" and runtime.seed == seed
    points = runtime.state.scores[0]
    assert result == [(wire.YOU_WIN if win else wire.YOU_LOSE).format(points=points)]
    assert runtime.state.end_reason == ("faith_track" if win else "lorenzo_faith") or not win
    tokens = [line for _, line in solo.transcript if line.startswith("Lorenzo's token:")]
    assert tokens and all("black cross on" in line for line in tokens)
