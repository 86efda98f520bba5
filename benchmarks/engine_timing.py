"""Timing shared by the rules-engine benchmarks: run seeded random games for a while, report."""

from __future__ import annotations

import cProfile
import pstats
import time
from typing import Callable


def measure(play: Callable[[int], int], seconds: float) -> tuple[int, int, float]:
    """Play games with seeds 0, 1, ... for ``seconds``; ``play(seed)`` returns its actions."""
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += play(games)
        games += 1
    return games, actions, time.perf_counter() - start


def report(label: str, games: int, actions: int, elapsed: float) -> None:
    print(f"{label:10s} {games / elapsed:8.1f} games/s {actions / elapsed:10.0f} actions/s"
          f"   ({games} games, {actions / games:.0f} actions/game)")


def profile(play: Callable[[int], int], seconds: float) -> None:
    """cProfile ``measure(play, seconds)`` and print the dozen costliest functions."""
    profiler = cProfile.Profile()
    profiler.runcall(measure, play, seconds)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
