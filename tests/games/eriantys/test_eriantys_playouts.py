"""Seeded random playouts: invariants, JSON round trip, refusals change nothing, replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from eriantys_helpers import GAME

from service.errors import MalformedAction, RulesError
from service.games.eriantys.checks import invariant_errors
from service.games.eriantys.constants import CHARACTER_KEYS
from service.games.eriantys.state import State

#: (seats, expert, number of games); 1080 games in all
CONFIGS = [(2, False, 150), (3, False, 150), (4, False, 150),
           (2, True, 210), (3, True, 210), (4, True, 210)]
MAX_ACTIONS = 600  # 10 rounds x 4 players x (1 + 4 + 1 + 1 + 1 + 1) is far below this

ILLEGAL: list[dict[str, Any]] = [
    {"type": "play_assistant", "card": 1}, {"type": "move_mother_nature", "steps": 7},
    {"type": "choose_cloud", "cloud": 3}, {"type": "end_turn"},
    {"type": "move_student", "color": "pink", "to": 11},
    {"type": "play_character", "character": "thief", "color": "red"},
    {"type": "play_character", "character": "jester", "swaps": [["red", "red"]] * 3},
]


def choose(rnd: random.Random, legal: list[Any]) -> Any:
    """Pick a verb uniformly, then one of its actions (so the huge Jester lists do not dominate)."""
    kinds: dict[str, list[Any]] = {}
    for action in legal:
        kind = action.character if action.type == "play_character" else action.type
        kinds.setdefault(kind, []).append(action)
    return rnd.choice(kinds[rnd.choice(sorted(kinds))])


def try_illegal(state: State, rnd: random.Random, legal: list[Any]) -> None:
    raw = rnd.choice(ILLEGAL)
    seat = rnd.randrange(state.seats)
    action = GAME.parse_action(raw)
    if seat in GAME.to_act(state) and action in legal:
        return
    before = GAME.dump_state(state)
    try:
        GAME.apply(state, seat, raw)
    except (RulesError, MalformedAction):
        assert GAME.dump_state(state) == before
    else:  # legal after all (the list is complete, so this must not happen)
        raise AssertionError(f"{raw} accepted for seat {seat} but not listed")


def initial(seats: int, expert: bool, seed: int) -> State:
    """Odd expert seeds fix a rotating trio of characters and share the reserve out (rich
    players use characters far more often); the rest is a plain set-up."""
    raw: dict[str, Any] = {"expert": expert}
    if expert and seed % 2:
        raw["characters"] = [CHARACTER_KEYS[(seed // 2 * 5 + k * 4) % 12] for k in range(3)]
    state = GAME.setup(seats, GAME.parse_options(raw), seed)
    if expert and seed % 2:
        share = state.reserve // seats
        for player in state.players:
            player.coins += share
        state.reserve -= share * seats
    return state


def playout(seats: int, expert: bool, seed: int) -> tuple[str, set[str]]:
    state = initial(seats, expert, seed)
    played: set[str] = set()
    rnd = random.Random(seed * 7 + seats)
    log: list[tuple[int, dict[str, Any]]] = []
    while GAME.outcome(state) is None:
        assert len(log) < MAX_ACTIONS
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        assert legal
        if rnd.random() < 0.1:
            try_illegal(state, rnd, legal)
        chosen = choose(rnd, legal)
        if chosen.type == "play_character":
            played.add(chosen.character)
        action = GAME.dump_action(chosen)
        GAME.apply(state, seat, action)
        log.append((seat, action))
        errors = invariant_errors(state)
        assert not errors, (seed, errors)
        assert GAME.load_state(GAME.dump_state(state)) == state
    json.loads(json.dumps(GAME.dump_state(state)))
    replay = initial(seats, expert, seed)
    for seat, action in log:
        GAME.apply(replay, seat, action)
    assert GAME.dump_state(replay) == GAME.dump_state(state)
    assert GAME.to_act(state) == frozenset()
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason in {
        "last_tower", "three_groups", "bag_empty", "no_assistants"}
    assert outcome.winners or outcome.draw
    return outcome.reason, played


@pytest.mark.parametrize("seats,expert,games", CONFIGS)
def test_random_playouts(seats: int, expert: bool, games: int) -> None:
    reasons: set[str] = set()
    played: set[str] = set()
    for seed in range(games):
        reason, used = playout(seats, expert, seed)
        reasons.add(reason)
        played |= used
    assert "last_tower" in reasons
    assert ("no_assistants" if seats == 2 else "bag_empty") in reasons
    if expert:
        assert played == set(CHARACTER_KEYS)
