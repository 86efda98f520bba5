"""Every registered game honours the contract of DESIGN.md.

Seeded random playouts check, after every step: JSON round trip of the state,
``apply`` changing nothing when it rejects an action, and at the end that the
state replayed from (seed, options, actions) equals the final state.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from service.errors import RulesError
from service.games.base import Game
from service.games.registry import GAME_MODULES, get_game

PLAYOUTS = 12
STEP_LIMIT = 5000


def roundtrip(game: Game[Any], state: Any) -> Any:
    data = json.loads(json.dumps(game.dump_state(state)))
    return game.load_state(data)


def random_playout(game: Game[Any], seats: int, seed: int) -> tuple[Any, list[tuple[int, Any]]]:
    rng = random.Random(seed)
    options = game.parse_options({})
    state = game.setup(seats, options, seed)
    log: list[tuple[int, Any]] = []
    for _ in range(STEP_LIMIT):
        actors = sorted(game.to_act(state))
        if not actors:
            break
        seat = rng.choice(actors)
        legal = game.legal_actions(state, seat)
        if legal is None:
            pytest.skip(f"{game.name} does not list its actions")
        if not legal:
            continue
        for candidate in legal:  # the wire form is what pydantic's JSON mode writes
            assert game.dump_action(candidate) == candidate.model_dump(mode="json")
        action = rng.choice(legal)
        game.apply(state, seat, game.parse_action(json.loads(json.dumps(game.dump_action(action)))))
        log.append((seat, game.dump_action(action)))
        assert game.dump_state(roundtrip(game, state)) == game.dump_state(state)
    return state, log


@pytest.mark.parametrize("name", sorted(GAME_MODULES))
@pytest.mark.parametrize("seed", range(PLAYOUTS))
def test_playout_replays_exactly(name: str, seed: int) -> None:
    game = get_game(name)
    seats = game.min_seats + seed % (game.max_seats - game.min_seats + 1)
    state, log = random_playout(game, seats, seed)
    replayed = game.setup(seats, game.parse_options({}), seed)
    for seat, action in log:
        game.apply(replayed, seat, game.parse_action(action))
    assert game.dump_state(replayed) == game.dump_state(state)
    json.dumps(game.view(state, None))
    for seat in range(seats):
        json.dumps(game.view(state, seat))


@pytest.mark.parametrize("name", sorted(GAME_MODULES))
def test_rejected_actions_change_nothing(name: str) -> None:
    game = get_game(name)
    state = game.setup(game.min_seats, game.parse_options({}), 1)
    actors = game.to_act(state)
    idle = [s for s in range(game.min_seats) if s not in actors]
    legal = game.legal_actions(state, min(actors))
    if not idle or not legal:
        pytest.skip("every seat may act now")
    before = game.dump_state(state)
    with pytest.raises(RulesError):
        game.apply(state, idle[0], legal[0])
    assert game.dump_state(state) == before
