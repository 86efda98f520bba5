"""Eriantys over real TCP in the original's own wire (eriantys-g13-java): whole games played
by a client that speaks Java serialization as the original client does, the error answers,
hostile streams, the heartbeat, resume and rematch, and a JSON and a Java client at one table."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from eriantys_g13_client import Bot, G13Client
from eriantys_g13_java_client import (
    CARDS, M, JavaBot, JavaG13Client, play_all, run_until_stop, short, start_game,
)
from eriantys_g13_shared import (  # noqa: F401 (web and server are fixtures)
    Wire, hub_match, join_all, only_runtime, play_every_character, server, web,
)
from g13_java_golden import recorded_first_turn, recorded_pairs, shape_mismatches, start_facts

from service.games.eriantys.constants import CHARACTERS
from service.gateway.keys import HUB, LISTENERS
from service.protocol.eriantys_g13_java_classes import G, REGISTRY
from service.protocol.javaser import MAGIC, TC_CLASSDESC, TC_OBJECT, JEnum, JObject
from service.protocol.javaser_writer import StreamWriter
from service.sessions.dialects.eriantys_g13_java import EriantysG13JavaConversation
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime

NAME = "eriantys-g13-java"
WIRE = Wire(JavaG13Client, JavaBot, short)


def port_of(app: Any) -> int:
    return app[LISTENERS][NAME].port


@pytest.mark.parametrize("players,expert", [(2, True), (3, True), (4, True),
                                            (2, False), (3, False), (4, False)])
async def test_complete_game(server: Any, players: int, expert: bool) -> None:
    clients = await start_game(port_of(server), players, expert=expert)
    ends = await play_all(clients, seed=players + 10 * expert, characters=expert)
    runtime = only_runtime(server)
    assert runtime.status == "finished"
    assert runtime.options.model_dump()["expert"] is expert
    winners = [runtime.seats[s].nickname for s in runtime.outcome()["winners"]]
    assert ends[0]["winner"] == winners
    kinds = {short(o) for c in clients for o in c.received}
    assert {"AnsFirstPlayerTurnMsg", "AnsAskCAMsg", "AnsNumStepMNMsg", "AnsCloudMsg"} <= kinds
    assert_like_the_recordings(clients)


#: what a resumed client's first ready command may get (the original had no resume: these are
#: the answers after which its client asks for the game's next step)
RESUMED = {"AnsFirstPlayerTurnMsg", "AnsNewOrderMsg", "AnsAskCAMsg", "AnsNumStepMNMsg",
           "AnsTurnDecidedMsg", "AnsCloudMsg", *(f"AnsMoveStudent{n}Msg" for n in range(1, 5))}


def expected_pair(command: str, answer: str, resumed: bool = False) -> bool:
    """Whether the original answers ``command`` with ``answer``: recorded, or one of the
    document's answers the recorded games did not happen to need."""
    if (command, answer) in recorded_pairs() or answer == "AnsEndGameMsg":
        return True
    if resumed and command in ("FirstPlayerTurnMsg", "NewOrderMsg", "AskCAMsg",
                               "CheckTurnEndedMsg") and answer in RESUMED:
        return True
    number = command[2:-3]
    return (command, answer) in {
        ("CCMsg", "AnsPlayerAlrUsedCCExcMsg"), ("CCMsg", "AnsNotEnoughCoinsExcMsg"),
        ("CannotPlayCCMsg", "AnsPlayAfterNotCCMsg"), ("TurnDecidedMsg", "AnsTurnDecidedExcMsg"),
    } or (command == "CCMsg" and answer[5:-3].isdigit() and answer.startswith("AnsCC")) or (
        number.isdigit() and answer in (f"AnsCC{number}ExcMsg", "AnsPlayAfterCCMsg"))


def assert_like_the_recordings(clients: list[JavaG13Client], resumed: bool = False) -> None:
    """Every answer holds the classes, fields and kinds of values the original's did, and
    answers the command the original answered with that class."""
    assert shape_mismatches([o for c in clients for o in c.received]) == []
    cards = [card for c in clients for o in c.received if "generalBoard" in o.fields
             for card in o["generalBoard"]["ChoosenCards"]]
    printed = {info.id + 1: info.cost for info in CHARACTERS}  # as the original shows them
    assert all(card["Coins"] == printed[card["Name"]] for card in cards)
    unexpected = {p for c in clients for p in c.pairs() if not expected_pair(*p, resumed)}
    assert not unexpected


# --- every character, every error answer --------------------------------------------------


async def test_every_character_flow(server: Any) -> None:
    await play_every_character(WIRE, server, port_of(server), check=assert_like_the_recordings)


def colour(name: str) -> JEnum:
    return JEnum(M + "Color", name)


