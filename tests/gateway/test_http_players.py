"""Profiles, leaderboards and the ratings beside names over HTTP, with matches played
through the app's hub (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from typing import Any

from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.store import PlayerRecord
from tests.gateway.test_http import Client, client, get_json, hub_of, player  # noqa: F401
from tests.sessions.test_hub import first_legal

PROFILE_KEYS = {"id", "nickname", "member_since", "bot", "games", "history"}
ENTRY_KEYS = {"match_id", "game", "ended_at", "status", "outcome", "reason", "seat",
              "opponents", "rated", "rating_change"}


async def both_moved(hub: Hub, runtime: MatchRuntime, a: PlayerRecord, b: PlayerRecord) -> None:
    await runtime.act(a.id, first_legal(runtime, 0))
    await runtime.act(b.id, first_legal(runtime, 1))


async def rated_match(hub: Hub, a: PlayerRecord, b: PlayerRecord) -> int:
    """A public dolphinfox match that ``a`` wins by ``b``'s resignation, taken in."""
    runtime, _ = await hub.quick_join("dolphinfox", a)
    await hub.quick_join("dolphinfox", b)
    await both_moved(hub, runtime, a, b)
    await hub.lifecycle.resign(runtime.id, b.id)
    await hub.ratings.idle()
    return runtime.id


async def error_of(client: Client, path: str, status: int, **params: Any) -> str:
    response = await client.get(path, params=params)
    assert response.status == status, await response.text()
    code: str = (await response.json())["error"]["code"]
    return code


async def test_a_profile_shows_counts_ratings_and_public_history(client: Client) -> None:
    hub = hub_of(client)
    alice, bob = await player(hub, "alice"), await player(hub, "bob")
    match_id = await rated_match(hub, alice, bob)
    body = await get_json(client, f"/api/players/{alice.id}")
    assert set(body) == PROFILE_KEYS and body["nickname"] == "alice" and body["bot"] is None
    [game] = body["games"]
    assert {k: game[k] for k in ("game", "played", "wins", "losses", "draws")} == {
        "game": "dolphinfox", "played": 1, "wins": 1, "losses": 0, "draws": 0}
    assert set(game["rating"]) == {"value", "mu", "sigma", "games", "provisional"}
    assert game["rating"]["games"] == 1 and game["rating"]["provisional"] is True
    history = body["history"]
    assert (history["total"], history["offset"], history["limit"]) == (1, 0, 20)
    [entry] = history["matches"]
    assert set(entry) == ENTRY_KEYS
    assert (entry["match_id"], entry["status"], entry["outcome"], entry["reason"], entry["seat"],
            entry["rated"]) == (match_id, "finished", "win", "resigned", 0, True)
    assert entry["opponents"] == [{"player_id": bob.id, "nickname": "bob", "seat": 1,
                                   "team": 1, "bot": None}]
    assert entry["rating_change"] == game["rating"]["value"] - 1500 > 0
    lost = (await get_json(client, f"/api/players/{bob.id}"))["history"]["matches"][0]
    assert lost["outcome"] == "loss" and lost["rated"] is True


async def test_a_profile_never_shows_private_or_live_matches(client: Client) -> None:
    hub = hub_of(client)
    alice, bob = await player(hub, "alice"), await player(hub, "bob")
    private, _, invite = await hub.create_private("dolphinfox", player=alice)
    await hub.join(private.id, bob, invite=invite)
    await both_moved(hub, private, alice, bob)
    await hub.lifecycle.resign(private.id, bob.id)  # finished, but private
    live_private, _, invite = await hub.create_private("dolphinfox", player=alice)
    await hub.join(live_private.id, bob, invite=invite)
    await both_moved(hub, live_private, alice, bob)
    live, _ = await hub.quick_join("dolphinfox", alice)
    await hub.quick_join("dolphinfox", bob)
    await both_moved(hub, live, alice, bob)
    await hub.ratings.idle()
    response = await client.get(f"/api/players/{alice.id}")
    text = await response.text()
    body = json.loads(text)
    assert body["history"] == {"matches": [], "total": 0, "offset": 0, "limit": 20}
    assert body["games"] == []  # the private match is counted nowhere, nor rated
    for hidden in ("state", "snapshot", "view", "hand", "seed", "actions", "board"):
        assert f'"{hidden}"' not in text
    taken = await hub.ratings.take(private.id)
    assert taken is not None and taken.unrated == "private"


