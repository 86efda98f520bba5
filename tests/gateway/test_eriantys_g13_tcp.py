"""Eriantys over real TCP in the seed-000 dialect (eriantys-g13): whole games, every error
answer of the document, every character flow, resume after a drop, and the heartbeat."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from eriantys_g13_client import (
    Bot, G13Client, next_wait, play_all, rejoin, run_until_stop, start_game,
)
from eriantys_g13_shared import (  # noqa: F401 (web and server are fixtures)
    Wire, hub_match, join_all, only_runtime, play_every_character, server, web,
)

from service.gateway.keys import HUB, LISTENERS
from service.sessions.dialects.eriantys_g13 import EriantysG13Conversation
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.sessions.notices import Notice, PresenceChanged

NAME = "eriantys-g13"
WIRE = Wire(G13Client, Bot, lambda answer: str(answer["type"]))


def port_of(app: Any) -> int:
    return app[LISTENERS][NAME].port


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_complete_expert_game(server: Any, players: int) -> None:
    clients = await start_game(port_of(server), players, expert=True)
    bots = await play_all(clients, seed=players)
    runtime = only_runtime(server)
    assert runtime.status == "finished"
    assert runtime.options.model_dump()["expert"] is True
    assert runtime.version == sum(b.applied for b in bots)  # nothing applied unannounced
    winners = [runtime.seats[s].nickname for s in runtime.outcome()["winners"]]
    assert clients[0].end is not None and clients[0].end["winner"] == winners


async def test_normal_game_and_its_characters_refused(server: Any) -> None:
    clients = await start_game(port_of(server), 2, expert=False)
    refused = await clients[0].call("CCMsg", card=2)
    assert refused["type"] == "AnsCannotPlayCCMsg" and refused["name"] == "ada"
    bots = [Bot(c, i) for i, c in enumerate(clients)]
    await asyncio.gather(*(b.run() for b in bots))
    assert not any(b.played for b in bots)
    assert only_runtime(server).status == "finished"


# --- every character ----------------------------------------------------------------


async def test_every_character_flow(server: Any) -> None:
    await play_every_character(WIRE, server, port_of(server))


# --- every error answer of the document ------------------------------------------------


async def test_every_error_answer(server: Any) -> None:
    hub: Hub = server[HUB]
    runtime = await hub_match(hub, 3, ["monk", "magic_mailman", "herald"], coins=1)
    clients = await join_all(WIRE, port_of(server), ["ann", "ben", "cid"])
    by_name = {c.nickname: c for c in clients}
    nicks = [s.nickname for s in runtime.seats]
    order = [by_name[nicks[s]] for s in runtime.state.planning_order]
    first = await order[0].call("FirstPlayerTurnMsg")
    assert first["type"] == "AnsFirstPlayerTurnMsg" and first["name"] == order[0].nickname
    assert (await order[0].call("TurnDecidedMsg", card="Tre"))["type"] == "AnsTurnDecidedMsg"
    cannot = await order[1].call("CCMsg", card=1)  # planning: no characters now
    assert cannot["type"] == "AnsCannotPlayCCMsg"
    assert (await order[1].call("CannotPlayCCMsg"))["type"] == "AnsPlayAfterNotCCMsg"
    assert (await order[1].call("FirstPlayerTurnMsg"))["type"] == "AnsFirstPlayerTurnMsg"
    dup = await order[1].call("TurnDecidedMsg", card="Tre")
    assert dup["type"] == "AnsTurnDecidedExcMsg" and dup["playedCards"] == ["Tre"]
    assert (await order[1].call("TurnDecidedMsg", card="Sette"))["type"] == "AnsTurnDecidedMsg"
    await order[2].call("FirstPlayerTurnMsg")
    decided = await order[2].call("TurnDecidedMsg", card="Nove")
    assert decided["nickname"] == [c.nickname for c in order]
    actor = order[0]
    assert (await actor.call("AskCAMsg"))["type"] == "AnsAskCAMsg"
    await character_errors(actor)
    seat = nicks.index(actor.nickname)
    runtime.state.players[seat].entrance = [9, 0, 0, 0, 0]  # set-up: only green students
    await student_errors(actor)
    await mother_nature_and_cloud_errors(actor)
    assert runtime.version == 3 + 1 + 4 + 2  # assistants, monk, students, MN + cloud


async def character_errors(actor: G13Client) -> None:
    assert (await actor.call("CCMsg", card=13))["type"] == "AnsCCNotInTableExcMsg"
    assert (await actor.call("CCMsg", card=5))["type"] == "AnsCCNotInTableExcMsg"
    assert (await actor.call("CCMsg", card=3))["type"] == "AnsNotEnoughCoinsExcMsg"
    asked = await actor.call("CCMsg", card=1)
    assert asked["type"] == "AnsCC1Msg" and asked["error"] is None
    on_card = asked["characterCard"]["students"]
    missing = next(c for c, n in on_card.items() if n == 0)
    present = next(c for c, n in on_card.items() if n > 0)
    bad = await actor.call("CC1Msg", isl=0, stud=missing)
    assert bad["type"] == "AnsCC1Msg" and bad["error"] == "rules/student_not_on_character"
    bad = await actor.call("CC1Msg", isl=99, stud=present)
    assert bad["type"] == "AnsCC1Msg" and bad["error"] == "rules/no_such_island"
    done = await actor.call("CC1Msg", isl=0, stud=present)
    assert done["type"] == "AnsPlayAfterCCMsg" and done["characterCard"]["number"] == 1
    assert (await actor.call("CCMsg", card=4))["type"] == "AnsPlayerAlrUsedCCExcMsg"
    assert (await actor.call("CannotPlayCCMsg"))["type"] == "AnsPlayAfterNotCCMsg"


async def student_errors(actor: G13Client) -> None:
    wrong = await actor.call("MoveStudent2Msg", colour="Green", location=123)
    assert wrong["type"] == "ErrorMsg" and wrong["code"] == "protocol/wrong_move_number"
    for n in range(1, 5):
        colour = await actor.call(f"MoveStudent{n}Msg", colour="Red", location=123)
        assert colour["type"] == f"AnsColorExc{n}Msg"
        island = await actor.call(f"MoveStudent{n}Msg", colour="Green", location=99)
        assert island["type"] == f"AnsIslandExc{n}Msg"
        moved = await actor.call(f"MoveStudent{n}Msg", colour="Green", location=123 if n % 2 else 0)
        assert moved["type"] == f"AnsMoveStudent{n}Msg"


async def mother_nature_and_cloud_errors(actor: G13Client) -> None:
    for steps in (0, 99):
        wrong = await actor.call("NumStepMNMsg", steps=steps)
        assert wrong == {**wrong, "type": "AnsNumStepMNExcMsg", "name": actor.nickname}
    stepped = await actor.call("NumStepMNMsg", steps=1)
    assert stepped["type"] == "AnsNumStepMNMsg" and len(stepped["clouds"]) == 3
    for cloud in (99, -1):
        wrong = await actor.call("CloudMsg", cloud=cloud)
        assert wrong == {**wrong, "type": "AnsNumCloudExcMsg", "name": actor.nickname}
    assert (await actor.call("CloudMsg", cloud=0))["type"] == "AnsCloudMsg"


async def test_bad_lines_change_nothing(server: Any) -> None:
    clients = await start_game(port_of(server), 2, expert=True)
    runtime = only_runtime(server)
    ada = clients[0]
    for line in ("not json", "[1,2]", '{"type":"NoSuchMsg","identifier":"x"}',
                 '{"type":"TurnDecidedMsg","card":"Uno"}',
                 '{"type":"TurnDecidedMsg","identifier":"1c3b3b4e-8a3e-4a43-9d1c-4f1f3c0b6a11",'
                 '"card":"Undici"}'):
        await ada.send_raw(line)
        error = await ada.recv()
        assert error["type"] == "ErrorMsg" and error["code"].startswith("protocol/"), error
    other = await ada.call("MoveStudent1Msg", colour="Green", location=123)
    assert other["type"] == "ErrorMsg" and other["code"] in ("rules/wrong_phase",
                                                             "rules/not_your_turn")
    assert runtime.version == 0


async def test_login_rules(server: Any) -> None:
    port = port_of(server)
    early = await G13Client.connect(port, "early")
    answer = await early.call("NewGameMsg", numPlayers=2, modExpert=True)
    assert answer["type"] == "ErrorMsg" and answer["code"] == "protocol/not_logged_in"
    clients = await start_game(port, 2, expert=True)
    again = await G13Client.connect(port, "ada")
    assert (await again.login())["status"] == "INVALID"  # "ada" is playing right now
    lonely = await G13Client.connect(port, "eve")
    assert (await lonely.login())["status"] == "VALID"
    joined = await lonely.call("GameStartedMsg")
    assert joined == {**joined, "type": "AnsGameCreatedMsg", "status": "VALID"}  # none waiting
    bad = await lonely.call("NewGameMsg", numPlayers=5, modExpert=True)
    assert bad == {**bad, "type": "BooleanCheckMsg", "status": "KO"}
    await asyncio.gather(*(c.close() for c in clients))


async def test_a_nickname_logs_in_once_even_before_it_has_a_seat(server: Any) -> None:
    port = port_of(server)
    first = await G13Client.connect(port, "zoe")
    assert (await first.login())["status"] == "VALID"
    second = await G13Client.connect(port, "ZOE".lower())
    assert (await second.login())["status"] == "INVALID"
    racers = [await G13Client.connect(port, "kim") for _ in range(3)]
    answers = await asyncio.gather(*(r.login() for r in racers))
    assert sorted(a["status"] for a in answers) == ["INVALID", "INVALID", "VALID"]
    await first.close()
    await wait_until_logged_out(server, "zoe")
    third = await G13Client.connect(port, "zoe")
    assert (await third.login())["status"] == "VALID"  # free again once the first has gone


async def wait_until_logged_out(server: Any, nickname: str) -> None:
    hub = server[HUB]
    player = await hub.player_by_nickname(nickname)
    for _ in range(200):
        if player.id not in hub.dialect_state("eriantys-g13", dict):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{nickname} still logged in")


# --- resume and heartbeat ------------------------------------------------------------


class PresenceWatcher:
    """A test listener: an event per seat that drops."""

    def __init__(self) -> None:
        self.gone: dict[int, asyncio.Event] = {}

    def notify(self, match: MatchRuntime, notice: Notice) -> None:
        if isinstance(notice, PresenceChanged) and not notice.present:
            self.gone.setdefault(notice.seat, asyncio.Event()).set()

    async def wait_gone(self, seat: int) -> None:
        await asyncio.wait_for(self.gone.setdefault(seat, asyncio.Event()).wait(), 10)


async def test_drop_and_login_again_resumes(server: Any) -> None:
    port = port_of(server)
    clients = await start_game(port, 2, expert=True)
    runtime = only_runtime(server)
    watcher = PresenceWatcher()
    runtime.attach(watcher, None)
    bots = [Bot(c, 7 + i, stop_after=4) for i, c in enumerate(clients)]
    await run_until_stop(bots)
    version = runtime.version
    assert version >= 3  # both assistants and at least one more action
    seat = runtime.seat_of((await server[HUB].player_by_nickname("bruno")).id)
    await clients[1].close()
    await watcher.wait_gone(seat)
    back, board, wait, pending = await rejoin(port, "bruno")
    assert board["phase"] == "action" and board["round"] == 1
    assert (pending is not None) == (board["toAct"] == ["bruno"])
    assert runtime.version == version
    ada, bruno = Bot(clients[0], 70), Bot(back, 71)
    await asyncio.gather(ada.run(next_wait(board, "ada")), bruno.run(wait, first=pending))
    assert runtime.status == "finished"


async def test_silent_client_is_dropped(server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EriantysG13Conversation, "ping_interval", 0.05)
    monkeypatch.setattr(EriantysG13Conversation, "silence_limit", 2.0)  # login must fit
    client = await G13Client.connect(port_of(server), "quiet")
    assert (await client.login())["status"] == "VALID"
    ping = json.loads(await client.line.recv())
    assert ping == {**ping, "type": "PingSMSG", "parentIdentifier": None}
    assert await client.line.closed()


async def test_a_finished_player_starts_another_game(server: Any) -> None:
    port = port_of(server)
    clients = await start_game(port, 2, expert=False)
    await play_all(clients, seed=5, characters=False)
    ada = clients[0]
    again = await ada.call("NewGameMsg", numPlayers=2, modExpert=True)
    assert again == {**again, "type": "BooleanCheckMsg", "status": "OK"}
    assert len(server[HUB].live()) == 2


async def test_websocket_speaks_the_dialect(web: Any) -> None:
    ws = await web.ws_connect("/ws/eriantys-g13")
    await ws.send_str(json.dumps({"type": "LoginMsg", "name": "wendy",
                                  "identifier": "3f0c6a2e-8d1b-4c5a-9e7f-1b2c3d4e5f60"}))
    answer = json.loads(await asyncio.wait_for(ws.receive_str(), 10))
    assert answer == {**answer, "type": "AnswIfAllowedMsg", "status": "VALID",
                      "parentIdentifier": "3f0c6a2e-8d1b-4c5a-9e7f-1b2c3d4e5f60"}
    await ws.close()


async def test_pings_are_answered(server: Any) -> None:
    client = await G13Client.connect(port_of(server), "pinger")
    answer = await client.call("PingCMSG")
    assert answer["type"] == "PingSMSG"