async def test_refused_commands_get_the_documents_answers(server: Any) -> None:
    hub: Hub = server[HUB]
    runtime = await hub_match(hub, 2, ["monk", "magic_mailman", "herald"], coins=0)
    clients = await join_all(WIRE, port_of(server), ["ann", "ben"])
    version = runtime.version
    first = clients[runtime.state.planning_order[0]]
    assert short(await first.call("FirstPlayerTurnMsg")) == "AnsFirstPlayerTurnMsg"
    expected = {
        ("MoveStudent1Msg", "AnsColorExc1Msg"): {"s": colour("Red"), "l": 123},
        ("MoveStudent2Msg", "AnsColorExc2Msg"): {"s": colour("Red"), "l": 3},
        ("NumStepMNMsg", "AnsNumStepExcMsg"): {"step": 1},
        ("CloudMsg", "AnsNumCloudExcMsg"): {"cloud": 7},  # (the original's handler died here)
        ("CCMsg", "AnsCCNotInTableExcMsg"): {"numcard": 99},
        ("CC1Msg", "AnsCannotPlayCCMsg"): {"isl": 2, "stud": colour("Red")},  # planning
        ("TurnDecidedMsg", "AnsTurnDecidedExcMsg"): {"c": JEnum(M + "CardAssistant", "Invalid")},
        ("NewGameMsg", "BooleanCheckMsg"): {"numPlayers": 9, "modExpert": True},
    }
    for (command, answer), fields in expected.items():
        got = await first.call(command, **fields)
        assert short(got) == answer, (command, got)
    assert runtime.version == version  # nothing changed
    exc = await first.call("TurnDecidedMsg", c=JEnum(M + "CardAssistant", "Invalid"))
    assert [c.name for c in exc["dca"]["Cards"]] == list(CARDS) and exc["CAplayed"] == []
    taken = await JavaG13Client.connect(port_of(server), "ann")
    assert await taken.login() == "INVALID"  # logged in elsewhere
    assert await taken.login() == "INVALID"
    decided = await first.call("TurnDecidedMsg", c=JEnum(M + "CardAssistant", "Tre"))
    assert short(decided) == "AnsTurnDecidedMsg" and runtime.version == version + 1


async def test_a_hostile_stream_ends_only_its_connection(server: Any) -> None:
    port = port_of(server)
    clients = await start_game(port, 2, expert=False)
    runtime = only_runtime(server)
    hostile = [
        MAGIC + bytes([TC_OBJECT, TC_CLASSDESC]) + b"\x00\x11java.lang.Runtime" + b"\x00" * 12,
        b"\xac\xed\x00\x04",
        MAGIC + b"\x73" * 4000,
        MAGIC + StreamWriter(REGISTRY).message(JObject(G + "PingSMSG", {
            "identifier": uuid.uuid4(), "parentIdentifier": uuid.uuid4()})),  # an answer
        MAGIC + StreamWriter(REGISTRY).message(JObject(G + "AskIfGameCreatedMsg", {
            "identifier": uuid.uuid4()})),  # before logging in
    ]
    for data in hostile:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(data)
        await writer.drain()
        received = b""
        while chunk := await asyncio.wait_for(reader.read(65536), 10):
            received += chunk
        assert received == MAGIC  # the header, then the end: nothing else was said
        writer.close()
    assert runtime.status == "active"
    ends = await play_all(clients, seed=3, characters=False)
    assert ends[0]["winner"]


async def test_pings_go_out_and_a_silent_client_is_dropped(
        server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EriantysG13JavaConversation, "ping_interval", 0.05)
    monkeypatch.setattr(EriantysG13JavaConversation, "silence_limit", 2.0)  # login must fit
    client = await JavaG13Client.connect(port_of(server), "quiet")
    sent = await client.send("PingCMSG")  # not answered, as the original did not
    assert await client.login() == "VALID"
    ping = await client.read_object()
    assert short(ping) == "PingSMSG" and str(ping["parentIdentifier"]) not in (sent, *client.sent)
    assert await client.closed()


async def test_drop_everyone_and_log_in_again_resumes(server: Any) -> None:
    port = port_of(server)
    for stop, players in ((3, 2), (9, 3), (13, 2), (10, 4)):  # all within the first rounds
        names = tuple(f"r{stop}{n}" for n in "abcd")
        clients = await start_game(port, players, expert=True, names=names)
        runtime = next(r for r in server[HUB].live() if r.seats[0].nickname == names[0])
        await run_until_stop([JavaBot(c, stop + i, stop_after=stop)
                              for i, c in enumerate(clients)])
        for client in clients:
            await client.close()
        back = await rejoin_all(port, names[:players], runtime)
        ends = await asyncio.gather(*(JavaBot(c, 90 + i).run() for i, c in enumerate(back)))
        assert runtime.status == "finished" and all(e["winner"] == ends[0]["winner"] for e in ends)
        assert_like_the_recordings(back, resumed=True)


