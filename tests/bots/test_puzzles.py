"""Puzzles built from the rules: a win in one is taken, an opponent's win in one is stopped.

Each position is set up through the games' own state and checked to be a real puzzle (some
legal turn misses the point), then a bot plays its whole turn action by action, searching a
fixed number of playouts (never a time budget), and the turn's result is asserted. In
Santorini a turn is 2-6 actions, god powers included: the bot must find the whole sequence.
Every level takes a win in one (``easy`` too: its noise never passes a win up); ``medium``
and ``hard`` also stop every win in one (``easy``'s smaller look and its noise may not).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.bots.knowledge import knowledge_of
from service.bots.policies import LEVEL_SPECS, Search
from service.bots.tactics import Budget, can_win_now, tactics, turn_ends, wins
from service.games.base import Game
from service.games.registry import get_game
from service.games.santorini import GAME as SANTORINI
from service.games.santorini.board import cell
from service.games.santorini.setup_flow import new_state
from service.games.santorini.state import PLAY, State
from service.games.santorini.turn import begin_turn

PLAYOUTS = 40
SEEDS = range(3)
#: the levels that take every win in one, and those that also stop every one
WINNERS = ["easy", "medium", "hard"]
GUARDS = ["medium", "hard"]


def play_turn(game: Game[Any], state: Any, seat: int, seed: int, level: str = "hard") -> Any:
    """The bot of ``level`` plays ``seat``'s whole turn (every action while it alone may act)."""
    rng = random.Random(seed)
    for _ in range(10):
        action = Search(game, state, seat, rng, level=LEVEL_SPECS[level]).run(
            0.0, playouts=PLAYOUTS)
        assert action in (game.legal_actions(state, seat) or [])
        game.apply(state, seat, action)
        if game.outcome(state) is not None or game.real_time or game.to_act(state) != {seat}:
            return state
    raise AssertionError("the turn did not end")


def some_end(game: Game[Any], state: Any, seat: int, test: Any) -> bool:
    """Whether some legal turn of ``seat`` ends in a position where ``test`` holds."""
    know = knowledge_of(game.name)
    return any(test(end) for end in turn_ends(game, state, seat, know, Budget(200_000)))


# --- Santorini ----------------------------------------------------------------------------


def santorini(workers: dict[int, tuple[int, int]], blocks: dict[tuple[int, int], int],
              gods: tuple[str | None, ...] = (None, None), seat: int = 0,
              domes: tuple[tuple[int, int], ...] = ()) -> State:
    """A position in play: worker id -> (x, y), cell -> height, the seats' gods."""
    st = new_state(len(gods), any(gods), "full", False)
    st.gods = list(gods)
    for w, (x, y) in workers.items():
        st.workers[w] = cell(x, y)
    for (x, y), height in blocks.items():
        st.blocks[cell(x, y)] = height
    for x, y in domes:
        st.domes[cell(x, y)] = True
    st.placed = [True] * len(gods)
    st.phase = PLAY
    begin_turn(st, seat, [])
    return st


def no_win_for(seat: int) -> Any:
    know = knowledge_of("santorini")
    return lambda st: not wins(SANTORINI, st, 1 - seat) and not can_win_now(
        SANTORINI, st, st.current, know, Budget(200_000))


SANTORINI_WINS = {
    # a worker on level 2 beside a level 3: select it, climb
    "climb": santorini({0: (4, 4), 1: (2, 2), 2: (0, 4), 3: (4, 0)},
                       {(2, 2): 2, (2, 3): 3, (1, 1): 1}),
    # Artemis: level 2, then level 2 again, then up to 3: two moves in one turn
    "artemis two moves": santorini({0: (0, 0), 1: (4, 4), 2: (0, 4), 3: (4, 0)},
                                   {(0, 0): 2, (1, 1): 2, (2, 2): 3},
                                   gods=("ARTEMIS", "ATLAS")),
    # Pan: down two levels wins (no level 3 anywhere)
    "pan drops": santorini({0: (4, 4), 1: (1, 1), 2: (0, 4), 3: (4, 0)},
                           {(1, 1): 2, (2, 2): 1, (0, 0): 1, (1, 2): 2},
                           gods=("PAN", "DEMETER")),
    # Minotaur pushes a rival off the level 3 and steps up
    "minotaur pushes": santorini({0: (4, 4), 1: (1, 1), 2: (2, 2), 3: (4, 0)},
                                 {(1, 1): 2, (2, 2): 3},
                                 gods=("MINOTAUR", "HEPHAESTUS")),
}


