"""Seed 000 (Eriantys, group 13) on its original wire: Java object serialization, sans I/O.

Each direction is one ``ObjectOutputStream``: the header ``AC ED 00 05``, then per message
``writeObject(msg); flush(); reset()``. Client objects are ``it.polimi.ingsw.messages``
commands, server objects answers; their classes are exactly those of
:mod:`service.protocol.eriantys_g13_java_classes`.

The two g13 dialects share one conversation (``sessions/dialects/eriantys_g13.py``) whose
client messages are the JSON dialect's (:mod:`service.protocol.eriantys_g13`). So the framer
here turns each command object into that JSON line (original field names mapped to the JSON
dialect's: ``TurnDecidedMsg.c`` -> ``card``, ``MoveStudentNMsg.s/l`` -> ``colour/location``,
``NumStepMNMsg.step`` -> ``steps``, ``CCMsg.numcard`` -> ``card``), and server messages are
written by :func:`render` / :func:`format_message` as the bytes of one serialized object,
carried to the framer as a latin-1 string (one character per byte).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from service.protocol.eriantys_g13_java_classes import G, REGISTRY
from service.protocol.eriantys_g13_java_model import Pictures
from service.protocol.framing import FrameError
from service.protocol.javaser import JavaStreamError, JEnum, JObject, Limits, StreamReader
from service.protocol.javaser_writer import StreamWriter

#: a client object may take at most this many bytes (the largest recorded one takes 403)
MAX_CLIENT_OBJECT = 16 * 1024
LIMITS = Limits(max_object_bytes=MAX_CLIENT_OBJECT, max_depth=16, max_handles=1024,
                max_string=1024, max_items=64)
#: codes of errors after which the client's stream cannot be read on: the connection ends
FATAL_CODES = frozenset({
    "protocol/bad_stream", "protocol/refused_class", "protocol/bad_encoding",
    "protocol/too_deep", "protocol/too_long", "protocol/too_many_objects",
    "protocol/frame_too_long", "protocol/bad_enum"})
COMMAND = G + "CommandMsg"

#: command class -> {original field: the JSON dialect's field}
_RENAMES: dict[str, dict[str, str]] = {
    "TurnDecidedMsg": {"c": "card"},
    **{f"MoveStudent{n}Msg": {"s": "colour", "l": "location"} for n in range(1, 5)},
    "NumStepMNMsg": {"step": "steps"},
    "CCMsg": {"numcard": "card"},
}


# --- client -> server ----------------------------------------------------------------------


class JavaFramer:
    """Bytes of the client's object stream in, JSON dialect lines (or FrameErrors) out; server
    frames (latin-1 strings of serialized bytes) back to bytes. Never raises on input."""

    def __init__(self) -> None:
        self.reader = StreamReader(REGISTRY, LIMITS)

    def feed(self, data: bytes) -> list[str | FrameError]:
        out: list[str | FrameError] = []
        for item in self.reader.feed(data):
            if isinstance(item, JavaStreamError):
                out.append(FrameError(item.code, item.message))
            else:
                out.append(client_line(item))
        return out

    def encode(self, frame: str) -> bytes:
        return frame.encode("latin-1")


def client_line(value: Any) -> str | FrameError:
    """One decoded object as the JSON dialect's line, or why it is no command."""
    if not isinstance(value, JObject) or not REGISTRY.is_a(value.cls, COMMAND):
        name = value.cls if isinstance(value, JObject) else type(value).__name__
        return FrameError("protocol/unexpected_class", f"{name[:80]} is not a command")
    kind = value.cls[len(G):]
    renames = _RENAMES.get(kind, {})
    identifier = value.fields.get("identifier")
    line: dict[str, Any] = {"type": kind,
                            "identifier": str(identifier) if identifier is not None else None}
    for name, item in value.fields.items():
        if name != "identifier":
            line[renames.get(name, name)] = _plain(item)
    return json.dumps(line, separators=(",", ":"))


def _plain(value: Any) -> Any:
    """A field's value as JSON (enum constants by name); anything else becomes null, which the
    JSON dialect's checks then refuse with a clear error."""
    if isinstance(value, JEnum):
        return value.name
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return None


def header() -> str:
    """The server's stream header, sent as soon as the client connects (the original client's
    ObjectInputStream waits for it before it sends anything)."""
    return StreamWriter.header().decode("latin-1")


# --- server -> client ----------------------------------------------------------------------

#: answers whose only field is the player's nickname
_NAME_ONLY = ("AnsCannotPlayCCMsg", "AnsNumCloudExcMsg",
              *(f"AnsColorExc{n}Msg" for n in range(1, 5)),
              *(f"AnsIslandExc{n}Msg" for n in range(1, 5)))
