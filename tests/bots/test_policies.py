"""The bot levels over the pure game contract: every choice is legal, in every game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.bots.policies import LEVELS, Request, decide
from service.games.base import Game
from service.games.registry import all_games, get_game
from service.games.santorini import GAME as SANTORINI
from service.games.santorini.actions import ChooseGod, PickGods

TINY = 0.002


def play(game: Game[Any], state: Any, levels: list[str], rng: random.Random, limit: int = 3000) -> Any:
    """Bots of ``levels`` (one per seat) play from ``state`` to the end; every choice is legal."""
    for _ in range(limit):
        if game.outcome(state) is not None:
            return game.outcome(state)
        seat = rng.choice(sorted(game.to_act(state)))
        action = LEVELS[levels[seat]](game, state, seat, TINY, rng)
        assert action in game.legal_actions(state, seat)
        game.apply(state, seat, action)
    raise AssertionError("no end")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_eriantys_expert_bots_finish(seats: int) -> None:
    game = get_game("eriantys")
    state = game.setup(seats, game.parse_options({"expert": True}), seats)
    assert play(game, state, ["mcts", "random", "mcts", "random"][:seats], random.Random(seats))


def test_dolphinfox_bots_finish() -> None:
    game = get_game("dolphinfox")
    state = game.setup(2, game.parse_options({}), 3)
    assert play(game, state, ["mcts", "random"], random.Random(3))


def every_god() -> list[str]:
    state = SANTORINI.setup(2, SANTORINI.parse_options({"deck": "full"}), 1)
    return sorted({g for pick in SANTORINI.legal_actions(state, 0) or []
                   for g in pick.gods})  # type: ignore[attr-defined]


@pytest.mark.parametrize("god", every_god())
def test_santorini_bots_play_every_god(god: str) -> None:
    rng = random.Random(god)
    state = SANTORINI.setup(2, SANTORINI.parse_options({"deck": "full"}), len(god))
    picks = [p for p in SANTORINI.legal_actions(state, 0) or [] if god in p.gods]  # type: ignore[attr-defined]
    SANTORINI.apply(state, 0, rng.choice(picks))
    chooser = next(iter(SANTORINI.to_act(state)))
    SANTORINI.apply(state, chooser, ChooseGod(god=god))
    assert play(SANTORINI, state, ["mcts", "random"], rng)
    assert isinstance(picks[0], PickGods)


def test_mcts_takes_a_win_that_is_there() -> None:
    game = get_game("dolphinfox")
    state = game.load_state({"size": 4, "terrain": "WLWLWLWLWLWLWLWL"[:16], "max_moves": 200,
                             "units": [[3, 1, 0], [2, 4, 1]], "moves": 0, "winner": None,
                             "draw": False, "end_reason": "", "start_rows": [1, 4]})
    action = LEVELS["mcts"](game, state, 0, 0.05, random.Random(1))
    assert (action.r2, action.c2) == (4, 1)  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", [g.name for g in all_games()])
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_decide_gives_wire_data_of_a_legal_action(game: str, level: str) -> None:
    rules = get_game(game)
    state = rules.setup(rules.min_seats, rules.parse_options({}), 5)
    seat = min(rules.to_act(state))
    chosen = decide(Request(game, rules.dump_state(state), seat, level, TINY, 9))
    assert rules.parse_action(chosen) in rules.legal_actions(state, seat)


def test_mcts_moves_on_once_a_worker_is_chosen() -> None:
    """Re-choosing a worker is legal but leads nowhere: a bot that did it could loop for ever."""
    rng = random.Random(2)
    state = SANTORINI.setup(2, SANTORINI.parse_options({"gods": False}), 2)
    while SANTORINI.legal_actions(state, state.current)[0].type != "select_worker":  # type: ignore[union-attr]
        SANTORINI.apply(state, state.current, rng.choice(SANTORINI.legal_actions(state, state.current) or []))
    seat = state.current
    SANTORINI.apply(state, seat, SANTORINI.legal_actions(state, seat)[0])  # type: ignore[index]
    assert any(a.type == "select_worker" for a in SANTORINI.legal_actions(state, seat) or [])
    for attempt in range(5):
        assert LEVELS["mcts"](SANTORINI, state, seat, TINY, random.Random(attempt)).type != "select_worker"
