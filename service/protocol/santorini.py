"""The seed-001 wire format (Santorini): one compact JSON object per line, sans I/O.

Every message is ``{"action": "<name>", "data": {...}}``; ``data`` is left out when
empty. Some names travel both ways with different data (``setPickedCards``,
``setPlayerCard``, ``setWorkersPosition``), so there is one table of shapes per
direction. Client messages are parsed strictly on what they must hold (types are
not coerced: ``"x": "3"`` is refused) and unknown extra keys are ignored, as the
original Gson-based server did.

Tavolo extensions (server to client, documented in docs/protocols/santorini.md):
``playerDisconnected {playerNickname}`` and ``playerReconnected {playerNickname}``.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from service.errors import ProtocolError
from service.protocol.jsonwire import load_json

MAX_LINE = 16 * 1024
SIZE = 5

Coord = Annotated[int, Field(ge=0, le=SIZE - 1)]
Step = Literal["MOVE", "MOVE_SPECIAL", "MOVE_UNTIL", "BUILD", "BUILD_SPECIAL", "REMOVE", "FORCE", "END"]
Colour = Literal["BROWN", "GREY", "BLUE"]
Block = Literal["GROUND", "LEVEL_1", "LEVEL_2", "LEVEL_3", "DOME"]
CardType = Literal["MOVEMENT", "BUILD", "BUILDING", "WIN"]


class Message(BaseModel):
    """One message; subclasses name their ``action`` and declare their data fields."""

    model_config = ConfigDict(strict=True, frozen=True, extra="ignore", populate_by_name=True)
    action: ClassVar[str]

    def data(self) -> dict[str, Any]:
        """The data object; null fields are left out, as Gson (the original's JSON library) did."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)

    def line(self) -> str:
        return encode(self.action, self.data())


#: characters Gson escapes by default (HTML-safe output); none can occur outside a string
GSON_ESCAPES = str.maketrans({c: f"\\u{ord(c):04x}" for c in "<>&='"})


def encode(action: str, data: dict[str, Any] | None = None) -> str:
    """One compact JSON line (without the newline); ``data`` left out when empty; ``' < > & =``
    escaped as ``\\u0027 …`` like the original's Gson output."""
    obj: dict[str, Any] = {"action": action}
    if data:
        obj["data"] = data
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).translate(GSON_ESCAPES)


# --- client to server ------------------------------------------------------------------


class AddPlayer(Message):
    action: ClassVar[str] = "addPlayer"
    playerNickname: str
    lobbySize: int


class GetDeck(Message):
    action: ClassVar[str] = "getDeck"


class PickCards(Message):
    """The god player's pick: ``setPickedCards {cards}``."""

    action: ClassVar[str] = "setPickedCards"
    cards: list[str]


class ChooseCard(Message):
    """A player's choice among the cards left: ``setPlayerCard {playerNickname, card}``."""

    action: ClassVar[str] = "setPlayerCard"
    playerNickname: str
    card: str


class WorkerPosition(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="ignore")
    workerID: int
    x: Coord
    y: Coord


class PlaceWorkers(Message):
    """``setWorkersPosition {playerNickname, workersPosition: [{workerID,x,y}, ...]}``."""

    action: ClassVar[str] = "setWorkersPosition"
    playerNickname: str
    workersPosition: list[WorkerPosition]


class GetPlayers(Message):
    action: ClassVar[str] = "getPlayers"


class GetBattlefield(Message):
    action: ClassVar[str] = "getBattlefield"


class SetStartTurn(Message):
    action: ClassVar[str] = "setStartTurn"
    playerNickname: str
    basicTurn: bool


class SelectWorker(Message):
    action: ClassVar[str] = "selectWorker"
    playerNickname: str
    x: Coord
    y: Coord


class PlayStep(Message):
    action: ClassVar[str] = "playStep"
    x: Coord
    y: Coord


class SkipStep(Message):
    action: ClassVar[str] = "skipStep"


class Pong(Message):
    action: ClassVar[str] = "pong"


class Ping(Message):
    action: ClassVar[str] = "ping"


CLIENT_MESSAGES: dict[str, type[Message]] = {m.action: m for m in (
    AddPlayer, GetDeck, PickCards, ChooseCard, PlaceWorkers, GetPlayers, GetBattlefield,
    SetStartTurn, SelectWorker, PlayStep, SkipStep, Pong, Ping)}


# --- server to client ------------------------------------------------------------------


class AddPlayerResponse(Message):
    action: ClassVar[str] = "addPlayerResponse"
    playerNickname: str
    lobbySize: int
    #: the lobby size asked for exists on the server (2 or 3)
    lobbyState: bool
    #: the player was added (nickname free and valid, size valid, room on the server)
    validNick: bool
    #: the server has reached its maximum number of running lobbies
    fullLobby: bool