_NO_FIELDS = ("AnsCloudMsg", "AnsCCNotInTableExcMsg", "AnsPlayerAlrUsedCCExcMsg",
              "AnsNotEnoughCoinsExcMsg", "PingSMSG")
_PLANNING = ("AnsFirstPlayerTurnMsg", "AnsNewOrderMsg", "AnsTurnDecidedExcMsg")
_ACTION = ("AnsAskCAMsg", *(f"AnsMoveStudent{n}Msg" for n in range(1, 5)))
#: character cards whose answers carry the card itself
_WITH_CARD = (1, 7, 11)
_STATUS = {"AnswIfAllowedMsg": "AnswIfAllowedMsg$Status",
           "AnsGameCreatedMsg": "AnsGameCreatedMsg$Status",
           "BooleanCheckMsg": "BooleanCheckMsg$Status"}


def answer(kind: str, parent: str | None, fields: dict[str, Any]) -> str:
    """One answer object, serialized and reset, as a latin-1 frame. A parent of None gets a
    fresh UUID that matches no command (as the original's pings do)."""
    obj = JObject(G + kind, {"identifier": uuid.uuid4(),
                             "parentIdentifier": uuid.UUID(parent) if parent else uuid.uuid4(),
                             **fields})
    return StreamWriter(REGISTRY).message(obj).decode("latin-1")


def format_message(kind: str, parent: str | None = None, **fields: Any) -> str:
    """The answers that need no view: login, lobby and ping answers (``status=...``)."""
    if kind in _STATUS:
        status = JEnum(G + _STATUS[kind], fields["status"])
        return answer(kind, parent, {"MoveStatus": status})
    if kind in _NO_FIELDS:
        return answer(kind, parent, {})
    raise ValueError(f"{kind} needs the game's view (render it)")


def render(kind: str, parent: str | None, view: dict[str, Any], nicknames: Sequence[str | None],
           seat: int, given: dict[str, Any]) -> str:
    """A server message of the shared conversation, built from ``view`` for ``seat``."""
    pics = Pictures(view, nicknames)
    me = pics.nick(seat)
    name, fields = _fields(kind, pics, me, seat, given)
    return answer(name, parent, fields)


def _fields(kind: str, pics: Pictures, me: str, seat: int,
            given: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    view = pics.view
    if kind in _NO_FIELDS:
        return kind, {}
    if kind in _NAME_ONLY:
        return kind, {"name": me}
    if kind in _PLANNING:
        fields = {"CAplayed": pics.played_this_round(),
                  "dca": pics.players()[seat].fields["MyDeck"], "is": pics.islands(),
                  "name": me, "pl": pics.players(), "sb": pics.boards()}
        return kind, {"asscardgui": 0, **fields} if kind == "AnsTurnDecidedExcMsg" else fields
    if kind in _ACTION:
        return kind, {"modexp": view["expert"], "characterCards": pics.characters(),
                      "generalBoard": pics.general_board(), "name": me, "players": pics.players()}
    if kind == "AnsGameStartedMsg":
        return kind, {"nickname": [pics.nick(s) for s in range(view["seats"])]}
    if kind == "AnsTurnDecidedMsg":
        order = view["action_order"] or view["planning_order"]
        return kind, {"nickname": [pics.nick(s) for s in order]}
    if kind == "AnsEndGameMsg":
        winners = (view.get("result") or {}).get("winners", [])
        return kind, {"winner": [pics.nick(s) for s in winners]}
    if kind == "AnsNewTurnMsg":
        return kind, {"name": given.get("name") or me}
    if kind == "AnsNumStepMNMsg":
        return kind, {"cloudTiles": pics.clouds(), "name": me}
    if kind == "AnsNumStepMNExcMsg":
        return "AnsNumStepExcMsg", {"name": me, "players": pics.players()}
    return _character_answer(kind, pics, me, given)


def _character_answer(kind: str, pics: Pictures, me: str,
                      given: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    board = {"generalBoard": pics.general_board(), "players": pics.players()}
    if kind in ("AnsPlayAfterCCMsg", "AnsPlayAfterNotCCMsg"):
        turn = pics.view.get("turn") or {}
        count = "countmodexpview" if kind == "AnsPlayAfterCCMsg" else "countmoexpview"
        return kind, {count: turn.get("students_moved", 0) + 1, "name": me, **board}
    if kind.startswith("AnsCC") and kind[5:-3].isdigit():
        number = int(kind[5:-3])
        name = f"AnsCC{number}ExcMsg" if given.get("error") else kind
        if number in _WITH_CARD:
            return name, {"characterCard": pics.character(number), **board}
        return name, board
    raise ValueError(f"no original message for {kind}")