async def test_history_pages_and_aborted_matches(client: Client) -> None:
    hub = hub_of(client)
    alice, bob = await player(hub, "alice"), await player(hub, "bob")
    first = await rated_match(hub, alice, bob)
    second = await rated_match(hub, alice, bob)
    runtime, _ = await hub.quick_join("dolphinfox", alice)
    await hub.quick_join("dolphinfox", bob)
    await hub.lifecycle.abort(runtime.id)
    page = await get_json(client, f"/api/players/{alice.id}", offset="1", limit="1")
    assert page["history"]["total"] == 3 and len(page["history"]["matches"]) == 1
    every = (await get_json(client, f"/api/players/{alice.id}"))["history"]["matches"]
    assert [e["match_id"] for e in every] == [runtime.id, second, first]
    assert (every[0]["status"], every[0]["outcome"], every[0]["rated"],
            every[0]["rating_change"]) == ("aborted", None, False, None)


async def test_leaderboard_and_ratings_beside_names(client: Client) -> None:
    hub = hub_of(client)
    alice, bob = await player(hub, "alice"), await player(hub, "bob")
    await rated_match(hub, alice, bob)
    empty = await get_json(client, "/api/leaderboards/dolphinfox")
    assert empty == {"game": "dolphinfox", "total": 0, "offset": 0, "limit": 50, "players": []}
    board = await get_json(client, "/api/leaderboards/dolphinfox", provisional="1")
    assert board["total"] == 2
    top, second = board["players"]
    assert set(top) == {"rank", "player_id", "nickname", "rating", "mu", "sigma", "games",
                        "wins", "losses", "draws", "provisional"}
    assert (top["rank"], top["player_id"], top["wins"], top["provisional"]) == (
        1, alice.id, 1, True)
    assert (second["rank"], second["player_id"], second["losses"]) == (2, bob.id, 1)
    shown = await get_json(client, "/api/ratings", game="dolphinfox",
                           players=f"{alice.id},{bob.id},9999")
    assert shown == {"game": "dolphinfox", "ratings": {
        str(alice.id): {"value": top["rating"], "provisional": True},
        str(bob.id): {"value": second["rating"], "provisional": True}}}
    none = await get_json(client, "/api/ratings", game="santorini", players=str(alice.id))
    assert none == {"game": "santorini", "ratings": {}}


async def test_bad_requests_and_unknowns(client: Client) -> None:
    assert await error_of(client, "/api/players/4242", 404) == "session/unknown_player"
    assert await error_of(client, "/api/players/abc", 400) == "protocol/bad_request"
    assert await error_of(client, "/api/players/1", 400, limit="0") == "protocol/bad_request"
    assert await error_of(client, "/api/players/1", 400, offset="-1") == "protocol/bad_request"
    assert await error_of(client, "/api/leaderboards/chess", 404) == "session/unknown_game"
    assert await error_of(client, "/api/leaderboards/dolphinfox", 400,
                          limit="101") == "protocol/bad_request"
    assert await error_of(client, "/api/leaderboards/dolphinfox", 400,
                          provisional="maybe") == "protocol/bad_request"
    assert await error_of(client, "/api/ratings", 400, players="1") == "protocol/bad_request"
    assert await error_of(client, "/api/ratings", 404, game="chess") == "session/unknown_game"
    assert await error_of(client, "/api/ratings", 400, game="dolphinfox",
                          players="1,x") == "protocol/bad_request"
