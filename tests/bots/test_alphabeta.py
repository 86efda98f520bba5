"""The alpha-beta search over whole turns (``hard`` in Santorini with two players and in
Dolphins & Foxes): the value it computes is the plain minimax value, it counts positions
(never time) and stays within them, it finds wins and stops threats on its own, and only
``hard`` uses it, where it fits."""

from __future__ import annotations

import random
from typing import Any

import pytest
from puzzle_suite import DOLPHINFOX, SANTORINI, SANTORINI_THREATS, SANTORINI_WINS, dolphinfox

from service.bots import alphabeta
from service.bots.alphabeta import WIN, Tree, best_action
from service.bots.knowledge import knowledge_of
from service.bots.policies import LEVEL_SPECS, Search, choose
from service.bots.tactics import Budget, can_win_now, wins

SANTORINI_HARD = knowledge_of("santorini", strong=True)
DOLPHINFOX_HARD = knowledge_of("dolphinfox", strong=True)


def minimax(tree: Tree, state: Any, mover: int, depth: int, ply: int = 0) -> float:
    """The reference: negamax without any pruning."""
    if depth == 0 or tree.game.outcome(state) is not None:
        return tree.judge(state, mover, ply)
    children = tree.turns(state, mover)
    if not children:
        return tree.judge(state, mover, ply)
    return max(-minimax(tree, child, tree.next_mover(child, mover), depth - 1, ply + 1)
               for _, child in children)


def midgame(seed: int, gods: bool = False) -> Any:
    """A two-player Santorini position at the start of a turn, some random turns in (the
    first seed from ``seed`` on, 100 apart, whose game is still going then)."""
    rng = random.Random(seed)
    state = SANTORINI.setup(2, SANTORINI.parse_options({"gods": gods, "deck": "full"}), seed)
    actions = 0
    while SANTORINI.outcome(state) is None and (
            actions < 16 or state.phase != "play" or state.turn.step != "SELECT"):
        seat = state.current
        SANTORINI.apply(state, seat, rng.choice(SANTORINI.legal_actions(state, seat) or []))
        actions += 1
    return state if SANTORINI.outcome(state) is None else midgame(seed + 100, gods)


@pytest.mark.parametrize("seed", range(3))
def test_alpha_beta_gives_the_minimax_value(seed: int) -> None:
    rng = random.Random(seed)
    board = dolphinfox([[1, 1, 0], [1, 3, 0], [4, 2, 1], [4, 4, 1]])
    for _ in range(rng.randrange(4)):
        seat = 0
        DOLPHINFOX.apply(board, seat, rng.choice(DOLPHINFOX.legal_actions(board, seat)))
        DOLPHINFOX.apply(board, 1, rng.choice(DOLPHINFOX.legal_actions(board, 1)))
    cases: list[tuple[Any, Any, Any, int]] = [
        (DOLPHINFOX, DOLPHINFOX_HARD, board, 4), (SANTORINI, SANTORINI_HARD, midgame(seed), 2)]
    for game, know, state, depth in cases:
        assert know.deep is not None
        mover = 0 if game is DOLPHINFOX else state.current
        pruned = Tree(game, know, know.deep, 10**9)
        full = Tree(game, know, know.deep, 10**9)
        value = pruned.value(state, mover, depth, -WIN * 2, WIN * 2, 0)
        assert value == pytest.approx(minimax(full, state, mover, depth))
        assert pruned.spent < full.spent  # the cut-offs saved positions


