"""What the tests of the two g13 wires share: eriantys-g13 (JSON lines, ``G13Client`` and
``Bot``) and eriantys-g13-java (Java serialization, ``JavaG13Client`` and ``JavaBot``).

Both wires hold one conversation over the same matches (dialect ``eriantys-g13``), so a
match set up in the hub, a table of players joining it and a game for every character are
the same steps; a :class:`Wire` says which client and bot take them.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import pytest
from eriantys_g13_client import run_until_stop

from service.app import create_app
from service.gateway.keys import HUB
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.settings import Settings
from service.tools.process import ServerProcess

G13 = "eriantys-g13"  # the matches' dialect: both g13 wires share them

#: three characters a match, so that four matches between them offer all twelve
CHARACTER_SETS = [["monk", "farmer", "herald"],
                  ["magic_mailman", "grandma_herbs", "centaur"],
                  ["jester", "knight", "mushroom_hunter"],
                  ["minstrel", "spoiled_princess", "thief"]]


@dataclass(frozen=True)
class Wire:
    """One g13 wire as the tests speak it."""

    client: Any  # the client class: ``await client.connect(port, nickname)``
    bot: Any  # the bot class: ``bot(client, seed, prefer_new=...)``, ``await bot.run()``
    kind: Callable[[Any], str]  # the class of an answer ("AnsGameStartedMsg")


@pytest.fixture
async def web(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    """The app with every listener, over a test client (a test module imports the fixture)."""
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


@pytest.fixture
def server(web: Any) -> Any:
    return web.server.app


def only_runtime(app: Any) -> MatchRuntime:
    (runtime,) = app[HUB].live()
    return runtime


async def hub_match(hub: Hub, seats: int, characters: list[str], coins: int) -> MatchRuntime:
    """A waiting g13 match with fixed characters and generous purses."""
    runtime, _ = await hub.create("eriantys", {"expert": True, "characters": characters},
                                  seats=seats, dialect=G13)
    for player in runtime.state.players:  # test set-up only: this match is never replayed
        player.coins = coins
    return runtime


async def join_all(wire: Wire, port: int, names: list[str]) -> list[Any]:
    """``names`` join the waiting match in turn; returns once each is told it started."""
    clients = [await wire.client.connect(port, name) for name in names]
    waits = [await c.join() for c in clients]
    for client, wait in zip(clients, waits):
        assert wire.kind(await client.answer(wait)) == "AnsGameStartedMsg"
    return clients


async def play_every_character(wire: Wire, app: Any, port: int,
                               check: Callable[[list[Any]], None] | None = None) -> None:
    """A 2-player game for each of CHARACTER_SETS, the bots trying characters not yet played
    first; every one of the twelve is played. ``check`` looks at each game's clients."""
    hub: Hub = app[HUB]
    played: set[int] = set()
    for index, characters in enumerate(CHARACTER_SETS):
        runtime = await hub_match(hub, 2, characters, coins=12)
        clients = await join_all(wire, port, [f"p{index}a", f"p{index}b"])
        bots = [wire.bot(c, 100 * index + i, prefer_new=played) for i, c in enumerate(clients)]
        await asyncio.gather(*(b.run() for b in bots))
        assert runtime.status == "finished"
        if check is not None:
            check(clients)
        for client in clients:
            await client.close()
    assert played == set(range(1, 13))



@asynccontextmanager
async def killed_mid_game(database_url: str, dialect: str, start_game: Any, bot: Any,
                          names: tuple[str, ...]) -> AsyncIterator[tuple[ServerProcess, int]]:
    """A server process listening for ``dialect``; ``names`` start an expert game with
    ``start_game(port, players, expert=, names=)``, ``bot``s play it until one has sent 14
    commands, the server is SIGKILLed and started again. Yields the server and the number of
    actions acknowledged before the kill; kills the server at the end if it still runs."""
    server = await ServerProcess(database_url, dialects=(dialect,)).start()
    try:
        clients = await start_game(server.ports[dialect], len(names), expert=True, names=names)
        bots = [bot(c, 40 + i, stop_after=14) for i, c in enumerate(clients)]
        await run_until_stop(bots)
        acknowledged = sum(b.applied for b in bots)
        await server.kill()
        await server.start()
        yield server, acknowledged
    finally:
        await server.kill()
