"""Seed 004 codec: writeUTF frames at every split, oversize and garbage, the Gson envelope."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from eriantys_g27_client import lift, moment

from service.errors import ProtocolError
from service.protocol import eriantys_g27 as wire
from service.protocol import eriantys_g27_model as model
from service.protocol import eriantys_g27_values as values
from service.protocol.eriantys_g27 import J, LengthFramer, Message, Typed
from service.protocol.eriantys_g27_effects import Effect
from service.protocol.framing import FrameError

#: a whole 2-player expert game recorded against the original server (one JSON object a line)
RECORDING = Path(__file__).with_name("test_eriantys_g27_o2e.jsonl.gz")


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
])
def test_envelope_round_trip(message: Message) -> None:
    assert wire.parse_message(wire.format_message(message)) == message


def test_info_map_values_are_written_as_given() -> None:
    typed = wire.info_map({"MOTHERNATURE": J(4), "BOOLARRAY": [J(True)], "CHARACTERVALUE": "BARDFIRST"})
    text = wire.format_message(Message("SENDINFO", typed))
    entries = json.loads(json.loads(text)["value"]["value"])["infomap"]
    assert entries == [{"key": "MOTHERNATURE", "value": "4"}, {"key": "BOOLARRAY", "value": ["true"]},
                       {"key": "CHARACTERVALUE", "value": "BARDFIRST"}]
    parsed = wire.parse_message(text).value
    assert parsed is not None
    assert wire.read_info_map(parsed) == {"MOTHERNATURE": 4, "BOOLARRAY": ["true"],
                                          "CHARACTERVALUE": "BARDFIRST"}


def test_requests_are_always_tuples_without_a_null_right_side() -> None:
    text = wire.format_message(wire.request("RULES"))
    assert text == ('{\n  "type": "REQUESTACTION",\n  "value": {\n    "type": '
                    '"it.polimi.ingsw.common.utils.Tuple",\n    "value": "{\\n  \\"left\\": {\\n'
                    '    \\"type\\": \\"it.polimi.ingsw.common.GameActions\\",\\n    \\"value\\":'
                    ' \\"{\\\\n  \\\\\\"action\\\\\\": \\\\\\"RULES\\\\\\"\\\\n}\\"\\n  }\\n}"\n  }\n}')


def test_gson_escapes_html_characters() -> None:
    text = wire.format_message(Message("OTHER_PLAYER_START_TURN", Typed(wire.STRING, "a'b=<&>")))
    assert "\\\\u0027" in text and "'" not in text and "=" not in text.split('"value"')[2]
    assert wire.parse_message(text).value == Typed(wire.STRING, "a'b=<&>")


def recorded_frames() -> list[dict[str, Any]]:
    with gzip.open(RECORDING, "rt") as lines:
        return [r for r in map(json.loads, lines) if "text" in r]


def regson(value: Any) -> Any:
    """The recorded frame as J-marked data: every nested JSON text becomes a J again."""
    if isinstance(value, str):
        lifted = lift(value)
        return value if lifted is value else J(regson(json.loads(value)))
    if isinstance(value, dict):
        return {k: regson(v) for k, v in value.items()}
    if isinstance(value, list):
        return [regson(v) for v in value]
    return value


def test_recorded_original_frames_are_rebuilt_byte_for_byte() -> None:
    """Gson's layout: every frame of a recorded original game, taken apart into J-marked data and
    written again with ``pretty``, gives the very same text."""
    frames = recorded_frames()
    assert len(frames) > 200
    for record in frames:
        assert wire.pretty(regson(json.loads(record["text"]))) == record["text"]
        wire.parse_message(record["text"])  # and every one parses


def test_deep_nesting_is_a_bad_frame_not_a_crash() -> None:
    for text in ("[" * 3000 + "]" * 3000, "{\"type\": " + "[" * 100_000):
        with pytest.raises(ProtocolError) as caught:
            wire.parse_message(text)
        assert caught.value.code == "protocol/bad_json"
    deep = json.dumps({"type": "PING", "value": {"type": "x", "value": "[" * 3000 + "]" * 3000}})
    with pytest.raises(ProtocolError):
        wire.parse_message(deep)


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
    ('{"type": "RESPONSEACTION", "value": {"type": "it.polimi.ingsw.common.utils.Tuple",'
     ' "value": "{\\"right\\": 1}"}}', "protocol/bad_value"),
    ('{"type": "PING", "value": {"type": "x", "value": "' + "9" * 5000 + '"}}', "protocol/bad_json"),
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


VIEW = {"islands": [{}] * 12, "mother_nature": 10, "clouds": [{}, {}]}


def test_answers_in_the_original_meanings() -> None:
    entrance = ["BLUE", "YELLOW", "GREEN", "GREEN", "PINK"]  # slots as sent, not colour-sorted
    move = Typed(wire.MOVE_STUDENT_INFO, {"toDiningRoom": False, "islandNum": 3, "studentIndex": 1})
    assert values.move_action(VIEW, entrance, move) == {"type": "move_student", "color": "yellow",
                                                        "to": 3}
    dining = Typed(wire.MOVE_STUDENT_INFO, {"toDiningRoom": True, "studentIndex": 4})
    assert values.move_action(VIEW, entrance, dining)["color"] == "pink"
    # the island reached, not a number of steps: from 10 to island 1 is 3 steps of 12
    assert values.mother_nature_action(VIEW, Typed(wire.INTEGER, 1))["steps"] == 3
    assert values.cloud_index(VIEW, Typed(wire.INTEGER, "1")) == 1
    assert values.boolean(Typed(wire.BOOLEAN, "true"), "x") is True
    assert model.CHARACTER_NAMES["herald"] == "STANDARD_BEARER"


@pytest.mark.parametrize("bad", [["1"], "\u00b2", "\u0663", 2.0, True, None, {"v": 1}, 10**12, "1" * 5000])
def test_unchecked_values_are_bad_values(bad: Any) -> None:
    """D5: lists, superscript or Arabic-Indic digits, floats, huge numbers: all refused cleanly."""
    entrance = ["BLUE"]
    for call in (lambda: values.integer(Typed(wire.INTEGER, bad), "x"),
                 lambda: values.cloud_index(VIEW, Typed(wire.INTEGER, bad)),
                 lambda: values.mother_nature_action(VIEW, Typed(wire.INTEGER, bad)),
                 lambda: values.move_action(VIEW, entrance, Typed(
                     wire.MOVE_STUDENT_INFO, {"toDiningRoom": True, "studentIndex": bad})),
                 lambda: values.color(bad, "x"),
                 lambda: values.chosen_character(Typed(wire.CHARACTER, {"character": bad}))):
        with pytest.raises(ProtocolError) as caught:
            call()
        assert caught.value.code == "protocol/bad_value"


def test_jester_in_two_steps_as_the_original() -> None:
    view = {"seats": 2, "characters": [{"key": "jester", "students": {"red": 2, "blue": 4}}],
            "players": [{"dining": {c: 0 for c in model.ORIGINAL_COLOURS}}]}
    effect = Effect.start(view, 0, "jester", ["PINK", "GREEN"])
    sent = wire.parse_message(wire.format_message(effect.request(view, 0)))
    first = wire.read_info_map(sent.value.value.right)  # type: ignore[union-attr]
    assert first == {"CHARACTERVALUE": "JESTERFIRST", "MAXMOVEMENTJESTER": 3}
    assert effect.answer({"MOVEMENTJESTER": 2}) is None
    assert effect.answer({"ENTRANCESTUDENTINDEX": 0, "CARDSTUDENTINDEX": 0}) is None
    assert effect.entrance == ["GREEN", "RED"] and effect.card[-1] == "PINK"
    action = effect.answer({"ENTRANCESTUDENTINDEX": 0, "CARDSTUDENTINDEX": 5})
    # the pink given first comes back: one exchange in all, a red for the green
    assert effect.entrance == ["RED", "PINK"] and effect.card[-1] == "GREEN"
    assert action == {"type": "play_character", "character": "jester", "swaps": [["red", "green"]]}


def recorded(kind: str) -> list[dict[str, Any]]:
    """The recorded server frames of one kind, decoded (nested JSON text lifted)."""
    out = []
    for record in recorded_frames():
        data = json.loads(record["text"])
        if record["dir"] == "S>C" and moment(record["text"], "S") == "S " + kind:
            out.append({"text": record["text"], "data": lift(data)})
    assert out, kind
    return out


def right_side(data: dict[str, Any]) -> Any:
    return data["value"]["value"]["right"]["value"]


def test_requests_rebuilt_from_recorded_contents_match_the_original_bytes() -> None:
    """Our encoders fed with what the original sent give the original's very bytes."""
    for frame in recorded("REQUESTACTION MOVESTUDENT"):
        infomap = {e["key"]: e["value"] for e in right_side(frame["data"])["infomap"]}
        colors, room = infomap["COLORARRAY"], infomap["BOOLARRAY"]
        fields = {"COLORARRAY": model.color_array(colors["colors"], colors["length"]),
                  "BOOLARRAY": [J(b) for b in room]}
        assert wire.format_message(wire.request("MOVESTUDENT", wire.info_map(fields))) == frame["text"]
    for frame in recorded("REQUESTACTION CHOOSECLOUD"):
        tiles = [model.color_array(t["colors"], t["length"]) for t in right_side(frame["data"])["cloudTiles"]]
        typed = Typed(model.CLOUD_ARRAY, {"cloudTiles": tiles})
        assert wire.format_message(wire.request("CHOOSECLOUD", typed)) == frame["text"]
    for frame in recorded("REQUESTACTION PLAYASSISTANTCARD"):
        deck = [J(model.assistant(c["cardValue"])) for c in right_side(frame["data"])["assistantDeck"]]
        typed = Typed(wire.ASSISTANT_ARRAY, {"assistantDeck": deck})
        assert wire.format_message(wire.request("PLAYASSISTANTCARD", typed)) == frame["text"]
    for kind, message in (("REQUESTACTION RULES", wire.request("RULES")),
                          ("GAMESTART", Message("GAMESTART")),
                          ("OTHER_PLAYER_START_TURN", Message("OTHER_PLAYER_START_TURN",
                                                              Typed(wire.STRING, "ben")))):
        assert wire.format_message(message) == recorded(kind)[0]["text"]


