"""Eriantys over the canonical protocol, and Eriantys matches seen across dialects."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import canonical_table, play_by_legal, watch_live
from eriantys_g13_client import Bot, run_until_stop, start_game

from service.app import create_app
from service.gateway.keys import HUB, LISTENERS
from service.settings import Settings


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


async def test_three_canonical_clients_play_a_full_expert_game(client: Any) -> None:
    players, match_id, latest = await canonical_table(client.ws_connect, "eriantys",
                                                      ["ann", "ben", "cat"], {"expert": True})
    rng = random.Random(5)
    latest = await play_by_legal(players, match_id, latest, rng.choice)
    assert latest["outcome"]["reason"] and latest["version"] > 50  # a whole game, not a few moves
    assert set(latest["view"]["bag"]) == {"count", "by_color"}  # never the bag's order
    assert "rng" not in latest["view"]
    saved = await client.server.app[HUB].store.get_match(match_id)
    assert saved is not None and saved.status == "finished" and saved.version == latest["version"]


async def test_a_seed_000_match_is_watched_over_the_canonical_protocol(client: Any) -> None:
    port = client.server.app[LISTENERS]["eriantys-g13"].port
    g13_players = await start_game(port, 2, expert=True)
    spectator, runtime, state = await watch_live(client.ws_connect, client.server.app[HUB], "eriantys")
    assert [s["nickname"] for s in state["seats"]] == ["ada", "bruno"]
    bots = [Bot(c, 7 + i, True, stop_after=1) for i, c in enumerate(g13_players)]
    first = runtime.version
    await run_until_stop(bots)  # one action from a seed-000 client is enough to see
    update = await spectator.wait_for("update")
    assert update["version"] == first + 1 and update["seat"] in (0, 1)
