"""Seed 004 (Eriantys, group 27): ``writeUTF`` length framing and the Gson message envelope.

A frame is a 2-byte big-endian length and that many bytes of Java's modified UTF-8. A message is
pretty-printed JSON ``{"type": <MessageType>, "value": {"type": <Java class>, "value": "<JSON
text>"}}``; a tuple's JSON text is ``{"left": {...}, "right": {...}}`` with both sides again typed.
No I/O here: bytes in, messages out, and back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from service.errors import ProtocolError
from service.protocol import mutf8
from service.protocol.framing import FrameError

MAX_FRAME = 65_535
COMMON = "it.polimi.ingsw.common."

MESSAGE_TYPES = (
    "REQUESTVALUE", "SENDINFO", "REQUESTACTION", "RESPONSEACTION", "GAMEWINNER", "GAMEWINNERTEAM",
    "GAMEDRAW", "PING", "PONG", "GAMESTART", "GAMEPROGRESS", "GAMEINTERRUPT",
    "CUR_PLAYER_END_TURN", "OTHER_PLAYER_START_TURN",
)

# Java classes of the values
GAME_ACTIONS = COMMON + "GameActions"
GAME_VALUES = COMMON + "GameValues"
TUPLE = COMMON + "utils.Tuple"
INFO_MAP = COMMON + "message.InfoMap"
USERNAME_AND_AGE = COMMON + "viewRecord.UsernameAndMagicAge"
GAME_RULES = COMMON + "viewRecord.GameRules"
MOVE_STUDENT_INFO = COMMON + "viewRecord.MoveStudentInfo"
WIZARD = COMMON + "model.Wizard"
WIZARD_ARRAY = "[L" + COMMON + "model.Wizard;"
ASSISTANT_CARD = COMMON + "model.AssistantCard"
ASSISTANT_ARRAY = "[L" + COMMON + "model.AssistantCard;"
CHARACTER = COMMON + "model.Character"
HASH_SET = "java.util.HashSet"
STRING = "java.lang.String"
INTEGER = "java.lang.Integer"
BOOLEAN = "java.lang.Boolean"


# --- framing -------------------------------------------------------------------------------

#: Java's modified UTF-8, as the group-27 frames are written
encode_modified_utf8 = mutf8.encode
decode_modified_utf8 = mutf8.decode


class LengthFramer:
    """``DataOutputStream.writeUTF`` frames: 2-byte big-endian length, then the bytes.

    A frame longer than ``max_frame`` is reported once as ``frame_too_long`` and skipped.
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buffer = bytearray()
        self._skip = 0

    def feed(self, data: bytes) -> list[str | FrameError]:
        self._buffer += data
        out: list[str | FrameError] = []
        while True:
            if self._skip:
                dropped = min(self._skip, len(self._buffer))
                del self._buffer[:dropped]
                self._skip -= dropped
                if self._skip:
                    return out
            if len(self._buffer) < 2:
                return out
            size = int.from_bytes(self._buffer[:2], "big")
            if size > self.max_frame:
                del self._buffer[:2]
                self._skip = size
                out.append(FrameError("protocol/frame_too_long",
                                      f"a frame may hold at most {self.max_frame} bytes"))
                continue
            if len(self._buffer) < 2 + size:
                return out
            raw = bytes(self._buffer[2:2 + size])
            del self._buffer[:2 + size]
            out.append(_decode(raw))

    def encode(self, frame: str) -> bytes:
        data = encode_modified_utf8(frame)
        if len(data) > MAX_FRAME:
            raise ValueError(f"a frame may hold at most {MAX_FRAME} bytes, not {len(data)}")
        return len(data).to_bytes(2, "big") + data


def _decode(raw: bytes) -> str | FrameError:
    try:
        return decode_modified_utf8(raw)
    except UnicodeError:
        return FrameError("protocol/bad_encoding", "a frame must be valid (modified) UTF-8")


def fits(frame: str) -> bool:
    return frame_length(frame) <= MAX_FRAME


# --- the envelope -----------------------------------------------------------------------------

