"""A bot that is still thinking holds up nobody: other matches are acknowledged meanwhile,
and a bot whose worker fails or overruns plays a random legal move instead of stalling."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
from clients import CanonicalClient

from service.app import create_app
from service.bots.thinker import Thinker
from service.gateway.keys import BOTS
from service.games.santorini import GAME as SANTORINI
from service.settings import Settings


class GatedExecutor(ThreadPoolExecutor):
    """Runs each job in a thread only once the gate opens: a bot that thinks for as long as
    the test wants, without any timing."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.gate = threading.Event()
        self.started = threading.Event()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        def gated() -> Any:
            self.started.set()
            self.gate.wait(30)
            return fn(*args, **kwargs)

        return super().submit(gated)


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    settings = Settings.for_tests(database_url, bot_budget=0.01, bot_pace=0.0)
    yield await aiohttp_client(create_app(settings))


async def person(client: Any, nickname: str) -> CanonicalClient:
    player = CanonicalClient(await client.ws_connect("/ws"))
    await player.hello(nickname)
    return player


async def test_other_matches_are_acknowledged_while_a_bot_thinks(client: Any) -> None:
    gated = GatedExecutor()
    bots = client.server.app[BOTS]
    bots.thinker.close()
    bots.thinker = Thinker(gated, budget=0.01, grace=60)
    ada = await person(client, "ada")
    created = await ada.call({"type": "create", "game": "santorini", "seat": 1, "bots": ["mcts"]})
    match_id = created["result"]["match_id"]
    assert (await ada.wait_for("state"))["to_act"] == [0]  # the bot picks the gods first
    assert await asyncio.to_thread(gated.started.wait, 10)  # and is thinking now
    bea, cy = await person(client, "bea"), await person(client, "cy")
    other = (await bea.call({"type": "create", "game": "dolphinfox"}))["result"]["match_id"]
    await cy.call({"type": "join", "match_id": other})
    for turn in range(3):
        move = (await bea.call({"type": "legal", "match_id": other}))["result"]["actions"][0]
        ack = await bea.call({"type": "act", "match_id": other, "action": move, "client_id": f"b{turn}"})
        assert ack["type"] == "ack" and ack["version"] == turn + 1
    assert not gated.gate.is_set()  # the bot was thinking all along
    gated.gate.set()
    update = await ada.wait_for("update", match_id=match_id)
    assert update["seat"] == 0 and update["action"]["type"] == "pick_gods"


class BrokenExecutor(ThreadPoolExecutor):
    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        def broken() -> Any:
            raise RuntimeError("the worker died")

        return super().submit(broken)


async def test_a_failed_worker_gives_a_random_legal_move() -> None:
    thinker = Thinker(BrokenExecutor(max_workers=1), budget=0.01)
    state = SANTORINI.setup(2, SANTORINI.parse_options({}), 7)
    try:
        action = await thinker.choose("santorini", SANTORINI.dump_state(state), 0, "mcts")
    finally:
        thinker.close()
    assert SANTORINI.parse_action(action) in SANTORINI.legal_actions(state, 0)


class LoopingThinker(Thinker):
    """A search gone wrong: once a worker is chosen, it only ever chooses the other one."""

    async def choose(self, game: str, snapshot: dict[str, Any], seat: int, level: str, *,
                     after_idle: bool = False) -> dict[str, Any]:
        state = SANTORINI.load_state(snapshot)
        if level == "mcts" and state.turn is not None and state.turn.worker is not None:
            others = [a for a in SANTORINI.legal_actions(state, seat) or [] if a.type == "select_worker"
                      and state.worker_at(a.x * 5 + a.y) != state.turn.worker]  # type: ignore[attr-defined]
            if others:
                return SANTORINI.dump_action(others[0])
        return await super().choose(game, snapshot, seat, "random")


async def test_a_bot_stuck_in_a_loop_of_legal_moves_gets_out(client: Any,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("service.bots.seats.STREAK_LIMIT", 4)
    bots = client.server.app[BOTS]
    bots.thinker.close()
    bots.thinker = LoopingThinker(ThreadPoolExecutor(max_workers=1), budget=0.01)
    ada = await person(client, "ada")
    created = await ada.call({"type": "create", "game": "santorini", "options": {"gods": False},
                              "seat": 1, "bots": ["mcts"]})
    match_id = created["result"]["match_id"]
    looped = 0
    for _ in range(500):
        update = await ada.wait_for("update", match_id=match_id)
        looped += update["action"]["type"] == "select_worker" and update["seat"] == 0
        if 1 in update["to_act"] and looped >= 4:
            return  # the bot looped, then moved on: it is ada's turn again
        if 1 in update["to_act"]:  # ada places her workers, or plays a turn: move, then build
            listed = (await ada.call({"type": "legal", "match_id": match_id}))["result"]
            await ada.call({"type": "act", "match_id": match_id, "action": listed["actions"][-1],
                            "client_id": f"a{update['version']}", "version": listed["version"]})
    raise AssertionError("the bot never got out of its loop")
