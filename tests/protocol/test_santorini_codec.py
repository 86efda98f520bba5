"""The seed-001 codec: every message shape round-trips, bad lines are refused, any split works."""

from __future__ import annotations

import json

import pytest

from service.errors import ProtocolError
from service.protocol import santorini as wire
from service.protocol.framing import LineFramer

CELL = wire.Cell(player="bill", workerColor="BLUE", height=2, lastBlock="LEVEL_2")
EMPTY = wire.Cell(player=None, workerColor=None, height=0, lastBlock="GROUND")
MATRIX = [[CELL if (x, y) == (1, 2) else EMPTY for y in range(5)] for x in range(5)]
CARD = wire.Card(cardName="APOLLO", cardType="MOVEMENT", chooseBasic=False,
                 numberOfPlayersAllowed=3, cardEffect="Your Move: ...")

CLIENT = [
    wire.AddPlayer(playerNickname="bill", lobbySize=2),
    wire.GetDeck(),
    wire.PickCards(cards=["ATHENA", "APOLLO"]),
    wire.ChooseCard(playerNickname="bill", card="APOLLO"),
    wire.PlaceWorkers(playerNickname="bill", workersPosition=[
        wire.WorkerPosition(workerID=0, x=4, y=4), wire.WorkerPosition(workerID=1, x=4, y=3)]),
    wire.GetPlayers(),
    wire.GetBattlefield(),
    wire.SetStartTurn(playerNickname="bill", basicTurn=True),
    wire.SelectWorker(playerNickname="bill", x=4, y=4),
    wire.PlayStep(x=3, y=4),
    wire.SkipStep(),
    wire.Pong(),
    wire.Ping(),
]

SERVER = [
    wire.AddPlayerResponse(playerNickname="bill", lobbySize=2, lobbyState=True, validNick=True,
                           fullLobby=False),
    wire.PickedCardsRequest(playerNickname="bill"),
    wire.DeckResponse(deck=wire.Deck(listOfCards=[CARD])),
    wire.PlayerCardRequest(cards=["ATHENA", "APOLLO"]),
    wire.WorkersRequest(workersID=[2, 3]),
    wire.PlayersResponse(players=[wire.PlayerInfo(playerNickname="bill", color="BLUE", card="APOLLO")]),
    wire.BattlefieldResponse(cellMatrix=MATRIX),
    wire.BattlefieldUpdate(cellMatrix=MATRIX),
    wire.ActualPlayer(playerNickname="bill"),
    wire.StartTurnResponse(playerNickname="bill", basicTurn=True, currentStep="MOVE"),
    wire.WorkerView(workerView=[[x == y for y in range(5)] for x in range(5)]),
    wire.PlayStepResponse(x=4, y=4, nextStep="END"),
    wire.SkipStepResponse(currentStep="END"),
    wire.YouWin(),
    wire.YouLose(),
    wire.ServerError(error="boom"),
    wire.Ping(),
    wire.Pong(),
    wire.PlayerDisconnected(playerNickname="bill"),
    wire.PlayerReconnected(playerNickname="bill"),
]


@pytest.mark.parametrize("message", CLIENT, ids=lambda m: m.action)
def test_client_messages_round_trip(message: wire.Message) -> None:
    line = message.line()
    assert wire.parse(line) == message
    obj = json.loads(line)
    assert obj["action"] == message.action
    assert ("data" in obj) == bool(message.data())  # data left out when empty
    assert " " not in line or "data" in obj  # compact separators


@pytest.mark.parametrize("message", SERVER, ids=lambda m: m.action)
def test_server_messages_round_trip(message: wire.Message) -> None:
    assert wire.parse_server(message.line()) == message


def test_exact_lines_of_the_document() -> None:
    assert wire.Ping().line() == '{"action":"ping"}'
    assert wire.AddPlayerResponse(playerNickname="bill", lobbySize=2, lobbyState=True,
                                  validNick=True, fullLobby=False).line() == (
        '{"action":"addPlayerResponse","data":{"playerNickname":"bill","lobbySize":2,'
        '"lobbyState":true,"validNick":true,"fullLobby":false}}')
    assert wire.DeckResponse(deck=wire.Deck(listOfCards=[CARD])).line().startswith(
        '{"action":"getDeckResponse","data":{"deck":{"listOfCards":[{"cardName":"APOLLO",'
        '"cardType":"MOVEMENT","chooseBasic":false,"numberOfPlayersAllowed":3,')
    assert wire.parse('{"action":"skipStep","data":{}}') == wire.SkipStep()
    assert wire.parse('{"action":"getDeck","data":null}') == wire.GetDeck()
    assert wire.parse('{"action":"playStep","data":{"x":1,"y":2,"extra":true}}') == wire.PlayStep(x=1, y=2)


@pytest.mark.parametrize(("line", "code"), [
    ("", "protocol/bad_json"),
    ("{", "protocol/bad_json"),
    ("[]", "protocol/bad_message"),
    ('"addPlayer"', "protocol/bad_message"),
    ('{"data":{}}', "protocol/bad_message"),
    ('{"action":7}', "protocol/bad_message"),
    ('{"action":"getDeck","data":[1]}', "protocol/bad_message"),
    ('{"action":"launch"}', "protocol/unknown_action"),
    ('{"action":"youWin"}', "protocol/unknown_action"),  # a server message sent to the server
    ('{"action":"addPlayer","data":{"playerNickname":"a"}}', "protocol/bad_shape"),
    ('{"action":"addPlayer","data":{"playerNickname":1,"lobbySize":2}}', "protocol/bad_shape"),
    ('{"action":"playStep","data":{"x":"1","y":1}}', "protocol/bad_shape"),
    ('{"action":"playStep","data":{"x":5,"y":1}}', "protocol/bad_shape"),
    ('{"action":"playStep","data":{"x":-1,"y":1}}', "protocol/bad_shape"),
    ('{"action":"setStartTurn","data":{"playerNickname":"a","basicTurn":1}}', "protocol/bad_shape"),
    ('{"action":"setPickedCards","data":{"cards":"ATHENA"}}', "protocol/bad_shape"),
    ('{"action":"setWorkersPosition","data":{"playerNickname":"a","workersPosition":[{"x":1}]}}',
     "protocol/bad_shape"),
])
def test_bad_lines_are_refused(line: str, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        wire.parse(line)
    assert caught.value.code == code
    assert caught.value.message


def test_lines_split_at_every_byte_boundary() -> None:
    stream = "".join(m.line() + "\n" for m in CLIENT).replace("bill", "bïll").encode()
    for cut in range(len(stream) + 1):
        framer = LineFramer(max_line=wire.MAX_LINE)
        frames = framer.feed(stream[:cut]) + framer.feed(stream[cut:])
        parsed = [wire.parse(f) for f in frames if isinstance(f, str)]
        assert len(parsed) == len(CLIENT) == len(frames)
        assert parsed[0] == wire.AddPlayer(playerNickname="bïll", lobbySize=2)