@dataclass(frozen=True)
class J:
    """A value the original writes as JSON text inside the JSON (its adapters nest that way)."""

    value: Any


#: Gson escapes these characters in strings (HTML-safe output); so do we, to match its bytes
GSON_ESCAPES = {"'": "\\u0027", "=": "\\u003d", "<": "\\u003c", ">": "\\u003e", "&": "\\u0026"}
MAX_DEPTH = 64


def lower(value: Any) -> Any:
    """Plain JSON data: every :class:`J` becomes its pretty-printed text."""
    if isinstance(value, J):
        return pretty(value.value)
    if isinstance(value, dict):
        return {k: lower(v) for k, v in value.items()}
    if isinstance(value, list):
        return [lower(v) for v in value]
    return value


def loads(text: str) -> Any:
    """``json.loads`` that refuses nesting deeper than any seed-004 value (no RecursionError)."""
    depth = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ProtocolError(f"JSON nested deeper than {MAX_DEPTH} levels",
                                    code="protocol/bad_json")
        elif ch in "]}":
            depth -= 1
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("a message must be JSON", code="protocol/bad_json") from None


@dataclass(frozen=True)
class Typed:
    """A value with its Java class; ``value`` is decoded JSON, or a :class:`Pair` for a tuple."""

    cls: str
    value: Any


@dataclass(frozen=True)
class Pair:
    """A Tuple; the original's adapter leaves ``right`` out when it is null."""

    left: Typed
    right: Typed | None = None


@dataclass(frozen=True)
class Message:
    type: str
    value: Typed | None = None


def pretty(value: Any) -> str:
    """Gson's pretty printing: 2-space indent, ``"key": value``, ``' = < > &`` escaped.

    Those five characters only ever occur inside JSON strings, so replacing them in the whole
    text escapes exactly the strings (nested JSON text is escaped before it is embedded)."""
    text = json.dumps(lower(value), indent=2, ensure_ascii=False)
    for char, escaped in GSON_ESCAPES.items():
        text = text.replace(char, escaped)
    return text


def _typed_json(typed: Typed) -> dict[str, Any]:
    if isinstance(typed.value, Pair):
        sides = {"left": _typed_json(typed.value.left)}
        if typed.value.right is not None:
            sides["right"] = _typed_json(typed.value.right)
        inner = pretty(sides)
    else:
        inner = pretty(typed.value)
    return {"type": typed.cls, "value": inner}


def format_message(message: Message) -> str:
    out: dict[str, Any] = {"type": message.type}
    if message.value is not None:
        out["value"] = _typed_json(message.value)
    return pretty(out)


def parse_message(text: str) -> Message:
    data = loads(text)
    if not isinstance(data, dict) or data.get("type") not in MESSAGE_TYPES:
        raise ProtocolError("a message is {\"type\": <MessageType>, \"value\": ...}",
                            code="protocol/bad_message")
    value = data.get("value")
    return Message(data["type"], None if value is None else _parse_typed(value))


def _parse_typed(data: Any) -> Typed:
    if (not isinstance(data, dict) or not isinstance(data.get("type"), str)
            or not isinstance(data.get("value"), str)):
        raise ProtocolError("a value is {\"type\": <class>, \"value\": <JSON text>}",
                            code="protocol/bad_value")
    inner = loads(data["value"])
    if data["type"] == TUPLE:
        if not isinstance(inner, dict) or "left" not in inner:
            raise ProtocolError("a tuple is {\"left\": ...[, \"right\": ...]}",
                                code="protocol/bad_value")
        right = inner.get("right")
        return Typed(TUPLE, Pair(_parse_typed(inner["left"]),
                                 None if right is None else _parse_typed(right)))
    return Typed(data["type"], inner)


# --- building values --------------------------------------------------------------------------

def action(name: str) -> Typed:
    return Typed(GAME_ACTIONS, {"action": name})


def pair(left: Typed, right: Typed | None) -> Typed:
    return Typed(TUPLE, Pair(left, right))


def info_map(fields: dict[str, Any]) -> Typed:
    """An InfoMap; each value is written as given (wrap it in :class:`J` for JSON text)."""
    return Typed(INFO_MAP, {"infomap": [{"key": k, "value": v} for k, v in fields.items()]})