def test_islands_rebuilt_from_a_view_match_the_original_bytes() -> None:
    """Island groups as Tavolo's view holds them, written as the original writes its Island[]."""
    for frame in recorded("SENDINFO ISLANDARRAY,MOTHERNATURE"):
        entry = json.loads(json.loads(frame["text"])["value"]["value"])["infomap"][0]
        views = [{"students": dict(zip(model.ORIGINAL_COLOURS, i["studentCounters"])),
                  "towers": i["multiplicity"],
                  "tower": None if i["towerColor"] == "none" else i["towerColor"]["towerColor"].lower(),
                  "no_entry": 0 if i["noEntryTileCount"] == "none" else i["noEntryTileCount"],
                  "tiles": [i["backgroundID"]] * max(1, i["multiplicity"])}
                 for i in lift(entry["value"])["islands"]]
        assert wire.lower(model.islands({"islands": views})) == entry["value"]


# --- the greeting: the usernames connected, cut to fit one frame ----------------------------------

def greeting_frame(names: list[str]) -> str:
    return wire.format_message(wire.request("USERNAMEANDMAGICAGE", Typed(wire.HASH_SET, names)))


def listed(text: str) -> list[str]:
    value = wire.parse_message(text).value
    assert value is not None and isinstance(value.value, wire.Pair)
    right = value.value.right
    assert right is not None and right.cls == wire.HASH_SET
    return list(right.value)


