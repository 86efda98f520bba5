"""Honest players and a flood of bad frames, shared by the fairness benchmark
(benchmarks/fairness.py) and its short version in the suite (tests/gateway/test_fairness.py).

Honest players (from 127.0.0.1): a canonical Dolphins & Foxes pair over the WebSocket, a
Santorini table, a group-27 Eriantys pair; each records its ack times and its troubles (a
time-out, a connection closed by the server: a heartbeat drop shows here). Flooders: one
connection each, from its own loopback address, sending mutated real frames as fast as the
server reads them and reconnecting whenever it is closed."""

from __future__ import annotations

import asyncio
import json
import random
import time
import traceback
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from eriantys_g27_client import Bot, G27Client, join_game
from santorini_client import SantoriniClient, Table

from service.protocol.eriantys_g27 import LengthFramer
from service.tools.fuzz import frame as fuzz_frame

DIALECTS = ("canonical", "santorini", "eriantys-g13", "eriantys-g27", "dolphinfox", "renaissance")
#: flood targets: (dialect listener, transport)
TARGETS = (("canonical", "tcp"), ("canonical", "ws"), ("santorini", "tcp"),
           ("eriantys-g13", "tcp"), ("eriantys-g27", "tcp"), ("dolphinfox", "tcp"),
           ("renaissance", "tcp"))
#: seconds an honest request may wait before it counts as a time-out (then it reconnects)
HONEST_TIMEOUT = 30.0


@dataclass
class Honest:
    """What one honest client kind measured: (when, seconds) per ack, and its troubles."""

    name: str
    acks: list[tuple[float, float]] = field(default_factory=list)
    troubles: list[tuple[float, str]] = field(default_factory=list)

    def ack(self, started: float) -> None:
        now = time.perf_counter()
        self.acks.append((now, now - started))

    def window(self, start: float, end: float) -> list[float]:
        return sorted(s for at, s in self.acks if start <= at < end)

    def troubles_in(self, start: float, end: float) -> int:
        return sum(1 for at, _ in self.troubles if start <= at < end)


async def keep_playing(honest: Honest, one_game: Callable[[], Awaitable[None]],
                       stop: asyncio.Event) -> None:
    """Play games one after another until ``stop``; a failure (time-out, dropped) is counted,
    then the client starts over with a new game."""
    while not stop.is_set():
        try:
            await one_game()
        except (asyncio.TimeoutError, ConnectionError, OSError, AssertionError,
                aiohttp.ClientError) as exc:
            where = traceback.extract_tb(exc.__traceback__)[-1]
            what = f"{type(exc).__name__}: {exc} at {Path(where.filename).name}:{where.lineno}"
            honest.troubles.append((time.perf_counter(), what[:160]))
            await asyncio.sleep(0.5)


# -- the honest canonical match -------------------------------------------------------------

class Canonical:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws, self.serial, self.pushed = ws, 0, asyncio.Queue[dict[str, Any]]()
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            future = self.waiting.pop(data.get("re"), None) if "re" in data else None
            if future is not None and not future.done():
                future.set_result(data)
            elif "re" not in data:
                self.pushed.put_nowait(data)
        for future in self.waiting.values():
            if not future.done():
                future.set_exception(ConnectionError("closed by the server"))

    async def call(self, message: dict[str, Any]) -> dict[str, Any]:
        self.serial += 1
        future = self.waiting[self.serial] = asyncio.get_running_loop().create_future()
        await self.ws.send_str(json.dumps({**message, "id": self.serial}))
        return await asyncio.wait_for(future, HONEST_TIMEOUT)

    async def close(self) -> None:
        self.reader.cancel()
        await self.ws.close()


async def canonical_games(session: aiohttp.ClientSession, url: str, honest: Honest,
                          rng: random.Random, stop: asyncio.Event) -> None:
    """Two players on one connection each play game after game: each game the rematch of the
    one before (a rematch is not charged to the creation limits)."""
    players = [Canonical(await session.ws_connect(url, heartbeat=None)) for _ in range(2)]
    try:
        for player in players:
            assert (await player.call({"type": "hello"}))["type"] == "welcome"
        created = await players[0].call({"type": "create", "game": "dolphinfox", "seats": 2})
        match_id = created["result"]["match_id"]
        joined = await players[1].call({"type": "join", "match_id": match_id})
        assert joined["type"] == "ok", joined
        while not stop.is_set():
            await canonical_game(players, match_id, honest, rng)
            votes = [await p.call({"type": "rematch", "match_id": match_id}) for p in players]
            match_id = votes[-1]["result"]["new_match_id"]
            assert match_id is not None, votes
    finally:
        await asyncio.gather(*(p.close() for p in players), return_exceptions=True)


async def canonical_game(players: list[Canonical], match_id: int, honest: Honest,
                         rng: random.Random) -> None:
    for played in range(400):
        answers = [await p.call({"type": "legal", "match_id": match_id}) for p in players]
        movers = [i for i, a in enumerate(answers) if a.get("result", {}).get("actions")]
        if not movers:
            return  # finished
        seat = movers[0]
        action = rng.choice(answers[seat]["result"]["actions"])
        started = time.perf_counter()
        ack = await players[seat].call({"type": "act", "match_id": match_id, "action": action,
                                        "client_id": f"c{played}"})
        assert ack["type"] == "ack", ack
        honest.ack(started)


