"""The canonical protocol over a real WebSocket: play, watch, resume, rematch, bad input."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from clients import CanonicalClient, LineClient

from service.app import create_app
from service.gateway.keys import LISTENERS
from service.settings import Settings

SMALL = {"size": 4, "units": 1, "max_moves": 12}


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


async def connect(client: Any) -> CanonicalClient:
    return CanonicalClient(await client.ws_connect("/ws"))


async def a_match(client: Any) -> tuple[CanonicalClient, CanonicalClient, int]:
    alice, bob = await connect(client), await connect(client)
    await alice.hello("alice")
    await bob.hello("bob")
    created = await alice.call({"type": "create", "game": "dolphinfox", "options": SMALL})
    assert created["type"] == "ok" and created["result"]["seat"] == 0
    match_id = created["result"]["match_id"]
    assert (await alice.wait_for("state"))["status"] == "waiting"
    joined = await bob.call({"type": "join", "match_id": match_id})
    assert joined["result"] == {"match_id": match_id, "seat": 1}
    assert (await bob.wait_for("state"))["status"] == "active"
    assert (await alice.wait_for("state"))["status"] == "active"
    return alice, bob, match_id


async def play_one(player: CanonicalClient, match_id: int, client_id: str) -> dict[str, Any]:
    legal = await player.call({"type": "legal", "match_id": match_id})
    action = legal["result"]["actions"][0]
    return await player.call({"type": "act", "match_id": match_id, "action": action,
                              "client_id": client_id})


async def play_to_the_end(players: list[CanonicalClient], match_id: int) -> dict[str, Any]:
    for turn in range(100):
        player = players[turn % 2]
        legal = (await player.call({"type": "legal", "match_id": match_id}))["result"]["actions"]
        if not legal:
            continue
        ack = await player.call({"type": "act", "match_id": match_id, "action": legal[-1],
                                 "client_id": f"t{turn}"})
        assert ack["type"] == "ack", ack
        update = await player.wait_for("update", version=ack["version"])
        if update["status"] == "finished":
            return update
    raise AssertionError("the match did not end")


async def test_two_players_and_a_spectator(client: Any) -> None:
    alice, bob, match_id = await a_match(client)
    spectator = await connect(client)
    watched = await spectator.call({"type": "watch", "match_id": match_id})
    assert watched["result"]["seat"] is None
    state = await spectator.wait_for("state")
    assert state["you"] is None and "team" not in state["view"]
    ack = await play_one(alice, match_id, "m1")
    assert ack == {"type": "ack", "re": ack["re"], "match_id": match_id, "client_id": "m1",
                   "version": 1, "duplicate": False}
    for watcher in (alice, bob, spectator):
        update = await watcher.wait_for("update")
        assert update["version"] == 1 and update["seat"] == 0
        assert update["events"][0]["type"] == "unit_moved"
    again = await alice.call({"type": "act", "match_id": match_id, "action": {"type": "move",
                              "r1": 1, "c1": 1, "r2": 1, "c2": 2}, "client_id": "m1"})
    assert again["type"] == "ack" and again["duplicate"] and again["version"] == 1
    final = await play_to_the_end([alice, bob], match_id)
    assert final["outcome"] is not None


async def test_bad_input_gets_errors_and_changes_nothing(client: Any) -> None:
    alice, bob, match_id = await a_match(client)
    ws = alice.ws
    await ws.send_str("{not json")
    assert (await alice.wait_for("error"))["code"] == "protocol/bad_json"
    await ws.send_str('{"type": "fly", "id": 9}')
    error = await alice.wait_for("error")
    assert error["code"] == "protocol/bad_message" and error["re"] == 9
    await ws.send_str('{"type": "ping", "extra": 1}')
    assert (await alice.wait_for("error"))["code"] == "protocol/bad_message"
    await ws.send_str("[1, 2]")
    assert (await alice.wait_for("error"))["code"] == "protocol/bad_message"
    cases = [
        ({"type": "act", "match_id": match_id, "action": {"type": "fly"}, "client_id": "x"},
         "action/malformed"),
        ({"type": "act", "match_id": match_id, "action": {"type": "move", "r1": 9, "c1": 9,
          "r2": 9, "c2": 8}, "client_id": "y"}, "rules/off_board"),
        ({"type": "act", "match_id": 424242, "action": {}, "client_id": "z"}, "session/no_such_match"),
        ({"type": "act", "match_id": match_id, "action": {}, "client_id": "v", "version": 7},
         "session/bad_version"),
        ({"type": "join", "match_id": match_id}, "session/match_full"),
        ({"type": "create", "game": "chess"}, "session/unknown_game"),
        ({"type": "create", "game": "dolphinfox", "options": {"size": 5}}, "options/invalid"),
        ({"type": "rematch", "match_id": match_id}, "session/not_finished"),
        ({"type": "leave", "match_id": 424242}, "session/not_watching"),
    ]
    stranger = await connect(client)
    await stranger.hello("stranger")
    for command, code in cases:
        sender = stranger if command["type"] == "join" else alice
        answer = await sender.call(command)
        assert answer["type"] == "error" and answer["code"] == code, (command, answer)
    anonymous = await connect(client)
    assert (await anonymous.call({"type": "quick_join", "game": "dolphinfox"}))["code"] == \
        "session/not_identified"
    assert (await alice.call({"type": "ping"}))["type"] == "pong"
    ack = await play_one(alice, match_id, "ok")
    assert ack["version"] == 1  # nothing before it was applied


async def test_resume_with_the_token_after_a_drop(client: Any) -> None:
    alice, bob, match_id = await a_match(client)
    await play_one(alice, match_id, "a1")
    token = bob.token
    await alice.wait_for("update", version=1)
    alice.inbox.clear()  # only what follows the drop counts below
    await bob.ws.close()
    assert await alice.wait_for("presence", seat=1, present=False)
    back = await connect(client)
    welcome = await back.hello(token=token)
    assert welcome["player"]["nickname"] == "bob" and "token" not in welcome
    # Dolphins & Foxes is played by both sides at once: it is always bob's turn too
    assert welcome["matches"] == [{"match_id": match_id, "game": "dolphinfox", "status": "active",
                                   "version": 1, "seat": 1, "to_act": [0, 1], "your_turn": True}]
    resumed = await back.call({"type": "resume", "match_id": match_id, "since": 0})
    assert resumed["result"] == {"match_id": match_id, "seat": 1, "version": 1}
    caught = await back.wait_for("caught_up")
    assert [a["seq"] for a in caught["actions"]] == [1]
    # what the update said, replayed for bob's seat: the move in words, with its events
    assert caught["actions"][0]["said"][0].startswith("alice (Dolphins) moved a dolphin from row ")
    assert [e["type"] for e in caught["actions"][0]["events"]] == ["unit_moved"]
    state = await back.wait_for("state")
    assert state["you"] == 1 and state["version"] == 1 and state["view"]["team"] == "F"
    assert await alice.wait_for("presence", seat=1, present=True)
    ack = await play_one(back, match_id, "b1")
    assert ack["type"] == "ack" and ack["version"] == 2
    impostor = await connect(client)
    assert (await impostor.call({"type": "hello", "nickname": "bob"}))["code"] == \
        "session/nickname_taken"


async def test_rematch_starts_one_linked_match(client: Any) -> None:
    alice, bob, match_id = await a_match(client)
    await play_to_the_end([alice, bob], match_id)
    first = await alice.call({"type": "rematch", "match_id": match_id})
    assert first["result"] == {"match_id": match_id, "agreed": [0], "new_match_id": None}
    assert (await bob.wait_for("rematch"))["agreed"] == [0]
    second = await bob.call({"type": "rematch", "match_id": match_id})
    new_id = second["result"]["new_match_id"]
    assert new_id is not None and second["result"]["agreed"] == [0, 1]
    state = await bob.wait_for("state", match_id=new_id)
    assert state["status"] == "active" and state["you"] == 1
    assert (await alice.wait_for("rematch", new_match_id=new_id))["agreed"] == [0, 1]
    repeat = await alice.call({"type": "rematch", "match_id": match_id})
    assert repeat["result"]["new_match_id"] == new_id
    assert (await alice.wait_for("state", match_id=new_id))["you"] == 0
    ack = await play_one(alice, new_id, "r1")
    assert ack["type"] == "ack" and ack["match_id"] == new_id
    listing = await (await client.get("/api/matches?game=dolphinfox")).json()
    assert {m["id"] for m in listing} == {match_id, new_id}
    assert next(m for m in listing if m["id"] == new_id)["rematch_of"] == match_id


async def test_a_tcp_match_is_watched_over_websocket(client: Any) -> None:
    port = client.server.app[LISTENERS]["dolphinfox"].port
    dolphin, fox = await LineClient.connect(port), await LineClient.connect(port)
    await dolphin.send("PCJ")
    await dolphin.expect("CPT D")
    await dolphin.expect("CPK")
    await fox.send("PCJ")
    await fox.expect("CPT F")
    matches = await (await client.get("/api/matches?status=active")).json()
    spectator = await connect(client)
    await spectator.call({"type": "watch", "match_id": matches[0]["id"]})
    board = (await spectator.wait_for("state"))["view"]["board"]
    row1 = board[:8]
    column = row1.index("D") + 1
    await dolphin.expect("BDN")
    await dolphin.send(f"DBM 1 {column} 2 {column}")
    line = await dolphin.recv()
    update = await spectator.wait_for("update")
    assert line == "BDN" and update["version"] == 1
    assert update["action"] == {"type": "move", "r1": 1, "c1": column, "r2": 2, "c2": column}


async def test_an_oversize_frame_closes_only_that_connection(client: Any) -> None:
    alice, bob, match_id = await a_match(client)
    rogue = await client.ws_connect("/ws")
    await rogue.send_str('{"type":"ping","id":"' + "x" * 100_000 + '"}')
    closing = await rogue.receive(timeout=10)
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                            aiohttp.WSMsgType.CLOSING)
    assert rogue.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG or closing.data == 1009
    ack = await play_one(alice, match_id, "after")  # everyone else is unharmed
    assert ack["type"] == "ack" and ack["version"] == 1


async def test_leaving_a_lobby_frees_the_seat(client: Any) -> None:
    alice = await connect(client)
    await alice.hello("alice")
    created = await alice.call({"type": "create", "game": "dolphinfox", "options": SMALL})
    match_id = created["result"]["match_id"]
    left = await alice.call({"type": "leave", "match_id": match_id})
    assert left["result"] == {"match_id": match_id, "seat_freed": True}
    bob = await connect(client)
    await bob.hello("bob")
    joined = await bob.call({"type": "join", "match_id": match_id})
    assert joined["result"]["seat"] == 0


async def test_the_canonical_protocol_also_runs_as_json_lines_over_tcp(
        aiohttp_client: Any, database_url: str) -> None:
    app = create_app(Settings.for_tests(database_url, listen={"canonical": 0}))
    server = (await aiohttp_client(app)).server.app
    line = await LineClient.connect(server[LISTENERS]["canonical"].port)
    await line.send('{"type": "hello", "id": 1, "nickname": "tcpbot"}')
    welcome = json.loads(await line.recv())
    assert welcome["type"] == "welcome" and welcome["re"] == 1 and welcome["token"]
    await line.send("not json")
    assert json.loads(await line.recv())["code"] == "protocol/bad_json"
    await line.send('{"type": "ping", "id": 2}')
    assert json.loads(await line.recv()) == {"type": "pong", "re": 2}


async def test_pushed_legal_actions_match_the_legal_command(client: Any) -> None:
    """``hello {push_legal}``: each state and update brings the seat to act its legal actions,
    the same list ``legal`` answers at that version; a seat not to act, and a connection that
    did not ask, get no ``legal`` field."""
    ann, ben = await connect(client), await connect(client)
    assert (await ann.call({"type": "hello", "nickname": "ann", "push_legal": True}))["type"] == "welcome"
    await ben.hello("ben")
    created = await ann.call({"type": "create", "game": "santorini", "options": {"gods": False}})
    match_id = created["result"]["match_id"]
    await ann.wait_for("state", status="waiting")
    await ben.call({"type": "join", "match_id": match_id})
    pushed = await ann.wait_for("state", status="active")
    assert "legal" not in await ben.wait_for("state", status="active")
    players, acted = [ann, ben], 0
    while pushed["status"] == "active" and acted < 12:
        asked = (await ann.call({"type": "legal", "match_id": match_id}))["result"]
        assert asked["version"] == pushed["version"]
        if 0 in pushed["to_act"]:
            assert pushed["legal"] == asked["actions"] and asked["actions"]
        else:
            assert "legal" not in pushed
        mover = players[pushed["to_act"][0]]
        actions = (await mover.call({"type": "legal", "match_id": match_id}))["result"]["actions"]
        ack = await mover.call({"type": "act", "match_id": match_id, "action": actions[0],
                                "client_id": f"p{acted}"})
        assert ack["type"] == "ack", ack
        acted += 1
        pushed = await ann.wait_for("update", version=ack["version"])
        assert "legal" not in await ben.wait_for("update", version=ack["version"])
    assert acted == 12
