"""The Java serialization codec (javaser) and the g13 classes against the original's recorded
streams: every recorded object reads, writes back byte for byte, reads split anywhere; the
client's commands become the JSON dialect's lines; anything outside the class list, or
malformed, or too big, is refused with a stable code and breaks nothing else."""

from __future__ import annotations

import gzip
import json
import struct
import uuid
from pathlib import Path
from typing import Any

import pytest
from g13_java_golden import read_objects, recording_files

from service.errors import ProtocolError
from service.protocol import eriantys_g13 as wire
from service.protocol import eriantys_g13_java as javawire
from service.protocol.eriantys_g13_java_classes import G, REGISTRY
from service.protocol.framing import FrameError
from service.protocol.javaser import (
    MAGIC, TC_CLASSDESC, TC_ENDBLOCKDATA, TC_NULL, TC_OBJECT, TC_REFERENCE, TC_RESET, TC_STRING,
    JavaStreamError, JEnum, JObject, Limits, StreamReader, decode_mutf8, encode_mutf8,
)
from service.protocol.javaser_writer import StreamWriter

#: objects per recorded file, as the recording's transcript lists them
RECORDED = {
    "bad-cloud-index-crash/conn1.c2s": 18, "bad-cloud-index-crash/conn1.s2c": 17,
    "bad-cloud-index-crash/conn2.c2s": 9, "bad-cloud-index-crash/conn2.s2c": 8,
    "g2-expert-full/conn1.c2s": 128, "g2-expert-full/conn1.s2c": 128,
    "g2-expert-full/conn2.c2s": 125, "g2-expert-full/conn2.s2c": 125,
    "g3-normal/conn1.c2s": 56, "g3-normal/conn1.s2c": 55, "g3-normal/conn2.c2s": 60,
    "g3-normal/conn2.s2c": 59, "g3-normal/conn3.c2s": 64, "g3-normal/conn3.s2c": 65,
}


def key(path: Path) -> str:
    return f"{path.parent.name}/{path.name.removesuffix('.bin.gz')}"


def raw(path: Path) -> bytes:
    return gzip.open(path).read()


def split_objects(data: bytes) -> list[bytes]:
    """The recorded bytes of each object (with its TC_RESET), by writing each one back."""
    writer, out, at = StreamWriter(REGISTRY), [], 4
    for obj in StreamReader(REGISTRY).feed(data):
        size = len(writer.message(obj))
        out.append(data[at:at + size])
        at += size
    assert at == len(data)
    return out


def test_every_recorded_object_reads() -> None:
    assert {key(p): len(read_objects(p)) for p in recording_files()} == RECORDED
    assert sum(RECORDED.values()) == 917


@pytest.mark.parametrize("path", recording_files(), ids=key)
def test_every_recorded_stream_writes_back_byte_for_byte(path: Path) -> None:
    data = raw(path)
    objects = StreamReader(REGISTRY).feed(data)
    assert not [o for o in objects if isinstance(o, JavaStreamError)]
    writer = StreamWriter(REGISTRY)
    assert writer.header() + b"".join(writer.message(o) for o in objects) == data


@pytest.mark.parametrize("path", recording_files(), ids=key)
def test_recorded_objects_read_split_anywhere(path: Path) -> None:
    """Each object fed in two parts at every byte boundary (large ones at every 61st)."""
    reader = StreamReader(REGISTRY)
    reader.feed(MAGIC)
    seen: set[str] = set()
    for piece in split_objects(raw(path)):
        obj = StreamReader(REGISTRY).feed(MAGIC + piece)[0]
        if obj.cls in seen:
            continue  # one object of each class is enough
        seen.add(obj.cls)
        step = 1 if len(piece) < 600 else 61
        for cut in range(0, len(piece) + 1, step):
            first = reader.feed(piece[:cut])
            assert reader.feed(piece[cut:]) + first == [obj] or first == [obj]


