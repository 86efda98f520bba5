"""Seed 004 codec: writeUTF frames at every split, oversize and garbage, the Gson envelope."""

from __future__ import annotations

import json

import pytest

from service.errors import ProtocolError
from service.protocol import eriantys_g27 as wire
from service.protocol import eriantys_g27_values as values
from service.protocol.eriantys_g27 import LengthFramer, Message, Typed
from service.protocol.framing import FrameError


def frame(payload: bytes) -> bytes:
    return len(payload).to_bytes(2, "big") + payload


STREAMS: dict[str, bytes] = {
    "two pings": frame(b'{"type": "PING"}') + frame(b'{"type": "PONG"}'),
    "modified utf-8": frame(wire.encode_modified_utf8("h\u00e9 \u20ac \U0001f42c \x00!")),
    "empty frame": frame(b"") + frame(b"x"),
    "bad utf-8 between good": frame(b"ok") + frame(b"\xff\xfe") + frame(b"still ok"),
    "oversize between good": frame(b"a") + frame(b"x" * 40) + frame(b"b"),
}
MAX = 32


def feed_in_pieces(stream: bytes, cuts: list[int]) -> list[str | FrameError]:
    framer = LengthFramer(max_frame=MAX)
    bounds = [0, *cuts, len(stream)]
    out: list[str | FrameError] = []
    for start, end in zip(bounds, bounds[1:]):
        out += framer.feed(stream[start:end])
    return out


def codes(frames: list[str | FrameError]) -> list[str]:
    return [f.code if isinstance(f, FrameError) else f for f in frames]


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_every_split_gives_the_same_frames(name: str) -> None:
    stream = STREAMS[name]
    whole = codes(feed_in_pieces(stream, []))
    for cut in range(1, len(stream)):
        assert codes(feed_in_pieces(stream, [cut])) == whole, cut
    assert codes(feed_in_pieces(stream, list(range(1, len(stream))))) == whole  # byte by byte


def test_frames_decoded() -> None:
    assert codes(feed_in_pieces(STREAMS["two pings"], [])) == ['{"type": "PING"}', '{"type": "PONG"}']
    assert codes(feed_in_pieces(STREAMS["modified utf-8"], [])) == ["h\u00e9 \u20ac \U0001f42c \x00!"]
    assert codes(feed_in_pieces(STREAMS["bad utf-8 between good"], [])) == [
        "ok", "protocol/bad_encoding", "still ok"]
    assert codes(feed_in_pieces(STREAMS["oversize between good"], [])) == [
        "a", "protocol/frame_too_long", "b"]
    assert codes(feed_in_pieces(STREAMS["empty frame"], [])) == ["", "x"]


def test_encode_is_writeutf() -> None:
    framer = LengthFramer()
    assert framer.encode("\x00\U0001f42c") == b"\x00\x08\xc0\x80\xed\xa0\xbd\xed\xb0\xac"
    assert framer.feed(framer.encode("\x00\U0001f42c")) == ["\x00\U0001f42c"]
    assert framer.encode("x" * 65_535)[:2] == b"\xff\xff"
    with pytest.raises(ValueError):
        framer.encode("x" * 65_536)
    assert not wire.fits("\u20ac" * 30_000)  # 90,000 bytes


def test_envelope_bytes_match_gson_pretty_printing() -> None:
    text = wire.format_message(Message("OTHER_PLAYER_START_TURN", Typed(wire.STRING, "alice")))
    assert text == ('{\n  "type": "OTHER_PLAYER_START_TURN",\n  "value": {\n'
                    '    "type": "java.lang.String",\n    "value": "\\"alice\\""\n  }\n}')
    assert wire.format_message(Message("PING")) == '{\n  "type": "PING"\n}'


def test_tuple_round_trip() -> None:
    message = wire.request("WIZARD", Typed(wire.WIZARD_ARRAY, {"wizards": ["NATURE", "SNOW"]}))
    text = wire.format_message(message)
    outer = json.loads(text)
    assert outer["value"]["type"] == "it.polimi.ingsw.common.utils.Tuple"
    inner = json.loads(outer["value"]["value"])
    assert inner["left"] == {"type": "it.polimi.ingsw.common.GameActions",
                             "value": '{\n  "action": "WIZARD"\n}'}
    assert json.loads(inner["right"]["value"]) == {"wizards": ["NATURE", "SNOW"]}
    assert inner["right"]["type"] == "[Lit.polimi.ingsw.common.model.Wizard;"
    assert wire.parse_message(text) == message


