"""Issue 17 over a real app: creating takes an identified player; what one player, one address
and the process may hold open is bounded the same way on HTTP, canonical and a seed dialect;
the lobby is fair and paged; nicknames with stray combining marks are refused everywhere."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient
from clients import CanonicalClient, LineClient
from eriantys_g13_client import G13Client
from santorini_client import SantoriniClient

from service.app import create_app
from service.gateway.keys import HUB, LISTENERS
from service.settings import Settings

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[..., Awaitable[Client]]
ADMIN = "admin-token-of-sixteen-or-more"
SMALL = {"size": 4, "units": 1, "max_moves": 12}
UID = "0b9e4c7e-5f0d-4a3e-9a51-4f1c3b7d2a10"


async def app_with(aiohttp_client: MakeClient, database_url: str, **settings: Any) -> Client:
    return await aiohttp_client(create_app(Settings.for_tests(database_url, **settings)))


@pytest.fixture
async def client(aiohttp_client: MakeClient, database_url: str) -> Client:
    return await app_with(aiohttp_client, database_url, admin_token=ADMIN)


async def signed_in(client: Client, nickname: str) -> CanonicalClient:
    player = CanonicalClient(await client.ws_connect("/ws"))
    await player.hello(nickname)
    return player


async def matches_saved(client: Client) -> int:
    return len(await client.server.app[HUB].store.list_matches())


def refused(answer: dict[str, Any], code: str) -> bool:
    return answer["type"] == "error" and answer["code"] == code


# --- who may create over HTTP -------------------------------------------------------------


async def test_http_creation_takes_a_player_token(client: Client) -> None:
    ada = await signed_in(client, "ada")
    for headers in ({}, {"Authorization": "Basic YWRhOmFkYQ=="}):
        anonymous = await client.post("/api/matches", json={"game": "dolphinfox"}, headers=headers)
        assert anonymous.status == 401 and anonymous.headers["WWW-Authenticate"] == "Bearer"
        assert (await anonymous.json())["error"]["code"] == "session/token_required"
    for token in ("nope", ADMIN, "x" * 500):  # the admin token is not a player's
        bad = await client.post("/api/matches", json={"game": "dolphinfox"},
                                headers={"Authorization": f"Bearer {token}"})
        assert bad.status == 401 and (await bad.json())["error"]["code"] == "session/bad_token"
    two = await client.post("/api/matches", json={"game": "dolphinfox", "token": ada.token},
                            headers={"Authorization": "Bearer someone-else"})
    assert two.status == 400 and (await two.json())["error"]["code"] == "protocol/bad_message"
    assert await matches_saved(client) == 0
    created = await client.post("/api/matches", json={"game": "dolphinfox", "options": SMALL},
                                headers={"Authorization": f"Bearer {ada.token}"})
    assert created.status == 201 and (await created.json())["seat"] == 0
    watch_only = await client.post("/api/matches", json={
        "game": "dolphinfox", "bots": ["random"], "sit": False, "token": ada.token})
    assert watch_only.status == 400  # not sitting: a bot for every seat
    assert (await watch_only.json())["error"]["code"] == "session/too_few_bots"
    assert await matches_saved(client) == 1


async def test_an_operator_creates_through_the_admin_api(client: Client) -> None:
    auth = {"Authorization": f"Bearer {ADMIN}"}
    free = await client.post("/api/admin/matches", json={"game": "eriantys", "seats": 3,
                                                         "bots": ["random"]}, headers=auth)
    body = await free.json()
    assert free.status == 201 and body["status"] == "waiting" and body["seat"] is None
    bad = await client.post("/api/admin/matches", json={"game": "eriantys", "token": "x"},
                            headers=auth)
    assert bad.status == 400 and (await bad.json())["error"]["code"] == "protocol/bad_request"
    assert (await client.post("/api/admin/matches", json={"game": "dolphinfox"})).status == 401


# --- open waiting matches per player and per address --------------------------------------


async def test_a_player_holds_a_few_waiting_matches_on_every_path(aiohttp_client: MakeClient,
                                                                 database_url: str) -> None:
    client = await app_with(aiohttp_client, database_url, max_waiting_per_player=2,
                            max_waiting_per_address=100)
    ada = await signed_in(client, "ada")
    first = await ada.call({"type": "create", "game": "dolphinfox", "options": SMALL})
    await ada.call({"type": "create", "game": "dolphinfox", "private": True})
    saved = await matches_saved(client)
    for command in ({"type": "create", "game": "santorini"},
                    {"type": "create", "game": "santorini", "private": True},
                    {"type": "quick_join", "game": "eriantys", "seats": 3}):
        answer = await ada.call(command)
        assert refused(answer, "session/too_many_waiting"), answer
        assert "at most 2" in answer["message"]
    over_http = await client.post("/api/matches", json={"game": "santorini", "token": ada.token})
    assert over_http.status == 429
    assert (await over_http.json())["error"]["code"] == "session/too_many_waiting"
    assert await matches_saved(client) == saved  # refused before anything was saved
    # a match that starts at once (bots take the other seats) waits for nobody
    with_bots = await ada.call({"type": "create", "game": "dolphinfox", "bots": ["random"]})
    assert with_bots["type"] == "ok", with_bots
    # leaving a waiting match gives its room back
    assert (await ada.call({"type": "leave", "match_id": first["result"]["match_id"]}))["type"] == "ok"
    assert (await ada.call({"type": "create", "game": "santorini"}))["type"] == "ok"


async def test_an_address_holds_a_few_waiting_matches_whoever_asks(aiohttp_client: MakeClient,
                                                                  database_url: str) -> None:
    client = await app_with(aiohttp_client, database_url, max_waiting_per_player=2,
                            max_waiting_per_address=3)
    ada, bob, cid = [await signed_in(client, n) for n in ("ada", "bob", "cid")]
    made = [await ada.call({"type": "create", "game": "dolphinfox", "options": SMALL}),
            await ada.call({"type": "create", "game": "santorini"}),
            await bob.call({"type": "quick_join", "game": "dolphinfox"})]
    assert [m["type"] for m in made] == ["ok"] * 3
    answer = await cid.call({"type": "create", "game": "santorini"})
    assert refused(answer, "session/too_many_waiting") and "address" in answer["message"]
    over_http = await client.post("/api/matches", json={"game": "santorini", "token": cid.token})
    assert over_http.status == 429
    # a seed dialect from the same address: refused in its own words, with the same code
    g13 = await G13Client.connect(client.server.app[LISTENERS]["eriantys-g13"].port, "dee")
    assert (await g13.login())["status"] == "VALID"
    await g13.call("AskIfGameCreatedMsg")
    answer = await g13.call("NewGameMsg", numPlayers=2, modExpert=False)
    assert answer["type"] == "ErrorMsg" and answer["code"] == "session/too_many_waiting", answer
    await g13.close()
    # one of them fills and starts: the address may open another
    assert (await cid.call({"type": "join", "match_id": made[1]["result"]["match_id"]}))["type"] == "ok"
    assert (await cid.call({"type": "create", "game": "santorini"}))["type"] == "ok"


# --- matches of bots only -------------------------------------------------------------------


async def test_matches_of_bots_are_bounded_per_player_and_per_process(
        aiohttp_client: MakeClient, database_url: str) -> None:
    client = await app_with(aiohttp_client, database_url, admin_token=ADMIN,
                            max_bot_matches_per_player=2, max_bot_matches=3)
    client.server.app[HUB].on_load.clear()  # no bot plays here: the matches stay running
    ada, bob = await signed_in(client, "ada"), await signed_in(client, "bob")

    async def bots_only(player: CanonicalClient) -> Any:
        return await client.post("/api/matches", json={
            "game": "santorini", "bots": ["random", "random"], "sit": False, "token": player.token})

    assert [(await bots_only(ada)).status for _ in range(2)] == [201, 201]
    third = await bots_only(ada)
    assert third.status == 429
    assert (await third.json())["error"]["code"] == "session/too_many_bot_matches"
    assert (await bots_only(bob)).status == 201
    busy = await bots_only(bob)  # three run on this process
    assert busy.status == 503 and (await busy.json())["error"]["code"] == "session/bots_busy"
    operator = await client.post("/api/admin/matches", headers={"Authorization": f"Bearer {ADMIN}"},
                                 json={"game": "santorini", "bots": ["random", "random"]})
    assert operator.status == 503
    # a person playing against bots is not a match of bots only
    assert (await ada.call({"type": "create", "game": "santorini", "bots": ["random"]}))["type"] == "ok"
    running = [m for m in await client.server.app[HUB].store.list_matches(status="active")]
    await client.server.app[HUB].lifecycle.abort(running[-1].id, by="admin")  # ada's first
    assert (await bots_only(bob)).status == 201


# --- the lobby ------------------------------------------------------------------------------


async def test_one_creator_cannot_push_another_off_the_first_page(aiohttp_client: MakeClient,
                                                                 database_url: str) -> None:
    client = await app_with(aiohttp_client, database_url, max_waiting_per_player=100,
                            max_waiting_per_address=100, creation_burst_per_connection=100,
                            creation_burst_per_address=100)
    alice, mallory = await signed_in(client, "alice"), await signed_in(client, "mallory")
    watcher = await signed_in(client, "watcher")
    mine = (await alice.call({"type": "create", "game": "dolphinfox", "options": SMALL}))["result"]["match_id"]
    flood = [(await mallory.call({"type": "create", "game": "dolphinfox"}))["result"]["match_id"]
             for _ in range(30)]
    page = await (await client.get("/api/lobby?limit=5")).json()
    assert page["total"] == 31 and page["offset"] == 0 and page["limit"] == 5
    assert [m["match_id"] for m in page["matches"]] == [flood[-1], mine, *flood[-2:-5:-1]]
    seen: list[int] = []
    for offset in range(0, 31, 7):
        seen += [m["match_id"] for m in
                 (await (await client.get(f"/api/lobby?offset={offset}&limit=7")).json())["matches"]]
    assert sorted(seen) == sorted([mine, *flood])  # every open match on exactly one page
    answer = await watcher.call({"type": "lobby"})  # the canonical lobby: the first page, fairly
    assert mine in [m["match_id"] for m in answer["result"]["matches"]]
    assert answer["result"]["total"] == 31
    paged: list[int] = []
    for offset in range(0, 31, 10):
        got = await watcher.call({"type": "lobby", "offset": offset, "limit": 10})
        paged += [m["match_id"] for m in got["result"]["matches"]]
    assert paged == seen  # the same fair order as over HTTP
    refused = await watcher.call({"type": "lobby", "limit": 0})
    assert refused["type"] == "error" and refused["code"] == "protocol/bad_message"
    for bad in ("limit=-1", "offset=x", "limit=1e3"):
        assert (await client.get(f"/api/lobby?{bad}")).status == 400


# --- nicknames ------------------------------------------------------------------------------


async def santorini_valid(client: Client, name: str) -> bool:
    santorini = await SantoriniClient.connect(client.server.app[LISTENERS]["santorini"].port)
    await santorini.send("addPlayer", {"playerNickname": name, "lobbySize": 2})
    valid = (await santorini.expect("addPlayerResponse"))["validNick"]
    await santorini.close()
    return bool(valid)


async def g13_status(client: Client, name: str) -> str:
    g13 = await LineClient.connect(client.server.app[LISTENERS]["eriantys-g13"].port)
    await g13.send(json.dumps({"type": "LoginMsg", "identifier": UID, "name": name}))
    answer = json.loads(await g13.recv())
    await g13.close()
    return str(answer["status"])


@pytest.mark.parametrize("stray", ["alice7\u0301", "alicex\u0301", "alice\u20dd", "\u0301alice",
                                   "alice \u0301", "aliq\u0301ce"])
async def test_a_stray_combining_mark_is_refused_on_every_dialect(client: Client, stray: str) -> None:
    alice = await signed_in(client, "alice7")
    assert alice.token
    web = CanonicalClient(await client.ws_connect("/ws"))
    assert refused(await web.call({"type": "hello", "nickname": stray}), "session/bad_nickname")
    assert await santorini_valid(client, stray) is False
    assert await g13_status(client, stray) == "INVALID"
    players = await client.server.app[HUB].store.list_players(limit=10)
    assert [p.nickname for p in players] == ["alice7"]


async def test_marks_that_compose_or_belong_to_the_script_are_kept(client: Client) -> None:
    for name, kept in [("zoe\u0308", "zoë"), ("ra\u0301n", "rán"), ("राम", "राम")]:
        web = CanonicalClient(await client.ws_connect("/ws"))
        welcome = await web.call({"type": "hello", "nickname": name})
        assert welcome["type"] == "welcome" and welcome["player"]["nickname"] == kept
    assert await santorini_valid(client, "jose\u0301") is True