def read_info_map(typed: Typed) -> dict[str, Any]:
    entries = typed.value.get("infomap") if isinstance(typed.value, dict) else None
    if typed.cls != INFO_MAP or not isinstance(entries, list):
        raise ProtocolError("expected an InfoMap", code="protocol/bad_value")
    out: dict[str, Any] = {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str):
            raise ProtocolError("an InfoMap entry is {\"key\", \"value\"}", code="protocol/bad_value")
        raw = entry.get("value")
        try:
            out[entry["key"]] = loads(raw) if isinstance(raw, str) else raw
        except ProtocolError:
            out[entry["key"]] = raw  # a bare string such as "MONKFIRST" or "BLUE"
    return out


def action_name(typed: Typed) -> str | None:
    """The GameActions name of a plain action value, else None."""
    if typed.cls == GAME_ACTIONS and isinstance(typed.value, dict):
        name = typed.value.get("action")
        return name if isinstance(name, str) else None
    return None


def request(name: str, data: Typed | None = None) -> Message:
    """A request is always a Tuple (with no right side when there is no data)."""
    return Message("REQUESTACTION", pair(action(name), data))


def response(name: str, data: Typed | None = None) -> Message:
    return Message("RESPONSEACTION", pair(action(name), data))


def username_request(names: Sequence[str]) -> str:
    """The formatted request ``USERNAMEANDMAGICAGE`` listing the longest prefix of ``names``
    that fits one frame, found in one pass and formatted once.

    The list's text is nested twice as JSON text (in the Tuple, in the message), and every
    escape on the way (JSON's, Gson's, modified UTF-8) maps one character to the same bytes
    wherever it stands. So the frame is a fixed part plus the list's text, and that text is
    ``[``, each name quoted and indented, ``,`` between them and ``]``: each name adds its
    own bytes, counted alone."""
    empty = format_message(request("USERNAMEANDMAGICAGE", Typed(HASH_SET, [])))
    room = (MAX_FRAME - frame_length(empty) + _listed_length("[]")
            - _listed_length("[\n") - _listed_length("\n]"))
    item, separator, count = _listed_length('  ""'), _listed_length(",\n"), 0
    for name in names:
        room -= item + _listed_length(_escaped(name)) + (separator if count else 0)
        if room < 0:
            break
        count += 1
    return format_message(request("USERNAMEANDMAGICAGE", Typed(HASH_SET, list(names[:count]))))


def frame_length(text: str) -> int:
    """The bytes of ``text`` in a frame (without the 2-byte length)."""
    return len(encode_modified_utf8(text))


#: characters that no level of escaping changes (ASCII, no quote, backslash, control or Gson's)
_PLAIN = re.compile("[ !#-%(-;?-\\[\\]-~]*")


def _escaped(text: str) -> str:
    """``text`` inside a JSON string of pretty-printed JSON: JSON's escapes, then Gson's."""
    if _PLAIN.fullmatch(text):
        return text
    text = json.dumps(text, ensure_ascii=False)[1:-1]
    for char, escaped in GSON_ESCAPES.items():
        text = text.replace(char, escaped)
    return text


def _listed_length(fragment: str) -> int:
    """The frame bytes of ``fragment`` of the list's text, nested twice as JSON text."""
    if _PLAIN.fullmatch(fragment):
        return len(fragment)  # plain ASCII passes every level unchanged
    return frame_length(_escaped(_escaped(fragment)))


def split_response(message: Message) -> tuple[str, Typed | None]:
    """A RESPONSEACTION as (GameActions name, the right side or None)."""
    value = message.value
    if value is None:
        raise ProtocolError("RESPONSEACTION needs a value", code="protocol/bad_value")
    if isinstance(value.value, Pair):
        name = action_name(value.value.left)
        right: Typed | None = value.value.right
    else:
        name, right = action_name(value), None
    if name is None:
        raise ProtocolError("RESPONSEACTION names a GameActions value", code="protocol/bad_value")
    return name, right
