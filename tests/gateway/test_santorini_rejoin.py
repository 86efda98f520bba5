"""An original Santorini CLI that reconnects mid-game walks its whole path again, from a fresh
lobby flow with the same nickname; the server brings it to the present and the game ends for
everybody. At every kind of moment, with the same process or a new one, and after a SIGKILL
of the server (real TCP; a server subprocess for the kill)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from santorini_client import Dropped, OriginalCli, SantoriniClient

from service.app import create_app
from service.games.santorini.notation import position
from service.protocol import santorini as wire
from service.gateway.keys import HUB, LISTENERS
from service.sessions.dialects.santorini_rejoin import (CARD_AGAIN, PICK_AGAIN, SELECT_AGAIN,
                                                        START_AGAIN, Replays)
from service.settings import Settings
from service.tools.process import ServerProcess

#: the original compares the names it is sent with its own spelling, case-sensitively
NICKS = ["Ann", "bob", "Cid"]
#: what the original client may meet that it does not know: it logs it and goes on
EXTENSIONS = {"playerDisconnected", "playerReconnected"}


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


async def seat_all(clis: list[OriginalCli]) -> list[asyncio.Task[str]]:
    """Start every client, each after the previous one has its seat (seat order = list order)."""
    tasks = []
    for cli in clis:
        tasks.append(asyncio.create_task(cli.play()))
        await asyncio.wait_for(cli.joined.wait(), 10)
    return tasks


def check_results(results: list[str], clis: list[OriginalCli]) -> None:
    assert sorted(results)[-1] == "youWin" and results.count("youWin") == 1, results
    assert set(results) <= {"youWin", "youLose"}, results  # never a serverError
    for cli in clis:
        assert set(cli.ignored) <= EXTENSIONS


@pytest.mark.parametrize("size,who,drop_at,same_process", [
    (2, 0, ("picked", 1), False),   # the god player, after its pick, before the choices
    (3, 1, ("chose", 1), False),    # a card chosen, the others still choosing
    (3, 2, ("placed", 1), False),   # its workers placed: the game starts without it
    (2, 1, ("placed", 1), True),    # the same, and the same process comes back
    (2, 0, ("moved", 2), False),    # mid-turn: moved, not yet built
    (3, 0, ("moved", 3), True),     # mid-turn, the same process
    (3, 1, ("ended", 2), False),    # while the others play
])
async def test_an_original_client_that_reconnects_finishes_the_game(
        client: Any, size: int, who: int, drop_at: tuple[str, int], same_process: bool) -> None:
    port = client.server.app[LISTENERS]["santorini"].port
    clis = [OriginalCli(port, NICKS[s], size, seed=10 * s + who,
                        drop_at=drop_at if s == who else None) for s in range(size)]
    tasks = await seat_all(clis)
    with pytest.raises(Dropped):
        await tasks[who]
    if same_process:
        clis[who].drop_at = None
        back = clis[who]
    else:
        back = OriginalCli(port, NICKS[who], size, seed=99)
        clis[who] = back
    tasks[who] = asyncio.create_task(back.play())
    check_results(list(await asyncio.gather(*tasks)), clis)


class _GatedStore:
    """The real store, but an action's save waits until the test opens the gate."""

    def __init__(self, store: Any) -> None:
        self._store, self.entered, self.gate = store, asyncio.Event(), asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def append_action(self, *args: Any, **kwargs: Any) -> Any:
        self.entered.set()
        await self.gate.wait()
        return await self._store.append_action(*args, **kwargs)


class _WatchedLock(asyncio.Lock):
    """A lock that tells when somebody has to wait for it."""

    def __init__(self) -> None:
        super().__init__()
        self.contended = asyncio.Event()

    async def acquire(self) -> bool:
        if self.locked():
            self.contended.set()
        return await super().acquire()


