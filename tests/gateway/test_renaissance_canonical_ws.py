"""Masters of Renaissance over the canonical protocol, and seed-003 matches watched from /ws."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import canonical_table, play_by_legal, watch_live
from renaissance_client import join

from service.app import create_app
from service.gateway.keys import HUB, LISTENERS
from service.protocol import renaissance as wire
from service.settings import Settings


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


def choose(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Set up, take a market line, throw everything away (the other player gains faith), end."""
    for kind in ("choose_leaders", "take_bonus_resource", "discard_resource", "convert_white_marble",
                 "end_turn"):
        fitting = [a for a in actions if a["type"] == kind]
        if fitting:
            return rng.choice(fitting)
    return rng.choice([a for a in actions if a["type"] == "take_from_market"])


async def test_two_canonical_clients_play_a_full_game(client: Any) -> None:
    players, match_id, latest = await canonical_table(client.ws_connect, "renaissance", ["ann", "ben"])
    rng = random.Random(3)
    latest = await play_by_legal(players, match_id, latest, lambda legal: choose(legal, rng))
    assert latest["outcome"]["winners"] and latest["version"] > 30
    saved = await client.server.app[HUB].store.get_match(match_id)
    assert saved is not None and saved.status == "finished" and saved.version == latest["version"]


async def test_a_seed_003_match_is_watched_over_the_canonical_protocol(client: Any) -> None:
    port = client.server.app[LISTENERS]["renaissance"].port
    ann = await join(port, "ann", 2)
    bob = await join(port, "bob", None)
    spectator, _, state = await watch_live(client.ws_connect, client.server.app[HUB], "renaissance")
    assert [s["nickname"] for s in state["seats"]] == ["ann", "bob"]
    await ann.until(wire.FIRST_LEADER)
    await ann.send("1")
    await ann.until(wire.SECOND_LEADER)
    await ann.send("3")
    update = await spectator.wait_for("update")
    assert update["seat"] == 0 and update["action"]["type"] == "choose_leaders"
    assert await ann.line() == wire.SETUP_COMPLETE
    await bob.close()
