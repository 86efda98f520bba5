"""Masters of Renaissance engine benchmark: random full games with the rules engine alone.

Each game: setup from a seed, then until the game ends: ``to_act`` -> ``legal_actions`` -> a
seeded random choice (a verb first, then one of its actions, so the long lists of payments do not
drown the other verbs) -> ``apply``. Prints games/second and actions/second per player count.

    python benchmarks/renaissance_engine.py [--seconds 5] [--profile]
"""

from __future__ import annotations

import random
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine_timing import main  # noqa: E402

from service.games.renaissance import GAME  # noqa: E402


def play(seats: int, seed: int) -> int:
    """One random game; returns the number of actions applied."""
    state = GAME.setup(seats, GAME.parse_options({}), seed)
    rnd = random.Random(seed)
    actions = 0
    while state.phase != "over":
        seat = min(GAME.to_act(state))
        verbs: dict[str, list[object]] = {}
        for action in GAME.legal_actions(state, seat):
            verbs.setdefault(action.type, []).append(action)
        GAME.apply(state, seat, rnd.choice(verbs[rnd.choice(sorted(verbs))]))
        actions += 1
    return actions


if __name__ == "__main__":
    main(__doc__, [(f"{seats}p", partial(play, seats)) for seats in (1, 2, 3, 4)])
