"""``legal_actions`` is exactly the set of accepted actions, checked against every action the
engine can express (every catalogued instance), at sampled points of random games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from eriantys_helpers import GAME

from service.errors import MalformedAction, RulesError
from service.games.eriantys import catalog as K
from service.games.eriantys.state import State, copy_state


def universe() -> list[Any]:
    out: list[Any] = [*K.ASSISTANTS.values(), *K.MOVES.values(), *K.STEPS.values(),
                      *K.CLOUDS.values(), K.END_TURN, *K.PLAIN.values(),
                      *K.ISLAND_CARDS.values(), *K.COLOUR_CARDS.values(), *K.MONK.values()]
    for table in K.SWAPS.values():
        out.extend(table.values())
    return out


UNIVERSE = universe()


def accepted(state: State, seat: int) -> list[Any]:
    ok = []
    trial = copy_state(state)
    for action in UNIVERSE:
        try:
            GAME.apply(trial, seat, action)
        except (RulesError, MalformedAction):
            continue
        ok.append(action)
        trial = copy_state(state)
    return ok


@pytest.mark.parametrize("seats,expert", [(2, False), (3, True), (4, True), (2, True)])
def test_legal_actions_are_exactly_the_accepted_ones(seats: int, expert: bool) -> None:
    for seed in range(2):
        state = GAME.setup(seats, GAME.parse_options({"expert": expert}), 1000 + seed)
        for player in state.players:  # rich players reach every character
            player.coins += state.reserve // seats
        state.reserve -= state.reserve // seats * seats
        rnd = random.Random(seed)
        step = 0
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            if step % 11 == 0:
                expected = [a for a in UNIVERSE if a in legal]
                assert len(expected) == len(legal)
                assert accepted(state, seat) == expected
                assert len(set(map(id, legal))) == len(legal)
                other = (seat + 1) % seats
                assert GAME.legal_actions(state, other) == []
            GAME.apply(state, seat, rnd.choice(legal))
            step += 1
