"""Property-based fuzzing of every codec and framer we own (group 27's has its own tests):
random and mutated frames never raise out of a codec, and what they cannot parse comes
out as a ProtocolError with a stable ``protocol/*`` code."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.errors import ProtocolError
from service.protocol import canonical, dolphinfox, eriantys_g13, santorini
from service.protocol.framing import FrameError, LineFramer
from service.tools.fuzz import SAMPLES, frame

PARSERS: dict[str, Callable[[str], Any]] = {
    "canonical": canonical.parse_client,
    "eriantys-g13": eriantys_g13.parse,
    "santorini": santorini.parse,
    "dolphinfox": dolphinfox.parse,
}
STABLE_CODE = r"protocol/[a-z_]+"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)


def parses_or_refuses(name: str, text: str) -> None:
    if name == "eriantys-g13":  # runs before the parse, to name the parent of an error
        found = eriantys_g13.identifier_of(text)
        assert found is None or isinstance(found, str)
    try:
        PARSERS[name](text)
    except ProtocolError as exc:
        assert exc.code.startswith("protocol/") and exc.code.count("/") == 1, exc.code
        assert exc.code.replace("/", "").replace("_", "").isalpha(), exc.code
    # anything else raised fails the test


@pytest.mark.parametrize("name", sorted(PARSERS))
@given(text=st.text(max_size=200))
@settings(max_examples=300, deadline=None)
def test_random_text_never_raises_out_of_a_codec(name: str, text: str) -> None:
    parses_or_refuses(name, text)


@pytest.mark.parametrize("name", sorted(PARSERS))
@given(seed=st.integers(0, 2**32), count=st.integers(1, 5))
@settings(max_examples=300, deadline=None)
def test_mutated_frames_never_raise_out_of_a_codec(name: str, seed: int, count: int) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        parses_or_refuses(name, frame(rng, name))


@pytest.mark.parametrize("name", ["canonical", "eriantys-g13", "santorini"])
@given(value=json_values, sample=st.integers(0, 100), key=st.text(max_size=12))
@settings(max_examples=300, deadline=None)
def test_any_json_in_any_field_never_raises_out_of_a_codec(name: str, value: Any, sample: int,
                                                          key: str) -> None:
    data = json.loads(SAMPLES[name][sample % len(SAMPLES[name])])
    body = data["data"] if name == "santorini" else data
    fields = sorted(body) or [key]
    body[fields[sample % len(fields)]] = value
    parses_or_refuses(name, json.dumps(data))


@pytest.mark.parametrize("name", ["canonical", "eriantys-g13", "santorini"])
@pytest.mark.parametrize("text", ["[" * 3000 + "]" * 3000, '{"a":' * 40 + "1" + "}" * 40,
                                  "[" * 3000, "NaN", '{"x":Infinity}', "1" * 5000])
def test_deep_nesting_and_non_json_numbers_are_bad_json(name: str, text: str) -> None:
    """D1: nesting deep enough to exhaust the parser's recursion is an answer, not a crash."""
    with pytest.raises(ProtocolError) as caught:
        PARSERS[name](text)
    assert caught.value.code in ("protocol/bad_json", "protocol/bad_message")


@given(stream=st.lists(st.binary(max_size=40) | st.sampled_from([b"\n", b"\r\n", b"\xff", b"\xe2\x82"]),
                       max_size=20),
       cuts=st.lists(st.integers(0, 2000), max_size=6))
@settings(max_examples=400, deadline=None)
def test_line_framer_gives_the_same_frames_at_any_split(stream: list[bytes], cuts: list[int]) -> None:
    data = b"".join(stream)
    whole = LineFramer(max_line=16).feed(data)
    framer = LineFramer(max_line=16)
    bounds = [0, *sorted(c % (len(data) + 1) for c in cuts), len(data)]
    pieces: list[str | FrameError] = []
    for start, end in zip(bounds, bounds[1:]):
        pieces += framer.feed(data[start:end])
    assert pieces == whole
    for item in whole:
        assert isinstance(item, str) or item.code.startswith("protocol/")


@pytest.mark.parametrize("name", sorted(PARSERS))
@given(seed=st.integers(0, 2**32))
@settings(max_examples=100, deadline=None)
def test_mutated_streams_split_anywhere_frame_then_parse_without_raising(name: str, seed: int) -> None:
    rng = random.Random(seed)
    data = b"".join(frame(rng, name).encode("utf-8", "surrogatepass") + b"\n" for _ in range(4))
    framer = LineFramer(max_line=canonical.MAX_MESSAGE_BYTES)
    cut = rng.randrange(len(data) + 1)
    for item in framer.feed(data[:cut]) + framer.feed(data[cut:]):
        if isinstance(item, str):
            parses_or_refuses(name, item)
        else:
            assert item.code.startswith("protocol/")
