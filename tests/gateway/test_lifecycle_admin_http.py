"""Over the real gateway: canonical resign and claim, and the admin API (token required,
JSON errors, an abort tells the match's clients)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from service.app import create_app
from service.games.santorini import GAME as SANTORINI
from service.gateway.keys import HUB
from service.settings import Settings
from tests.gateway.test_canonical_ws import a_match, connect
from tests.sessions.test_lifecycle import FakeClock

TOKEN = "an-admin-token-long-enough"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    settings = Settings.for_tests(database_url, admin_token=TOKEN)
    yield await aiohttp_client(create_app(settings))


async def test_resign_over_the_canonical_protocol(client: Any) -> None:
    alice, bob, match_id = await a_match(client)
    answer = await bob.call({"type": "resign", "match_id": match_id})
    outcome = {"winners": [0], "draw": False, "reason": "resigned", "detail": {"seat": 1}}
    assert answer["type"] == "ok" and answer["result"] == {"match_id": match_id, "outcome": outcome}
    ended = await alice.wait_for("ended")
    assert ended == {"type": "ended", "match_id": match_id, "status": "finished", "outcome": outcome}
    state = await alice.wait_for("state")
    assert state["status"] == "finished" and state["outcome"] == outcome
    again = await alice.call({"type": "resign", "match_id": match_id})
    assert again["type"] == "error" and again["code"] == "session/match_over"


async def test_claim_too_early_is_refused(client: Any) -> None:
    alice, _, match_id = await a_match(client)
    answer = await alice.call({"type": "claim", "match_id": match_id})
    assert answer["type"] == "error" and answer["code"] == "session/not_abandoned"


async def test_admin_abort_tells_the_clients(client: Any) -> None:
    alice, bob, match_id = await a_match(client)
    response = await client.post(f"/api/admin/matches/{match_id}/abort", headers=AUTH)
    assert response.status == 200 and (await response.json())["status"] == "aborted"
    for player in (alice, bob):
        ended = await player.wait_for("ended")
        assert ended["status"] == "aborted" and ended["outcome"]["detail"] == {"by": "admin"}
    refused = await client.post(f"/api/admin/matches/{match_id}/abort", headers=AUTH)
    assert refused.status == 409 and (await refused.json())["error"]["code"] == "session/match_over"
    acting = await alice.call({"type": "act", "match_id": match_id, "action": {},
                               "client_id": "late"})
    assert acting["type"] == "error"


async def test_admin_delete_and_players(client: Any) -> None:
    _, _, match_id = await a_match(client)
    players = await (await client.get("/api/admin/players", headers=AUTH)).json()
    assert [p["nickname"] for p in players] == ["bob", "alice"]
    alice = await (await client.get(f"/api/admin/players/{players[1]['id']}", headers=AUTH)).json()
    assert alice["matches"][0]["id"] == match_id and alice["matches"][0]["seat"] == 0
    missing = await client.get("/api/admin/players/99999", headers=AUTH)
    assert missing.status == 404 and (await missing.json())["error"]["code"] == "session/unknown_player"
    bad = await client.get("/api/admin/players?limit=lots", headers=AUTH)
    assert bad.status == 400 and (await bad.json())["error"]["code"] == "protocol/bad_request"
    deleted = await client.delete(f"/api/admin/matches/{match_id}", headers=AUTH)
    assert deleted.status == 200 and (await deleted.json()) == {"id": match_id, "deleted": True}
    assert (await client.get(f"/api/matches/{match_id}")).status == 404
    assert client.app[HUB].loaded(match_id) is None
    gone = await client.delete(f"/api/admin/matches/{match_id}", headers=AUTH)
    assert gone.status == 404


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong-token-of-some-length"},
                                     {"Authorization": f"Basic {TOKEN}"}])
async def test_admin_needs_the_token(client: Any, headers: dict[str, str]) -> None:
    response = await client.get("/api/admin/players", headers=headers)
    assert response.status == 401 and response.headers["WWW-Authenticate"] == "Bearer"
    assert (await response.json())["error"]["code"] == "admin/unauthorized"
    response = await client.post("/api/admin/matches/1/abort", headers=headers)
    assert response.status == 401


async def test_admin_is_off_without_a_token(aiohttp_client: Any, database_url: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVOLO_ADMIN_TOKEN", raising=False)
    off = await aiohttp_client(create_app(Settings.for_tests(database_url)))
    response = await off.get("/api/admin/players", headers=AUTH)
    assert response.status == 403 and (await response.json())["error"]["code"] == "admin/disabled"


def test_the_admin_token_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVOLO_ADMIN_TOKEN", TOKEN)
    assert Settings().admin_token == TOKEN
    monkeypatch.delenv("TAVOLO_ADMIN_TOKEN")
    assert Settings().admin_token is None
    with pytest.raises(ValueError):
        Settings(admin_token="short")  # a guessable token is refused


async def test_a_claim_with_three_players_brings_a_stand_in_until_the_player_is_back(
        client: Any) -> None:
    hub = client.server.app[HUB]
    clock = FakeClock()
    hub.lifecycle.clock = clock
    ann, ben, cy = await connect(client), await connect(client), await connect(client)
    for player, nickname in ((ann, "ann"), (ben, "ben"), (cy, "cy")):
        await player.hello(nickname)
    created = await ann.call({"type": "create", "game": "santorini", "seats": 3})
    match_id = created["result"]["match_id"]
    for player in (ben, cy):
        assert (await player.call({"type": "join", "match_id": match_id}))["type"] == "ok"
    await cy.ws.close()
    await ann.wait_for("presence", seat=2, present=False)
    await hub.lifecycle.sweep()
    clock.advance(SANTORINI.abandon_grace)
    answer = await ann.call({"type": "claim", "match_id": match_id})
    assert answer["result"] == {"match_id": match_id, "outcome": None, "stand_ins": {"2": "random"}}
    notice = await ben.wait_for("stand_in")
    assert notice == {"type": "stand_in", "match_id": match_id, "seat": 2, "level": "random",
                      "nickname": "cy"}
    await stand_in_state(ben, "random")
    back = await connect(client)
    await back.hello(token=cy.token)
    assert (await back.call({"type": "resume", "match_id": match_id}))["type"] == "ok"
    back_notice = await ben.wait_for("stand_in", seat=2, nickname="cy")
    assert back_notice["level"] is None and "level" in back_notice
    await stand_in_state(ben, None)


async def stand_in_state(player: Any, level: str | None) -> None:
    """States come in order: the first one after the notice shows seat 2's stand-in."""
    while (await player.wait_for("state"))["seats"][2]["stand_in"] != level:
        pass


async def test_the_stand_in_level_is_a_setting(aiohttp_client: Any, database_url: str) -> None:
    settings = Settings.for_tests(database_url, stand_in_level="mcts")
    client = await aiohttp_client(create_app(settings))
    assert client.server.app[HUB].lifecycle.stand_in_level == "mcts"
    with pytest.raises(ValueError):
        Settings.for_tests(database_url, stand_in_level="grandmaster")
