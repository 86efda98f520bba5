"""Eriantys engine benchmark: random full games with the rules engine alone, on one core.

Each game: setup from a seed, then until the game ends: ``to_act`` -> ``legal_actions`` ->
a seeded random choice -> ``apply``. Prints games/second and actions/second per configuration.

    python benchmarks/eriantys_engine.py [--seconds 5] [--profile]
"""

from __future__ import annotations

import random
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine_timing import main  # noqa: E402

from service.games.eriantys import GAME  # noqa: E402

CONFIGS: list[tuple[str, int, bool]] = [
    ("2p normal", 2, False), ("3p expert", 3, True), ("4p expert", 4, True)]


def play(seats: int, expert: bool, seed: int) -> int:
    """One random game; returns the number of actions applied."""
    state = GAME.setup(seats, GAME.parse_options({"expert": expert}), seed)
    rnd = random.Random(seed)
    actions = 0
    while state.phase != "over":
        (seat,) = GAME.to_act(state)
        GAME.apply(state, seat, rnd.choice(GAME.legal_actions(state, seat)))
        actions += 1
    return actions


if __name__ == "__main__":
    main(__doc__, [(label, partial(play, seats, expert)) for label, seats, expert in CONFIGS])