async def newcomers(session: aiohttp.ClientSession, url: str, honest: Honest,
                    stop: asyncio.Event) -> None:
    """A player who comes back again and again: a new WebSocket connection, ``hello`` with
    its token (the first time as a guest), one ``lobby``; timed from the connect to the
    lobby's answer. This is the lobby side, where strangers' lookups compete."""
    token = None
    while not stop.is_set():
        started = time.perf_counter()
        player = Canonical(await session.ws_connect(url, heartbeat=None))
        try:
            welcome = await player.call({"type": "hello", "token": token})
            assert welcome["type"] == "welcome", welcome
            token = token or welcome["token"]
            assert (await player.call({"type": "lobby", "subscribe": False}))["type"] == "ok"
            honest.ack(started)
        finally:
            await player.close()
        await asyncio.sleep(0.2)


# -- the honest Santorini and group-27 pairs --------------------------------------------------

def timed_santorini(client: SantoriniClient, honest: Honest) -> None:
    """Time each turn message of ``client`` to its response."""
    send, wait_for = client.send, client.wait_for
    sent: dict[str, float] = {}

    async def timed_send(action: str, data: dict[str, Any] | None = None) -> None:
        sent[action + "Response"] = time.perf_counter()
        await send(action, data)

    async def timed_wait(action: str, timeout: float = HONEST_TIMEOUT) -> dict[str, Any]:
        answer = await wait_for(action, timeout)
        if action in ("setStartTurnResponse", "selectWorkerResponse", "playStepResponse",
                      "skipStepResponse", "workerViewUpdate") and action in sent:
            honest.ack(sent.pop(action))
        return answer

    client.send, client.wait_for = timed_send, timed_wait  # type: ignore[method-assign]


async def santorini_game(port: int, honest: Honest, serial: list[int]) -> None:
    """Three players: the flood's valid ``addPlayer`` frames ask for two-player lobbies, and
    Santorini's seed protocol seats whoever comes next (a flooder would take the seat)."""
    serial[0] += 1
    clients = [await SantoriniClient.connect(port) for _ in range(3)]
    try:
        for i, client in enumerate(clients):
            timed_santorini(client, honest)
            await client.join(f"sa{i}", 3)  # the same players every game
        await Table(clients, seed=serial[0]).play()
    finally:
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


def timed_g27(client: G27Client, honest: Honest) -> None:
    respond, take = client.respond, client._take
    pending: list[float] = []

    async def timed_respond(name: str, right: Any = None) -> None:
        pending.append(time.perf_counter())
        await respond(name, right)

    async def timed_take(text: str) -> None:
        if pending and '"PING"' not in text[:40]:
            honest.ack(pending.pop())
        await take(text)

    client.respond, client._take = timed_respond, timed_take  # type: ignore[method-assign]


async def g27_game(port: int, honest: Honest, serial: list[int]) -> None:
    serial[0] += 1
    clients = await join_game(port, 2, expert=False, prefix="g27x")  # the same players
    try:
        for client in clients:
            timed_g27(client, honest)
        bots = [Bot(c, random.Random(serial[0] * 10 + i)) for i, c in enumerate(clients)]
        await asyncio.wait_for(asyncio.gather(*(b.play() for b in bots)), 600)
    finally:
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


# -- the flood ----------------------------------------------------------

def flood_frame(rng: random.Random, dialect: str) -> bytes:
    if dialect == "eriantys-g27":  # length-framed: junk and mutated JSON inside good frames
        junk = rng.random() >= 0.7
        inner = "[" * rng.randrange(1, 400) if junk else fuzz_frame(rng, "eriantys-g13")
        return LengthFramer().encode(inner)
    text = fuzz_frame(rng, "dolphinfox" if dialect == "renaissance" else dialect)
    return text.encode("utf-8", "surrogatepass") + b"\n"


#: distinct frames each flooder cycles through (made once: the flood's own CPU is not the
#: server's, but here both share the machine)
FLOOD_FRAMES = 2000


async def flood_tcp(port: int, dialect: str, source: str, rng: random.Random,
                    tally: list[int], deadline: float) -> None:
    frames = [flood_frame(rng, dialect) for _ in range(FLOOD_FRAMES)]
    while time.time() < deadline:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                           local_addr=(source, 0))
        except OSError:
            await asyncio.sleep(0.1)
            continue
        tally[1] += 1
        drain = asyncio.create_task(reader.read(-1))
        try:
            while time.time() < deadline and not drain.done():
                writer.write(frames[tally[0] % FLOOD_FRAMES])
                await writer.drain()
                tally[0] += 1
        except (ConnectionError, OSError):
            pass
        finally:
            drain.cancel()
            writer.close()
            with suppress(ConnectionError, OSError, asyncio.CancelledError):
                await writer.wait_closed()


async def flood_ws(url: str, source: str, rng: random.Random, tally: list[int],
                   deadline: float) -> None:
    frames = [fuzz_frame(rng, "canonical") for _ in range(FLOOD_FRAMES)]
    connector = aiohttp.TCPConnector(local_addr=(source, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector) as session:
        while time.time() < deadline:
            try:
                async with session.ws_connect(url, heartbeat=None) as ws:
                    tally[1] += 1
                    drain = asyncio.create_task(_drain_ws(ws))
                    while time.time() < deadline and not drain.done() and not ws.closed:
                        await ws.send_str(frames[tally[0] % FLOOD_FRAMES])
                        tally[0] += 1
                        await asyncio.sleep(0)
                    drain.cancel()
            except (aiohttp.ClientError, ConnectionError, OSError, RuntimeError):
                await asyncio.sleep(0.1)


async def _drain_ws(ws: aiohttp.ClientWebSocketResponse) -> None:
    async for _ in ws:
        pass