class PickedCardsRequest(Message):
    """Broadcast when a lobby is full: ``playerNickname`` is the god player, who picks."""

    action: ClassVar[str] = "setPickedCards"
    playerNickname: str


class Card(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")
    cardName: str
    cardType: CardType
    chooseBasic: bool
    numberOfPlayersAllowed: int
    cardEffect: str


class Deck(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")
    listOfCards: list[Card]


class DeckResponse(Message):
    action: ClassVar[str] = "getDeckResponse"
    deck: Deck


class PlayerCardRequest(Message):
    """To the player whose turn it is to choose: the cards still on offer."""

    action: ClassVar[str] = "setPlayerCard"
    cards: list[str]


class WorkersRequest(Message):
    """To the player who places next: its worker ids."""

    action: ClassVar[str] = "setWorkersPosition"
    workersID: list[int]


class PlayerInfo(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")
    playerNickname: str
    color: Colour | None = None
    card: str | None = None


class PlayersResponse(Message):
    action: ClassVar[str] = "getPlayersResponse"
    players: list[PlayerInfo]


class Cell(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")
    #: left out (as Gson left nulls out) on a cell without a worker
    player: str | None = None
    workerColor: Colour | None = None
    height: int = Field(ge=0, le=4)
    lastBlock: Block


class BattlefieldResponse(Message):
    action: ClassVar[str] = "getBattlefieldResponse"
    cellMatrix: list[list[Cell]]


class BattlefieldUpdate(Message):
    action: ClassVar[str] = "battlefieldUpdate"
    cellMatrix: list[list[Cell]]


class ActualPlayer(Message):
    action: ClassVar[str] = "actualPlayer"
    playerNickname: str


class StartTurnResponse(Message):
    action: ClassVar[str] = "setStartTurnResponse"
    playerNickname: str
    basicTurn: bool
    currentStep: Step


class WorkerView(Message):
    action: ClassVar[str] = "workerViewUpdate"
    workerView: list[list[bool]]


class PlayStepResponse(Message):
    action: ClassVar[str] = "playStepResponse"
    x: Coord
    y: Coord
    nextStep: Step


class SkipStepResponse(Message):
    action: ClassVar[str] = "skipStepResponse"
    currentStep: Step


class YouWin(Message):
    action: ClassVar[str] = "youWin"


class YouLose(Message):
    action: ClassVar[str] = "youLose"


class ServerError(Message):
    action: ClassVar[str] = "serverError"
    error: str


class PlayerDisconnected(Message):
    """Tavolo extension: a seated player's connection dropped; the match waits for it."""

    action: ClassVar[str] = "playerDisconnected"
    playerNickname: str


class PlayerReconnected(Message):
    """Tavolo extension: that player is back (``addPlayer`` with the same nickname)."""

    action: ClassVar[str] = "playerReconnected"
    playerNickname: str


SERVER_MESSAGES: dict[str, type[Message]] = {m.action: m for m in (
    AddPlayerResponse, PickedCardsRequest, DeckResponse, PlayerCardRequest, WorkersRequest,
    PlayersResponse, BattlefieldResponse, BattlefieldUpdate, ActualPlayer, StartTurnResponse,
    WorkerView, PlayStepResponse, SkipStepResponse, YouWin, YouLose, ServerError, Ping, Pong,
    PlayerDisconnected, PlayerReconnected)}


# --- decoding -----------------------------------------------------------------------------


def split(line: str) -> tuple[str, dict[str, Any]]:
    """A line to (action, data); ProtocolError when it is not a JSON message object."""
    obj = load_json(line)
    if not isinstance(obj, dict):
        raise ProtocolError("a message is a JSON object", code="protocol/bad_message")
    action = obj.get("action")
    if not isinstance(action, str):
        raise ProtocolError("a message needs a string \"action\"", code="protocol/bad_message")
    data = obj.get("data")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ProtocolError(f"the data of {action} must be an object", code="protocol/bad_message")
    return action, data


def _parse(line: str, table: dict[str, type[Message]]) -> Message:
    action, data = split(line)
    kind = table.get(action)
    if kind is None:
        raise ProtocolError(f"unknown action {action!r}", code="protocol/unknown_action")
    try:
        return kind.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'data'}: {e['msg']}"
                             for e in exc.errors()[:3])
        raise ProtocolError(f"bad {action}: {problems}", code="protocol/bad_shape") from None


def parse(line: str) -> Message:
    """One client line to its message."""
    return _parse(line, CLIENT_MESSAGES)


def parse_server(line: str) -> Message:
    """One server line to its message (clients and tests)."""
    return _parse(line, SERVER_MESSAGES)


def error(text: str) -> str:
    return ServerError(error=text).line()