async def test_a_player_back_while_an_action_is_being_saved_sees_it_once(client: Any) -> None:
    """The god player comes back while the placement that starts the game is applied but not
    yet saved: its catch-up must wait for the save, so it shows the turn once, saved (it used to
    show it from memory and then announce it again: two actualPlayer, and the original client
    played on a stale one)."""
    port = client.server.app[LISTENERS]["santorini"].port
    ann, bob = await asyncio.gather(SantoriniClient.connect(port), SantoriniClient.connect(port))
    await ann.join("ann", 2)
    await bob.join("bob", 2)
    await ann.send("setPickedCards", {"cards": ["APOLLO", "PAN"]})
    await bob.wait_for("setPlayerCard")
    await bob.send("setPlayerCard", {"playerNickname": "bob", "card": "PAN"})
    await ann.wait_for("setPlayerCard")
    await ann.send("setPlayerCard", {"playerNickname": "ann", "card": "APOLLO"})
    await ann.wait_for("setWorkersPosition")
    await ann.send("setWorkersPosition", {"playerNickname": "ann", "workersPosition": [
        {"workerID": 0, "x": 0, "y": 0}, {"workerID": 1, "x": 0, "y": 1}]})
    await bob.wait_for("setWorkersPosition")
    await ann.close()
    await bob.wait_for("playerDisconnected")
    bob.inbox.clear()  # the next battlefieldUpdate will be that of bob's placement
    runtime = client.server.app[HUB].live()[0]
    runtime.store, runtime.lock = _GatedStore(runtime.store), _WatchedLock()
    await bob.send("setWorkersPosition", {"playerNickname": "bob", "workersPosition": [
        {"workerID": 2, "x": 4, "y": 4}, {"workerID": 3, "x": 4, "y": 3}]})
    await runtime.store.entered.wait()  # applied in memory, not saved
    back = await SantoriniClient.connect(port)
    await back.send("addPlayer", {"playerNickname": "ann", "lobbySize": 2})
    answered = asyncio.create_task(back.wait_for("addPlayerResponse"))
    blocked = asyncio.create_task(runtime.lock.contended.wait())
    await asyncio.wait({answered, blocked}, return_when=asyncio.FIRST_COMPLETED)
    runtime.store.gate.set()
    await answered
    blocked.cancel()
    await bob.wait_for("battlefieldUpdate")  # saved and announced to everybody listening
    await back.send("getPlayers")  # everything sent before its answer has arrived with it
    await back.wait_for("getPlayersResponse")
    assert back.log.count("actualPlayer") == 1, back.log
    for c in (bob, back):
        await c.close()


@pytest.mark.slow
@pytest.mark.parametrize("drop_at", [("moved", 2), ("chose", 1)])
async def test_original_clients_come_back_after_a_sigkill(database_url: str,
                                                          drop_at: tuple[str, int]) -> None:
    """The server dies when one player reaches ``drop_at``; every player starts a new
    original client (a new process) against the restarted server, and the game ends."""
    server = await ServerProcess(database_url, dialects=("santorini",)).start()
    try:
        port = server.ports["santorini"]
        clis = [OriginalCli(port, NICKS[s], 3, seed=s, drop_at=drop_at if s == 1 else None)
                for s in range(3)]
        tasks = await seat_all(clis)
        with pytest.raises(Dropped):
            await tasks[1]
        await server.kill()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

        await server.start()
        port = server.ports["santorini"]
        fresh = [OriginalCli(port, NICKS[s], 3, seed=50 + s) for s in range(3)]
        tasks = [asyncio.create_task(cli.play()) for cli in fresh]
        check_results(list(await asyncio.gather(*tasks)), fresh)
        assert await server.terminate() == 0
    finally:
        await server.kill()


def test_replays_are_absorbed_once_and_in_the_order_of_the_path() -> None:
    st = position("A B 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 C D", ["ATLAS", "PAN"])
    pick, card = wire.PickCards(cards=["ATLAS", "PAN"]), wire.ChooseCard(playerNickname="ann", card="ATLAS")
    start = wire.SetStartTurn(playerNickname="ann", basicTurn=True)
    replays = Replays({PICK_AGAIN, CARD_AGAIN, START_AGAIN, SELECT_AGAIN}, st.turn_number)
    assert replays.expects(pick, st)
    replays.absorb(pick)
    assert not replays.expects(pick, st)  # once
    assert replays.expects(start, st)  # a turn message: the set-up replays are over
    assert not replays.expects(card, st)
    replays.absorb(start)
    st.turn_number += 1  # a new turn: the old turn's selectWorker is no replay any more
    assert not replays.expects(wire.SelectWorker(playerNickname="ann", x=0, y=0), st)
    assert replays.kinds == set()


async def test_a_wrong_replayed_card_is_refused_and_the_right_one_then_absorbed(client: Any) -> None:
    port = client.server.app[LISTENERS]["santorini"].port
    clis = [OriginalCli(port, NICKS[s], 2, seed=s, drop_at=("placed", 1) if s == 1 else None)
            for s in range(2)]
    tasks = await seat_all(clis)
    with pytest.raises(Dropped):
        await tasks[1]
    back = await SantoriniClient.connect(port)
    while not (await back.join("bob", 2))["validNick"]:
        pass  # the server has not seen the old connection go yet: ask again, as the original does
    mine = (await back.wait_for("setPlayerCard"))["cards"]
    wrong = next(c for c in ("APOLLO", "ARTEMIS") if c != mine[0])
    await back.send("setPlayerCard", {"playerNickname": "bob", "card": wrong})
    assert mine[0] in (await back.wait_for("serverError"))["error"]
    await back.send("setPlayerCard", {"playerNickname": "bob", "card": mine[0]})
    await back.send("getPlayers")
    players = (await back.wait_for("getPlayersResponse"))["players"]
    assert next(p["card"] for p in players if p["playerNickname"] == "bob") == mine[0]
    assert not back.seen("serverError")  # the right card was absorbed without a word
    tasks[0].cancel()
    await back.close()
