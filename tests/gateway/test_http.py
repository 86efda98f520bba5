"""The read-only HTTP API over a real app and a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from service.app import create_app
from service.gateway.keys import HUB
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.settings import Settings
from service.store import PlayerRecord

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[[web.Application], Awaitable[Client]]


@pytest.fixture
async def client(aiohttp_client: MakeClient, database_url: str) -> Client:
    settings = Settings.for_tests(database_url)
    return await aiohttp_client(create_app(settings))


def hub_of(client: Client) -> Hub:
    return client.server.app[HUB]


async def player(hub: Hub, nickname: str) -> PlayerRecord:
    return (await hub.identify(nickname=nickname)).player


async def started(hub: Hub, a: str, b: str, options: dict[str, Any] | None = None,
                  ) -> tuple[MatchRuntime, PlayerRecord, PlayerRecord]:
    first, second = await player(hub, a), await player(hub, b)
    runtime, _ = await hub.quick_join("dolphinfox", first, options)
    same, _ = await hub.quick_join("dolphinfox", second, options)
    assert same is runtime and runtime.status == "active"
    return runtime, first, second


async def play(runtime: MatchRuntime, players: list[PlayerRecord], count: int,
               ) -> list[dict[str, Any]]:
    """``count`` moves, seats taking turns; each unit steps out and back, so nobody wins."""
    game, played = runtime.game, []
    last: list[dict[str, Any] | None] = [None, None]
    for i in range(count):
        seat = i % 2
        previous = last[seat]
        if previous is None:
            action = game.dump_action(game.legal_actions(runtime.state, seat)[0])
        else:
            action = {**previous, "r1": previous["r2"], "c1": previous["c2"],
                      "r2": previous["r1"], "c2": previous["c1"]}
        last[seat] = None if previous is not None else action
        await runtime.act(players[seat].id, action)
        played.append(action)
    return played


async def get_json(client: Client, path: str, **params: Any) -> Any:
    response = await client.get(path, params=params)
    assert response.status == 200, await response.text()
    assert response.content_type == "application/json"
    return await response.json()


# --- health and games ------------------------------------------------------------------


async def test_health_is_ok_and_names_a_real_listening_port(client: Client) -> None:
    body = await get_json(client, "/api/health")
    assert body["status"] == "ok" and body["live_matches"] == 0
    port = body["listeners"]["dolphinfox"]
    assert isinstance(port, int) and port > 0
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.close()
    await writer.wait_closed()


async def test_health_counts_live_matches(client: Client) -> None:
    await started(hub_of(client), "alice", "bob")
    assert (await get_json(client, "/api/health"))["live_matches"] == 1


async def test_games_list_dolphinfox_with_its_options_schema(client: Client) -> None:
    games = await get_json(client, "/api/games")
    names = [g["name"] for g in games]
    assert names == sorted(names) and "dolphinfox" in names
    fox = next(g for g in games if g["name"] == "dolphinfox")
    assert fox["title"] == "Dolphins & Foxes"
    assert (fox["min_seats"], fox["max_seats"], fox["real_time"]) == (2, 2, True)
    props = fox["options"]["properties"]
    assert {k: props[k]["default"] for k in ("size", "units", "max_moves")} == {
        "size": 8, "units": 3, "max_moves": 200}
    assert props["size"]["minimum"] == 4 and props["size"]["maximum"] == 16


# --- match lists -------------------------------------------------------------------------


async def test_no_matches_yet(client: Client) -> None:
    assert await get_json(client, "/api/matches") == []


async def test_matches_list_newest_first_with_their_summary(client: Client) -> None:
    hub = hub_of(client)
    active, alice, bob = await started(hub, "alice", "bob")
    await play(active, [alice, bob], 2)
    waiting, _ = await hub.quick_join("dolphinfox", await player(hub, "carol"))
    rows = await get_json(client, "/api/matches")
    assert [r["id"] for r in rows] == [waiting.id, active.id]
    newest, oldest = rows
    assert newest["status"] == "waiting" and newest["version"] == 0
    assert newest["players"] == ["carol", "F"]  # an empty seat shows its label
    assert oldest == {**oldest, "game": "dolphinfox", "status": "active", "version": 2,
                      "players": ["alice", "bob"], "rematch_of": None, "rematch_id": None}
    assert oldest["created_at"] <= oldest["updated_at"]


async def test_matches_filters_and_paging(client: Client) -> None:
    hub = hub_of(client)
    short, a, b = await started(hub, "alice", "bob", {"max_moves": 1})
    await play(short, [a, b], 1)
    active, _, _ = await started(hub, "carol", "dave")
    waiting, _ = await hub.quick_join("dolphinfox", await player(hub, "erin"))

    async def ids(**params: Any) -> list[int]:
        return [r["id"] for r in await get_json(client, "/api/matches", **params)]

    assert await ids(status="finished") == [short.id]
    assert await ids(status="active") == [active.id]
    assert await ids(status="waiting") == [waiting.id]
    assert await ids(game="dolphinfox") == [waiting.id, active.id, short.id]
    assert await ids(game="dolphinfox", status="active") == [active.id]
    unknown = await client.get("/api/matches", params={"game": "no-such-game"})
    assert unknown.status == 404  # named as such, not an empty list
    assert (await unknown.json())["error"]["code"] == "session/unknown_game"
    assert await ids(limit="2") == [waiting.id, active.id]
    assert await ids(limit="2", offset="2") == [short.id]
    assert await ids(offset="3") == []
    assert await ids(limit="0") == []


# --- one match -----------------------------------------------------------------------------


async def test_match_detail(client: Client) -> None:
    runtime, alice, bob = await started(hub_of(client), "alice", "bob")
    played = await play(runtime, [alice, bob], 3)
    detail = await get_json(client, f"/api/matches/{runtime.id}")
    assert (detail["id"], detail["game"], detail["status"], detail["version"]) == (
        runtime.id, "dolphinfox", "active", 3)
    assert [(s["seat"], s["label"], s["nickname"]) for s in detail["seats"]] == [
        (0, "D", "alice"), (1, "F", "bob")]
    assert detail["players"] == ["alice", "bob"]
    assert detail["to_act"] == [0, 1]
    assert detail["view"] == runtime.game.view(runtime.state, None)
    assert detail["view"]["board"] == runtime.game.board(runtime.state)
    assert "team" not in detail["view"]  # a spectator's view
    assert detail["options"] == {"size": 8, "units": 3, "max_moves": 200}
    assert detail["result"] is None
    assert detail["recent_actions"] == [
        {"seq": i + 1, "seat": i % 2, "action": action} for i, action in enumerate(played)]


async def test_match_detail_shows_only_the_last_twenty_actions(client: Client) -> None:
    runtime, alice, bob = await started(hub_of(client), "alice", "bob")
    await play(runtime, [alice, bob], 23)
    detail = await get_json(client, f"/api/matches/{runtime.id}")
    assert [a["seq"] for a in detail["recent_actions"]] == list(range(4, 24))


async def test_a_finished_match_has_a_result_and_nobody_to_act(client: Client) -> None:
    runtime, alice, bob = await started(hub_of(client), "alice", "bob", {"max_moves": 1})
    await play(runtime, [alice, bob], 1)
    detail = await get_json(client, f"/api/matches/{runtime.id}")
    assert detail["status"] == "finished" and detail["to_act"] == []
    assert detail["result"] is not None and detail["view"]["over"] is True


async def test_actions_with_after_and_limit(client: Client) -> None:
    runtime, alice, bob = await started(hub_of(client), "alice", "bob")
    played = await play(runtime, [alice, bob], 6)
    path = f"/api/matches/{runtime.id}/actions"
    every = await get_json(client, path)
    assert [(a["seq"], a["seat"], a["action"]) for a in every] == [
        (i + 1, i % 2, action) for i, action in enumerate(played)]
    assert all(isinstance(a["at"], str) and a["at"][:2] == "20" for a in every)
    assert [a["seq"] for a in await get_json(client, path, after="2", limit="3")] == [3, 4, 5]
    assert [a["seq"] for a in await get_json(client, path, after="4")] == [5, 6]
    assert await get_json(client, path, after="6") == []
    assert await get_json(client, path, limit="0") == []


async def test_actions_of_a_match_without_any(client: Client) -> None:
    runtime, _ = await hub_of(client).quick_join("dolphinfox", await player(hub_of(client), "al"))
    assert await get_json(client, f"/api/matches/{runtime.id}/actions") == []


# --- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/matches/424242", "/api/matches/424242/actions"])
async def test_an_unknown_match_is_404(client: Client, path: str) -> None:
    response = await client.get(path)
    assert response.status == 404
    assert "no such match" in await response.text()


@pytest.mark.parametrize("path", [
    "/api/matches/abc", "/api/matches/-1", "/api/matches/1.0", "/api/matches/0x1",
    "/api/matches/abc/actions", "/api/matches/%201",
])
async def test_a_match_id_that_is_not_a_number_is_400(client: Client, path: str) -> None:
    response = await client.get(path)
    assert response.status == 400
    assert "number" in await response.text()


@pytest.mark.parametrize(("path", "params"), [
    ("/api/matches", {"limit": "ten"}),
    ("/api/matches", {"limit": "-1"}),
    ("/api/matches", {"limit": "1.5"}),
    ("/api/matches", {"offset": "x"}),
    ("/api/matches", {"limit": ""}),
    ("/api/matches/1/actions", {"after": "-1"}),
    ("/api/matches/1/actions", {"limit": "all"}),
])
async def test_bad_query_params_are_400(client: Client, path: str, params: dict[str, str]) -> None:
    if "/actions" in path:
        await hub_of(client).quick_join("dolphinfox", await player(hub_of(client), "al"))
    response = await client.get(path, params=params)
    assert response.status == 400, await response.text()
    name = next(iter(params))
    assert name in await response.text()


@pytest.mark.parametrize(("path", "params"), [
    ("/api/matches", {"limit": "\u00b2"}),
    ("/api/matches/\u00b2", {}),
])
async def test_unicode_digits_are_400_not_500(client: Client, path: str,
                                              params: dict[str, str]) -> None:
    assert (await client.get(path, params=params)).status == 400


@pytest.mark.parametrize(("path", "params"), [
    ("/api/matches", {"offset": "9" * 20}),
    ("/api/matches/" + "9" * 20, {}),
])
async def test_huge_numbers_are_a_client_error(client: Client, path: str,
                                               params: dict[str, str]) -> None:
    assert (await client.get(path, params=params)).status in (400, 404)


async def test_an_unknown_status_is_400(client: Client) -> None:
    assert (await client.get("/api/matches", params={"status": "bogus"})).status == 400


async def test_limit_is_capped(client: Client) -> None:
    runtime, alice, bob = await started(hub_of(client), "alice", "bob")
    await play(runtime, [alice, bob], 2)
    assert len(await get_json(client, "/api/matches", limit="9999999")) == 1
    path = f"/api/matches/{runtime.id}/actions"
    assert len(await get_json(client, path, limit="9999999")) == 2
