"""The seed-000 (eriantys-g13) codec: every message parses or formats, bad lines are errors."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from service.errors import ProtocolError
from service.games.eriantys.constants import REASONS
from service.protocol import eriantys_g13 as wire
from service.protocol.framing import FrameError, LineFramer
from service.sessions.dialects.eriantys_g13 import DIALECT
from service.sessions.dialects.eriantys_g13_play import CC_KEYS, ERROR_ANSWERS

ID = "5b0c2f49-5f43-4c5e-9a55-2a8e1f1c9d11"

SAMPLES: dict[str, dict[str, Any]] = {
    "LoginMsg": {"name": "ada"},
    "NewGameMsg": {"numPlayers": 3, "modExpert": True},
    "TurnDecidedMsg": {"card": "Dieci"},
    "AskCAMsg": {"nicknames": ["ada", "bruno"]},
    "CCMsg": {"card": 12},
    "CC1Msg": {"isl": 4, "stud": "Pink"},
    "CC3Msg": {"isl": 0},
    "CC5Msg": {"isl": 11},
    "CC7Msg": {"students": ["Green", "Red"], "entrancestud": ["Blue", "Blue"]},
    "CC9Msg": {"color": "Yellow"},
    "CC10Msg": {"entrancestud": ["Red"], "diningstud": ["Green"]},
    "CC11Msg": {"color": "Green"},
    "CC12Msg": {"color": "Blue"},
    **{f"MoveStudent{n}Msg": {"colour": "Red", "location": 123} for n in range(1, 5)},
    "NumStepMNMsg": {"steps": 2},
    "CloudMsg": {"cloud": 1},
}


@pytest.mark.parametrize("kind", sorted(wire.CLIENT_MESSAGES))
def test_every_client_message_parses(kind: str) -> None:
    fields = SAMPLES.get(kind, {})
    msg = wire.parse(wire.format_client(kind, ID, **fields))
    assert msg == wire.ClientMsg(kind, ID, fields)


def test_optional_field_may_be_left_out() -> None:
    assert wire.parse(wire.format_client("AskCAMsg", ID)).fields == {}


SERVER_SAMPLE_VALUES: dict[str, Any] = {
    "status": "VALID", "nicknames": ["ada", "bruno"], "numPlayers": 2, "modexp": True,
    "name": "ada", "dca": ["Uno", "Tre"], "generalBoard": {"round": 1}, "playedCards": ["Due"],
    "nickname": ["bruno", "ada"], "characterCards": [], "winner": ["ada"], "draw": False,
    "reason": "last_tower", "characterCard": {"number": 1}, "error": None, "clouds": [],
    "code": "protocol/bad_json", "message": "nope",
}


@pytest.mark.parametrize("kind", sorted(wire.SERVER_MESSAGES))
def test_every_server_message_formats(kind: str) -> None:
    fields = {name: SERVER_SAMPLE_VALUES[name] for name in wire.SERVER_MESSAGES[kind]}
    line = wire.format_message(kind, ID, **fields)
    assert "\n" not in line
    data = json.loads(line)
    assert data.pop("type") == kind and data.pop("parentIdentifier") == ID
    uuid.UUID(data.pop("identifier"))
    assert data == fields


def test_server_message_needs_its_exact_fields() -> None:
    with pytest.raises(ValueError):
        wire.format_message("AnswIfAllowedMsg", ID)
    with pytest.raises(ValueError):
        wire.format_message("AnsCloudMsg", ID, extra=1)
    with pytest.raises(ValueError):
        wire.format_message("NoSuchMsg", ID)


BAD_LINES = [
    ("", "protocol/bad_json"),
    ("{", "protocol/bad_json"),
    ("[]", "protocol/bad_json"),
    ('"LoginMsg"', "protocol/bad_json"),
    ('{"identifier": "%s"}' % ID, "protocol/unknown_type"),
    ('{"type": "HackMsg", "identifier": "%s"}' % ID, "protocol/unknown_type"),
    ('{"type": "LoginMsg", "name": "ada"}', "protocol/bad_identifier"),
    ('{"type": "LoginMsg", "identifier": 7, "name": "ada"}', "protocol/bad_identifier"),
    ('{"type": "LoginMsg", "identifier": "nope", "name": "ada"}', "protocol/bad_identifier"),
    ('{"type": "LoginMsg", "identifier": "%s"}' % ID, "protocol/missing_field"),
    ('{"type": "LoginMsg", "identifier": "%s", "name": ""}' % ID, "protocol/bad_field"),
    ('{"type": "LoginMsg", "identifier": "%s", "name": "%s"}' % (ID, "x" * 33),
     "protocol/bad_field"),
    ('{"type": "LoginMsg", "identifier": "%s", "name": "a\\nb"}' % ID, "protocol/bad_field"),
    ('{"type": "LoginMsg", "identifier": "%s", "name": "a", "pw": 1}' % ID,
     "protocol/unknown_field"),
    ('{"type": "NewGameMsg", "identifier": "%s", "numPlayers": "2", "modExpert": true}' % ID,
     "protocol/bad_field"),
    ('{"type": "NewGameMsg", "identifier": "%s", "numPlayers": true, "modExpert": true}' % ID,
     "protocol/bad_field"),
    ('{"type": "NewGameMsg", "identifier": "%s", "numPlayers": 2, "modExpert": 1}' % ID,
     "protocol/bad_field"),
    ('{"type": "TurnDecidedMsg", "identifier": "%s", "card": 3}' % ID, "protocol/bad_card"),
    ('{"type": "TurnDecidedMsg", "identifier": "%s", "card": "Undici"}' % ID,
     "protocol/bad_card"),
    ('{"type": "MoveStudent1Msg", "identifier": "%s", "colour": "green", "location": 1}' % ID,
     "protocol/bad_colour"),
    ('{"type": "MoveStudent1Msg", "identifier": "%s", "colour": "Red", "location": 1.5}' % ID,
     "protocol/bad_field"),
    ('{"type": "NumStepMNMsg", "identifier": "%s", "steps": 99999999}' % ID,
     "protocol/bad_field"),
    ('{"type": "CC7Msg", "identifier": "%s", "students": "Red", "entrancestud": []}' % ID,
     "protocol/bad_field"),
    ('{"type": "CC7Msg", "identifier": "%s", "students": ["Red"], "entrancestud": ["Gold"]}'
     % ID, "protocol/bad_colour"),
    ('{"type": "CC10Msg", "identifier": "%s", "entrancestud": %s, "diningstud": []}'
     % (ID, json.dumps(["Red"] * 9)), "protocol/bad_field"),
]


@pytest.mark.parametrize(("line", "code"), BAD_LINES)
def test_bad_lines_are_protocol_errors(line: str, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        wire.parse(line)
    assert caught.value.code == code


def test_identifier_of_a_bad_line() -> None:
    assert wire.identifier_of('{"type": "HackMsg", "identifier": "%s"}' % ID) == ID
    assert wire.identifier_of("{") is None
    assert wire.identifier_of('{"identifier": 3}') is None


def test_error_message() -> None:
    data = json.loads(wire.error(None, "protocol/bad_json", "bad"))
    assert data == {**data, "type": "ErrorMsg", "parentIdentifier": None,
                    "code": "protocol/bad_json"}


def stream() -> bytes:
    lines = [wire.format_client(kind, ID, **SAMPLES.get(kind, {})) for kind in
             ("LoginMsg", "CC7Msg", "MoveStudent3Msg", "PingCMSG")]
    return ("\r\n".join(lines[:2]) + "\n" + "\n".join(lines[2:]) + "\n").encode()


def test_split_at_every_byte_boundary() -> None:
    data = stream()
    whole = LineFramer(max_line=8192).feed(data)
    assert [wire.parse(f).type for f in whole if isinstance(f, str)] == [
        "LoginMsg", "CC7Msg", "MoveStudent3Msg", "PingCMSG"]
    for cut in range(len(data) + 1):
        framer = DIALECT.framer()
        frames = framer.feed(data[:cut]) + framer.feed(data[cut:])
        assert frames == whole, cut


def test_byte_by_byte_and_too_long() -> None:
    framer = DIALECT.framer()
    frames: list[str | FrameError] = []
    for byte in stream():
        frames += framer.feed(bytes([byte]))
    assert len(frames) == 4 and all(isinstance(f, str) for f in frames)
    too_long = framer.feed(b"x" * 9000 + b"\n" + stream())
    assert isinstance(too_long[0], FrameError) and too_long[0].code == "protocol/frame_too_long"
    assert len(too_long) == 5


def test_error_table_speaks_the_engine_and_the_document() -> None:
    for (_, reason), answer in ERROR_ANSWERS.items():
        assert reason in REASONS
        numbers = wire.CC_WITH_ARGUMENTS if answer.startswith("AnsCC{") else range(1, 5)
        assert all(answer.format(n=n) in wire.SERVER_MESSAGES for n in numbers)
    answers = {a.format(n=n) for a in ERROR_ANSWERS.values() for n in (1, 2, 3, 4)}
    document = {"AnsTurnDecidedExcMsg", "AnsNumStepMNExcMsg", "AnsNumCloudExcMsg",
                "AnsCCNotInTableExcMsg", "AnsPlayerAlrUsedCCExcMsg", "AnsNotEnoughCoinsExcMsg",
                "AnsCannotPlayCCMsg", *(f"AnsColorExc{n}Msg" for n in range(1, 5)),
                *(f"AnsIslandExc{n}Msg" for n in range(1, 5))}
    assert document <= answers


def test_cc_numbers_follow_the_standard_order() -> None:
    assert CC_KEYS[1] == "monk" and CC_KEYS[8] == "knight" and CC_KEYS[12] == "thief"
    needs = {n for n in CC_KEYS if n in wire.CC_WITH_ARGUMENTS}
    assert needs == {1, 3, 5, 7, 9, 10, 11, 12}


def test_the_protocol_document_shows_every_message() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocols" / "eriantys-g13.md")
    text = doc.read_text()
    for kind in (*wire.CLIENT_MESSAGES, *wire.SERVER_MESSAGES):
        assert f'{{"type": "{kind}"' in text, kind
    assert '<- {"type": "AnsEndGameMsg"' in text  # the example game is a whole game
