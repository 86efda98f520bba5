"""Eriantys engine benchmark: random full games with the rules engine alone, on one core.

Each game: setup from a seed, then until the game ends: ``to_act`` -> ``legal_actions`` ->
a seeded random choice -> ``apply``. Prints games/second and actions/second per configuration.

    python benchmarks/eriantys_engine.py [--seconds 5] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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


def measure(seats: int, expert: bool, seconds: float) -> tuple[int, int, float]:
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += play(seats, expert, games)
        games += 1
    return games, actions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    parser.add_argument("--profile", action="store_true", help="cProfile 4p expert instead")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(measure, 4, True, args.seconds)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
        return
    for label, seats, expert in CONFIGS:
        games, actions, elapsed = measure(seats, expert, args.seconds)
        print(f"{label:10s} {games / elapsed:8.1f} games/s {actions / elapsed:10.0f} actions/s"
              f"   ({games} games, {actions / games:.0f} actions/game)")


if __name__ == "__main__":
    main()
