"""Eriantys group 27 (seed 004) over real TCP: writeUTF frames, scripted players, whole games."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest
from eriantys_g27_client import (
    TIMEOUT, Bot, G27Client, fields_of, join_game, lift, opening, request_name, right_of,
)

from service.app import create_app
from service.gateway.keys import HUB, LISTENERS
from service.protocol import eriantys_g27 as wire
from service.games.eriantys import GAME as ERIANTYS
from service.protocol import eriantys_g27_model as model
from service.protocol import eriantys_g27_values as values
from service.protocol.eriantys_g27 import Message, Typed
from service.sessions.dialects.eriantys_g27 import EriantysG27Conversation
from service.sessions.dialects.eriantys_g27.lobby import lobby_for
from service.sessions.dialects.eriantys_g27.play import GamePart
from service.settings import Settings


#: the seed drops a link silent for 5 s; here the server and every client share one event loop,
#: which a loaded machine can starve for that long (a 4-player game was cut so, at load 14):
#: these tests give 20 times the time (100 s); the heartbeat's own test sets it back to 1
HEARTBEAT_SCALE = 20.0


@pytest.fixture
async def web(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    settings = Settings.for_tests(database_url, heartbeat_scale=HEARTBEAT_SCALE)
    yield await aiohttp_client(create_app(settings))


@pytest.fixture
async def server(web: Any) -> AsyncIterator[Any]:
    yield web.server.app


#: the most a whole game may take: a ceiling for a loaded machine, never a wait
GAME_LIMIT = 600.0


def port_of(app: Any) -> int:
    return app[LISTENERS]["eriantys-g27"].port


async def play_out(clients: list[G27Client], seed: int, odds: float = 0.3) -> list[Any]:
    bots = [Bot(c, random.Random(seed * 10 + i), odds) for i, c in enumerate(clients)]
    return list(await asyncio.wait_for(asyncio.gather(*(b.play() for b in bots)), GAME_LIMIT))


async def actions_of(app: Any, match_id: int) -> list[dict[str, Any]]:
    return [a.action for a in await app[HUB].store.actions(match_id)]


def winner_of(message: Message) -> str:
    assert message.type == "GAMEWINNER" and message.value is not None
    return str(lift(message.value.value)["username"])


GAMES = [(seats, expert) for seats in (2, 3, 4) for expert in (True, False)]


#: the set-up of the whole-game matches: with a seed drawn at random, a short game could end
#: before the bots (who try a character three times in ten) had the coins for one, and the
#: check that they played characters failed now and then (once in a CI rehearsal)
WHOLE_GAME_SEED = 2024


@pytest.mark.parametrize(("seats", "expert"), GAMES)
async def test_original_clients_play_a_whole_game(server: Any, seats: int, expert: bool,
                                                  refusals: pytest.LogCaptureFixture,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    from service.sessions import hub
    monkeypatch.setattr(hub, "secrets", types.SimpleNamespace(
        randbits=lambda bits: WHOLE_GAME_SEED, token_hex=__import__("secrets").token_hex))
    clients = await join_game(port_of(server), seats, expert=expert, ages=[5, 40, 7, 9][:seats])
    tallies = await play_out(clients, seed=seats * 2 + expert)
    runtime = server[HUB].live()[0]
    assert runtime.status == "finished" and runtime.dialect == "eriantys-g27"
    outcome = runtime.outcome()
    assert outcome is not None
    expected = "GAMEDRAW" if outcome["draw"] else ("GAMEWINNERTEAM" if seats == 4 else "GAMEWINNER")
    assert {t.result.type for t in tallies if t.result} == {expected}
    assert all(t.result is not None for t in tallies)
    strange = sorted({s.split(": ", 1)[1] for c in clients for s in c.strange})
    assert strange == [], "\n".join(strange)  # every frame read as the original's
    assert all(t.keys[0] == ("MODEL",) for t in tallies)  # the whole model first, then deltas
    golden = clients[0].golden
    assert golden is not None  # and each answer is followed by what the original sends then
    assert sorted({p for c in clients for p in golden.reply_problems(c.moments)}) == []
    assert [r.getMessage() for r in refusals.records if "refused" in r.getMessage()] == []
    assert all(t.repeated == 0 for t in tallies)  # no answer of theirs was refused
    if expert:
        played = [a for a in await actions_of(server, runtime.id) if a["type"] == "play_character"]
        assert played, "the bots used characters"
    for client in clients:
        await client.close()


async def test_turn_notices_and_request_value(server: Any) -> None:
    p0, p1 = await join_game(port_of(server), 2, expert=False, ages=[30, 8])
    for client in (p0, p1):
        model = await opening(client, expert=False)
        assert model["expertMode"] is False and len(model["islands"]["islands"]) == 12
        assert [p["player"]["username"] for p in model["players"]["players"]] == ["p0", "p1"]
    ask = await p0.expect("REQUESTACTION", "PLAYASSISTANTCARD")
    deck = lift(right_of(ask).value)["assistantDeck"]  # type: ignore[union-attr]
    assert [c["cardValue"] for c in deck] == list(range(1, 11))
    await p1.send(Message("REQUESTVALUE", Typed(wire.GAME_VALUES, "MOTHERNATURE")))
    value = fields_of((await p1.expect("SENDINFO")).value)  # answered while the other decides
    assert list(value) == ["MOTHERNATURE"] and isinstance(value["MOTHERNATURE"], int)
    await p0.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 1,
                                                                        "movementPoints": 1}))
    for client in (p0, p1):
        assert list(fields_of((await client.expect("SENDINFO")).value)) == ["PLAYERARRAY"]
    ask = await p1.expect("REQUESTACTION", "PLAYASSISTANTCARD")
    assert 1 not in [c["cardValue"] for c in lift(right_of(ask).value)["assistantDeck"]]  # type: ignore[union-attr]
    await p1.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 5,
                                                                        "movementPoints": 3}))
    await p0.expect("SENDINFO")
    move = await p0.expect("REQUESTACTION", "MOVESTUDENT")
    assert set(fields_of(right_of(move))) == {"COLORARRAY", "BOOLARRAY"}
    await p1.expect("SENDINFO")
    other = await p1.expect("OTHER_PLAYER_START_TURN")
    assert other.value == Typed(wire.STRING, "p0")
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
    runtime = server[HUB].live()[0]
    async with runtime.lock:  # an answer p0 sent before the interrupt may still be saving
        version = runtime.version
    assert version >= 7
    again = await G27Client.connect(port, "p1")
    offer = await again.register("p1", 11)
    assert request_name(offer) == "LOADGAME" and right_of(offer) is None
    await again.respond("LOADGAMECHOICE", Typed(wire.BOOLEAN, True))
    await again.expect("GAMESTART")
    resumed = fields_of((await again.expect("SENDINFO")).value)
    assert list(resumed) == ["CHARACTERCARDARRAY", "MODEL"]  # as the original resumes
    # nothing was lost: the match goes on from where it stood (p0, resumed too, may already
    # have answered its next request, and the game then finishes below)
    assert runtime.version >= version
    bot1 = Bot(again, random.Random(7))
    bot1.model.apply(resumed)
    tally1 = await asyncio.wait_for(bot1.play(), GAME_LIMIT)
    tally0 = await asyncio.wait_for(first, GAME_LIMIT)
    assert tally0.result is not None and tally1.result is not None
    assert winner_of(tally1.result) == winner_of(tally0.result)
    assert "GAMEINTERRUPT" in tally0.seen and tally0.seen.count("GAMESTART") == 1
    assert p0.strange == [] and again.strange == []
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


async def test_the_same_players_log_in_again_for_a_new_game(server: Any) -> None:
    """No rematch offer (the original client dies on one): logging in again is the rematch."""
    port = port_of(server)
    clients = await join_game(port, 2, expert=False)
    await play_out(clients, seed=21)
    assert all([await c.silent() for c in clients])  # the end: GAMEWINNER, and the link stays open
    again = await join_game(port, 2, expert=False)  # same names: the finished links give them up
    for client in clients:
        assert await client.closed()
    newest = max(server[HUB].live(), key=lambda r: r.id)
    assert newest.status == "active" and [s.nickname for s in newest.seats] == ["p0", "p1"]
    for client in again:
        await client.close()


@pytest.fixture
def refusals(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="service.sessions.dialects.eriantys_g27.conversation")
    return caplog


async def refused(client: G27Client, log: pytest.LogCaptureFixture, code: str,
                  action: str | None) -> Message | None:
    """The original has no error message: the server logs the refusal and asks again."""
    message = None if action is None else await client.expect("REQUESTACTION", action)
    if action is None:  # nothing asked: the PING after it is answered first (the log is written)
        assert await client.silent()
    codes = [r.getMessage() for r in log.records if "refused" in r.getMessage()]
    assert codes and f"({code})" in codes[-1], codes
    assert "service/internal" not in log.text
    log.clear()
    return message


async def test_registration_errors(server: Any, refusals: pytest.LogCaptureFixture) -> None:
    port = port_of(server)
    alice = await G27Client.connect(port, "alice")
    assert request_name(await alice.register("alice", 3)) == "RULES"
    await alice.send(Message("REQUESTVALUE", Typed(wire.GAME_VALUES, "MOTHERNATURE")))
    await refused(alice, refusals, "session/no_game", "RULES")
    await alice.rules(5, True)
    await refused(alice, refusals, "protocol/bad_value", "RULES")
    await alice.send_raw(wire.LengthFramer().encode("{not json"))
    await refused(alice, refusals, "protocol/bad_json", "RULES")
    await alice.respond("CHOSENWIZARD", Typed(wire.WIZARD, {"wizard": "SNOW"}))
    await refused(alice, refusals, "protocol/unexpected", "RULES")
    await alice.rules(3, False)
    wizards = await alice.expect("REQUESTACTION", "WIZARD")
    assert right_of(wizards).value == {"wizards": ["NATURE", "DESERT", "CLOUD", "SNOW"]}  # type: ignore[union-attr]

    other = await G27Client.connect(port, "other alice")
    ask = await other.expect("REQUESTACTION", "USERNAMEANDMAGICAGE")
    assert right_of(ask) == Typed(wire.HASH_SET, ["alice"])  # names already taken
    await other.respond("INSERTEDUSERNAMEANDAGE", Typed(
        wire.USERNAME_AND_AGE, {"username": "ALICE", "magicAge": 4}))
    again = await refused(other, refusals, "session/username_taken", "USERNAMEANDMAGICAGE")
    assert again is not None and right_of(again) == Typed(wire.HASH_SET, ["alice"])
    await other.respond("INSERTEDUSERNAMEANDAGE", Typed(
        wire.USERNAME_AND_AGE, {"username": "bob", "magicAge": -1}))
    await refused(other, refusals, "protocol/bad_value", "USERNAMEANDMAGICAGE")
    await other.respond("INSERTEDUSERNAMEANDAGE", Typed(
        wire.USERNAME_AND_AGE, {"username": "bob", "magicAge": 4}))
    await other.expect("REQUESTACTION", "WIZARD")  # alice's lobby has room
    await alice.wizard("CLOUD")
    await other.wizard("CLOUD")
    again = await refused(other, refusals, "session/wizard_taken", "WIZARD")
    assert again is not None
    assert right_of(again).value == {"wizards": ["NATURE", "DESERT", "SNOW"]}  # type: ignore[union-attr]
    await other.wizard("SNOW")
    for client in (alice, other):
        await client.close()


async def test_game_errors_change_nothing(server: Any, refusals: pytest.LogCaptureFixture) -> None:
    p0, p1 = await join_game(port_of(server), 2, expert=True, ages=[9, 1])
    start = await opening(p0, expert=True)
    await opening(p1, expert=True)
    await p0.expect("REQUESTACTION", "PLAYASSISTANTCARD")
    runtime = server[HUB].live()[0]
    await p1.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 3}))
    await refused(p1, refusals, "rules/not_your_turn", None)
    await p0.respond("CHOSENRULES", Typed(wire.GAME_RULES, {"numOfPlayers": 2, "expertMode": True}))
    await refused(p0, refusals, "protocol/unexpected", "PLAYASSISTANTCARD")
    await p0.send(Message("REQUESTVALUE", Typed(wire.GAME_VALUES, "NOSUCHFIELD")))
    await refused(p0, refusals, "protocol/unknown_value", "PLAYASSISTANTCARD")
    await p0.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 3}))
    await p0.expect("SENDINFO")
    await p1.expect("SENDINFO")
    await p1.expect("REQUESTACTION", "PLAYASSISTANTCARD")
    await p1.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 3}))
    await refused(p1, refusals, "rules/card_already_played", "PLAYASSISTANTCARD")
    await p1.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 11}))
    await refused(p1, refusals, "action/malformed", "PLAYASSISTANTCARD")
    await p1.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": 9}))
    cards = [c["card"] for c in start["characterCards"]["characterCards"]]
    move = "MOVESTUDENTORPLAYCARD" if any(c["cost"] <= 1 for c in cards) else "MOVESTUDENT"
    await p0.until("REQUESTACTION", move)  # 1 coin each at the start
    version = runtime.version
    await p0.respond("MOVESTUDENTINFO", Typed(wire.MOVE_STUDENT_INFO, {"toDiningRoom": True,
                                                                        "studentIndex": 7}))
    await refused(p0, refusals, "protocol/bad_value", move)
    await p0.respond("CHOSENMOTHERNATUREMOVEMENT", Typed(wire.INTEGER, 1))
    await refused(p0, refusals, "rules/students_not_moved", move)
    await p0.respond("SELECTEDCLOUD", Typed(wire.INTEGER, 0))
    await refused(p0, refusals, "rules/mother_nature_not_moved", move)
    in_play = {c["character"] for c in cards}
    absent = next(n for n in model.CHARACTER_BY_NAME if n not in in_play)
    await p0.respond("CHOSENCHARACTER", Typed(wire.CHARACTER, {"character": absent}))
    await refused(p0, refusals, "rules/character_not_in_play", move)
    dearest = max(cards, key=lambda c: c["cost"])
    if dearest["cost"] > 1:
        await p0.respond("CHOSENCHARACTER", Typed(wire.CHARACTER, {"character": dearest["character"]}))
        await refused(p0, refusals, "rules/not_enough_coins", move)
    await p0.respond("CHOSENFIELDSMAP", wire.info_map({}))
    await refused(p0, refusals, "protocol/unexpected", move)
    assert runtime.version == version  # nothing changed
    for client in (p0, p1):
        await client.close()


async def test_heartbeat_pings_idle_links_and_drops_silent_ones(
        server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server[HUB], "heartbeat_scale", 1.0)  # the seed's limits
    monkeypatch.setattr(EriantysG27Conversation, "ping_interval", 0.1)
    # the seed's 5 s: a lively link is dropped only if this process is starved that long
    monkeypatch.setattr(EriantysG27Conversation, "idle_timeout", 5.0)
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
    first = wire.parse_message(await ws.receive_str(timeout=TIMEOUT))
    assert request_name(first) == "USERNAMEANDMAGICAGE"
    await ws.send_str(wire.format_message(Message("PING")))
    assert wire.parse_message(await ws.receive_str(timeout=TIMEOUT)) == Message("PONG")
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


async def test_rules_refused_change_no_lobby(server: Any, refusals: pytest.LogCaptureFixture) -> None:
    """D4: numOfPlayers 2.0 is refused before anything changes: the next player still waits."""
    port = port_of(server)
    ann = await G27Client.connect(port, "ann")
    assert request_name(await ann.register("ann", 3)) == "RULES"
    for seats in (2.0, "2", [2], 10**40):
        await ann.respond("CHOSENRULES", Typed(wire.GAME_RULES, {"numOfPlayers": seats,
                                                                 "expertMode": True}))
        await refused(ann, refusals, "protocol/bad_value", "RULES")
    ben = await G27Client.connect(port, "ben")
    await ben.expect("REQUESTACTION", "USERNAMEANDMAGICAGE")
    await ben.respond("INSERTEDUSERNAMEANDAGE", Typed(wire.USERNAME_AND_AGE,
                                                      {"username": "ben", "magicAge": 4}))
    assert await ben.silent()  # queued behind ann's rules, not asked for a wizard
    await ann.rules(2, True)
    await ann.expect("REQUESTACTION", "WIZARD")
    await ben.expect("REQUESTACTION", "WIZARD")
    for client in (ann, ben):
        await client.close()


async def test_odd_values_are_refused_not_internal(server: Any,
                                                   refusals: pytest.LogCaptureFixture) -> None:
    """D5: lists, "²" and 5,000-digit numbers where values belong are bad values, not crashes."""
    p0, p1 = await join_game(port_of(server), 2, expert=True, ages=[9, 1])
    for client in (p0, p1):
        await opening(client, expert=True)
    await p0.expect("REQUESTACTION", "PLAYASSISTANTCARD")
    await p0.send(Message("REQUESTVALUE", Typed(wire.GAME_VALUES, ["MOTHERNATURE"])))
    await refused(p0, refusals, "protocol/unknown_value", "PLAYASSISTANTCARD")
    for value in (["1"], "\u00b2", "1" * 5000, 2.5, {"cardValue": 1}):
        await p0.respond("CHOSENASSISTANTCARD", Typed(wire.ASSISTANT_CARD, {"cardValue": value}))
        await refused(p0, refusals, "protocol/bad_value", "PLAYASSISTANTCARD")
    await p0.send_raw(wire.LengthFramer().encode(
        '{"type": "RESPONSEACTION", "value": {"type": "java.lang.Integer", "value": "'
        + "7" * 5000 + '"}}'))
    await refused(p0, refusals, "protocol/bad_json", "PLAYASSISTANTCARD")
    await p0.respond("CHOSENCHARACTER", Typed(wire.CHARACTER, {"character": ["MONK"]}))
    await refused(p0, refusals, "protocol/bad_value", "PLAYASSISTANTCARD")
    await p0.send_raw(wire.LengthFramer().encode("[" * 3000 + "]" * 3000))  # D1
    await refused(p0, refusals, "protocol/bad_json", "PLAYASSISTANTCARD")
    for client in (p0, p1):
        await client.close()


async def test_the_greeting_always_fits_a_frame(server: Any) -> None:
    """D10: with thousands of users connected the list of names taken is cut to fit a frame."""
    lobby = lobby_for(server[HUB], "eriantys-g27")
    for i in range(3000):
        assert lobby.claim(f"someone-with-a-longish-name-{i}", SimpleNamespace(stage="game"))
    client = await G27Client.connect(port_of(server), "late")
    ask = await client.expect("REQUESTACTION", "USERNAMEANDMAGICAGE")
    taken = right_of(ask).value  # type: ignore[union-attr]
    assert 1000 < len(taken) < 3000
    assert wire.fits(wire.format_message(ask))
    await client.respond("INSERTEDUSERNAMEANDAGE", Typed(wire.USERNAME_AND_AGE,
                                                         {"username": "late", "magicAge": 7}))
    assert request_name(await client.recv()) == "RULES"  # and the newcomer registers
    await client.close()


async def greeted(port: int, name: str) -> tuple[G27Client, list[str]]:
    client = await G27Client.connect(port, name)
    ask = await client.expect("REQUESTACTION", "USERNAMEANDMAGICAGE")
    return client, list(right_of(ask).value)  # type: ignore[union-attr]


async def test_the_greeting_follows_the_names_connected(
        server: Any, refusals: pytest.LogCaptureFixture) -> None:
    """Issue 25: the greeting is built once per change of the connected names; every newcomer
    still sees exactly the names connected now, in order, as written."""
    port = port_of(server)
    lobby = lobby_for(server[HUB], "eriantys-g27")
    clients = {}
    for name in ("Zoe", "amy", "Bob"):
        clients[name], taken = await greeted(port, name)
        await clients[name].respond("INSERTEDUSERNAMEANDAGE", Typed(
            wire.USERNAME_AND_AGE, {"username": name, "magicAge": 5}))
        await clients[name].send(Message("PING"))  # the others wait in Zoe's lobby, silent
        while (await clients[name].recv()).type != "PONG":
            pass  # Zoe is asked the rules first
    late, taken = await greeted(port, "late")
    assert taken == ["Bob", "Zoe", "amy"] and lobby.greeting() is lobby.greeting()
    again, taken_again = await greeted(port, "again")  # nothing changed: the same frame
    assert taken_again == taken
    await clients["Bob"].close()
    await wait_for(lambda: "bob" not in lobby.names)
    newcomer, taken = await greeted(port, "newcomer")
    assert taken == ["Zoe", "amy"]
    # a name the nickname rule refuses is not held: it leaves the greeting at once
    await newcomer.respond("INSERTEDUSERNAMEANDAGE", Typed(
        wire.USERNAME_AND_AGE, {"username": "eve\u202e", "magicAge": 5}))
    ask = await refused(newcomer, refusals, "session/bad_nickname", "USERNAMEANDMAGICAGE")
    assert ask is not None and right_of(ask).value == ["Zoe", "amy"]  # type: ignore[union-attr]
    assert "eve\u202e" not in lobby.names
    for client in (*clients.values(), late, again, newcomer):
        await client.close()


async def wait_for(condition: Any, timeout: float = TIMEOUT) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.01)
    await asyncio.wait_for(poll(), timeout)


def test_a_sendinfo_too_big_for_a_frame_goes_as_two() -> None:
    """Five professors with a full-handed player in a 3-player game, with the player array: more
    than 65,535 bytes in one SENDINFO; the professor table then follows on its own."""
    state = ERIANTYS.setup(3, ERIANTYS.parse_options({"expert": True}), 1)
    view = ERIANTYS.view(state, 0)
    view["professors"] = {c: 0 for c in view["professors"]}
    entrances = model.Slots().update(view)
    keys = ("PLAYERARRAY", "ENTRANCEARRAY", "DININGROOMARRAY", "GLOBALPROFESSORTABLE", "COINPOOL")
    fields = {k: values.value_of(k, view, ["ann", "ben", "cid"], entrances) for k in keys}
    assert not wire.fits(wire.format_message(Message("SENDINFO", wire.info_map(fields))))
    sent: list[str] = []
    part = GamePart()
    part.send_text = lambda text, kind: sent.append(text) or True  # type: ignore[method-assign]
    part.send_info(fields)
    assert [list(wire.read_info_map(wire.parse_message(t).value)) for t in sent] == [  # type: ignore[arg-type]
        ["PLAYERARRAY", "ENTRANCEARRAY", "DININGROOMARRAY", "COINPOOL"], ["GLOBALPROFESSORTABLE"]]
    assert all(wire.fits(t) for t in sent)