def test_it_stays_within_its_positions_and_says_so_when_they_are_too_few() -> None:
    state = midgame(0)
    actions = SANTORINI.legal_actions(state, state.current) or []
    spent: list[int] = []
    real = alphabeta.Tree.spend

    def counting(tree: Tree) -> None:
        real(tree)
        spent.append(tree.spent)

    for positions in (400, 3000):
        spent.clear()
        alphabeta.Tree.spend = counting  # type: ignore[method-assign]
        try:
            chosen = best_action(SANTORINI, state, state.current, actions, SANTORINI_HARD,
                                 santorini_deep(), positions)
        finally:
            alphabeta.Tree.spend = real  # type: ignore[method-assign]
        assert chosen in actions
        assert max(spent) <= positions + 1  # the one over the bound stops the search
    assert best_action(SANTORINI, state, state.current, actions, SANTORINI_HARD,
                       santorini_deep(), 5) is None
    again = [best_action(SANTORINI, state, state.current, actions, SANTORINI_HARD,
                         santorini_deep(), 3000) for _ in range(2)]
    assert again[0] == again[1]  # no time, no chance: the same move every time


def santorini_deep() -> Any:
    assert SANTORINI_HARD.deep is not None
    return SANTORINI_HARD.deep


def play_deep_turn(state: Any, seat: int, positions: int) -> Any:
    """The alpha-beta search alone (no tactical look) plays ``seat``'s whole turn."""
    for _ in range(8):
        actions = SANTORINI.legal_actions(state, seat) or []
        action = best_action(SANTORINI, state, seat, actions, SANTORINI_HARD, santorini_deep(),
                             positions)
        assert action is not None
        SANTORINI.apply(state, seat, action)
        if SANTORINI.outcome(state) is not None or SANTORINI.to_act(state) != {seat}:
            return state
    raise AssertionError("the turn did not end")


@pytest.mark.parametrize("name", ["climb", "artemis two moves", "minotaur pushes", "apollo swaps"])
def test_on_its_own_it_wins_in_one(name: str) -> None:
    state = SANTORINI_WINS[name][1].copy()
    assert wins(SANTORINI, play_deep_turn(state, 0, 4000), 0)


@pytest.mark.parametrize("name", ["dome the three", "artemis reaches", "pan steps down"])
def test_on_its_own_it_stops_a_win_in_one(name: str) -> None:
    state = SANTORINI_THREATS[name][1].copy()
    after = play_deep_turn(state, 0, 20_000)
    know = knowledge_of("santorini")
    assert not can_win_now(SANTORINI, after, 1, know, Budget(200_000))


def test_only_hard_searches_this_way_and_only_where_it_fits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = alphabeta.best_action

    def spy(*args: Any) -> Any:
        calls.append(args[-1])
        return real(*args)

    monkeypatch.setattr("service.bots.policies.best_action", spy)
    state = midgame(1, gods=True)
    seat = state.current
    Search(SANTORINI, state, seat, random.Random(1), level=LEVEL_SPECS["medium"]).run(0, playouts=20)
    assert calls == []
    chosen = choose(SANTORINI, state, seat, "mcts", 0.05, random.Random(1))  # a saved mcts seat
    assert chosen in (SANTORINI.legal_actions(state, seat) or [])
    # the positions it gets: those the hard level's playouts would have cost
    playouts = LEVEL_SPECS["hard"].playouts(SANTORINI, 0.05)
    assert calls in ([], [playouts * SANTORINI_HARD.deep_positions])  # [] : the look decided
    three = SANTORINI.setup(3, SANTORINI.parse_options({"gods": True}), 0)
    assert SANTORINI_HARD.deep_fits is not None and not SANTORINI_HARD.deep_fits(three)
    assert SANTORINI_HARD.deep_fits(state)
    assert knowledge_of("santorini").deep is None  # medium and easy: the playouts


def test_dolphinfox_takes_a_unit_left_hanging() -> None:
    # the fox on (2, 2) stands on water beside the dolphin on (2, 1): taking it leaves one fox
    state = dolphinfox([[2, 1, 0], [1, 4, 0], [2, 2, 1], [4, 4, 1]])
    actions = DOLPHINFOX.legal_actions(state, 0) or []
    chosen = best_action(DOLPHINFOX, state, 0, actions, DOLPHINFOX_HARD,
                         DOLPHINFOX_HARD.deep, 20_000)  # type: ignore[arg-type]
    assert chosen is not None and (chosen.r2, chosen.c2) == (2, 2)  # type: ignore[attr-defined]
