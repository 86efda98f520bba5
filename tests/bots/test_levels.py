"""The levels a person picks (easy, medium, hard; random and the alias mcts): each is a fixed
amount of search, counted in playouts and positions, never in time, and the level that chose
each bot move is saved with it (the move's client_id) and shown to operators."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import CanonicalClient

from service.app import create_app
from service.bots import policies
from service.bots.marks import bot_client_id, level_of
from service.bots.policies import ALIASES, LEVEL_SPECS, LEVELS, Request, canonical_level, decide
from service.gateway.keys import HUB
from service.games.registry import get_game
from service.inspection import match_detail, render_detail
from service.settings import Settings
from service.store import OPERATOR

SANTORINI = get_game("santorini")


def test_the_levels_a_person_picks_and_the_aliases() -> None:
    assert set(LEVELS) == {"easy", "medium", "hard", "random", "mcts"}
    assert ALIASES == {"mcts": "hard"} and canonical_level("mcts") == "hard"
    assert canonical_level("easy") == "easy" and canonical_level("random") == "random"
    shares = [LEVEL_SPECS[name].share for name in ("easy", "medium", "hard")]
    assert shares == sorted(shares) and len(set(shares)) == 3


def opening(seed: int, seats: int = 2) -> Any:
    """A Santorini position (no gods with two players) a few random turns in."""
    rng = random.Random(seed)
    state = SANTORINI.setup(seats, SANTORINI.parse_options({"gods": seats > 2}), seed)
    for _ in range(14):
        seat = state.current
        SANTORINI.apply(state, seat, rng.choice(SANTORINI.legal_actions(state, seat)))
    return state


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "mcts"])
def test_each_level_searches_a_fixed_number_of_playouts(
        level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """However long they take: the budget buys ``playouts_for(game, budget * share)``. Three
    players: with two, ``hard`` searches positions instead (tests/bots/test_alphabeta.py)."""
    name = canonical_level(level)
    monkeypatch.setitem(LEVEL_SPECS, name, dataclasses.replace(LEVEL_SPECS[name], noise=0.0))
    counted = 0
    real = policies.playout

    def counting(*args: Any) -> float:
        nonlocal counted
        counted += 1
        return real(*args)

    monkeypatch.setattr(policies, "playout", counting)
    budget = 0.5
    searched = 0
    for seed in range(6):
        state = opening(seed, seats=3)
        counted = 0
        LEVELS[level](SANTORINI, state, state.current, budget, random.Random(seed))
        if counted:  # zero: the look decided alone (a win, or a single safe action)
            assert counted == LEVEL_SPECS[name].playouts(SANTORINI, budget)
            searched += 1
    assert searched >= 3
    wanted = {n: LEVEL_SPECS[n].playouts(SANTORINI, budget) for n in ("easy", "medium", "hard")}
    assert wanted["easy"] < wanted["medium"] < wanted["hard"] == policies.playouts_for(SANTORINI, budget)


def test_mcts_plays_as_hard() -> None:
    for seed in range(3):
        state = opening(seed)
        snapshot = SANTORINI.dump_state(state)
        chosen = [decide(Request("santorini", snapshot, state.current, level, 0.05, seed))
                  for level in ("mcts", "hard")]
        assert chosen[0] == chosen[1]


def test_easy_is_noisy_yet_takes_a_win_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """About one move in four is a random one of those the look kept, played without a
    search; a win in one is always taken."""
    game = get_game("dolphinfox")
    won = {"size": 4, "terrain": "WLWLWLWLWLWLWLWL", "max_moves": 200,
           "units": [[3, 1, 0], [2, 4, 1]], "moves": 0, "winner": None, "draw": False,
           "end_reason": "", "start_rows": [1, 4]}
    for seed in range(12):
        action = LEVELS["easy"](game, game.load_state(won), 0, 0.05, random.Random(seed))
        assert (action.r2, action.c2) == (4, 1)  # type: ignore[attr-defined]
    searched: list[bool] = []
    real = policies.playout

    def watched(*args: Any) -> float:
        searched[-1] = True
        return real(*args)

    monkeypatch.setattr(policies, "playout", watched)
    state = opening(1)
    SANTORINI.apply(state, state.current, SANTORINI.legal_actions(state, state.current)[0])
    for level in ("easy", "medium"):
        searched.clear()
        for seed in range(60):
            searched.append(False)
            chosen = LEVELS[level](SANTORINI, state, state.current, 0.05, random.Random(seed))
            assert chosen in SANTORINI.legal_actions(state, state.current)
        unsearched = searched.count(False)
        if level == "easy":
            assert 5 <= unsearched <= 28, unsearched  # 15 expected
        else:
            assert unsearched == 0


# --- the level on the saved move ---------------------------------------------------------


def test_a_bot_client_id_says_its_level() -> None:
    assert level_of(bot_client_id("hard", 12, 3)) == "hard"
    assert level_of(bot_client_id("easy", 0, 0)) == "easy"
    assert level_of("bot-12-3") is None  # saved before the level was recorded
    assert level_of("p7") is None and level_of(None) is None and level_of("bot-hard-x-1") is None


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    settings = Settings.for_tests(database_url, bot_budget=0.01, bot_pace=0.0)
    yield await aiohttp_client(create_app(settings))


async def play_against(client: Any, ada: CanonicalClient, level: str, seed: int) -> int:
    """Ada plays Santorini against a bot of ``level`` until both have moved a few times."""
    created = await ada.call({"type": "create", "game": "santorini", "options": {"gods": False},
                              "bots": [level]})
    assert created["type"] == "ok", created
    match_id = created["result"]["match_id"]
    await ada.wait_for("state")
    rng = random.Random(seed)
    store = client.server.app[HUB].store
    for turn in range(300):
        log = await store.actions(match_id)
        if {a.seat for a in log} == {0, 1} and len(log) >= 12:
            break
        listed = (await ada.call({"type": "legal", "match_id": match_id}))["result"]
        if listed["actions"]:
            answer = await ada.call({"type": "act", "match_id": match_id, "client_id": f"p{turn}",
                                     "version": listed["version"],
                                     "action": rng.choice(listed["actions"])})
            if answer["type"] == "ack":
                continue
        update = await ada.wait_for("update", timeout=60)
        if update["status"] == "finished":
            break
    return match_id


async def test_the_saved_log_says_which_level_chose_each_bot_move(client: Any) -> None:
    ada = CanonicalClient(await client.ws_connect("/ws"))
    await ada.hello("ada")
    store = client.server.app[HUB].store
    for level, recorded in [("easy", "easy"), ("mcts", "hard")]:  # mcts is recorded as hard
        match_id = await play_against(client, ada, level, 5)
        log = await store.actions(match_id)
        marks = {seat: {level_of(a.client_id) for a in log if a.seat == seat} for seat in (0, 1)}
        assert marks == {0: {None}, 1: {recorded}}, marks  # ada's moves carry her own ids
        record = await store.get_match(match_id)
        assert record is not None
        shown = render_detail(record, log[-6:])
        assert f"(bot {recorded})" in shown
        assert all("(bot" not in line for line in shown.splitlines() if " seat 0: " in line)
        detail = match_detail(record, log, viewer=OPERATOR)
        assert [a.get("bot") for a in detail["recent_actions"]] == [
            recorded if a.seat == 1 else None for a in log]
