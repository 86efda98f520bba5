"""LineFramer: bytes in, frames out, the same whatever the split of the stream."""

from __future__ import annotations

import pytest

from service.protocol.framing import FrameError, LineFramer

Frames = list[str | FrameError]

STREAMS: dict[str, bytes] = {
    "seed lines": b"PCJ\nDBM 4 1 4 2\nDBR\n",
    "crlf": b"PCJ\r\nDBM 4 1 4 2\r\nFBR\r\n",
    "utf-8": "h\u00e9llo \u20ac \U0001f42c\n\u00fc\n".encode(),
    "empty lines": b"\n\nPCJ\n\n",
    "json": b'{"type":"ping","id":1}\n{"type":"hello","nickname":"al"}\n',
    "bad utf-8 between good": b"ok\n\xff\xfe\nstill ok\n",
    "oversize between good": b"a\n" + b"x" * 40 + b"\nb\n",
    "oversize twice": b"x" * 20 + b"\n" + b"y" * 30 + b"\nz\n",
    "oversize then partial": b"x" * 50 + b"\nabc",
}
SMALL = 16  # max_line for every stream above (all good lines are shorter)


def feed_in_pieces(stream: bytes, cuts: list[int], max_line: int = SMALL) -> Frames:
    framer = LineFramer(max_line=max_line)
    bounds = [0, *cuts, len(stream)]
    out: Frames = []
    for start, end in zip(bounds, bounds[1:]):
        out += framer.feed(stream[start:end])
    return out


def codes(frames: Frames) -> list[str]:
    return [f.code if isinstance(f, FrameError) else f for f in frames]


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_every_single_split_gives_the_same_frames(name: str) -> None:
    stream = STREAMS[name]
    whole = feed_in_pieces(stream, [])
    for cut in range(len(stream) + 1):
        assert feed_in_pieces(stream, [cut]) == whole, f"split at byte {cut}"


@pytest.mark.parametrize("name", sorted(STREAMS))
def test_byte_by_byte_gives_the_same_frames(name: str) -> None:
    stream = STREAMS[name]
    assert feed_in_pieces(stream, list(range(1, len(stream)))) == feed_in_pieces(stream, [])


@pytest.mark.parametrize("name", ["seed lines", "utf-8", "oversize between good"])
def test_every_pair_of_splits_gives_the_same_frames(name: str) -> None:
    stream = STREAMS[name]
    whole = feed_in_pieces(stream, [])
    for first in range(len(stream) + 1):
        for second in range(first, len(stream) + 1):
            assert feed_in_pieces(stream, [first, second]) == whole, (first, second)


def test_lines_come_out_decoded_without_their_terminators() -> None:
    assert feed_in_pieces(STREAMS["seed lines"], []) == ["PCJ", "DBM 4 1 4 2", "DBR"]
    assert feed_in_pieces(STREAMS["utf-8"], []) == ["h\u00e9llo \u20ac \U0001f42c", "\u00fc"]
    assert feed_in_pieces(STREAMS["empty lines"], []) == ["", "", "PCJ", ""]


def test_crlf_drops_only_the_one_carriage_return_before_the_newline() -> None:
    assert feed_in_pieces(STREAMS["crlf"], []) == ["PCJ", "DBM 4 1 4 2", "FBR"]
    assert LineFramer().feed(b"a\r\r\nb\rc\n") == ["a\r", "b\rc"]


def test_a_partial_line_waits_for_the_rest() -> None:
    framer = LineFramer()
    assert framer.feed(b"DBM 4 1") == []
    assert framer.feed(b" 4 2") == []
    assert framer.feed(b"\r") == []
    assert framer.feed(b"\nDB") == ["DBM 4 1 4 2"]
    assert framer.feed(b"R\n") == ["DBR"]


def test_a_character_split_across_feeds_is_decoded_whole() -> None:
    encoded = "\u20ac\n".encode()
    framer = LineFramer()
    assert framer.feed(encoded[:1]) == [] and framer.feed(encoded[1:2]) == []
    assert framer.feed(encoded[2:]) == ["\u20ac"]


def test_an_oversize_line_is_reported_once_and_skipped() -> None:
    frames = feed_in_pieces(STREAMS["oversize between good"], [])
    assert codes(frames) == ["a", "protocol/frame_too_long", "b"]
    error = frames[1]
    assert isinstance(error, FrameError) and str(SMALL) in error.message


def test_an_oversize_line_fed_in_many_chunks_is_reported_once() -> None:
    framer = LineFramer(max_line=8)
    out: Frames = []
    for _ in range(50):
        out += framer.feed(b"0123456789")
    out += framer.feed(b"tail\nnext\n")
    assert codes(out) == ["protocol/frame_too_long", "next"]


def test_each_oversize_line_gets_its_own_report() -> None:
    assert codes(feed_in_pieces(STREAMS["oversize twice"], [])) == [
        "protocol/frame_too_long", "protocol/frame_too_long", "z"]


def test_an_oversize_line_without_its_end_is_reported_before_the_end_arrives() -> None:
    framer = LineFramer(max_line=8)
    assert codes(framer.feed(b"x" * 9)) == ["protocol/frame_too_long"]
    assert framer.feed(b"more") == []
    assert framer.feed(b"\nok\n") == ["ok"]


def test_the_limit_is_inclusive() -> None:
    framer = LineFramer(max_line=8)
    assert framer.feed(b"12345678") == []  # exactly the limit: still waiting, no error
    assert framer.feed(b"\n123456789\n") == ["12345678", FrameError(
        "protocol/frame_too_long", "a line may hold at most 8 bytes")]


def test_the_limit_counts_bytes_not_characters() -> None:
    framer = LineFramer(max_line=8)
    assert codes(framer.feed("\u20ac\u20ac\u20ac\n".encode())) == ["protocol/frame_too_long"]
    assert framer.feed("\u20ac\u20ac\n".encode()) == ["\u20ac\u20ac"]


def test_crlf_terminator_does_not_count_toward_the_limit() -> None:
    framer = LineFramer(max_line=8)
    assert framer.feed(b"12345678\r\n") == ["12345678"]


@pytest.mark.parametrize("bad", [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"ok\x80"])
def test_invalid_utf8_is_a_bad_encoding_and_the_stream_goes_on(bad: bytes) -> None:
    frames = LineFramer().feed(bad + b"\nnext\n")
    assert codes(frames) == ["protocol/bad_encoding", "next"]


def test_encode_appends_one_newline_in_utf8() -> None:
    framer = LineFramer()
    assert framer.encode("CPT D") == b"CPT D\n"
    assert framer.encode("\u20ac") == b"\xe2\x82\xac\n"
    assert LineFramer().feed(framer.encode("BEB WWLL")) == ["BEB WWLL"]
