"""Bot seats over the canonical protocol: every game end to end, a person against bots."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import CanonicalClient

from service.app import create_app
from service.gateway.keys import HUB
from service.settings import Settings

FAST_BOTS = {"bot_budget": 0.01, "bot_pace": 0.0}


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url, **FAST_BOTS)))


async def person(client: Any, nickname: str) -> CanonicalClient:
    player = CanonicalClient(await client.ws_connect("/ws"))
    await player.hello(nickname)
    return player


async def play_to_the_end(player: CanonicalClient, match_id: int, rng: random.Random, *,
                          wait_for_others: bool = False) -> dict[str, Any]:
    """Play random legal actions whenever the server lists some; the last update. With
    ``wait_for_others`` (a real-time game), wait after each move until another seat moved,
    so the bots get their share of the moves."""
    for turn in range(2000):
        listed = (await player.call({"type": "legal", "match_id": match_id}))["result"]
        if listed["actions"]:
            answer = await player.call({"type": "act", "match_id": match_id, "client_id": f"p{turn}",
                                        "version": listed["version"],
                                        "action": rng.choice(listed["actions"])})
            if answer["type"] == "ack" and not wait_for_others:
                continue
            # real time: a bot may have moved (or ended the match) since the listing
            assert answer["type"] == "ack" or answer["code"].startswith("rules/") \
                or answer["code"] == "session/match_over", answer
        update = await player.wait_for("update")
        while wait_for_others and update["seat"] == 0 and update["status"] != "finished":
            update = await player.wait_for("update")
        if update["status"] == "finished":
            return update
    raise AssertionError("the match did not end")


GAMES = [
    pytest.param("dolphinfox", {"size": 4, "units": 1, "max_moves": 30}, 2, id="dolphinfox"),
    pytest.param("santorini", {"gods": True, "deck": "full"}, 2, id="santorini-2"),
    pytest.param("santorini", {"gods": True, "deck": "full"}, 3, id="santorini-3"),
    pytest.param("eriantys", {"expert": True}, 2, id="eriantys-2"),
    pytest.param("eriantys", {"expert": True}, 3, id="eriantys-3"),
    pytest.param("eriantys", {"expert": True}, 4, id="eriantys-4"),
]


@pytest.mark.parametrize(("game", "options", "seats"), GAMES)
async def test_a_person_plays_bots_to_the_end(client: Any, game: str, options: dict[str, Any],
                                              seats: int) -> None:
    ada = await person(client, "ada")
    levels = ["mcts", "random", "mcts"][: seats - 1]
    created = await ada.call({"type": "create", "game": game, "options": options, "seats": seats,
                              "bots": levels})
    assert created["type"] == "ok", created
    match_id = created["result"]["match_id"]
    state = await ada.wait_for("state")
    assert state["status"] == "active" and state["you"] == 0
    bots = [s for s in state["seats"] if s["bot"]]
    assert [s["bot"] for s in bots] == levels and all(s["present"] for s in bots)
    last = await play_to_the_end(ada, match_id, random.Random(seats), wait_for_others=game == "dolphinfox")
    runtime = await client.server.app[HUB].get(match_id)
    assert runtime.status == "finished" and runtime.outcome() == last["outcome"]
    acted = {a.seat for a in await client.server.app[HUB].store.actions(match_id)}
    assert acted == set(range(seats))  # every bot seat acted, through the log


async def test_quick_join_fills_the_free_seats_with_bots(client: Any) -> None:
    ada = await person(client, "ada")
    joined = await ada.call({"type": "quick_join", "game": "santorini", "seats": 3, "bots": "random"})
    assert joined["type"] == "ok" and joined["result"]["seat"] == 0
    state = await ada.wait_for("state")
    assert state["status"] == "active"
    assert [s["bot"] for s in state["seats"]] == [None, "random", "random"]
    nicknames = {s["nickname"] for s in state["seats"][1:]}
    assert len(nicknames) == 2  # each bot seat is its own player


async def test_bad_bot_requests_change_nothing(client: Any) -> None:
    ada = await person(client, "ada")
    for command, code in [
        ({"type": "create", "game": "santorini", "bots": ["genius"]}, "session/bad_bot_level"),
        ({"type": "create", "game": "santorini", "bots": ["random", "random"]}, "session/too_many_bots"),
        ({"type": "quick_join", "game": "santorini", "bots": "genius"}, "session/bad_bot_level"),
        ({"type": "create", "game": "santorini", "bots": "random"}, "protocol/bad_message"),
    ]:
        answer = await ada.call(command)
        assert answer["type"] == "error" and answer["code"] == code, answer
    assert await client.server.app[HUB].store.list_matches() == []


async def test_a_bot_nickname_cannot_be_taken_by_a_person(client: Any) -> None:
    ada = await person(client, "ada")
    await ada.call({"type": "create", "game": "santorini", "bots": ["random"]})
    bot = (await ada.wait_for("state"))["seats"][1]["nickname"]
    impostor = CanonicalClient(await client.ws_connect("/ws"))
    answer = await impostor.call({"type": "hello", "nickname": bot})
    assert answer["type"] == "error" and answer["code"] == "session/nickname_taken"
    with pytest.raises(Exception, match="computer player"):
        await client.server.app[HUB].player_by_nickname(bot, create=True)


async def test_http_creates_a_match_of_bots_and_one_with_a_free_seat(client: Any) -> None:
    assert await (await client.get("/api/bots")).json() == ["easy", "hard", "mcts", "medium", "random"]
    ada = await person(client, "ada")
    response = await client.post("/api/matches", json={
        "game": "santorini", "bots": ["random", "random"], "sit": False, "token": ada.token})
    assert response.status == 201
    created = await response.json()
    assert created["status"] == "active" and [s["bot"] for s in created["seats"]] == ["random"] * 2
    assert created["seat"] is None  # ada watches
    waiting = await (await client.post("/api/matches", json={
        "game": "eriantys", "seats": 3, "bots": ["mcts"]},
        headers={"Authorization": f"Bearer {ada.token}"})).json()
    assert waiting["status"] == "waiting" and waiting["seat"] == 0
    bob = await person(client, "bob")
    joined = await bob.call({"type": "join", "match_id": waiting["match_id"]})
    assert joined["result"]["seat"] == 2
    bad = await client.post("/api/matches", json={"game": "santorini", "bots": ["x"], "token": ada.token})
    assert bad.status == 400 and (await bad.json())["error"]["code"] == "session/bad_bot_level"
    bad = await client.post("/api/matches", json={"game": "santorini", "bots": 3, "token": ada.token})
    assert bad.status == 400 and (await bad.json())["error"]["code"] == "protocol/bad_message"


async def test_http_seats_the_caller_named_by_a_token(client: Any) -> None:
    ada = await person(client, "ada")
    response = await client.post("/api/matches", json={"game": "eriantys", "seats": 3,
                                                       "bots": ["random", "mcts"], "token": ada.token})
    created = await response.json()
    assert response.status == 201 and created["seat"] == 0 and created["status"] == "active"
    assert [s["nickname"] == "ada" for s in created["seats"]] == [True, False, False]
    bad = await client.post("/api/matches", json={"game": "eriantys", "bots": [], "token": "nope"})
    assert bad.status == 401 and (await bad.json())["error"]["code"] == "session/bad_token"


async def test_bots_agree_to_a_rematch(client: Any) -> None:
    ada = await person(client, "ada")
    created = await ada.call({"type": "create", "game": "dolphinfox", "bots": ["random"],
                              "options": {"size": 4, "units": 1, "max_moves": 6}})
    match_id = created["result"]["match_id"]
    bot = (await ada.wait_for("state"))["seats"][1]["nickname"]
    await play_to_the_end(ada, match_id, random.Random(1), wait_for_others=True)
    answer = await ada.call({"type": "rematch", "match_id": match_id})
    assert answer["result"]["agreed"] == [0, 1] and answer["result"]["new_match_id"] is not None
    state = await ada.wait_for("state", match_id=answer["result"]["new_match_id"])
    assert state["status"] == "active" and state["seats"][1]["nickname"] == bot
    assert state["seats"][1]["bot"] == "random"
