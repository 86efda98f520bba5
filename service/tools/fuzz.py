"""Hostile frames for every dialect (except group 27's): valid samples, mutated at random.

Used by the socket fuzz test (tests/gateway/test_fuzz_sockets.py) and the long fuzz run
(benchmarks/fuzz_dialects.py). Deterministic for a given ``random.Random`` seed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

_UID = "0b9e4c7e-5f0d-4a3e-9a51-4f1c3b7d2a10"

#: well-formed frames per dialect; mutations start from these
SAMPLES: dict[str, list[str]] = {
    "canonical": [json.dumps(m) for m in (
        {"type": "hello", "id": 1, "nickname": "fuzzer"},
        {"type": "hello", "id": "a", "token": "x" * 32},
        {"type": "create", "id": 2, "game": "santorini", "options": {}, "seats": 2},
        {"type": "create", "id": 3, "game": "eriantys", "options": {"expert": True}},
        {"type": "quick_join", "id": 4, "game": "dolphinfox"},
        {"type": "join", "id": 5, "match_id": 1, "seat": 1},
        {"type": "act", "id": 6, "match_id": 1, "client_id": "c1", "version": 0,
         "action": {"type": "move", "worker": 0, "to": "c3"}},
        {"type": "watch", "id": 7, "match_id": 1, "since": 0},
        {"type": "resume", "id": 8, "match_id": 1},
        {"type": "legal", "id": 9, "match_id": 1},
        {"type": "rematch", "id": 10, "match_id": 1},
        {"type": "leave", "id": 11, "match_id": 1},
        {"type": "ping", "id": 12},
    )],
    "eriantys-g13": [json.dumps({"type": t, "identifier": _UID, **f}) for t, f in (
        ("LoginMsg", {"name": "fuzzer"}),
        ("AskIfGameCreatedMsg", {}),
        ("NewGameMsg", {"numPlayers": 2, "modExpert": True}),
        ("GameStartedMsg", {}),
        ("FirstPlayerTurnMsg", {}),
        ("TurnDecidedMsg", {"card": "Uno"}),
        ("AskCAMsg", {"nicknames": ["a", "b"]}),
        ("CCMsg", {"card": 9}),
        ("CC1Msg", {"isl": 3, "stud": "Red"}),
        ("CC7Msg", {"students": ["Red"], "entrancestud": ["Blue"]}),
        ("CC9Msg", {"color": "Red"}),
        ("MoveStudent1Msg", {"colour": "Green", "location": 123}),
        ("NumStepMNMsg", {"steps": 1}),
        ("CloudMsg", {"cloud": 0}),
        ("CheckTurnEndedMsg", {}),
        ("PingCMSG", {}),
    )],
    "santorini": [json.dumps({"action": a, "data": d}) for a, d in (
        ("addPlayer", {"playerNickname": "fuzzer", "lobbySize": 2}),
        ("getDeck", {}),
        ("setPickedCards", {"cards": ["APOLLO", "ATHENA"]}),
        ("setPlayerCard", {"playerNickname": "fuzzer", "card": "APOLLO"}),
        ("setWorkersPosition", {"playerNickname": "fuzzer", "workersPosition": [
            {"workerID": 0, "x": 1, "y": 1}, {"workerID": 1, "x": 2, "y": 2}]}),
        ("getPlayers", {}),
        ("getBattlefield", {}),
        ("setStartTurn", {"playerNickname": "fuzzer", "basicTurn": True}),
        ("selectWorker", {"playerNickname": "fuzzer", "x": 1, "y": 1}),
        ("playStep", {"x": 2, "y": 1}),
        ("skipStep", {}),
        ("pong", {}),
        ("ping", {}),
    )],
    "dolphinfox": ["PCJ", "QCJ", "PCJ abcdef", "DBM 4 1 4 2", "FBM 0 0 1 1", "DBR", "FBR"],
}

_HOSTILE_VALUES: list[Any] = [
    None, True, False, 0, -1, 2**31, 2**63, 10**40, 1.5, -0.0, 1e308, "", " ", "x" * 300,
    "\u0000", "\u200b", "\ud7ff", "аlice", [], {}, [[]], {"": {}}, ["Red"], {"Red": 1},
    [1, "a", None], list(range(40)),
]
_HOSTILE_TEXT = [
    "[" * 3000 + "]" * 3000, "{" * 100, '{"a":' * 50, "NaN", "Infinity", "-Infinity",
    "1" * 5000, '"\\ud800"', "\u0000", "\x1b[2J", "null", "[]", "{}", '{"type":true}',
    '{"type":"nope","id":true}', "\u00ff" * 10, "\u202e", " ", "",
]


def _mutate_json(rng: random.Random, data: Any) -> Any:
    if isinstance(data, dict) and data and rng.random() < 0.8:
        key = rng.choice(sorted(data))
        out = dict(data)
        choice = rng.random()
        if choice < 0.15:
            del out[key]
        elif choice < 0.25:
            out[rng.choice(["extra", "id", "type", "identifier", "data", "x"])] = rng.choice(_HOSTILE_VALUES)
        elif choice < 0.55:
            out[key] = _mutate_json(rng, data[key])
        else:
            out[key] = rng.choice(_HOSTILE_VALUES)
        return out
    if isinstance(data, list) and data and rng.random() < 0.7:
        out_list = list(data)
        out_list[rng.randrange(len(data))] = rng.choice(_HOSTILE_VALUES)
        return out_list
    return rng.choice(_HOSTILE_VALUES)


def _mutate_text(rng: random.Random, text: str) -> str:
    if not text:
        return rng.choice(_HOSTILE_TEXT)
    at = rng.randrange(len(text) + 1)
    choice = rng.random()
    if choice < 0.3:
        return text[:at] + text[at + rng.randint(1, 8):]
    if choice < 0.6:
        return text[:at] + rng.choice(_HOSTILE_TEXT + ["\"", "\\", "{", "]", ",", " "]) + text[at:]
    if choice < 0.8:
        return text[:at] + chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x80, 0x3000)])) + text[at:]
    return "".join(rng.choice(text) for _ in range(rng.randint(1, 40)))


def frame(rng: random.Random, dialect: str) -> str:
    """One hostile frame for ``dialect``: valid, mutated or junk (never a newline in it)."""
    sample = rng.choice(SAMPLES[dialect])
    choice = rng.random()
    if choice < 0.1:
        out = sample
    elif choice < 0.2:
        out = rng.choice(_HOSTILE_TEXT)
    elif choice < 0.6 and dialect != "dolphinfox":
        data = _mutate_json(rng, json.loads(sample))
        if dialect == "eriantys-g13" and isinstance(data, dict) and rng.random() < 0.3:
            data["identifier"] = str(uuid.UUID(int=rng.getrandbits(128)))
        out = json.dumps(data)
    else:
        out = _mutate_text(rng, sample)
    return out.replace("\n", " ").replace("\r", " ")


@dataclass
class FuzzTally:
    """What a fuzz run sent and what came back."""

    frames: int = 0
    answers: int = 0
    internal: int = 0
    connections: int = 0
    samples: list[str] = field(default_factory=list)

    def answered(self, text: str) -> None:
        self.answers += 1
        if "service/internal" in text:
            self.internal += 1
            if len(self.samples) < 5:
                self.samples.append(text[:300])

    def add(self, other: FuzzTally) -> None:
        self.frames += other.frames
        self.answers += other.answers
        self.internal += other.internal
        self.connections += other.connections
        self.samples += other.samples[: 5 - len(self.samples)]


async def fuzz_tcp(port: int, dialect: str, frames: int, seed: int, *, host: str = "127.0.0.1",
                   per_connection: int = 40) -> FuzzTally:
    """Send ``frames`` hostile frames to a dialect's TCP port, each cut in two at a random
    byte, ``per_connection`` to a connection; read every answer. Counts the answers that
    carry ``service/internal`` (there should be none)."""
    rng = random.Random(seed)
    tally = FuzzTally()
    while tally.frames < frames:
        batch = [frame(rng, dialect) for _ in range(min(per_connection, frames - tally.frames))]
        await _one_connection(host, port, batch, rng, tally)
    return tally


async def _one_connection(host: str, port: int, batch: list[str], rng: random.Random,
                          tally: FuzzTally) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    tally.connections += 1
    reading = asyncio.create_task(_answers(reader, tally))
    try:
        for text in batch:
            data = text.encode("utf-8", "surrogatepass") + b"\n"
            cut = rng.randrange(len(data) + 1)
            for piece in (data[:cut], data[cut:]):
                writer.write(piece)
                await writer.drain()
            tally.frames += 1
        writer.write_eof()
        await asyncio.wait_for(reading, 60)
    except (ConnectionError, OSError):  # closed after too many bad frames: fine
        pass
    finally:
        reading.cancel()
        writer.close()
        with contextlib.suppress(ConnectionError, OSError, asyncio.CancelledError):
            await writer.wait_closed()


async def _answers(reader: asyncio.StreamReader, tally: FuzzTally) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        async for line in reader:
            tally.answered(line.decode(errors="replace"))


async def fuzz_websocket(url: str, frames: int, seed: int, *, per_connection: int = 40) -> FuzzTally:
    """The canonical protocol's own transport: ``frames`` hostile text (and, one in ten,
    binary non-UTF-8) messages to ``url`` (``ws://host:port/ws``), then a ``ping`` whose
    ``pong`` ends the connection's answers."""
    import aiohttp  # only this runner needs a WebSocket client

    rng = random.Random(seed)
    tally = FuzzTally()
    async with aiohttp.ClientSession() as session:
        while tally.frames < frames:
            count = min(per_connection, frames - tally.frames)
            async with session.ws_connect(url) as ws:
                tally.connections += 1
                for _ in range(count):
                    if rng.random() < 0.1:
                        await ws.send_bytes(bytes(rng.randrange(256) for _ in range(rng.randint(1, 20))))
                    else:
                        await ws.send_str(frame(rng, "canonical"))
                    tally.frames += 1
                await ws.send_str('{"type":"ping","id":"fuzz-end"}')
                await _ws_answers(ws, tally)
    return tally


async def _ws_answers(ws: Any, tally: FuzzTally) -> None:
    async for message in ws:
        text = message.data if isinstance(message.data, str) else ""
        if '"fuzz-end"' in text:
            return
        tally.answered(text)
