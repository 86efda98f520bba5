"""`tavolo bot`: bots as ordinary external clients of the canonical protocol (WebSocket).

Each bot says hello as a guest, sits in a match and plays the legal actions the server
lists for it, chosen at random, until the match is over. Outside the server a bot sees
only its own view, so the external level is ``random``; server-side opponents of any
level can fill the other seats (``--against``). The load benchmark drives matches this way.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

#: a server that says nothing for this long is taken to be gone
TIMEOUT = 60.0


class BotClientError(Exception):
    """The server refused something the bot cannot go on without."""


@dataclass
class Tally:
    """What a run measured: acknowledged actions and how long each ack took."""

    finished: int = 0
    acks: list[float] = field(default_factory=list)
    refused: int = 0

    def summary(self, seconds: float) -> str:
        acks = sorted(self.acks)

        def pct(p: float) -> float:
            return 1000 * acks[min(len(acks) - 1, int(p * len(acks)))] if acks else 0.0

        return (f"{self.finished} match(es) finished, {len(acks)} actions acknowledged "
                f"({len(acks) / max(seconds, 1e-9):.0f}/s), {self.refused} refused; "
                f"ack p50 {pct(0.5):.1f} ms, p99 {pct(0.99):.1f} ms")


class BotClient:
    """One canonical connection playing one seat at random."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, rng: random.Random, tally: Tally) -> None:
        self.ws, self.rng, self.tally = ws, rng, tally
        self.ids = itertools.count(1)
        self.replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.changed = asyncio.Event()
        self.status = "waiting"
        self.seats = 0
        self.seen_state = asyncio.Event()
        #: the latest (version, legal actions) the server pushed (hello {push_legal})
        self.offer: tuple[int, list[dict[str, Any]]] | None = None
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            waiter = self.replies.pop(data.get("re"), None) if "re" in data else None
            if waiter is not None and not waiter.done():
                waiter.set_result(data)
            if data.get("type") in ("state", "update"):
                self.status = data["status"]
                self.offer = (data["version"], data.get("legal") or [])
                self.changed.set()
            if data.get("type") == "state":
                self.seats = len(data["seats"])
                self.seen_state.set()
        for waiter in self.replies.values():
            if not waiter.done():
                waiter.set_exception(ConnectionError("the server closed the connection"))
        self.changed.set()

    async def call(self, command: dict[str, Any]) -> dict[str, Any]:
        cid = next(self.ids)
        waiter: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.replies[cid] = waiter
        await self.ws.send_str(json.dumps({**command, "id": cid}))
        return await asyncio.wait_for(waiter, TIMEOUT)

    async def must(self, command: dict[str, Any]) -> dict[str, Any]:
        answer = await self.call(command)
        if answer["type"] == "error":
            raise BotClientError(f"{command['type']}: {answer['code']}: {answer['message']}")
        return answer

    async def play(self, match_id: int) -> None:
        """Act whenever the server pushes legal actions for this seat (with every state and
        update, as asked in hello), until the match is over."""
        for turn in itertools.count():
            if self.status in ("finished", "aborted") or self.ws.closed:
                return
            self.changed.clear()
            offer, self.offer = self.offer, None
            if offer is not None and offer[1]:
                await self._act(match_id, *offer, f"x{turn}")
            else:
                await asyncio.wait_for(self.changed.wait(), TIMEOUT)

    async def _act(self, match_id: int, version: int, actions: list[dict[str, Any]],
                   client_id: str) -> None:
        started = time.perf_counter()
        answer = await self.call({"type": "act", "match_id": match_id, "client_id": client_id,
                                  "version": version, "action": self.rng.choice(actions)})
        if answer["type"] == "ack":
            self.tally.acks.append(time.perf_counter() - started)
        else:  # the match moved on meanwhile (another seat acted first): look again
            self.tally.refused += 1

    async def close(self) -> None:
        await self.ws.close()
        await self._reader


@dataclass(frozen=True)
class Plan:
    url: str
    game: str
    options: dict[str, Any]
    seats: int | None
    against: str | None
    seed: int | None = None


async def one_match(session: aiohttp.ClientSession, plan: Plan, index: int, tally: Tally) -> int:
    """Play one match: alone against server bots, or one external bot per seat."""
    rng = random.Random(None if plan.seed is None else plan.seed + index)
    first = await _connect(session, plan, rng, tally)
    clients = [first]
    try:
        if plan.against is not None:
            created = await first.must({"type": "quick_join", "game": plan.game, "options": plan.options,
                                        "seats": plan.seats, "bots": plan.against})
        else:
            created = await first.must({"type": "create", "game": plan.game, "options": plan.options,
                                        "seats": plan.seats})
        match_id = created["result"]["match_id"]
        await asyncio.wait_for(first.seen_state.wait(), TIMEOUT)
        for _ in range(first.seats - 1 if plan.against is None else 0):
            other = await _connect(session, plan, rng, tally)
            clients.append(other)
            await other.must({"type": "join", "match_id": match_id})
        await asyncio.gather(*(c.play(match_id) for c in clients))
        tally.finished += 1
        return match_id
    finally:
        await asyncio.gather(*(c.close() for c in clients))


async def _connect(session: aiohttp.ClientSession, plan: Plan, rng: random.Random,
                   tally: Tally) -> BotClient:
    ws = await session.ws_connect(plan.url)
    client = BotClient(ws, rng, tally)
    await client.must({"type": "hello", "push_legal": True})
    return client


async def run(plan: Plan, matches: int, parallel: int) -> tuple[Tally, float, list[int]]:
    """Play ``matches`` matches, ``parallel`` at a time; what was measured and the match ids."""
    tally = Tally()
    gate = asyncio.Semaphore(parallel)
    started = time.perf_counter()

    async def gated(index: int) -> int:
        async with gate:
            return await one_match(session, plan, index, tally)

    async with aiohttp.ClientSession() as session:
        ids = await asyncio.gather(*(gated(i) for i in range(matches)))
    return tally, time.perf_counter() - started, list(ids)
