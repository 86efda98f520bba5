"""A seed-003 (Masters of Renaissance) test client that types exactly the seed's lines.

:class:`RenaissanceClient` answers ``ping`` with ``pong`` and keeps a transcript.
:func:`join` does the nickname / number-of-players exchange; :class:`Player` answers the
set-up and plays turns with a policy: by default the blind one (take a market row, discard
everything, end the turn), which needs nothing but the server's prompts and ends games by
faith; with an ``oracle`` (a function giving the live engine state) it picks among the
engine's legal actions and types the dialogue that makes each of them.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from clients import LineClient

from service.games.renaissance import GAME
from service.games.renaissance import catalog as K
from service.protocol import renaissance as wire

SETUP_RESOURCES = ("coin", "stone")


class RenaissanceClient(LineClient):
    """A line client that answers pings and remembers what it saw."""

    def __init__(self, *args: Any, name: str = "?") -> None:
        super().__init__(*args)
        self.name = name
        #: (loop time, "C->S" or "S->C", line), pings and pongs left out
        self.transcript: list[tuple[float, str, str]] = []
        self.pings = 0

    @classmethod
    async def open(cls, port: int, name: str) -> RenaissanceClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer, name=name)

    async def send(self, line: str) -> None:
        self.transcript.append((asyncio.get_running_loop().time(), "C->S", line))
        await super().send(line)

    async def line(self, timeout: float = 10.0) -> str:
        """The next line that is not a ping (pings are answered), within ``timeout`` s."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no line within {timeout} s")
            got = await self.recv(left)
            if got == wire.PING:
                self.pings += 1
                await super().send(wire.PONG)
                continue
            self.transcript.append((asyncio.get_running_loop().time(), "S->C", got))
            return got

    async def until(self, wanted: str, timeout: float = 10.0) -> list[str]:
        """Every line up to and including ``wanted``."""
        seen = []
        while True:
            got = await self.line(timeout)
            seen.append(got)
            if got == wanted:
                return seen


async def join(port: int, nickname: str, players: int | None) -> RenaissanceClient:
    """Connect, give the nickname and (first of a lobby) the number of players."""
    c = await RenaissanceClient.open(port, nickname)
    assert await c.line() == wire.INSERT_NICKNAME
    await c.send(nickname)
    answer = await c.line()
    if players is not None:
        assert answer == wire.INSERT_PLAYERS, answer
        await c.send(str(players))
        answer = await c.line()
    assert answer.startswith("You are in the waiting lobby") or answer == wire.ALL_CONNECTED, answer
    return c


class Player:
    def __init__(self, client: RenaissanceClient, seat: int,
                 oracle: Callable[[], Any] | None = None, seed: int = 0,
                 stop_at: tuple[str, int] | None = None) -> None:
        self.c, self.seat, self.oracle = client, seat, oracle
        #: (line, n): stop playing when ``line`` has come for the n-th time
        self.stop_at = stop_at
        self.rng = random.Random(seed)
        self.bonus = 0
        self.acted = False
        self.line_answer = "1"
        self.result: list[str] = []

    async def play(self) -> list[str]:
        """Answer every prompt until the game is over; returns the result lines."""
        handlers = {
            wire.SELECT_SETUP_RESOURCE: lambda: SETUP_RESOURCES[self.bonus],
            wire.SELECT_SETUP_LINE: self._bonus_line,
            wire.FIRST_LEADER: lambda: "1", wire.SECOND_LEADER: lambda: "2",
            wire.TRANSFORM_OR_DISCARD: lambda: "discard",
        }
        seen = 0
        while True:
            line = await self.c.line(30)
            if self.stop_at and line == self.stop_at[0]:
                seen += 1
                if seen == self.stop_at[1]:
                    return self.result
            if line == wire.WHAT_TO_DO:
                await self._turn()
            elif line == wire.END:
                self.acted = False
            elif line == wire.WHERE_TO_INSERT:
                await self.c.send(await self._where())
            elif line == wire.SELECT_LINE:
                await self.c.send(self.line_answer)
            elif line in handlers:
                await self.c.send(handlers[line]())
            elif line.startswith(("First player:", "Second player:", "Third player:",
                                  "Fourth player:", "You win!", "You lose!")):
                self.result.append(line)
            elif line == wire.GAME_OVER:
                return self.result

    def _bonus_line(self) -> str:
        self.bonus += 1
        return str(self.bonus)

    async def _turn(self) -> None:
        if self.oracle is not None:
            await self._type(decide(self.oracle(), self.seat, self.rng))
        elif self.acted:
            await self.c.send("End turn")
        else:
            self.acted = True
            await self.c.send(f"Buy resources -line -{self.rng.randint(1, 3)}")

    async def _where(self) -> str:
        """Where the resource just announced goes: a depot (then its line) or away."""
        if self.oracle is None:
            return "discard"
        action = decide(self.oracle(), self.seat, self.rng)
        if action is None or action["type"] == "discard_resource":
            return "discard"
        self.line_answer = str(action["depot"])
        return "Warehouse depot"

    async def _type(self, action: dict[str, Any]) -> None:
        """Type the seed's command (and dialogue) that makes ``action``."""
        kind = action["type"]
        if kind == "end_turn":
            await self.c.send("End turn")
        elif kind == "discard_leader":
            number = self.oracle().players[self.seat].leaders.index(action["leader"]) + 1
            await self.c.send(f"Discard leader card -{number}")
        elif kind == "take_from_market":
            word = "line" if action["line"] == "row" else "column"
            await self.c.send(f"Buy resources -{word} -{action['index']}")
        elif kind == "buy_card":
            await self._buy(action)
        else:
            await self._produce(action)

    async def _buy(self, action: dict[str, Any]) -> None:
        column = K.COLOURS.index(action["color"]) + 1
        await self.c.send(f"Buy production card -{action['level']} -{column}")
        assert await self.c.line() == wire.CAN_BUY
        await self._pay(action["pay"], wire.RESOURCE_USED)
        assert await self.c.line() == wire.SELECT_POSITION
        await self.c.send(str(action["slot"]))
        assert await self.c.line() == wire.CARD_INSERTED

    async def _produce(self, action: dict[str, Any]) -> None:
        await self.c.send(f"Activate card production -{action['slot']}")
        assert await self.c.line() == wire.CARD_PRODUCTION_START
        await self._pay(action["pay"], wire.RESOURCE_TAKEN)
        assert await self.c.line() == wire.PRODUCTION_DONE

    async def _pay(self, pay: dict[str, Any] | None, done: str) -> None:
        places = {"warehouse": "Warehouse depot", "extra": "Extra depot", "strongbox": "Strongbox"}
        for source, amounts in (pay or {}).items():
            for resource, count in (amounts or {}).items():
                for _ in range(count):
                    assert await self.c.line() == wire.SELECT_DEPOT
                    await self.c.send(places[source])
                    assert await self.c.line() == wire.SELECT_RESOURCE
                    await self.c.send(resource.capitalize())
                    assert await self.c.line() == done


