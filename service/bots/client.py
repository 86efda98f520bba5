"""`tavolo bot`: bots as ordinary external clients of the canonical protocol (WebSocket).

Each bot says hello as a guest, sits in a match and plays the legal actions the server
lists for it, chosen at random, until the match is over. Outside the server a bot sees
only its own view, so the external level is ``random``; server-side opponents of any
level can fill the other seats (``--against``). The load benchmark drives matches this way.
A run reports each finished match's result (its winners, the scores where the game keeps
them, and how each of its own seats did) and a count of its seats' wins, losses and draws.
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


def verdict(outcome: dict[str, Any] | None, status: str, seat: int | None) -> str:
    """How ``seat`` did in a match that ended with ``outcome`` (the canonical ``outcome``
    field): won, lost, drawn, aborted, or unfinished."""
    if status == "aborted":
        return "aborted"
    if outcome is None or seat is None:
        return "unfinished"
    winners = outcome.get("winners") or []
    if outcome.get("draw") and (seat in winners or not winners):
        return "drawn"
    return "won" if seat in winners else "lost"


@dataclass(frozen=True)
class MatchResult:
    """One match as the external bots saw it end."""

    match_id: int
    game: str
    status: str
    #: the canonical ``outcome`` (winners, draw, reason, detail) of the last state or update
    outcome: dict[str, Any] | None
    #: the seats the external bots played
    seats: tuple[int, ...]

    @property
    def verdicts(self) -> list[str]:
        return [verdict(self.outcome, self.status, seat) for seat in self.seats]

    def line(self) -> str:
        """``match 7 (santorini) finished: won by seat 1 (reason); own seat 0: lost``."""
        outcome = self.outcome or {}
        winners = outcome.get("winners") or []
        reason = f" ({outcome['reason']})" if outcome.get("reason") else ""
        if self.status == "aborted":
            told = "aborted"
        elif not outcome:
            told = "no result"
        elif outcome.get("draw"):
            told = (f"drawn between seats {', '.join(map(str, winners))}" if winners
                    else "drawn")
        else:
            told = f"won by seat{'s' if len(winners) > 1 else ''} {', '.join(map(str, winners))}"
        scores = (outcome.get("detail") or {}).get("scores")
        scored = f"; scores {' / '.join(map(str, scores))}" if scores else ""
        own = "; ".join(f"own seat {seat}: {v}" for seat, v in zip(self.seats, self.verdicts))
        return f"match {self.match_id} ({self.game}) {told}{reason}{scored}; {own}"


def percentile(ordered: list[float], p: float) -> float:
    """The ``p`` quantile of ``ordered`` (seconds, sorted), in milliseconds; 0 when empty."""
    return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else 0.0


@dataclass
class Tally:
    """What a run measured: acknowledged actions and how long each ack took, and the
    result of each match played to its end."""

    finished: int = 0
    acks: list[float] = field(default_factory=list)
    refused: int = 0
    results: list[MatchResult] = field(default_factory=list)

    def record(self) -> str:
        """Wins, losses and draws of the external bots' seats over the matches played."""
        verdicts = [v for result in self.results for v in result.verdicts]
        counted = ", ".join(f"{verdicts.count(v)} {v}" for v in ("won", "lost", "drawn"))
        other = [v for v in ("aborted", "unfinished") if v in verdicts]
        extra = "".join(f", {verdicts.count(v)} {v}" for v in other)
        return f"own seats over {len(self.results)} match(es): {counted}{extra}"

    def summary(self, seconds: float) -> str:
        """One line per match played (its result), the wins, losses and draws, then the
        acknowledgement times."""
        acks = sorted(self.acks)
        lines = [result.line() for result in sorted(self.results, key=lambda r: r.match_id)]
        if self.results:
            lines.append(self.record())
        return "\n".join(lines + [
                f"{self.finished} match(es) finished, {len(acks)} actions acknowledged "
                f"({len(acks) / max(seconds, 1e-9):.0f}/s), {self.refused} refused; "
                f"ack p50 {percentile(acks, 0.5):.1f} ms, p99 {percentile(acks, 0.99):.1f} ms"])


class BotClient:
    """One canonical connection playing one seat at random."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, rng: random.Random, tally: Tally) -> None:
        self.ws, self.rng, self.tally = ws, rng, tally
        self.ids = itertools.count(1)
        self.replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.changed = asyncio.Event()
        self.status = "waiting"
        self.seats = 0
        #: this connection's seat (``you`` of its latest state)
        self.you: int | None = None
        #: the match's outcome, once a state or update carries one
        self.outcome: dict[str, Any] | None = None
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
            if data.get("type") in ("state", "update", "ended") and data.get("outcome"):
                self.outcome = data["outcome"]
            if data.get("type") in ("state", "update"):
                self.status = data["status"]
                self.offer = (data["version"], data.get("legal") or [])
                self.changed.set()
            if data.get("type") == "state":
                self.seats = len(data["seats"])
                self.you = data.get("you")
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
        outcome = next((c.outcome for c in clients if c.outcome is not None), None)
        tally.results.append(MatchResult(
            match_id, plan.game, first.status, outcome,
            tuple(c.you for c in clients if c.you is not None)))
        return match_id
    finally:
        await asyncio.gather(*(c.close() for c in clients))


async def connect(session: aiohttp.ClientSession, url: str, rng: random.Random, tally: Tally,
                  token: str | None = None) -> tuple[BotClient, str | None]:
    """A bot client on the server at ``url``, said hello (as a new guest, or as the player of
    ``token``: the cluster benchmarks move a player to another node); the client and its
    player's token."""
    client = BotClient(await session.ws_connect(url), rng, tally)
    hello: dict[str, Any] = {"type": "hello", "push_legal": True}
    if token is not None:
        hello["token"] = token
    welcome = await client.must(hello)
    return client, welcome.get("token") or token


async def _connect(session: aiohttp.ClientSession, plan: Plan, rng: random.Random,
                   tally: Tally) -> BotClient:
    client, _ = await connect(session, plan.url, rng, tally)
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
