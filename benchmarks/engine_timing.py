"""Timing shared by the rules-engine benchmarks: run seeded random games for a while, report."""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from typing import Callable

#: ``play(seed)`` plays one whole random game and returns how many actions it applied
Play = Callable[[int], int]


def measure(play: Play, seconds: float) -> tuple[int, int, float]:
    """Play games with seeds 0, 1, ... for ``seconds``."""
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += play(games)
        games += 1
    return games, actions, time.perf_counter() - start


def main(description: str | None, configs: list[tuple[str, Play]]) -> None:
    """Print games/s and actions/s per configuration, or profile the last one."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    parser.add_argument("--profile", action="store_true",
                        help=f"cProfile {configs[-1][0]} instead")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(measure, configs[-1][1], args.seconds)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
        return
    for label, play in configs:
        games, actions, elapsed = measure(play, args.seconds)
        print(f"{label:10s} {games / elapsed:8.1f} games/s {actions / elapsed:10.0f} actions/s"
              f"   ({games} games, {actions / games:.0f} actions/game)")