@pytest.mark.parametrize("message", [
    Message("PONG"),
    wire.response("LOADGAMECHOICE", Typed(wire.BOOLEAN, True)),
    wire.response("CHOSENMOTHERNATUREMOVEMENT", Typed(wire.INTEGER, 2)),
    wire.response("ENDTHISTURN"),
    Message("SENDINFO", wire.info_map({"MOTHERNATURE": 4, "COINPOOL": 18})),
    Message("GAMEDRAW", Typed("[Ljava.lang.String;", ["a", "b"])),
])
def test_envelope_round_trip(message: Message) -> None:
    assert wire.parse_message(wire.format_message(message)) == message


def test_info_map_values_are_json_text() -> None:
    typed = wire.info_map({"MOTHERNATURE": 4, "ISLANDARRAY": [{"index": 0}]})
    assert typed.value["infomap"][0] == {"key": "MOTHERNATURE", "value": "4"}
    assert wire.read_info_map(typed) == {"MOTHERNATURE": 4, "ISLANDARRAY": [{"index": 0}]}


def test_split_response() -> None:
    name, right = wire.split_response(wire.response("CHOSENWIZARD", Typed(wire.WIZARD, {"wizard": "SNOW"})))
    assert name == "CHOSENWIZARD" and right == Typed(wire.WIZARD, {"wizard": "SNOW"})
    assert wire.split_response(wire.response("ENDTHISTURN")) == ("ENDTHISTURN", None)


@pytest.mark.parametrize("text, code", [
    ("not json", "protocol/bad_json"),
    ('{"type": "HELLO"}', "protocol/bad_message"),
    ("[1, 2]", "protocol/bad_message"),
    ('{"type": "RESPONSEACTION", "value": {"type": "java.lang.Integer", "value": 3}}',
     "protocol/bad_value"),
    ('{"type": "RESPONSEACTION", "value": {"type": "x", "value": "{nope"}}', "protocol/bad_json"),
    ('{"type": "RESPONSEACTION", "value": {"type": "it.polimi.ingsw.common.utils.Tuple",'
     ' "value": "{\\"left\\": 1}"}}', "protocol/bad_value"),
])
def test_garbage_is_a_protocol_error(text: str, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        wire.parse_message(text)
    assert caught.value.code == code


def test_responses_without_an_action_are_refused() -> None:
    for message in (Message("RESPONSEACTION"),
                    Message("RESPONSEACTION", Typed(wire.INTEGER, 1)),
                    Message("RESPONSEACTION", wire.pair(Typed(wire.INTEGER, 1), Typed(wire.INTEGER, 2)))):
        with pytest.raises(ProtocolError):
            wire.split_response(message)


def test_values_answers() -> None:
    view = {"players": [{"entrance": {"green": 1, "red": 0, "yellow": 2, "pink": 0, "blue": 0}}]}
    move = Typed(wire.MOVE_STUDENT_INFO, {"toDiningRoom": False, "islandNum": 3, "studentIndex": 2})
    assert values.move_action(view, 0, move) == {"type": "move_student", "color": "yellow", "to": 3}
    with pytest.raises(ProtocolError):
        values.move_action(view, 0, Typed(wire.MOVE_STUDENT_INFO, {"toDiningRoom": True,
                                                                    "studentIndex": 3}))
    assert values.integer(Typed(wire.INTEGER, "2"), "x") == 2
    assert values.boolean(Typed(wire.BOOLEAN, "true"), "x") is True
    with pytest.raises(ProtocolError):
        values.boolean(Typed(wire.BOOLEAN, 1), "x")
    assert values.CHARACTER_NAMES["herald"] == "STANDARD_BEARER"
    assert list(values.CHARACTER_NAMES.values())[11] == "THIEF"