@pytest.mark.parametrize("name", sorted(SANTORINI_WINS))
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("level", WINNERS)
def test_santorini_takes_a_win_in_one_turn(name: str, seed: int, level: str) -> None:
    state = SANTORINI_WINS[name]
    assert some_end(SANTORINI, state.copy(), 0, lambda st: not wins(SANTORINI, st, 0))
    assert wins(SANTORINI, play_turn(SANTORINI, state.copy(), 0, seed, level), 0)


SANTORINI_THREATS = {
    # the rival's worker on level 2 beside the only level 3: dome it (or stand on it)
    "dome the three": santorini({0: (2, 1), 1: (4, 4), 2: (1, 3), 3: (4, 0)},
                                {(1, 3): 2, (2, 3): 3, (0, 0): 1}),
    # the rival is Artemis: a level 3 two moves away over a level 2 is a threat too
    "artemis reaches": santorini({0: (3, 1), 1: (4, 4), 2: (0, 0), 3: (4, 0)},
                                 {(0, 0): 2, (1, 1): 2, (2, 2): 3},
                                 gods=("ATLAS", "ARTEMIS")),
    # three players: the next one (seat 1) threatens to climb; seat 2 is far away
    "three players": santorini({0: (2, 1), 1: (4, 4), 2: (1, 3), 3: (4, 0), 4: (0, 0),
                                5: (0, 1)},
                               {(1, 3): 2, (2, 3): 3, (3, 3): 1},
                               gods=("DEMETER", "HEPHAESTUS", "ATLAS")),
    # Pan wins by stepping down two levels: its one way down is to (3, 2), which must be
    # built on or stood on
    "pan steps down": santorini({0: (3, 3), 1: (4, 0), 2: (2, 2), 3: (0, 4)},
                                {(2, 2): 2, (1, 1): 1, (1, 2): 1, (1, 3): 1, (2, 1): 1,
                                 (2, 3): 1, (3, 1): 1, (3, 3): 1},
                                gods=("HEPHAESTUS", "PAN")),
}


@pytest.mark.parametrize("name", sorted(SANTORINI_THREATS))
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("level", GUARDS)
def test_santorini_stops_a_win_in_one_turn(name: str, seed: int, level: str) -> None:
    state = SANTORINI_THREATS[name]
    assert not some_end(SANTORINI, state.copy(), 0, lambda st: wins(SANTORINI, st, 0))
    assert some_end(SANTORINI, state.copy(), 0, lambda st: not no_win_for(0)(st))
    assert some_end(SANTORINI, state.copy(), 0, no_win_for(0))
    after = play_turn(SANTORINI, state.copy(), 0, seed, level)
    assert no_win_for(0)(after)


# --- Dolphins & Foxes -----------------------------------------------------------------------

DOLPHINFOX = get_game("dolphinfox")
#: 4 x 4, water and land in a checkerboard: W L W L / L W L W / ...
CHECKERS = "".join("WL"[(r + c) % 2] for r in range(4) for c in range(4))


