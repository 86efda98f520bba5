"""The seed-000 wire format (Eriantys, group 13) as JSON lines, sans I/O.

The original sent Java-serialized message objects; here each message is one JSON
object on one line: ``{"type": "<MessageName>", "identifier": "<uuid>", ...fields}``.
Answers also carry ``parentIdentifier``, the identifier of the command they answer
(``null`` for the few messages the server sends on its own). Field names are the
original's; colours are ``Green Red Yellow Pink Blue``; assistant cards ``Uno``..``Dieci``.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from service.errors import ProtocolError
from service.protocol.jsonwire import load_json, load_object

#: wire colour <-> engine colour
COLOURS: tuple[str, ...] = ("Green", "Red", "Yellow", "Pink", "Blue")
TO_ENGINE_COLOUR: dict[str, str] = {c: c.lower() for c in COLOURS}
FROM_ENGINE_COLOUR: dict[str, str] = {c.lower(): c for c in COLOURS}
#: assistant names, value 1..10
CARDS: tuple[str, ...] = ("Uno", "Due", "Tre", "Quattro", "Cinque", "Sei", "Sette", "Otto",
                          "Nove", "Dieci")
CARD_VALUE: dict[str, int] = {name: i + 1 for i, name in enumerate(CARDS)}
#: ``MoveStudentNMsg.location`` meaning "my dining room"
DINING_ROOM = 123
#: character cards that need arguments (answered with AnsCC<n>Msg, then CC<n>Msg)
CC_WITH_ARGUMENTS: tuple[int, ...] = (1, 3, 5, 7, 9, 10, 11, 12)
MAX_NAME = 32
MAX_LIST = 8
MAX_INT = 10_000

# field kinds of client messages
STR, INT, BOOL, COLOUR, COLOURS_LIST, CARD, NAMES = (
    "str", "int", "bool", "colour", "colours", "card", "names")

#: every message a client may send: name -> {field: kind}; optional fields end with "?"
CLIENT_MESSAGES: dict[str, dict[str, str]] = {
    "LoginMsg": {"name": STR},
    "AskIfGameCreatedMsg": {},
    "NewGameMsg": {"numPlayers": INT, "modExpert": BOOL},
    "GameStartedMsg": {},
    "FirstPlayerTurnMsg": {},
    "TurnDecidedMsg": {"card": CARD},
    "AskCAMsg": {"nicknames?": NAMES},
    "CCMsg": {"card": INT},
    "CC1Msg": {"isl": INT, "stud": COLOUR},
    "CC3Msg": {"isl": INT},
    "CC5Msg": {"isl": INT},
    "CC7Msg": {"students": COLOURS_LIST, "entrancestud": COLOURS_LIST},
    "CC9Msg": {"color": COLOUR},
    "CC10Msg": {"entrancestud": COLOURS_LIST, "diningstud": COLOURS_LIST},
    "CC11Msg": {"color": COLOUR},
    "CC12Msg": {"color": COLOUR},
    "CannotPlayCCMsg": {},
    **{f"MoveStudent{n}Msg": {"colour": COLOUR, "location": INT} for n in range(1, 5)},
    "NumStepMNMsg": {"steps": INT},
    "CloudMsg": {"cloud": INT},
    "CheckTurnEndedMsg": {},
    "NewOrderMsg": {},
    "PingCMSG": {},
}

_BOARD_ANSWER = ("name", "dca", "generalBoard", "playedCards")
#: every message the server sends: name -> its fields (besides type/identifier/parentIdentifier)
SERVER_MESSAGES: dict[str, tuple[str, ...]] = {
    "AnswIfAllowedMsg": ("status",),
    "AnsGameCreatedMsg": ("status",),
    "BooleanCheckMsg": ("status",),
    "AnsGameStartedMsg": ("nicknames", "numPlayers", "modexp"),
    "AnsFirstPlayerTurnMsg": _BOARD_ANSWER,
    "AnsTurnDecidedMsg": ("nickname",),
    "AnsTurnDecidedExcMsg": _BOARD_ANSWER,
    "AnsAskCAMsg": ("name", "generalBoard", "characterCards", "modexp"),
    "AnsEndGameMsg": ("winner", "draw", "reason"),
    "AnsCannotPlayCCMsg": ("name",),
    "AnsCCNotInTableExcMsg": (),
    "AnsPlayerAlrUsedCCExcMsg": (),
    "AnsNotEnoughCoinsExcMsg": (),
    **{f"AnsCC{n}Msg": ("generalBoard", "characterCard", "error") for n in CC_WITH_ARGUMENTS},
    "AnsPlayAfterCCMsg": ("name", "generalBoard", "characterCard"),
    "AnsPlayAfterNotCCMsg": ("name", "generalBoard", "characterCard"),
    **{f"AnsMoveStudent{n}Msg": ("name", "generalBoard", "characterCards") for n in range(1, 5)},
    **{f"AnsColorExc{n}Msg": () for n in range(1, 5)},
    **{f"AnsIslandExc{n}Msg": () for n in range(1, 5)},
    "AnsNumStepMNMsg": ("name", "clouds"),
    "AnsNumStepMNExcMsg": ("name",),
    "AnsNumCloudExcMsg": ("name",),
    "AnsCloudMsg": (),
    "AnsNewTurnMsg": ("name",),
    "AnsNewOrderMsg": _BOARD_ANSWER,
    "PingSMSG": (),
    # Tavolo extensions
    "GameStateMsg": ("name", "generalBoard", "characterCards", "modexp"),
    "ErrorMsg": ("code", "message"),
}


@dataclass(frozen=True)
class ClientMsg:
    """One parsed client message: its type, its identifier and its (checked) fields."""

    type: str
    identifier: str
    fields: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]


def parse(line: str) -> ClientMsg:
    """One client line to a message; ProtocolError (stable code) when it is not one."""
    data = load_object(line)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in CLIENT_MESSAGES:
        raise ProtocolError(f"unknown message type {kind!r}", code="protocol/unknown_type")
    identifier = _identifier(data.get("identifier"))
    spec = CLIENT_MESSAGES[kind]
    known = {name.rstrip("?") for name in spec} | {"type", "identifier"}
    extra = sorted(set(data) - known)
    if extra:
        raise ProtocolError(f"{kind} has no field {extra[0]!r}", code="protocol/unknown_field")
    fields: dict[str, Any] = {}
    for name, kind_of in spec.items():
        optional = name.endswith("?")
        name = name.rstrip("?")
        if name not in data:
            if optional:
                continue
            raise ProtocolError(f"{kind} needs the field {name!r}", code="protocol/missing_field")
        fields[name] = _check(kind, name, kind_of, data[name])
    return ClientMsg(kind, identifier, fields)


def identifier_of(line: str) -> str | None:
    """The identifier of a line that may not parse, so an error can still name its parent."""
    try:
        data = load_json(line)
    except ProtocolError:
        return None
    found = data.get("identifier") if isinstance(data, dict) else None
    return found if isinstance(found, str) and len(found) <= 64 else None


def _identifier(value: Any) -> str:
    if not isinstance(value, str):
        raise ProtocolError("every message needs an identifier (a UUID string)",
                            code="protocol/bad_identifier")
    try:
        uuid.UUID(value)
    except ValueError:
        raise ProtocolError(f"identifier {value[:64]!r} is not a UUID",
                            code="protocol/bad_identifier") from None
    return value


def _check(message: str, name: str, kind: str, value: Any) -> Any:
    where = f"{message}.{name}"
    if kind == STR:
        if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME or not value.isprintable():
            raise ProtocolError(f"{where}: a name of 1-{MAX_NAME} printable characters",
                                code="protocol/bad_field")
        return value
    if kind == INT:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_INT:
            raise ProtocolError(f"{where}: an integer", code="protocol/bad_field")
        return value
    if kind == BOOL:
        if not isinstance(value, bool):
            raise ProtocolError(f"{where}: true or false", code="protocol/bad_field")
        return value
    if kind == COLOUR:
        return _colour(where, value)
    if kind == CARD:
        if not isinstance(value, str) or value not in CARD_VALUE:
            raise ProtocolError(f"{where}: one of {', '.join(CARDS)}", code="protocol/bad_card")
        return value
    return _list(where, kind, value)


def _colour(where: str, value: Any) -> str:
    if not isinstance(value, str) or value not in TO_ENGINE_COLOUR:
        raise ProtocolError(f"{where}: one of {', '.join(COLOURS)}", code="protocol/bad_colour")
    return str(value)


def _list(where: str, kind: str, value: Any) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_LIST:
        raise ProtocolError(f"{where}: a list of at most {MAX_LIST}", code="protocol/bad_field")
    if kind == COLOURS_LIST:
        return [_colour(where, v) for v in value]
    return [_check(where, "item", STR, v) for v in value]


# --- server messages ---------------------------------------------------------------


def new_identifier() -> str:
    return str(uuid.uuid4())


def format_message(kind: str, parent: str | None = None, **fields: Any) -> str:
    """A server message as one JSON line (without the newline); checks the field set."""
    spec = SERVER_MESSAGES.get(kind)
    if spec is None:
        raise ValueError(f"unknown server message {kind}")
    if set(fields) != set(spec):
        raise ValueError(f"{kind} takes {spec}, got {tuple(fields)}")
    message = {"type": kind, "identifier": new_identifier(), "parentIdentifier": parent, **fields}
    return json.dumps(message, separators=(",", ":"))


def format_client(kind: str, identifier: str | None = None, **fields: Any) -> str:
    """A client message as one JSON line (for clients and tests)."""
    message = {"type": kind, "identifier": identifier or new_identifier(), **fields}
    return json.dumps(message, separators=(",", ":"))


def error(parent: str | None, code: str, message: str) -> str:
    return format_message("ErrorMsg", parent, code=code, message=message)
