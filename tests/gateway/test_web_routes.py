"""What the browser client needs from the server: its files at /, the live lobby (canonical
`lobby` command and GET /api/lobby), the replay's positions, and CORS for /api."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient
from clients import CanonicalClient

from service.app import create_app
from service.settings import Settings

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[[web.Application], Awaitable[Client]]
SMALL = {"size": 4, "units": 1, "max_moves": 12}
PAGE = "https://tavolo.example"


@pytest.fixture
async def client(aiohttp_client: MakeClient, database_url: str) -> Client:
    return await aiohttp_client(create_app(Settings.for_tests(database_url, cors_origins=[PAGE])))


async def connect(client: Client, nickname: str) -> CanonicalClient:
    player = CanonicalClient(await client.ws_connect("/ws"))
    await player.hello(nickname)
    return player


async def test_the_page_and_its_modules_are_served(client: Client) -> None:
    page = await client.get("/")
    assert page.status == 200 and "text/html" in page.headers["Content-Type"]
    assert '<script type="module" src="/web/app.js">' in await page.text()
    module = await client.get("/web/app.js")
    assert module.status == 200 and "javascript" in module.headers["Content-Type"]
    assert (await client.get("/web/../settings.py")).status in (403, 404)
    assert (await client.get("/web/nothing.js")).status == 404


async def test_lobby_subscribers_see_matches_open_and_fill(client: Client) -> None:
    watcher, alice, bob = [await connect(client, n) for n in ("watcher", "alice", "bob")]
    first = await watcher.call({"type": "lobby"})
    assert first["result"] == {"matches": [], "total": 0, "offset": 0, "limit": 50, "subscribed": True}
    created = await alice.call({"type": "create", "game": "dolphinfox", "options": SMALL})
    match_id = created["result"]["match_id"]
    pushed = await watcher.wait_for("lobby")
    listed = [(m["match_id"], m["game"], m["free"]) for m in pushed["matches"]]
    assert listed == [(match_id, "dolphinfox", [1])]
    assert pushed["matches"][0]["seats"][0]["nickname"] == "alice"
    assert pushed["matches"][0]["options"] == {**SMALL}
    assert (await client.get("/api/lobby")).status == 200
    page = await (await client.get("/api/lobby")).json()
    assert [m["match_id"] for m in page["matches"]] == [match_id] and page["total"] == 1
    await bob.call({"type": "join", "match_id": match_id})
    while (pushed := await watcher.wait_for("lobby"))["matches"]:
        pass  # pushes may be merged; the last one shows the match gone from the open list
    assert await (await client.get("/api/lobby")).json() == {"matches": [], "total": 0,
                                                              "offset": 0, "limit": 50}
    stopped = await watcher.call({"type": "lobby", "subscribe": False})
    assert stopped["result"]["subscribed"] is False
    watcher.inbox.clear()  # pushes sent before the unsubscribe was answered
    await alice.call({"type": "create", "game": "dolphinfox", "options": SMALL})
    await watcher.call({"type": "ping"})
    assert not [m for m in watcher.inbox if m["type"] == "lobby"]


async def test_lobby_command_rejects_bad_fields(client: Client) -> None:
    player = await connect(client, "carol")
    answer = await player.call({"type": "lobby", "subscribe": 1})
    assert answer["type"] == "error" and answer["code"] == "protocol/bad_message"


async def play(player: CanonicalClient, match_id: int, turns: int) -> None:
    """Play ``turns`` first-legal moves."""
    for turn in range(turns):
        legal = (await player.call({"type": "legal", "match_id": match_id}))["result"]["actions"]
        ack = await player.call({"type": "act", "match_id": match_id, "action": legal[0],
                                 "client_id": f"c{turn}"})
        assert ack["type"] == "ack", ack


async def test_positions_at_each_version_replay_the_match(client: Client) -> None:
    alice, bob = await connect(client, "alice"), await connect(client, "bob")
    created = await alice.call({"type": "create", "game": "dolphinfox", "options": SMALL})
    match_id = created["result"]["match_id"]
    await bob.call({"type": "join", "match_id": match_id})
    start = await (await client.get(f"/api/matches/{match_id}/at/0")).json()
    assert start["version"] == 0 and start["action"] is None and start["last"] == 0
    await play(alice, match_id, 3)
    detail = await (await client.get(f"/api/matches/{match_id}")).json()
    last = await (await client.get(f"/api/matches/{match_id}/at/3")).json()
    assert last["view"] == detail["view"] and last["last"] == 3 and last["to_act"] == [0, 1]
    assert last["action"]["seq"] == 3 and last["action"]["seat"] == 0
    again = await (await client.get(f"/api/matches/{match_id}/at/0")).json()
    assert again["view"] == start["view"] and again["last"] == 3
    assert (await client.get(f"/api/matches/{match_id}/at/4")).status == 404
    assert (await client.get(f"/api/matches/{match_id}/at/-1")).status == 400
    assert (await client.get("/api/matches/999/at/0")).status == 404


async def test_cors_answers_configured_origins_only(client: Client) -> None:
    allowed = await client.get("/api/games", headers={"Origin": PAGE})
    assert allowed.headers["Access-Control-Allow-Origin"] == PAGE
    other = await client.get("/api/games", headers={"Origin": "https://elsewhere.example"})
    assert other.status == 200 and "Access-Control-Allow-Origin" not in other.headers
    preflight = await client.options("/api/matches", headers={
        "Origin": PAGE, "Access-Control-Request-Method": "GET"})
    assert preflight.status == 204 and preflight.headers["Access-Control-Allow-Origin"] == PAGE
    refused = await client.options("/api/matches", headers={
        "Origin": "https://elsewhere.example", "Access-Control-Request-Method": "GET"})
    assert refused.status == 403
    missing = await client.get("/api/matches/999", headers={"Origin": PAGE})
    assert missing.status == 404 and missing.headers["Access-Control-Allow-Origin"] == PAGE
    page = await client.get("/", headers={"Origin": PAGE})
    assert "Access-Control-Allow-Origin" not in page.headers


def test_cors_origins_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVOLO_CORS_ORIGINS", "https://a.example, https://b.example")
    assert Settings().cors_origins == ["https://a.example", "https://b.example"]
    monkeypatch.delenv("TAVOLO_CORS_ORIGINS")
    assert Settings().cors_origins == []


async def test_private_matches_are_never_listed_and_bots_are_shown(client: Client) -> None:
    watcher, alice = await connect(client, "watcher"), await connect(client, "alice")
    await watcher.call({"type": "lobby"})
    created = await alice.call({"type": "create", "game": "dolphinfox", "options": SMALL, "private": True})
    assert created["result"]["invite"]
    # a public match made afterwards: its push shows the lobby without the private one
    three = await alice.call({"type": "create", "game": "eriantys", "seats": 3, "bots": ["random"]})
    public_id = three["result"]["match_id"]
    # a push may read the open matches while the match is being made (on a busy machine a
    # push begun for the private match's creation reads late): the match may show in it
    # before its bot sat. The push after the creation shows it whole; none shows the private one
    while True:
        pushed = await watcher.wait_for("lobby")
        assert [m["match_id"] for m in pushed["matches"]] in ([], [public_id])
        if pushed["matches"] and any(s["bot"] for s in pushed["matches"][0]["seats"]):
            break
    listed = (await (await client.get("/api/lobby")).json())["matches"]
    assert [m["match_id"] for m in listed] == [public_id]
    listed_all = {m["id"]: m["private"] for m in await (await client.get("/api/matches")).json()}
    assert listed_all == {public_id: False}  # a stranger's list leaves the private match out
    mine = await client.get("/api/matches", headers={"Authorization": f"Bearer {alice.token}"})
    assert {m["id"]: m["private"] for m in await mine.json()} == {
        created["result"]["match_id"]: True, public_id: False}  # its player sees both
    seats = pushed["matches"][0]["seats"]
    assert [(s["nickname"] is not None, s["bot"]) for s in seats] == [(True, None), (True, "random"), (False, None)]


async def test_each_games_rules_are_served_as_markdown(client: Any) -> None:
    from service.games.registry import all_games

    for game in all_games():
        page = await client.get(f"/rules/{game.name}")
        assert page.status == 200 and page.content_type == "text/markdown"
        text = await page.text()
        assert text.startswith("# ") and "Clocks" in text  # the page, whole
    assert (await client.get("/rules/chess")).status == 404
    assert (await client.get("/rules/..%2Fprotocol")).status == 404