def test_the_client_commands_become_the_json_dialects_lines() -> None:
    lines = []
    for path in recording_files():
        if ".c2s" in path.name:
            lines += javawire.JavaFramer().feed(raw(path))
    assert len(lines) == sum(n for k, n in RECORDED.items() if ".c2s" in k)
    parsed = [wire.parse(line) for line in lines if isinstance(line, str)]
    assert len(parsed) == len(lines)  # every recorded command is one the conversation takes
    login = next(m for m in parsed if m.identifier == "01bfe297-fbec-46cb-a49c-8007b0d701b0")
    assert (login.type, login["name"]) == ("LoginMsg", "p0")  # as the transcript has it
    moves = [m for m in parsed if m.type.startswith("MoveStudent")]
    assert {m["location"] for m in moves} >= {123, 1} and {m["colour"] for m in moves} <= set(
        wire.COLOURS)
    cards = {m["card"] for m in parsed if m.type == "TurnDecidedMsg"}
    assert cards <= set(wire.CARDS) and len(cards) > 3
    assert {m.type for m in parsed} >= {"NewGameMsg", "CCMsg", "CC5Msg", "CC7Msg", "CC12Msg",
                                        "NumStepMNMsg", "CloudMsg", "PingCMSG"}


def test_status_answers_are_the_recorded_bytes_but_for_the_identifier() -> None:
    path = next(p for p in recording_files() if key(p) == "g2-expert-full/conn1.s2c")
    recorded = split_objects(raw(path))[0]
    ours = javawire.format_message("AnswIfAllowedMsg", "01bfe297-fbec-46cb-a49c-8007b0d701b0",
                                   status="VALID").encode("latin-1")
    (theirs,) = StreamReader(REGISTRY).feed(MAGIC + recorded)
    (mine,) = StreamReader(REGISTRY).feed(MAGIC + ours)
    assert mine.fields.pop("identifier") != theirs.fields.pop("identifier")
    assert mine == theirs
    mine.fields["identifier"] = uuid.UUID("aa5fc162-2374-468e-a7be-e387af3648a9")  # recorded
    assert StreamWriter(REGISTRY).message(mine) == recorded


def test_a_stream_without_resets_refers_back_across_messages() -> None:
    writer = StreamWriter(REGISTRY)
    login = JObject(G + "LoginMsg", {"identifier": uuid.uuid4(), "name": "p0"})
    cloud = JObject(G + "CloudMsg", {"identifier": uuid.uuid4(), "cloud": 1})
    first, second = writer.message(login, reset=False), writer.message(cloud, reset=False)
    assert bytes([TC_REFERENCE]) in second and TC_RESET not in (first[-1], second[-1])
    lines = javawire.JavaFramer().feed(MAGIC + first + second + writer.message(login))
    assert [wire.parse(line).type for line in lines] == ["LoginMsg", "CloudMsg", "LoginMsg"]


def test_java_uuids_and_strings() -> None:
    value = uuid.UUID("01bfe297-fbec-46cb-a49c-8007b0d701b0")
    obj = JObject(G + "PingCMSG", {"identifier": value})
    again = StreamReader(REGISTRY).feed(MAGIC + StreamWriter(REGISTRY).message(obj))[0]
    assert again == JObject(G + "PingCMSG", {"identifier": value})
    for text in ("p0", "", "nul\x00", "è", "\U0001f600"):
        assert decode_mutf8(encode_mutf8(text)) == text
    assert encode_mutf8("\x00") == b"\xc0\x80"
    assert len(encode_mutf8("\U0001f600")) == 6  # two 3-byte surrogates


# --- refusals ------------------------------------------------------------------------------


def utf(text: str) -> bytes:
    data = text.encode()
    return struct.pack(">H", len(data)) + data


def descriptor(name: str, suid: int, flags: int = 2, fields: bytes = b"\x00\x00",
               parent: bytes = bytes([TC_NULL])) -> bytes:
    return (bytes([TC_CLASSDESC]) + utf(name) + struct.pack(">qB", suid, flags) + fields
            + bytes([TC_ENDBLOCKDATA]) + parent)


def errors(data: bytes, limits: Limits = Limits()) -> list[str]:
    out = StreamReader(REGISTRY, limits).feed(data)
    return [o.code for o in out if isinstance(o, JavaStreamError)]


def test_a_class_outside_the_list_is_refused_by_its_name_alone() -> None:
    hostile = MAGIC + bytes([TC_OBJECT]) + descriptor("java.lang.Runtime", 1)
    assert errors(hostile) == ["protocol/refused_class"]
    # refused before its serialVersionUID is even there
    assert errors(MAGIC + bytes([TC_OBJECT, TC_CLASSDESC]) + utf("javax.Evil")) == [
        "protocol/refused_class"]


