"""Santorini (seed 001) over real TCP: whole 2- and 3-player games with gods, the exact original
exchange, heartbeats, cheats, several lobbies, disconnection and resume, and a WebSocket watcher."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import CanonicalClient
from santorini_client import SantoriniClient, Table, find_seed

from service.app import create_app
from service.gateway.keys import HUB, LISTENERS
from service.sessions.dialects.santorini import SantoriniConversation
from service.settings import Settings


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


def port_of(client: Any) -> int:
    return client.server.app[LISTENERS]["santorini"].port


async def lobby(port: int, nicks: list[str]) -> list[SantoriniClient]:
    clients = []
    for nick in nicks:
        c = await SantoriniClient.connect(port)
        answer = await c.join(nick, len(nicks))
        assert answer == {"playerNickname": nick, "lobbySize": len(nicks), "lobbyState": True,
                          "validNick": True, "fullLobby": False}
        clients.append(c)
    return clients


async def results(clients: list[SantoriniClient]) -> list[str]:
    out = []
    for c in clients:
        while True:
            message = await c.next()
            if message["action"] in ("youWin", "youLose"):
                assert "data" not in message
                out.append(message["action"])
                break
    return out


async def test_two_players_play_a_full_game_with_gods(client: Any) -> None:
    clients = await lobby(port_of(client), ["ann", "bob"])
    table = Table(clients, seed=find_seed(2, False))
    await table.play()
    winner = table.mirror.winner
    assert await results(clients) == ["youWin" if s == winner else "youLose" for s in range(2)]
    # as the original: the player whose step ended the game hears the end before the answer
    answers = ("playStepResponse", "skipStepResponse")
    actors = [c for c in clients if c.log[-1] in answers]
    assert len(actors) == 1 and actors[0].log[-2] in ("youWin", "youLose"), [c.log[-4:] for c in clients]
    listing = await (await client.get("/api/matches?status=finished")).json()
    assert len(listing) == 1 and listing[0]["game"] == "santorini"


async def test_three_players_one_is_beaten_and_the_others_finish(client: Any) -> None:
    clients = await lobby(port_of(client), ["ann", "bob", "cid"])
    table = Table(clients, seed=find_seed(3, True))
    await table.setup()
    beaten: int | None = None
    while table.mirror.phase != "over":
        await table.turn()
        if table.mirror.out_order and beaten is None:
            beaten = table.mirror.out_order[0]
            # told at once, while the other two go on
            assert await clients[beaten].wait_for("youLose") == {}
            assert table.mirror.phase != "over"
    assert beaten is not None
    winner = table.mirror.winner
    others = [s for s in range(3) if s != beaten]
    assert await results([clients[s] for s in others]) == [
        "youWin" if s == winner else "youLose" for s in others]
    assert not clients[beaten].seen("youWin")


async def test_the_exact_original_exchange(client: Any) -> None:
    port = port_of(client)
    bill = await SantoriniClient.connect(port)
    bill.nick = "bill"
    await bill.send_raw(b'{"action":"addPlayer","data":{"playerNickname":"bill","lobbySize":2}}\n')
    assert await bill.next() == {"action": "addPlayerResponse", "data": {
        "playerNickname": "bill", "lobbySize": 2, "lobbyState": True, "validNick": True,
        "fullLobby": False}}
    assert bill.pings >= 1
    ted = await SantoriniClient.connect(port)
    await ted.join("ted", 2)
    for c in (bill, ted):
        assert await c.next() == {"action": "setPickedCards", "data": {"playerNickname": "bill"}}
    await bill.send_raw(b'{"action":"getDeck"}\n')
    deck = await bill.expect("getDeckResponse")
    cards = deck["deck"]["listOfCards"]
    assert [c["cardName"] for c in cards][:3] == ["APOLLO", "ARTEMIS", "ATHENA"]
    assert len(cards) == 14 and set(cards[0]) == {
        "cardName", "cardType", "chooseBasic", "numberOfPlayersAllowed", "cardEffect"}
    assert cards[0]["cardType"] == "MOVEMENT" and cards[0]["numberOfPlayersAllowed"] == 3
    await bill.send("setPickedCards", {"cards": ["ATHENA", "APOLLO"]})
    assert await ted.expect("setPlayerCard") == {"cards": ["ATHENA", "APOLLO"]}
    await ted.send("setPlayerCard", {"playerNickname": "ted", "card": "APOLLO"})
    assert await bill.expect("setPlayerCard") == {"cards": ["ATHENA"]}
    await bill.send("setPlayerCard", {"playerNickname": "bill", "card": "ATHENA"})
    assert await bill.expect("setWorkersPosition") == {"workersID": [0, 1]}
    await bill.send("getPlayers")
    players = (await bill.expect("getPlayersResponse"))["players"]
    # in card-choice order: the god player took the last card
    assert [(p["playerNickname"], p["card"]) for p in players] == [("ted", "APOLLO"), ("bill", "ATHENA")]
    assert {p["color"] for p in players} <= {"BLUE", "BROWN", "GREY"} and len({p["color"] for p in players}) == 2
    await bill.send("getBattlefield")
    field = (await bill.expect("getBattlefieldResponse"))["cellMatrix"]
    assert field[0][0] == {"height": 0, "lastBlock": "GROUND"}  # Gson leaves nulls out
    await bill.send("setWorkersPosition", {"playerNickname": "bill", "workersPosition": [
        {"workerID": 0, "x": 4, "y": 4}, {"workerID": 1, "x": 4, "y": 3}]})
    cell = (await bill.expect("battlefieldUpdate"))["cellMatrix"][4][4]
    assert cell["player"] == "bill" and cell["workerColor"] == players[1]["color"]
    assert (await ted.expect("battlefieldUpdate"))["cellMatrix"][4][4]["player"] == "bill"
    assert await ted.expect("setWorkersPosition") == {"workersID": [2, 3]}
    await ted.send("setWorkersPosition", {"playerNickname": "ted", "workersPosition": [
        {"workerID": 2, "x": 0, "y": 0}, {"workerID": 3, "x": 0, "y": 1}]})
    for c in (ted, bill):
        await c.expect("battlefieldUpdate")
    assert await bill.expect("actualPlayer") == {"playerNickname": "bill"}  # to bill only
    await bill.send("setStartTurn", {"playerNickname": "bill", "basicTurn": True})
    assert await bill.expect("setStartTurnResponse") == {
        "playerNickname": "bill", "basicTurn": False, "currentStep": "MOVE"}  # Athena has no basic turn
    await bill.send("selectWorker", {"playerNickname": "bill", "x": 4, "y": 4})
    view = (await bill.expect("workerViewUpdate"))["workerView"]
    assert view[3][4] and view[3][3] and not view[4][3] and not view[0][0]
    await bill.send("playStep", {"x": 3, "y": 4})
    await bill.expect("battlefieldUpdate")
    assert (await bill.expect("workerViewUpdate"))["workerView"][4][4]  # the view comes first
    assert await bill.expect("playStepResponse") == {"x": 3, "y": 4, "nextStep": "BUILD"}
    await bill.send("playStep", {"x": 4, "y": 4})
    field = (await bill.expect("battlefieldUpdate"))["cellMatrix"]
    assert field[4][4] == {"height": 1, "lastBlock": "LEVEL_1"}
    assert await bill.expect("playStepResponse") == {"x": 3, "y": 4, "nextStep": "END"}
    await ted.expect("battlefieldUpdate")
    await ted.expect("battlefieldUpdate")
    assert await ted.expect("actualPlayer") == {"playerNickname": "ted"}


async def test_heartbeat_pings_and_drops_a_silent_client(client: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SantoriniConversation, "ping_interval", 0.05)
    monkeypatch.setattr(SantoriniConversation, "pong_timeout", 2.0)  # slack for a loaded CI
    port = port_of(client)
    lively = await SantoriniClient.connect(port)
    silent = await SantoriniClient.connect(port, auto_pong=False)
    assert await silent.closed(timeout=15)
    assert silent.pings == 1  # no second ping without a pong
    assert lively.task.done() is False and lively.pings >= 2
    answer = await lively.join("lively", 2)
    assert answer["validNick"] is True


async def test_bad_lines_get_server_errors_and_the_connection_goes_on(client: Any) -> None:
    c = await SantoriniClient.connect(port_of(client))
    for raw, words in [(b"{nope\n", "JSON"), (b'{"action":"fly"}\n', "unknown action"),
                       (b'{"action":"addPlayer","data":{"playerNickname":"x"}}\n', "lobbySize"),
                       (b'{"action":"playStep","data":{"x":"1","y":2}}\n', "x"),
                       (b'[1,2]\n', "object"), (b'{"action":"getDeck"}\n', "addPlayer first")]:
        await c.send_raw(raw)
        error = (await c.expect("serverError"))["error"]
        assert words in error, error
    assert (await c.join("still", 2))["validNick"] is True


async def test_nicknames_are_unique_and_lobby_sizes_checked(client: Any) -> None:
    port = port_of(client)
    first = await SantoriniClient.connect(port)
    await first.join("Zed", 3)
    again = await SantoriniClient.connect(port)
    assert (await again.join("zed", 3))["validNick"] is False
    four = await SantoriniClient.connect(port)
    assert await four.join("quad", 4) == {"playerNickname": "quad", "lobbySize": 4,
                                          "lobbyState": False, "validNick": False, "fullLobby": False}
    assert (await four.join("", 2))["validNick"] is False
    assert (await four.join("quad", 2))["validNick"] is True


async def test_cheats_get_server_errors_and_change_nothing(client: Any) -> None:
    clients = await lobby(port_of(client), ["ann", "bob"])
    ann, bob = clients
    hub = client.server.app[HUB]
    table = Table(clients, seed=1)
    await bob.wait_for("setPickedCards")
    await bob.send("setPickedCards", {"cards": ["ATLAS", "PAN"]})  # bob is not the god player
    assert "god player" in (await bob.wait_for("serverError"))["error"]
    bob.inbox.insert(0, {"action": "setPickedCards", "data": {"playerNickname": "ann"}})
    await table.setup()
    runtime = hub.live()[0]
    version = runtime.version
    ann.inbox.clear()
    bob.inbox.clear()
    await bob.send("setStartTurn", {"playerNickname": "bob", "basicTurn": False})
    assert "turn" in (await bob.wait_for("serverError"))["error"]
    w = table.mirror.workers[2]
    await bob.send("selectWorker", {"playerNickname": "bob", "x": w // 5, "y": w % 5})
    await bob.wait_for("serverError")
    await ann.send("selectWorker", {"playerNickname": "bob", "x": 0, "y": 0})  # another's name
    assert "bob" in (await ann.wait_for("serverError"))["error"]
    await ann.send("playStep", {"x": 0, "y": 0})  # no worker selected yet
    await ann.wait_for("serverError")
    mine = table.mirror.workers[0]
    await ann.send("selectWorker", {"playerNickname": "ann", "x": mine // 5, "y": mine % 5})
    view = (await ann.wait_for("workerViewUpdate"))["workerView"]
    far = next((x, y) for x in range(5) for y in range(5) if not view[x][y]
               and abs(x - mine // 5) > 1)
    await ann.send("playStep", {"x": far[0], "y": far[1]})  # an illegal cell
    await ann.wait_for("serverError")
    # the same worker again: answered with its view, as the original did, and not logged
    await ann.send("selectWorker", {"playerNickname": "ann", "x": mine // 5, "y": mine % 5})
    assert (await ann.wait_for("workerViewUpdate"))["workerView"] == view
    assert not ann.seen("serverError")
    assert runtime.version == version + 1  # only the selection went through
    assert not ann.seen("battlefieldUpdate") and not bob.seen("battlefieldUpdate")


async def test_two_lobbies_play_at_once(client: Any) -> None:
    port = port_of(client)
    duo = await lobby(port, ["a1", "a2"])
    trio_first = await SantoriniClient.connect(port)
    await trio_first.join("b1", 3)
    duo2 = await lobby(port, ["c1", "c2"])
    rest = [await SantoriniClient.connect(port) for _ in range(2)]
    for c, nick in zip(rest, ["b2", "b3"]):
        await c.join(nick, 3)
    trio = [trio_first, *rest]
    tables = [Table(duo, 5), Table(trio, find_seed(3, False, 7)), Table(duo2, 6)]
    await asyncio.gather(*(t.play() for t in tables))
    for t in tables:
        assert sorted(await results(t.clients)).count("youWin") == 1
    matches = await (await client.get("/api/matches?status=finished")).json()
    assert sorted(len(m["players"]) for m in matches) == [2, 2, 3]


async def test_a_dropped_player_comes_back_with_the_same_nickname(client: Any) -> None:
    port = port_of(client)
    clients = await lobby(port, ["ann", "bob", "cid"])
    table = Table(clients, seed=find_seed(3, False, 3))
    await table.setup()
    for _ in range(4):
        await table.turn()
    seat = table.mirror.current
    gone = clients[seat]
    await gone.close()
    others = [c for i, c in enumerate(clients) if i != seat]
    for c in others:
        assert await c.wait_for("playerDisconnected") == {"playerNickname": gone.nick}
    back = await SantoriniClient.connect(port)
    answer = await back.join(gone.nick, 3)
    assert answer["validNick"] is True and answer["lobbySize"] == 3
    assert await back.expect("setPickedCards") == {"playerNickname": "ann"}
    field = (await back.expect("battlefieldUpdate"))["cellMatrix"]
    for w, c in enumerate(table.mirror.workers):
        assert c is not None and field[c // 5][c % 5]["player"] == clients[w // 2].nick
    # the card flow and the placement as already played, then whose turn it is
    assert await back.expect("setPlayerCard") == {"cards": [table.mirror.gods[seat]]}
    assert await back.expect("setWorkersPosition") == {"workersID": [2 * seat, 2 * seat + 1]}
    assert await back.expect("actualPlayer") == {"playerNickname": gone.nick}
    for c in others:
        assert await c.wait_for("playerReconnected") == {"playerNickname": gone.nick}
    clients[seat] = back
    await table.finish()  # the game goes on from where it stopped
    assert sorted(await results(clients)).count("youWin") == 1


async def test_a_santorini_match_is_watched_over_websocket(client: Any) -> None:
    clients = await lobby(port_of(client), ["ann", "bob"])
    table = Table(clients, seed=2)
    await table.setup()
    matches = await (await client.get("/api/matches?status=active")).json()
    spectator = CanonicalClient(await client.ws_connect("/ws"))
    watched = await spectator.call({"type": "watch", "match_id": matches[0]["id"]})
    assert watched["type"] == "ok"
    state = await spectator.wait_for("state")
    assert state["view"]["gods"] == list(table.mirror.gods)
    await table.turn()
    update = await spectator.wait_for("update")
    assert update["action"]["type"] == "select_worker"
    assert json.dumps(update)  # a plain JSON document
