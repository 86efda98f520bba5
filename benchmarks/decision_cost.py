"""The CPU cost of one bot decision, per game and level (engine only, no server).

Issue 22 asks for "a ``hard`` decision within 2 s of one core; ``easy`` within 0.1 s". This
measures it: for each game configuration (those of ``bot_strength.py``), two games are
played at random from fixed seeds, and every ``--every``-th position of them (at most
``--positions`` per game, evenly spread) is handed to each ``--levels`` level through the
entry point the server's worker runs (``thinker.decide_measured``: ``policies.decide`` on a
``Request`` built from the state's snapshot, as ``seats.py`` builds it, with the server's
``--bot-budget``). The CPU seconds are the ones the server counts for that call
(``time.thread_time`` of the deciding thread), so other work on the machine slows them only
through shared caches and frequency, not through waiting.

Prints one line per configuration and level: decisions measured, p50 / p95 / max CPU
seconds, and how many decisions took longer than ``--limit`` for that level (issue 22: hard
2 s, easy 0.1 s; medium has no target).

    .venv/bin/python benchmarks/decision_cost.py [--budget 1.0] [--levels easy,hard]
        [--every 4] [--positions 20] [--games 2] [--only NAME] [--skip NAME]

Runs in one process (one core); the positions and the bots' seeds repeat exactly, the times
do not.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_strength import CONFIGS, MAX_ACTIONS, Config, selected  # noqa: E402
from service.bots.client import percentile  # noqa: E402
from service.bots.policies import Request, choose_random  # noqa: E402
from service.bots.thinker import decide_measured  # noqa: E402
from service.games.registry import get_game  # noqa: E402

#: issue 22's limit on one decision's CPU time, per level (seconds of one core)
LIMITS = {"easy": 0.1, "hard": 2.0}


#: a position to decide in: the state's snapshot and the seat that decides
Position = tuple[dict[str, Any], int]


def positions(config: Config, games: int, every: int, most: int) -> list[Position]:
    """(snapshot, seat to decide for) at every ``every``-th position of ``games`` games played
    at random from seeds 1000, 1001, ...; at most ``most`` per game, evenly spread."""
    game = get_game(config.game)
    found: list[Position] = []
    for index in range(games):
        state = game.setup(config.seats, game.parse_options(config.options), 1000 + index)
        rng = random.Random(index)
        picked: list[Position] = []
        turn = 0
        while game.outcome(state) is None and turn < MAX_ACTIONS:
            acting = sorted(game.to_act(state))
            seat = acting[turn % len(acting)]  # real time: the sides take turns
            if turn % every == 0:
                picked.append((game.dump_state(state), seat))
            game.apply(state, seat, choose_random(game, state, seat, 0.0, rng))
            turn += 1
        if len(picked) > most:
            step = len(picked) / most
            picked = [picked[int(i * step)] for i in range(most)]
        found += picked
    return found


def measure(config: Config, level: str, budget: float,
            sample: list[Position]) -> list[float]:
    """The CPU seconds of ``level``'s decision in each position of ``sample``."""
    seconds = []
    for number, (snapshot, seat) in enumerate(sample):
        request = Request(game=config.game, snapshot=snapshot, seat=seat, level=level,
                          budget=budget, seed=number)
        _, cpu = decide_measured(request)
        seconds.append(cpu)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budget", type=float, default=1.0,
                        help="the server's --bot-budget (its default is 1.0)")
    parser.add_argument("--levels", default="easy,hard", help="levels, comma-separated")
    parser.add_argument("--games", type=int, default=2, help="random games per configuration")
    parser.add_argument("--every", type=int, default=4, help="every n-th position of a game")
    parser.add_argument("--positions", type=int, default=20,
                        help="at most this many positions per game")
    parser.add_argument("--only", help="only the configurations whose name contains this")
    parser.add_argument("--skip", help="leave out the configurations whose name contains this")
    args = parser.parse_args()
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    print(f"CPU seconds per decision, budget {args.budget:g}, every {args.every}th position "
          f"of {args.games} random games (at most {args.positions} a game)")
    print("| game | level | decisions | p50 | p95 | max | over the limit | wall time |")
    print("|---|---|---|---|---|---|---|---|")
    for config in CONFIGS:
        if not selected(config, args):
            continue
        sample = positions(config, args.games, args.every, args.positions)
        for level in levels:
            started = time.perf_counter()
            seconds = sorted(measure(config, level, args.budget, sample))
            limit = LIMITS.get(level)
            over = (f"{sum(s > limit for s in seconds)} over {limit:g} s" if limit is not None
                    else "-")
            print(f"| {config.name} | {level} | {len(seconds)} | {percentile(seconds, 0.5) / 1000:.3f} s "
                  f"| {percentile(seconds, 0.95) / 1000:.3f} s | {seconds[-1]:.3f} s | {over} "
                  f"| {time.perf_counter() - started:.0f} s |", flush=True)


if __name__ == "__main__":
    main()