def test_a_listed_class_must_match_exactly() -> None:
    ping = G + "PingCMSG"
    assert errors(MAGIC + bytes([TC_OBJECT]) + descriptor(ping, 1)) == ["protocol/refused_class"]
    suid = REGISTRY.specs[ping].suid
    assert errors(MAGIC + bytes([TC_OBJECT]) + descriptor(ping, suid, flags=3)) == [
        "protocol/refused_class"]
    assert errors(MAGIC + bytes([TC_OBJECT]) + descriptor(ping, suid)) == [  # no superclass
        "protocol/refused_class"]


@pytest.mark.parametrize("data,code", [
    (b"\xac\xed\x00\x04", "protocol/bad_stream"),
    (MAGIC + bytes([0x7B]), "protocol/bad_stream"),  # TC_EXCEPTION
    (MAGIC + bytes([0x76]), "protocol/bad_stream"),  # TC_CLASS
    (MAGIC + bytes([TC_OBJECT, 0x7D]), "protocol/bad_stream"),  # a proxy class
    (MAGIC + bytes([TC_REFERENCE]) + struct.pack(">i", 0x7E0005), "protocol/bad_stream"),
    (MAGIC + bytes([TC_STRING]) + b"\x00\x02\xff\xfe", "protocol/bad_encoding"),
    (MAGIC + bytes([TC_STRING]) + b"\xff\xff" + b"a" * 65535, "protocol/too_long"),
    (MAGIC + bytes([0x7C]) + struct.pack(">q", -3) + b"abc", "protocol/bad_stream"),
])
def test_malformed_streams(data: bytes, code: str) -> None:
    assert errors(data) == [code]


def test_limits_on_objects_handles_and_depth() -> None:
    strings = b"".join(bytes([TC_STRING]) + utf(f"s{i}") for i in range(40))
    assert errors(MAGIC + strings, Limits(max_handles=30)) == ["protocol/too_many_objects"]
    assert errors(MAGIC + strings + bytes([TC_RESET]) * 3, Limits(max_handles=41)) == []
    assert errors(MAGIC + bytes([TC_STRING]) + b"\x01\x00", Limits(max_object_bytes=64)) == []
    assert errors(MAGIC + bytes([TC_STRING]) + b"\x01\x00" + b"a" * 80,
                  Limits(max_object_bytes=64)) == ["protocol/frame_too_long"]
    nested: Any = "x"
    for _ in range(40):
        nested = [nested]
    deep = MAGIC + StreamWriter(REGISTRY).message(nested)
    assert errors(deep, Limits(max_depth=24)) == ["protocol/too_deep"]
    assert errors(deep, Limits(max_depth=200)) == []


def test_a_field_must_hold_its_declared_class() -> None:
    confused = JObject(G + "LoginMsg", {"identifier": uuid.uuid4(),
                                        "name": JEnum("it.polimi.ingsw.Model.Color", "Red")})
    assert errors(MAGIC + StreamWriter(REGISTRY).message(confused)) == ["protocol/bad_stream"]
    unknown = JObject(G + "TurnDecidedMsg", {"identifier": uuid.uuid4(),
                                             "c": JEnum("it.polimi.ingsw.Model.CardAssistant",
                                                        "Undici")})
    assert errors(MAGIC + StreamWriter(REGISTRY).message(unknown)) == ["protocol/bad_enum"]


def test_after_an_error_the_stream_is_over() -> None:
    reader = StreamReader(REGISTRY)
    assert [type(o) for o in reader.feed(MAGIC + b"\x00")] == [JavaStreamError]
    ping = JObject(G + "PingCMSG", {"identifier": uuid.uuid4()})
    assert reader.broken and reader.feed(StreamWriter(REGISTRY).message(ping)) == []


def test_the_framer_answers_what_the_conversation_needs() -> None:
    framer = javawire.JavaFramer()
    answer = JObject(G + "PingSMSG", {"identifier": uuid.uuid4(),
                                      "parentIdentifier": uuid.uuid4()})
    (refused,) = framer.feed(MAGIC + StreamWriter(REGISTRY).message(answer))
    assert isinstance(refused, FrameError) and refused.code == "protocol/unexpected_class"
    no_id = JObject(G + "LoginMsg", {"identifier": None, "name": "p0"})
    (line,) = framer.feed(StreamWriter(REGISTRY).message(no_id))  # the stream goes on
    assert isinstance(line, str) and json.loads(line)["identifier"] is None
    with pytest.raises(ProtocolError):
        wire.parse(line)
    assert framer.encode(javawire.header()) == MAGIC
