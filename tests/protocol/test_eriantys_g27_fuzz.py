"""Seed 004 codec under fuzzing (hypothesis): frames split anywhere, random and mutated messages,
random answer values. Nothing may raise but a ProtocolError with a stable code."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.errors import ProtocolError
from service.protocol import eriantys_g27 as wire
from service.protocol import eriantys_g27_values as values
from service.protocol.eriantys_g27 import LengthFramer, Typed
from service.protocol.eriantys_g27_effects import Effect
from service.protocol.framing import FrameError

RECORDING = Path(__file__).with_name("test_eriantys_g27_o2e.jsonl.gz")
with gzip.open(RECORDING, "rt") as _lines:
    FRAMES = [r["text"] for r in map(json.loads, _lines) if "text" in r][:120]
CODES = {"protocol/bad_json", "protocol/bad_message", "protocol/bad_value"}
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)


def feed(data: bytes, cuts: list[int]) -> list[str | FrameError]:
    framer = LengthFramer(max_frame=64)
    out: list[str | FrameError] = []
    bounds = [0, *sorted(c % (len(data) + 1) for c in cuts), len(data)]
    for start, end in zip(bounds, bounds[1:]):
        out += framer.feed(data[start:end])
    return out


@FUZZ
@given(st.binary(max_size=300), st.lists(st.integers(min_value=0), max_size=8))
def test_framer_gives_the_same_frames_however_the_bytes_are_split(data: bytes, cuts: list[int]) -> None:
    whole = feed(data, [])
    assert all(isinstance(f, (str, FrameError)) for f in whole)
    assert feed(data, cuts) == whole


def parse_or_refuse(text: str) -> None:
    try:
        wire.parse_message(text)
    except ProtocolError as exc:
        assert exc.code in CODES, exc.code


@FUZZ
@given(st.text(max_size=200))
def test_random_text_is_a_message_or_a_protocol_error(text: str) -> None:
    parse_or_refuse(text)


@FUZZ
@given(st.sampled_from(FRAMES), st.integers(min_value=0), st.integers(min_value=0, max_value=40),
       st.text(max_size=6))
def test_mutated_recorded_frames_never_crash(frame: str, at: int, cut: int, insert: str) -> None:
    at %= len(frame) + 1
    parse_or_refuse(frame[:at] + insert + frame[at + cut:])


@FUZZ
@given(json_values)
def test_random_values_in_every_envelope_slot(value: Any) -> None:
    for envelope in ({"type": "RESPONSEACTION", "value": value},
                     {"type": "RESPONSEACTION", "value": {"type": wire.TUPLE, "value": json.dumps(value)}},
                     {"type": "SENDINFO", "value": {"type": wire.INFO_MAP, "value": json.dumps(value)}}):
        parse_or_refuse(json.dumps(envelope))


VIEW = {"islands": [{}] * 9, "mother_nature": 2, "clouds": [{}, {}, {}], "seats": 3,
        "characters": [{"key": k, "students": {"red": 3, "blue": 3}} for k in
                       ("jester", "monk", "minstrel")],
        "players": [{"dining": {"red": 2, "yellow": 0, "green": 1, "pink": 0, "blue": 0}}]}


@FUZZ
@given(json_values, json_values)
def test_answer_readers_refuse_anything_odd_cleanly(a: Any, b: Any) -> None:
    """D5: whatever value a client puts where a number, colour or character belongs."""
    calls = [
        lambda: values.assistant_action(Typed(wire.ASSISTANT_CARD, {"cardValue": a})),
        lambda: values.move_action(VIEW, ["RED", "BLUE"], Typed(
            wire.MOVE_STUDENT_INFO, {"toDiningRoom": a, "studentIndex": b, "islandNum": a})),
        lambda: values.mother_nature_action(VIEW, Typed(wire.INTEGER, a)),
        lambda: values.cloud_index(VIEW, Typed(wire.INTEGER, a)),
        lambda: values.chosen_character(Typed(wire.CHARACTER, {"character": a})),
        lambda: values.boolean(Typed(wire.BOOLEAN, a), "x"),
    ]
    for key in ("jester", "monk", "minstrel"):
        effect = Effect.start(VIEW, 0, key, ["RED", "GREEN", "BLUE"])
        calls.append(lambda e=effect: e.answer({"MOVEMENTJESTER": a, "MOVEMENTBARD": a,
                                                "STUDENTINDEX": b, "ISLANDINDEX": a}))
        calls.append(lambda e=effect: e.answer({"ENTRANCESTUDENTINDEX": a, "CARDSTUDENTINDEX": b,
                                                "DININGROOMTABLECOLOR": b}))
    for call in calls:
        try:
            call()
        except ProtocolError as exc:
            assert exc.code == "protocol/bad_value"
