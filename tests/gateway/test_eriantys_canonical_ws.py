"""Eriantys over the canonical protocol, and Eriantys matches seen across dialects."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import CanonicalClient
from eriantys_g13_client import Bot, run_until_stop, start_game

from service.app import create_app
from service.gateway.keys import HUB, LISTENERS
from service.settings import Settings


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


async def player(client: Any, nickname: str) -> CanonicalClient:
    canonical = CanonicalClient(await client.ws_connect("/ws"))
    await canonical.hello(nickname)
    return canonical


async def test_three_canonical_clients_play_a_full_expert_game(client: Any) -> None:
    names = ("ann", "ben", "cat")
    players = [await player(client, name) for name in names]
    created = await players[0].call({"type": "create", "game": "eriantys", "seats": 3,
                                     "options": {"expert": True}})
    match_id = created["result"]["match_id"]
    for other in players[1:]:
        assert (await other.call({"type": "join", "match_id": match_id}))["type"] == "ok"
    latest = await players[0].wait_for("state", status="active")
    rng = random.Random(5)
    for played in range(3000):
        if latest["status"] == "finished":
            break
        seat = latest["to_act"][0]
        legal = (await players[seat].call({"type": "legal", "match_id": match_id}))["result"]
        action = rng.choice(legal["actions"])
        ack = await players[seat].call({"type": "act", "match_id": match_id, "action": action,
                                        "client_id": f"c{played}", "version": latest["version"]})
        assert ack["type"] == "ack", (action, ack)
        latest = await players[0].wait_for("update", version=ack["version"])
    else:
        raise AssertionError("the game did not end")
    assert latest["outcome"]["reason"] and latest["version"] > 50  # a whole game, not a few moves
    assert set(latest["view"]["bag"]) == {"count", "by_color"}  # never the bag's order
    assert "rng" not in latest["view"]
    saved = await client.server.app[HUB].store.get_match(match_id)
    assert saved is not None and saved.status == "finished" and saved.version == latest["version"]


async def test_a_seed_000_match_is_watched_over_the_canonical_protocol(client: Any) -> None:
    port = client.server.app[LISTENERS]["eriantys-g13"].port
    g13_players = await start_game(port, 2, expert=True)
    runtime = next(r for r in client.server.app[HUB].live() if r.game.name == "eriantys")
    spectator = CanonicalClient(await client.ws_connect("/ws"))
    watched = await spectator.call({"type": "watch", "match_id": runtime.id})
    assert watched["result"]["seat"] is None
    state = await spectator.wait_for("state")
    assert state["game"] == "eriantys" and state["you"] is None
    assert [s["nickname"] for s in state["seats"]] == ["ada", "bruno"]
    bots = [Bot(c, 7 + i, True, stop_after=1) for i, c in enumerate(g13_players)]
    first = runtime.version
    await run_until_stop(bots)  # one action from a seed-000 client is enough to see
    update = await spectator.wait_for("update")
    assert update["version"] == first + 1 and update["seat"] in (0, 1)