def dolphinfox(units: list[list[int]]) -> Any:
    return DOLPHINFOX.load_state({"size": 4, "terrain": CHECKERS, "max_moves": 200,
                                  "units": units, "moves": 0, "winner": None, "draw": False,
                                  "end_reason": "", "start_rows": [1, 4]})


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("level", WINNERS)
def test_dolphinfox_takes_a_win_in_one(seed: int, level: str) -> None:
    # a dolphin on row 3 steps onto the foxes' row; the other moves do not win
    state = dolphinfox([[3, 1, 0], [1, 3, 0], [2, 4, 1], [1, 1, 1]])
    assert some_end(DOLPHINFOX, DOLPHINFOX.load_state(DOLPHINFOX.dump_state(state)), 0,
                    lambda st: st.winner is None)
    assert wins(DOLPHINFOX, play_turn(DOLPHINFOX, state, 0, seed, level), 0)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("level", GUARDS)
def test_dolphinfox_stops_a_win_in_one(seed: int, level: str) -> None:
    # the fox on (2, 2), on water, steps onto row 1 next: the dolphin beside it captures it
    # there (water is the dolphins' home); the fox on (4, 4) keeps the game going
    state = dolphinfox([[2, 1, 0], [2, 2, 1], [4, 4, 1]])
    know = knowledge_of("dolphinfox")
    assert can_win_now(DOLPHINFOX, DOLPHINFOX.load_state(DOLPHINFOX.dump_state(state)), 1,
                       know, Budget(1000))
    after = play_turn(DOLPHINFOX, state, 0, seed, level)
    assert not can_win_now(DOLPHINFOX, after, 1, know, Budget(1000))


# --- Eriantys ---------------------------------------------------------------------------------

ERIANTYS = get_game("eriantys")


def eriantys_last_tower(seed: int) -> tuple[Any, int, int]:
    """A 2-player game at the mother nature step of a seat with one tower left: one island
    within reach gives it the influence (its students, its professors), the others nothing.
    Returns the state, the seat and the steps to the winning island."""
    rng = random.Random(seed)
    state = ERIANTYS.setup(2, ERIANTYS.parse_options({}), seed)
    while True:  # on to a mother nature step that may go two steps or more
        seat = state.current()
        legal = ERIANTYS.legal_actions(state, seat) or []
        steps = max((a.steps for a in legal if a.type == "move_mother_nature"), default=0)
        if steps >= 2 and state.moved >= 3:
            break
        ERIANTYS.apply(state, seat, rng.choice(legal))
    target = (state.mother_nature + steps) % len(state.groups)
    for index, group in enumerate(state.groups):
        group.students = [0] * 5
        if group.team == seat:  # keep it simple: no towers of the seat's own on the board
            group.team, group.towers = -1, 0
    state.groups[target].students = [2, 1, 0, 0, 0]
    state.professors = [seat, seat, 1 - seat, 1 - seat, 1 - seat]
    state.towers[seat] = 1
    return state, seat, steps


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("level", WINNERS)
def test_eriantys_takes_the_last_tower(seed: int, level: str) -> None:
    state, seat, steps = eriantys_last_tower(seed)
    assert some_end(ERIANTYS, ERIANTYS.load_state(ERIANTYS.dump_state(state)), seat,
                    lambda st: ERIANTYS.outcome(st) is None)
    after = play_turn(ERIANTYS, state, seat, seed, level)
    outcome = ERIANTYS.outcome(after)
    assert outcome is not None and outcome.reason == "last_tower" and outcome.winners == (seat,)


def test_the_look_answers_within_its_positions_once_the_worker_is_chosen() -> None:
    """Three players, Demeter's worker chosen: which moves still let it dome the rival's
    level 3. Judging each end board once and trying the rival's winning actions first (the
    killer) makes it fit the 6,000 positions of a look; it took 12,926 without."""
    state = SANTORINI_THREATS["three players"].copy()
    SANTORINI.apply(state, 0, (SANTORINI.legal_actions(state, 0) or [])[0])
    know = knowledge_of("santorini")
    moves = know.prune(state, SANTORINI.legal_actions(state, 0) or []) if know.prune else []
    verdict = tactics(SANTORINI, state, 0, know, moves, 6000)
    assert verdict.safe is not None
    assert sorted((m.x, m.y) for m in verdict.safe) == [(1, 2), (2, 2), (3, 2)]  # type: ignore[attr-defined]