async def rejoin_all(port: int, names: tuple[str, ...],
                     runtime: MatchRuntime) -> list[JavaG13Client]:
    """Each player logs in again as the original client does: login, AskIfGameCreatedMsg
    (a game exists), GameStartedMsg (answered at once)."""
    back = []
    for name in names:
        for _ in range(100):  # until the server has seen the old connection go
            client = await JavaG13Client.connect(port, name)
            if await client.login() == "VALID":
                break
            await client.close()
            await asyncio.sleep(0.05)
        created = await client.call("AskIfGameCreatedMsg")
        assert created["MoveStatus"].name == "INVALID"
        started = await client.call("GameStartedMsg")
        assert short(started) == "AnsGameStartedMsg" and started["nickname"] == [
            s.nickname for s in runtime.seats]
        back.append(client)
    return back


async def test_a_finished_player_logs_in_again_for_another_game(server: Any) -> None:
    port = port_of(server)
    clients = await start_game(port, 2, expert=False)
    await play_all(clients, seed=5, characters=False)
    for client in clients:
        await client.close()
    again = await rejoin_until_valid(port, "ada")
    created = await again.call("AskIfGameCreatedMsg")
    assert created["MoveStatus"].name == "VALID"  # no game waiting: create one
    answer = await again.call("NewGameMsg", numPlayers=2, modExpert=True)
    assert answer["MoveStatus"].name == "OK"
    assert [r.status for r in server[HUB].live() if r.seats[0].nickname == "ada"][-1] == "waiting"


async def rejoin_until_valid(port: int, name: str) -> JavaG13Client:
    for _ in range(100):
        client = await JavaG13Client.connect(port, name)
        if await client.login() == "VALID":
            return client
        await client.close()
        await asyncio.sleep(0.05)
    raise AssertionError(f"{name} could not log in again")


async def test_a_json_and_a_java_client_share_one_table(server: Any) -> None:
    """Both g13 dialects hold one conversation over the same matches."""
    json_client = await G13Client.connect(server[LISTENERS]["eriantys-g13"].port, "jason")
    await json_client.create(2, expert=True)
    waits = [await json_client.send("GameStartedMsg")]
    java_client = await JavaG13Client.connect(port_of(server), "jarvis")
    joined = await java_client.join()
    assert (await json_client.answer(waits[0]))["nicknames"] == ["jason", "jarvis"]
    assert (await java_client.answer(joined))["nickname"] == ["jason", "jarvis"]
    ends = await asyncio.gather(Bot(json_client, 1).run(), JavaBot(java_client, 2).run())
    assert ends[0]["winner"] == ends[1]["winner"]
    assert only_runtime(server).status == "finished"


@pytest.mark.parametrize("scenario,players,expert", [("g2-expert-full", 2, True),
                                                     ("g3-normal", 3, False)])
async def test_the_first_turn_says_what_the_originals_did(server: Any, scenario: str,
                                                          players: int, expert: bool) -> None:
    """At the same moment (the first assistant to choose) the same values, but for where
    chance put the students."""
    clients = await start_game(port_of(server), players, expert=expert)
    runtime = only_runtime(server)
    first = clients[runtime.state.planning_order[0]]
    answer = await first.call("FirstPlayerTurnMsg")
    assert answer["name"] == first.nickname
    assert start_facts(answer) == start_facts(recorded_first_turn(scenario))


async def test_a_cloud_asked_for_when_none_is_left_ends_the_turn(server: Any) -> None:
    """The last round with an empty bag: no cloud holds students, the original client still
    sends CloudMsg, and that ends its turn; after the round the game is over."""
    runtime = await hub_match(server[HUB], 2, ["monk", "farmer", "herald"], coins=0)
    state = runtime.state  # test set-up only: this match is never replayed
    state.bag, state.last_round = [0] * 5, True
    state.clouds = [[0] * 5 for _ in state.clouds]
    clients = await join_all(WIRE, port_of(server), ["eve", "fay"])
    ends = await asyncio.gather(*(JavaBot(c, 5 + i, characters=False).run()
                                  for i, c in enumerate(clients)))
    assert ends[0]["winner"] and runtime.outcome()["reason"] == "bag_empty"
    for client in clients:
        assert ("CloudMsg", "AnsCloudMsg") in client.pairs()
        clouds = [o for o in client.received if short(o) == "AnsNumStepMNMsg"]
        assert clouds and all(not c["stud"] for o in clouds for c in o["cloudTiles"])
