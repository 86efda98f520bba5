"""Eriantys engine benchmark: random full games with the rules engine alone, on one core.

Each game: setup from a seed, then until the game ends: ``to_act`` -> ``legal_actions`` ->
a seeded random choice -> ``apply``. Prints games/second and actions/second per configuration.

    python benchmarks/eriantys_engine.py [--seconds 5] [--profile]
"""

from __future__ import annotations

import argparse
import random
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine_timing import measure, profile, report  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    parser.add_argument("--profile", action="store_true", help="cProfile 4p expert instead")
    args = parser.parse_args()
    if args.profile:
        profile(partial(play, 4, True), args.seconds)
        return
    for label, seats, expert in CONFIGS:
        report(label, *measure(partial(play, seats, expert), args.seconds))


if __name__ == "__main__":
    main()
