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
        self.transcript: list[tuple[str, str]] = []
        self.pings = 0

    @classmethod
    async def open(cls, port: int, name: str) -> RenaissanceClient:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer, name=name)

    async def send(self, line: str) -> None:
        self.transcript.append(("C->S", line))
        await super().send(line)

    async def line(self, timeout: float = 10.0) -> str:
        """The next line that is not a ping (pings are answered)."""
        while True:
            got = await self.recv(timeout)
            if got == wire.PING:
                self.pings += 1
                await super().send(wire.PONG)
                continue
            self.transcript.append(("S->C", got))
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
                 oracle: Callable[[], Any] | None = None, seed: int = 0) -> None:
        self.c, self.seat, self.oracle = client, seat, oracle
        self.rng = random.Random(seed)
        self.bonus = 0
        self.acted = False
        self.result: list[str] = []

    async def play(self) -> list[str]:
        """Answer every prompt until the game is over; returns the result lines."""
        handlers = {
            wire.SELECT_SETUP_RESOURCE: lambda: SETUP_RESOURCES[self.bonus],
            wire.SELECT_SETUP_LINE: self._bonus_line,
            wire.FIRST_LEADER: lambda: "1", wire.SECOND_LEADER: lambda: "2",
            wire.WHERE_TO_INSERT: lambda: "discard", wire.TRANSFORM_OR_DISCARD: lambda: "discard",
        }
        while True:
            line = await self.c.line(30)
            if line == wire.WHAT_TO_DO:
                await self._turn()
            elif line == wire.END:
                self.acted = False
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
        if self.acted:
            await self.c.send("End turn")
        elif self.oracle is None:
            self.acted = True
            await self.c.send(f"Buy resources -line -{self.rng.randint(1, 3)}")
        else:
            await self._oracle_turn()

    async def _oracle_turn(self) -> None:
        """Buy a card if any is legal, else run a production, else take the best market line."""
        state = self.oracle()
        legal = [a.model_dump() for a in GAME.legal_actions(state, self.seat)]
        kinds = {a["type"] for a in legal}
        self.acted = True
        if "buy_card" in kinds:
            await self._buy(max((a for a in legal if a["type"] == "buy_card"),
                                key=lambda a: (a["level"], -a["slot"])))
        elif "produce_card" in kinds:
            await self._produce(next(a for a in legal if a["type"] == "produce_card"))
        else:
            await self.c.send(f"Buy resources -line -{self.rng.randint(1, 3)}")

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
