"""Masters of Renaissance over the canonical protocol, and seed-003 matches watched from /ws."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import CanonicalClient
from renaissance_client import join

from service.app import create_app
from service.gateway.keys import HUB, LISTENERS
from service.protocol import renaissance as wire
from service.settings import Settings


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


async def player(client: Any, nickname: str) -> CanonicalClient:
    canonical = CanonicalClient(await client.ws_connect("/ws"))
    await canonical.hello(nickname)
    return canonical


def choose(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Set up, take a market line, throw everything away (the other player gains faith), end."""
    for kind in ("choose_leaders", "take_bonus_resource", "discard_resource", "convert_white_marble",
                 "end_turn"):
        fitting = [a for a in actions if a["type"] == kind]
        if fitting:
            return rng.choice(fitting)
    return rng.choice([a for a in actions if a["type"] == "take_from_market"])


async def test_two_canonical_clients_play_a_full_game(client: Any) -> None:
    players = [await player(client, name) for name in ("ann", "ben")]
    created = await players[0].call({"type": "create", "game": "renaissance", "seats": 2})
    match_id = created["result"]["match_id"]
    assert (await players[1].call({"type": "join", "match_id": match_id}))["type"] == "ok"
    latest = await players[0].wait_for("state", status="active")
    rng = random.Random(3)
    for played in range(3000):
        if latest["status"] == "finished":
            break
        seat = latest["to_act"][0]
        legal = (await players[seat].call({"type": "legal", "match_id": match_id}))["result"]
        action = choose(legal["actions"], rng)
        ack = await players[seat].call({"type": "act", "match_id": match_id, "action": action,
                                        "client_id": f"c{played}", "version": latest["version"]})
        assert ack["type"] == "ack", (action, ack)
        latest = await players[0].wait_for("update", version=ack["version"])
    else:
        raise AssertionError("the game did not end")
    assert latest["outcome"]["winners"] and latest["version"] > 30
    saved = await client.server.app[HUB].store.get_match(match_id)
    assert saved is not None and saved.status == "finished" and saved.version == latest["version"]


async def test_a_seed_003_match_is_watched_over_the_canonical_protocol(client: Any) -> None:
    port = client.server.app[LISTENERS]["renaissance"].port
    ann = await join(port, "ann", 2)
    bob = await join(port, "bob", None)
    runtime = next(r for r in client.server.app[HUB].live() if r.game.name == "renaissance")
    spectator = CanonicalClient(await client.ws_connect("/ws"))
    watched = await spectator.call({"type": "watch", "match_id": runtime.id})
    assert watched["result"]["seat"] is None
    state = await spectator.wait_for("state")
    assert state["game"] == "renaissance" and state["you"] is None
    assert [s["nickname"] for s in state["seats"]] == ["ann", "bob"]
    await ann.until(wire.FIRST_LEADER)
    await ann.send("1")
    await ann.until(wire.SECOND_LEADER)
    await ann.send("3")
    update = await spectator.wait_for("update")
    assert update["seat"] == 0 and update["action"]["type"] == "choose_leaders"
    assert await ann.line() == wire.SETUP_COMPLETE
    await bob.close()