# --- the oracle's policy (the same offline and over the wire) ------------------------------


def decide(state: Any, seat: int, rng: random.Random) -> dict[str, Any] | None:
    """Place what fits, buy the highest card, run every production, discard leaders for
    faith, and take the market line that wastes least."""
    legal = [a.model_dump() for a in GAME.legal_actions(state, seat)]
    if any(state.pending) or state.pending_white:
        return _placement(state, legal)
    prods = [a for a in legal if a["type"] == "produce_card"]
    if state.main == "production" and prods:
        return prods[0]
    if state.main:
        drop = [a for a in legal if a["type"] == "discard_leader"]
        return drop[0] if drop else {"type": "end_turn"}
    buys = [a for a in legal if a["type"] == "buy_card"]
    if buys:
        return max(buys, key=lambda a: (a["level"], -a["slot"]))
    if prods:
        return prods[0]
    options = [a for a in legal if a["type"] == "take_from_market"]
    return min(options, key=lambda a: (_waste(state, seat, a), rng.random()))


def _placement(state: Any, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    if state.pending_white:
        return None
    res = next(r for r in wire.RESOURCES if state.pending[K.RES_INDEX[r]])
    places = [a for a in legal if a["type"] == "place_resource" and a["resource"] == res
              and a["depot"] != "extra"]
    return places[0] if places else {"type": "discard_resource", "resource": res}


def _waste(state: Any, seat: int, action: dict[str, Any]) -> float:
    trial = GAME.load_state(GAME.dump_state(state))
    GAME.apply(trial, seat, GAME.parse_action(action))
    lost = 0
    while (any(trial.pending) or trial.pending_white) and trial.phase == "play":
        step = decide(trial, seat, rng=random.Random(0))
        if step is None:
            return 99
        lost += step["type"] == "discard_resource"
        GAME.apply(trial, seat, GAME.parse_action(step))
    return lost - 0.1 * sum(n for _, n in trial.players[seat].depots)


def simulate(seed: int, seats: int = 1, limit: int = 3000) -> Any:
    """The game the oracle players would play with this match seed, offline."""
    state = GAME.setup(seats, GAME.parse_options(None), seed)
    rngs = [random.Random(s) for s in range(seats)]
    for seat in range(seats):
        p = state.players[seat]
        for k in range(p.bonus_left):
            GAME.apply(state, seat, GAME.parse_action(
                {"type": "take_bonus_resource", "resource": SETUP_RESOURCES[k], "depot": k + 1}))
        GAME.apply(state, seat, GAME.parse_action(
            {"type": "choose_leaders", "leaders": [p.dealt[0], p.dealt[1]]}))
    for _ in range(limit):
        if state.phase == "over":
            break
        seat = state.current
        GAME.apply(state, seat, GAME.parse_action(decide(state, seat, rngs[seat])))
    return state


def find_seed(solo_win: bool, start: int = 0) -> int:
    """A match seed whose solo game the oracle player wins (or loses)."""
    for seed in range(start, start + 400):
        if (0 in simulate(seed).winners) == solo_win:
            return seed
    raise AssertionError("no seed found")
