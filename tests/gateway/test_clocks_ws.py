"""A clock over the canonical protocol: chosen at creation, shown in every state and update,
and a player who runs out of time loses, told to everyone attached (the server's own timer:
nobody has to act for the flag to fall)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import CanonicalClient

from service.app import create_app
from service.settings import Settings

#: waiting for a flag that falls after one second, on a machine however busy
FLAG_TIMEOUT = 60.0


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


async def test_the_flag_falls_by_itself_and_both_sides_hear_it(client: Any) -> None:
    alice = CanonicalClient(await client.ws_connect("/ws"))
    bob = CanonicalClient(await client.ws_connect("/ws"))
    await alice.hello("alice")
    await bob.hello("bob")
    created = await alice.call({"type": "create", "game": "santorini",
                                "clock": {"kind": "per_move", "seconds": 1}})
    match_id = created["result"]["match_id"]
    await bob.call({"type": "join", "match_id": match_id})
    state = await bob.wait_for("state", status="active")
    clock = state["clock"]
    assert clock["control"] == {"kind": "per_move", "seconds": 1, "increment": 0}
    assert clock["words"] == "1 s a move" and clock["running"] == state["to_act"]
    assert set(clock["remaining"]) == {"0", "1"}
    for player in (alice, bob):
        ended = await player.wait_for("ended", timeout=FLAG_TIMEOUT)
        assert ended["outcome"]["reason"] == "time_out"
        loser = ended["outcome"]["detail"]["seat"]
        assert loser == state["to_act"][0] and ended["outcome"]["winners"] == [1 - loser]


async def test_a_bad_clock_is_an_error(client: Any) -> None:
    alice = CanonicalClient(await client.ws_connect("/ws"))
    await alice.hello("alice")
    refused = await alice.call({"type": "create", "game": "dolphinfox",
                                "clock": {"kind": "per_move", "seconds": 60}})
    assert refused["code"] == "options/invalid"
    refused = await alice.call({"type": "create", "game": "santorini",
                                "clock": {"kind": "per_move", "seconds": -1}})
    assert refused["code"] == "options/invalid"
    untimed = await alice.call({"type": "create", "game": "santorini"})
    state = await alice.wait_for("state", match_id=untimed["result"]["match_id"])
    assert "clock" not in state  # no time control: no clock (None fields are left out)


async def test_a_match_created_over_http_takes_a_clock(client: Any) -> None:
    alice = CanonicalClient(await client.ws_connect("/ws"))
    token = (await alice.hello("alice"))["token"]
    created = await client.post("/api/matches", json={
        "game": "santorini", "clock": {"kind": "total", "seconds": 600, "increment": 10}},
        headers={"Authorization": f"Bearer {token}"})
    assert created.status == 201
    match_id = (await created.json())["match_id"]
    watched = await alice.call({"type": "watch", "match_id": match_id})
    assert watched["type"] == "ok"
    state = await alice.wait_for("state", match_id=match_id)
    assert state["clock"]["words"] == "10 min + 10 s" and state["clock"]["running"] == []
    bad = await client.post("/api/matches", json={
        "game": "santorini", "clock": {"kind": "total"}},
        headers={"Authorization": f"Bearer {token}"})
    assert bad.status == 400 and (await bad.json())["error"]["code"] == "options/invalid"


async def test_a_draw_offered_and_accepted_over_the_canonical_protocol(client: Any) -> None:
    alice = CanonicalClient(await client.ws_connect("/ws"))
    bob = CanonicalClient(await client.ws_connect("/ws"))
    await alice.hello("alice")
    await bob.hello("bob")
    created = await alice.call({"type": "create", "game": "dolphinfox"})
    match_id = created["result"]["match_id"]
    await bob.call({"type": "join", "match_id": match_id})
    state = await bob.wait_for("state", status="active")
    assert state["draw_offers"] == []
    offered = await alice.call({"type": "offer_draw", "match_id": match_id})
    assert offered["result"] == {"match_id": match_id, "offered": [0], "outcome": None}
    assert (await bob.wait_for("draw"))["offered"] == [0]
    declined = await bob.call({"type": "decline_draw", "match_id": match_id})
    assert declined["result"]["offered"] == []
    assert (await alice.wait_for("draw", offered=[]))["match_id"] == match_id
    await alice.call({"type": "offer_draw", "match_id": match_id})
    accepted = await bob.call({"type": "offer_draw", "match_id": match_id})
    assert accepted["result"]["offered"] == []
    assert accepted["result"]["outcome"]["draw"] is True
    for player in (alice, bob):
        ended = await player.wait_for("ended")
        assert ended["outcome"] == {"winners": [0, 1], "draw": True, "reason": "agreed"}
    santorini = await alice.call({"type": "create", "game": "santorini"})
    refused = await alice.call({"type": "offer_draw",
                                "match_id": santorini["result"]["match_id"]})
    assert refused["code"] in ("session/no_draws", "session/match_over")
