"""The Java serialization reader and the g13 framer under fuzzing (hypothesis): random bytes,
recorded objects mutated, everything split at random points. Nothing may raise; what comes
out is objects or JavaStreamErrors (FrameErrors from the framer) with stable codes, and once
a stream is broken it stays silent."""

from __future__ import annotations

import gzip
from typing import Any

from g13_java_golden import recording_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.errors import ProtocolError
from service.protocol import eriantys_g13 as wire
from service.protocol.eriantys_g13_java import FATAL_CODES, JavaFramer
from service.protocol.eriantys_g13_java_classes import REGISTRY
from service.protocol.framing import FrameError
from service.protocol.javaser import MAGIC, JavaStreamError, Limits, StreamReader
from service.protocol.javaser_writer import StreamWriter

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CODES = FATAL_CODES | {"protocol/unexpected_class"}


def _objects(direction: str, most: int) -> list[bytes]:
    out: list[bytes] = []
    for path in recording_files():
        if direction in path.name:
            writer = StreamWriter(REGISTRY)
            objects = StreamReader(REGISTRY).feed(gzip.open(path).read())
            out += [writer.message(o) for o in objects[:most]]
    return out


CLIENT = _objects(".c2s", 40)
SERVER = [o for o in _objects(".s2c", 12) if len(o) < 6000]


def pieces(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)])]


def feed_reader(data: bytes, cuts: list[int], limits: Limits = Limits()) -> list[Any]:
    reader, out = StreamReader(REGISTRY, limits), []
    for piece in pieces(data, cuts):
        out += reader.feed(piece)
    errors = [o for o in out if isinstance(o, JavaStreamError)]
    assert len(errors) <= 1 and (not errors or out[-1] is errors[0])  # silent once broken
    assert all(e.code in FATAL_CODES for e in errors)
    return out


def feed_framer(data: bytes, cuts: list[int]) -> list[str | FrameError]:
    framer, out = JavaFramer(), []
    for piece in pieces(data, cuts):
        out += framer.feed(piece)
    for item in out:
        if isinstance(item, FrameError):
            assert item.code in CODES
        else:
            try:
                wire.parse(item)  # the conversation's parse: a clear error at worst
            except ProtocolError as exc:
                assert exc.code.startswith("protocol/")
    return out


mutation = st.tuples(st.sampled_from(["flip", "insert", "delete", "set"]),
                     st.integers(min_value=0, max_value=10_000),
                     st.integers(min_value=0, max_value=255))


def mutate(data: bytes, edits: list[tuple[str, int, int]]) -> bytes:
    buf = bytearray(data)
    for how, where, value in edits:
        at = where % (len(buf) + 1)
        if how == "insert":
            buf[at:at] = bytes([value])
        elif buf and how == "delete":
            del buf[at % len(buf)]
        elif buf and how == "flip":
            buf[at % len(buf)] ^= 1 << (value % 8)
        elif buf:
            buf[at % len(buf)] = value
    return bytes(buf)


@FUZZ
@given(st.binary(max_size=600), st.lists(st.integers(min_value=0), max_size=6))
def test_random_bytes_after_the_header(data: bytes, cuts: list[int]) -> None:
    feed_reader(MAGIC + data, cuts)
    feed_framer(MAGIC + data, cuts)


@FUZZ
@given(st.binary(max_size=64), st.lists(st.integers(min_value=0), max_size=4))
def test_random_bytes_anywhere(data: bytes, cuts: list[int]) -> None:
    feed_reader(data, cuts)


@FUZZ
@given(st.sampled_from(CLIENT), st.lists(mutation, min_size=1, max_size=4),
       st.lists(st.integers(min_value=0), max_size=6))
def test_mutated_client_objects(obj: bytes, edits: list[tuple[str, int, int]],
                                cuts: list[int]) -> None:
    feed_framer(MAGIC + mutate(obj, edits) + obj, cuts)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SERVER), st.lists(mutation, min_size=1, max_size=4),
       st.lists(st.integers(min_value=0), max_size=6))
def test_mutated_server_objects(obj: bytes, edits: list[tuple[str, int, int]],
                                cuts: list[int]) -> None:
    feed_reader(MAGIC + mutate(obj, edits), cuts, Limits(max_object_bytes=8192))


@FUZZ
@given(st.lists(st.sampled_from(CLIENT), min_size=1, max_size=5),
       st.lists(st.integers(min_value=0), max_size=12))
def test_whole_commands_split_anywhere_read_the_same(objs: list[bytes], cuts: list[int]) -> None:
    whole = feed_framer(MAGIC + b"".join(objs), [])
    assert feed_framer(MAGIC + b"".join(objs), cuts) == whole
    assert len(whole) == len(objs) and all(isinstance(line, str) for line in whole)
