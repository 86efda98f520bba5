"""Every game's ``view_beside`` (a view derived from other viewers' views of the same state,
issue 23) is its ``view``, and leaves the views it was given as they were."""

from __future__ import annotations

import copy
import random

import pytest

from service.games.registry import get_game


@pytest.mark.parametrize(("game_name", "options"), [
    ("dolphinfox", {}), ("santorini", {}), ("santorini", {"gods": True}), ("eriantys", {}),
    ("renaissance", {})])
def test_a_view_derived_beside_others_is_the_view(game_name: str, options: dict[str, bool]) -> None:
    game = get_game(game_name)
    rng = random.Random(23)
    for number in range(4):
        seats = game.min_seats + number % (game.max_seats - game.min_seats + 1)
        state = game.setup(seats, game.parse_options(options), 300 + number)
        viewers: list[int | None] = [None, *range(seats)]
        for _ in range(80):
            if game.outcome(state) is not None:
                break
            views = {viewer: game.view(state, viewer) for viewer in viewers}
            for first in viewers:
                seen = {first: copy.deepcopy(views[first])}
                kept = copy.deepcopy(seen)
                for viewer in viewers:
                    if viewer != first:
                        assert game.view_beside(state, viewer, seen) == views[viewer]
                assert seen == kept  # the views it was given are unchanged
            seat = rng.choice(sorted(game.to_act(state)))
            action = rng.choice(game.legal_actions(state, seat))
            game.apply(state, seat, action)
