"""No aimless loops: an action that changes nothing players care about (swapping depots in
Masters of Renaissance) is never chosen twice in a row, and the server's loop guard works in
a solo game too, saying so (a WARNING and a metric) whenever it plays a move at random."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from clients import CanonicalClient

from service.app import create_app
from service.bots.policies import Search, is_idle
from service.bots.thinker import Thinker
from service.gateway.keys import BOTS
from service.games.registry import get_game
from service.metrics import BOT_FALLBACKS
from service.settings import Settings

RENAISSANCE = get_game("renaissance")


def idle_choices(state: Any, seat: int) -> tuple[list[Any], list[Any]]:
    """The seat's legal actions: (idle ones, the others)."""
    actions = RENAISSANCE.legal_actions(state, seat)
    idle = [a for a in actions if is_idle(RENAISSANCE, state, seat, a)]
    return idle, [a for a in actions if a not in idle]


def positions_with_idle_actions(seats: int, seed: int, count: int) -> list[Any]:
    """Positions of a game played at random where idle and other actions are both legal."""
    rng, found = random.Random(seed), []
    state = RENAISSANCE.setup(seats, RENAISSANCE.parse_options({}), seed)
    while len(found) < count and RENAISSANCE.outcome(state) is None:
        seat = min(RENAISSANCE.to_act(state))
        idle, other = idle_choices(state, seat)
        if idle and other and rng.random() < 0.3:
            found.append(RENAISSANCE.load_state(RENAISSANCE.dump_state(state)))
        RENAISSANCE.apply(state, seat, rng.choice(idle + other))
    return found


def test_swapping_depots_is_idle_and_buying_is_not() -> None:
    state = positions_with_idle_actions(1, 4, 1)[0]
    idle, other = idle_choices(state, 0)
    assert {a.type for a in idle} <= {"swap_depots", "move_resources"}
    assert "swap_depots" in {a.type for a in idle}
    assert all(a.type not in ("swap_depots",) for a in other)


@pytest.mark.parametrize("seats", [1, 2])
def test_after_an_idle_action_the_next_one_changes_something(seats: int) -> None:
    for index, state in enumerate(positions_with_idle_actions(seats, 10 + seats, 6)):
        seat = min(RENAISSANCE.to_act(state))
        chosen = Search(RENAISSANCE, state, seat, random.Random(index),
                        after_idle=True).run(0.0, playouts=12)
        assert not is_idle(RENAISSANCE, state, seat, chosen), chosen


# --- the server's loop guard --------------------------------------------------------------


class SwappingThinker(Thinker):
    """A search gone wrong: whatever it is told, it swaps depots whenever it may. It records
    the level it is asked for at each move."""

    def __init__(self) -> None:
        super().__init__(ThreadPoolExecutor(max_workers=1), budget=0.01)
        self.levels: list[str] = []
        self.back_to_its_level = asyncio.Event()

    async def choose(self, game: str, snapshot: dict[str, Any], seat: int, level: str, *,
                     after_idle: bool = False) -> dict[str, Any]:
        self.levels.append(level)
        if level == "mcts" and "random" in self.levels:
            self.back_to_its_level.set()
        state = RENAISSANCE.load_state(snapshot)
        swaps = [a for a in RENAISSANCE.legal_actions(state, seat) if a.type == "swap_depots"]
        if level == "mcts" and swaps:
            return RENAISSANCE.dump_action(swaps[0])
        return await super().choose(game, snapshot, seat, "random")


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    settings = Settings.for_tests(database_url, bot_budget=0.01, bot_pace=0.0)
    yield await aiohttp_client(create_app(settings))


async def test_the_loop_guard_works_in_solo_and_says_so(
        client: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr("service.bots.seats.STREAK_LIMIT", 4)
    caplog.set_level(logging.WARNING, logger="service.bots.seats")
    fallbacks = BOT_FALLBACKS.labels(game="renaissance", reason="loop")
    before = fallbacks._value.get()
    bots = client.server.app[BOTS]
    bots.thinker.close()
    bots.thinker = thinker = SwappingThinker()
    ada = CanonicalClient(await client.ws_connect("/ws"))
    await ada.hello("ada")
    response = await client.post("/api/matches", json={
        "game": "renaissance", "seats": 1, "bots": ["mcts"], "sit": False, "token": ada.token})
    assert response.status == 201, await response.text()
    await asyncio.wait_for(thinker.back_to_its_level.wait(), 60)
    assert fallbacks._value.get() > before
    assert any("played at random" in r.getMessage() for r in caplog.records)
    # four swaps, then one move at random, then the bot's own level again (not random for
    # the rest of the game, as when only another seat's move could reset the guard)
    first = thinker.levels.index("random")
    assert thinker.levels[first - 4:first] == ["mcts"] * 4


def test_hermes_does_not_walk_for_ever() -> None:
    """Hermes may move any number of times on one level: a bot walks three times at most,
    then builds (its search once walked back and forth for thousands of actions)."""
    from service.games.santorini import GAME as SANTORINI
    from service.games.santorini.board import cell
    from service.games.santorini.setup_flow import new_state
    from service.games.santorini.state import PLAY
    from service.games.santorini.turn import begin_turn

    for seed in range(4):
        state = new_state(2, True, "full", False)
        state.gods = ["HERMES", "ATLAS"]
        state.workers = [cell(1, 1), cell(3, 3), cell(0, 4), cell(4, 0)]
        state.placed, state.phase = [True, True], PLAY
        begin_turn(state, 0, [])
        rng = random.Random(seed)
        for played in range(12):
            action = Search(SANTORINI, state, 0, rng).run(0.0, playouts=8)
            SANTORINI.apply(state, 0, action)
            if state.current != 0:
                break
        assert state.current == 1, f"seed {seed}: still walking after {played + 1} actions"