#: characters that each level of escaping writes differently (JSON's, Gson's, modified UTF-8)
ODD = ["", '"', "\\", "<=>&'", "\u00e9", "\u4e2d", "\U0001f42c", "\x00", "\n", "\u2028"]


@pytest.mark.parametrize("odd", ODD)
def test_the_greeting_lists_the_longest_prefix_that_fits(odd: str) -> None:
    names = [f"n{i:05d}{odd}" for i in range(6000)]  # far more than one frame holds
    text = wire.username_request(names)
    count = len(listed(text))
    assert 0 < count < len(names) and listed(text) == names[:count]
    assert text == greeting_frame(names[:count])
    assert wire.fits(text) and not wire.fits(greeting_frame(names[:count + 1]))


@pytest.mark.parametrize("odd", ODD)
def test_the_greeting_is_cut_right_at_the_frame_limit(odd: str) -> None:
    """A list whose frame is exactly 65,535 bytes goes whole; one byte more and its last name
    is left out."""
    names = [f"n{i:05d}{odd}" for i in range(6000)]
    count = len(listed(wire.username_request(names)))
    slack = wire.MAX_FRAME - wire.frame_length(greeting_frame(names[:count]))
    exact = names[:count - 1] + [names[count - 1] + "x" * slack] + names[count:]
    text = wire.username_request(exact)
    assert wire.frame_length(text) == wire.MAX_FRAME and listed(text) == exact[:count]
    over = names[:count - 1] + [names[count - 1] + "x" * (slack + 1)] + names[count:]
    text = wire.username_request(over)
    assert listed(text) == over[:count - 1] and wire.fits(text)


def test_a_greeting_that_fits_lists_everyone() -> None:
    assert wire.username_request([]) == greeting_frame([])
    names = ["Bob", "Zoe", "amy", 'quote"d', "<b>&'", "\U0001f42c", "\u00e9t\u00e9"]
    assert wire.username_request(names) == greeting_frame(names)


def test_modified_utf8_writes_each_character_as_java_does() -> None:
    def reference(text: str) -> bytes:
        out = b""
        for ch in text:
            if ch == "\x00":
                out += b"\xc0\x80"
            elif ord(ch) > 0xFFFF:
                code = ord(ch) - 0x10000
                pair = chr(0xD800 + (code >> 10)) + chr(0xDC00 + (code & 0x3FF))
                out += pair.encode("utf-8", "surrogatepass")
            else:
                out += ch.encode("utf-8")
        return out

    for text in ["", "plain", "\x00a\x00", "h\u00e9 \u20ac \U0001f42c\U0010ffff \x00!", "\U0001f42c"]:
        assert wire.encode_modified_utf8(text) == reference(text)
        assert wire.decode_modified_utf8(reference(text)) == text
