"""Eriantys group 27 (seed 004) over real TCP: writeUTF frames, scripted players, whole games."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from collections.abc import AsyncIterator
from typing import Any

import pytest
from eriantys_g27_client import Bot, G27Client, join_game, request_name, right_of

from service.app import create_app
from service.gateway.keys import HUB, LISTENERS
from service.protocol import eriantys_g27 as wire
from service.protocol import eriantys_g27_values as values
from service.protocol.eriantys_g27 import Message, Typed
from service.sessions.dialects.eriantys_g27 import EriantysG27Conversation
from service.settings import Settings


@pytest.fixture
async def web(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


@pytest.fixture
async def server(web: Any) -> AsyncIterator[Any]:
    yield web.server.app


def port_of(app: Any) -> int:
    return app[LISTENERS]["eriantys-g27"].port


async def play_out(clients: list[G27Client], seed: int, odds: float = 0.3) -> list[Any]:
    bots = [Bot(c, random.Random(seed * 10 + i), odds) for i, c in enumerate(clients)]
    return list(await asyncio.wait_for(asyncio.gather(*(b.play() for b in bots)), 120))


async def actions_of(app: Any, match_id: int) -> list[dict[str, Any]]:
    return [a.action for a in await app[HUB].store.actions(match_id)]


def info(message: Message) -> dict[str, Any]:
    assert message.type == "SENDINFO" and message.value is not None
    return wire.read_info_map(message.value)


@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_expert_game_to_the_end(server: Any, seats: int) -> None:
    clients = await join_game(port_of(server), seats, expert=True, ages=[5, 40, 7, 9][:seats])
    first = info(await clients[0].recv())
    assert first["PHASE"] == "PLANNING" and first["CURRENTPLAYER"] == "p1"  # oldest magician first
    assert [p["wizard"] for p in first["PLAYERARRAY"]] == ["NATURE", "DESERT", "CLOUD", "SNOW"][:seats]
    assert len(first["CHARACTERCARDARRAY"]) == 3
    tallies = await play_out(clients, seed=seats)
    results = {t.result.type for t in tallies if t.result is not None}
    assert len(results) == 1 and len([t for t in tallies if t.result]) == seats
    runtime = server[HUB].live()[0]
    assert runtime.status == "finished" and runtime.dialect == "eriantys-g27"
    played = [a for a in await actions_of(server, runtime.id) if a["type"] == "play_character"]
    assert played, "the bots used characters"
    outcome = runtime.outcome()
    assert outcome is not None
    expected = "GAMEDRAW" if outcome["draw"] else ("GAMEWINNERTEAM" if seats == 4 else "GAMEWINNER")
    assert results == {expected}
    for client in clients:
        await client.close()


async def test_turn_notices_and_request_value(server: Any) -> None:
    p0, p1 = await join_game(port_of(server), 2, expert=False, ages=[30, 8])
    for client in (p0, p1):
        start = info(await client.recv())
        assert start["CURRENTPLAYER"] == "p0" and start["ROUND"] == 1
    ask = await p0.expect("REQUESTACTION", "PLAYASSISTANTCARD")
    assert [c["cardValue"] for c in right_of(ask).value] == list(range(1, 11))  # type: ignore[union-attr]
    await p1.send(Message("REQUESTVALUE", Typed(wire.GAME_VALUES, "MOTHERNATURE")))
    value = info(await p1.recv())  # answered while the other player decides
    assert list(value) == ["MOTHERNATURE"] and isinstance(value["MOTHERNATURE"], int)
    await p0.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 1}))
    for client in (p0, p1):
        assert info(await client.recv())["CURRENTPLAYER"] == "p1"
    ask = await p1.expect("REQUESTACTION", "PLAYASSISTANTCARD")
    assert 1 not in [c["cardValue"] for c in right_of(ask).value]  # type: ignore[union-attr]
    await p1.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 5}))
    assert info(await p0.recv())["PHASE"] == "ACTION"
    move = await p0.expect("REQUESTACTION", "MOVESTUDENT")
    assert info(await p1.recv())["TURNORDER"] == ["p0", "p1"]
    other = await p1.expect("OTHER_PLAYER_START_TURN")
    assert other.value == Typed(wire.STRING, "p0")
    bot = Bot(p0, random.Random(1))
    await bot.answer(move)
    tally = await bot.play(stop_after=5)  # 2 more students, MN, cloud, end of turn
    assert tally.answered == 5 and not tally.errors
    assert [m for m in tally.seen if m == "REQUESTACTION"] == ["REQUESTACTION"] * 5
    await p0.until("CUR_PLAYER_END_TURN")
    await p1.until("REQUESTACTION", "MOVESTUDENT")
    for client in (p0, p1):
        await client.close()


async def test_drop_and_resume_through_loadgame(server: Any) -> None:
    port = port_of(server)
    p0, p1 = await join_game(port, 2, expert=True)
    bot0 = Bot(p0, random.Random(5))
    first = asyncio.create_task(bot0.play())
    await Bot(p1, random.Random(6)).play(stop_after=7)
    await p1.close()
    await bot0.saw("GAMEINTERRUPT")
    version = server[HUB].live()[0].version
    assert version >= 7
    again = await G27Client.connect(port, "p1 again")
    offer = await again.register("p1", 11)
    assert request_name(offer) == "LOADGAME"
    await again.respond("LOADGAMECHOICE", Typed(wire.BOOLEAN, True))
    await again.expect("GAMESTART")
    assert server[HUB].live()[0].version == version  # nothing was lost or replayed
    tally1 = await asyncio.wait_for(Bot(again, random.Random(7)).play(), 120)
    tally0 = await asyncio.wait_for(first, 120)
    assert tally0.result is not None and tally1.result == tally0.result
    assert "GAMEINTERRUPT" in tally0.seen and tally0.seen.count("GAMESTART") == 1
    for client in (p0, again):
        await client.close()


async def test_declining_loadgame_releases_the_waiting_players(server: Any) -> None:
    port = port_of(server)
    p0, p1 = await join_game(port, 2, expert=False)
    await p1.close()
    await p0.until("GAMEINTERRUPT")
    again = await G27Client.connect(port, "p1 again")
    assert request_name(await again.register("P1", 11)) == "LOADGAME"  # names ignore case
    await again.respond("LOADGAMECHOICE", Typed(wire.BOOLEAN, False))
    assert request_name(await again.recv()) == "RULES"  # a new game for him
    await p0.until("GAMEPROGRESS")
    assert await p0.closed()
    runtime = server[HUB].live()[0]
    assert runtime.status == "active"  # the old match stays saved
    await again.close()


async def rematch_votes(clients: list[G27Client], votes: list[bool]) -> None:
    for client, vote in zip(clients, votes):
        await client.respond("REMATCHCHOICE", Typed(wire.BOOLEAN, vote))


async def test_rematch_all_accept_starts_a_linked_match(server: Any, database_url: str) -> None:
    clients = await join_game(port_of(server), 2, expert=False)
    await play_out(clients, seed=21)
    old = server[HUB].live()[0]
    await rematch_votes(clients, [True, True])
    for client in clients:
        await client.until("GAMESTART")
        assert info(await client.recv())["ROUND"] == 1
    new = await server[HUB].get(old.rematch_id)
    assert new.rematch_of == old.id and new.status == "active"
    assert [s.nickname for s in new.seats] == [s.nickname for s in old.seats]
    assert new.options == old.options
    listing = await run_cli("matches", "list", "--json", "--database-url", database_url)
    ids = {m["id"] for m in json.loads(listing)}
    assert {old.id, new.id} <= ids
    for client in clients:
        await client.close()


async def test_rematch_refused_releases_everyone(server: Any) -> None:
    clients = await join_game(port_of(server), 2, expert=False)
    await play_out(clients, seed=22)
    await rematch_votes(clients, [True, False])
    for client in clients:
        assert info(await client.until("SENDINFO")) == {"REMATCH": False}
        assert await client.closed()
    assert server[HUB].live()[0].rematch_id is None


async def run_cli(*args: str) -> str:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "service", *args, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, err.decode()
    return out.decode()


async def error_then(client: G27Client, code: str, action: str | None) -> Message:
    """The error shape: SENDINFO ERROR/ERRORMESSAGE, then the pending request again."""
    fields = info(await client.recv())
    assert fields["ERROR"] == code and fields["ERRORMESSAGE"]
    if action is None:
        return Message("SENDINFO")
    return await client.expect("REQUESTACTION", action)


async def test_registration_errors(server: Any) -> None:
    port = port_of(server)
    alice = await G27Client.connect(port, "alice")
    assert request_name(await alice.register("alice", 3)) == "RULES"
    await alice.send(Message("REQUESTVALUE", Typed(wire.GAME_VALUES, "MOTHERNATURE")))
    await error_then(alice, "session/no_game", "RULES")
    await alice.rules(5, True)
    await error_then(alice, "protocol/bad_value", "RULES")
    await alice.send_raw(wire.LengthFramer().encode("{not json"))
    await error_then(alice, "protocol/bad_json", "RULES")
    await alice.respond("CHOSENWIZARD", Typed(wire.WIZARD, {"wizard": "SNOW"}))
    await error_then(alice, "protocol/unexpected", "RULES")
    await alice.rules(3, False)
    wizards = await alice.expect("REQUESTACTION", "WIZARD")
    assert right_of(wizards).value == {"wizards": ["NATURE", "DESERT", "CLOUD", "SNOW"]}  # type: ignore[union-attr]

    other = await G27Client.connect(port, "other alice")
    ask = await other.expect("REQUESTACTION", "USERNAMEANDMAGICAGE")
    assert right_of(ask) == Typed(wire.HASH_SET, ["alice"])  # names already taken
    await other.respond("INSERTEDUSERNAMEANDAGE", Typed(
        wire.USERNAME_AND_AGE, {"username": "ALICE", "magicAge": 4}))
    again = await error_then(other, "session/username_taken", "USERNAMEANDMAGICAGE")
    assert right_of(again) == Typed(wire.HASH_SET, ["alice"])
    await other.respond("INSERTEDUSERNAMEANDAGE", Typed(
        wire.USERNAME_AND_AGE, {"username": "bob", "magicAge": -1}))
    await error_then(other, "protocol/bad_value", "USERNAMEANDMAGICAGE")
    await other.respond("INSERTEDUSERNAMEANDAGE", Typed(
        wire.USERNAME_AND_AGE, {"username": "bob", "magicAge": 4}))
    await other.expect("REQUESTACTION", "WIZARD")  # alice's lobby has room
    await alice.wizard("CLOUD")
    await other.wizard("CLOUD")
    again = await error_then(other, "session/wizard_taken", "WIZARD")
    assert right_of(again).value == {"wizards": ["NATURE", "DESERT", "SNOW"]}  # type: ignore[union-attr]
    await other.wizard("SNOW")
    for client in (alice, other):
        await client.close()


async def test_game_errors_change_nothing(server: Any) -> None:
    p0, p1 = await join_game(port_of(server), 2, expert=True, ages=[9, 1])
    start = info(await p0.recv())
    await p1.recv()
    await p0.expect("REQUESTACTION", "PLAYASSISTANTCARD")
    runtime = server[HUB].live()[0]
    await p1.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 3}))
    await error_then(p1, "rules/not_your_turn", None)
    await p0.respond("CHOSENRULES", Typed(wire.GAME_RULES, {"numOfPlayers": 2, "expertMode": True}))
    await error_then(p0, "protocol/unexpected", "PLAYASSISTANTCARD")
    await p0.send(Message("REQUESTVALUE", Typed(wire.GAME_VALUES, "NOSUCHFIELD")))
    await error_then(p0, "protocol/unknown_value", "PLAYASSISTANTCARD")
    await p0.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 3}))
    await p0.recv()
    assert info(await p1.recv())["CURRENTPLAYER"] == "p1"
    await p1.expect("REQUESTACTION", "PLAYASSISTANTCARD")
    await p1.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 3}))
    await error_then(p1, "rules/card_already_played", "PLAYASSISTANTCARD")
    await p1.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 11}))
    await error_then(p1, "action/malformed", "PLAYASSISTANTCARD")
    await p1.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 9}))
    cheap = any(c["cost"] <= 1 for c in start["CHARACTERCARDARRAY"])  # 1 coin each at the start
    move = "MOVESTUDENTORPLAYCARD" if cheap else "MOVESTUDENT"
    await p0.until("REQUESTACTION", move)
    version = runtime.version
    await p0.respond("MOVESTUDENTINFO", Typed(wire.MOVE_STUDENT_INFO, {"toDiningRoom": True,
                                                                        "studentIndex": 7}))
    await error_then(p0, "protocol/bad_value", move)
    await p0.respond("CHOSENMOTHERNATUREMOVEMENT", Typed(wire.INTEGER, 1))
    await error_then(p0, "rules/students_not_moved", move)
    await p0.respond("CHOOSECLOUD", Typed(wire.INTEGER, 0))
    await error_then(p0, "rules/mother_nature_not_moved", move)
    in_play = {c["character"] for c in start["CHARACTERCARDARRAY"]}
    absent = next(n for n in values.CHARACTER_BY_NAME if n not in in_play)
    await p0.respond("CHOSENCHARACTER", Typed(wire.CHARACTER, {"character": absent}))
    await error_then(p0, "rules/character_not_in_play", move)
    dearest = max(start["CHARACTERCARDARRAY"], key=lambda c: c["cost"])
    if dearest["cost"] > 1:  # each player has 1 coin at the start
        await p0.respond("CHOSENCHARACTER", Typed(wire.CHARACTER, {"character": dearest["character"]}))
        await error_then(p0, "rules/not_enough_coins", move)
    await p0.respond("CHOSENFIELDSMAP", wire.info_map({}))
    await error_then(p0, "protocol/unexpected", move)
    assert runtime.version == version  # nothing changed
    for client in (p0, p1):
        await client.close()


async def test_heartbeat_pings_idle_links_and_drops_silent_ones(
        server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EriantysG27Conversation, "ping_interval", 0.1)
    monkeypatch.setattr(EriantysG27Conversation, "idle_timeout", 0.5)
    lively = await G27Client.connect(port_of(server), "lively")
    silent = await G27Client.connect(port_of(server), "silent")
    silent.answer_pings = False
    assert await silent.closed()
    assert silent.pings >= 1 and lively.pings >= 1
    await lively.send(Message("PING"))
    await lively.expect("REQUESTACTION", "USERNAMEANDMAGICAGE")
    await lively.expect("PONG")  # still connected, and PING answered
    await lively.close()


async def test_websocket_carries_the_same_json_without_length(web: Any) -> None:
    ws = await web.ws_connect("/ws/eriantys-g27")
    first = wire.parse_message(await ws.receive_str(timeout=10))
    assert request_name(first) == "USERNAMEANDMAGICAGE"
    await ws.send_str(wire.format_message(Message("PING")))
    assert wire.parse_message(await ws.receive_str(timeout=10)) == Message("PONG")
    await ws.close()


async def test_two_lobbies_at_once_make_two_matches(server: Any) -> None:
    port = port_of(server)
    first = await join_game(port, 2, False, prefix="a")
    second = await join_game(port, 3, True, prefix="b")  # new rules, new lobby, new match
    runtimes = server[HUB].live()
    assert len(runtimes) == 2
    assert sorted(sorted(s.nickname for s in r.seats) for r in runtimes) == [["a0", "a1"], ["b0", "b1", "b2"]]
    late = await G27Client.connect(port, "late")
    assert request_name(await late.register("late", 1)) == "RULES"  # every lobby is full
    for client in (*first, *second, late):
        await client.close()


async def test_players_arriving_during_the_rules_wait_for_them(server: Any) -> None:
    port = port_of(server)
    clients = {n: await G27Client.connect(port, n) for n in ("ann", "ben", "cat", "dan")}
    assert request_name(await clients["ann"].register("ann", 1)) == "RULES"
    await clients["ben"].expect("REQUESTACTION", "USERNAMEANDMAGICAGE")
    await clients["ben"].respond("INSERTEDUSERNAMEANDAGE", Typed(
        wire.USERNAME_AND_AGE, {"username": "ben", "magicAge": 2}))
    await clients["ann"].close()  # the one choosing the rules leaves: the next one chooses
    await clients["ben"].expect("REQUESTACTION", "RULES")
    await clients["cat"].expect("REQUESTACTION", "USERNAMEANDMAGICAGE")
    await clients["cat"].respond("INSERTEDUSERNAMEANDAGE", Typed(
        wire.USERNAME_AND_AGE, {"username": "cat", "magicAge": 3}))
    await clients["cat"].send(Message("PING"))
    await clients["cat"].expect("PONG")  # queued behind ben's rules: nothing else was sent
    await clients["ben"].rules(2, False)
    await clients["ben"].expect("REQUESTACTION", "WIZARD")
    await clients["cat"].expect("REQUESTACTION", "WIZARD")
    assert request_name(await clients["dan"].register("dan", 4)) == "RULES"  # that lobby is full
    for client in clients.values():
        await client.close()
