"""Bot strength, engine only (no server), in three modes.

``--mode random`` (the default): a level against the random one, in every game. Each game is
set up from a seed, the strong seats (one seat, or one team in 4-player Eriantys) rotate from
game to game, and every action goes through the game contract. Dolphins & Foxes is real
time; here the two sides move in turn, so the comparison is of choices, not of speed. Masters
of Renaissance solo is the strong seat alone against Lorenzo (the game's own opponent): a win
is the player ending the game first. Prints per configuration: wins, draws and losses of the
strong side, its win rate (with its 95 % Wilson interval) against the share a random player
would get, the strong side's mean score (Renaissance), and the time per move of each level.

``--mode solo``: Masters of Renaissance solo only, the level against Lorenzo: win rate with
its 95 % interval, mean score, how the games ended.

``--mode ladder``: every pair of ``--levels`` (default easy, medium, hard, random and
old-mcts, the landed ``mcts`` before the levels: the whole budget's playouts, no planner)
plays ``--games`` games in each two-player configuration, seats alternating (with
``--many``, also the games of more seats: A holds one seat (a team in 4-player Eriantys) in
turn, B every other, and A's score is its share of wins); prints each
pair's score (a draw counts half) with its 95 % Wilson interval, and an Elo ladder fitted to
all the pairs (random anchored at 0; half a win and half a loss added to every pair so that
a clean sweep gives a finite gap).

    python benchmarks/bot_strength.py [--mode random|solo|ladder] [--games 200]
        [--mode puzzles] [--budget 0.02] [--playouts N] [--level hard] [--levels easy,medium,...]
        [--jobs 2] [--only NAME] [--skip NAME] [--first 0]

``--mode puzzles``: each of ``--levels`` (random left out) plays the puzzle suite of
tests/bots/puzzle_suite.py (a win in one to take, an opponent's win in one to stop, in every
game) from ``--games`` seeds (at most 5) and prints, per game and kind, the share it solved.

``--budget`` is the server's ``--bot-budget``: each level buys its share of
``playouts_for(game, budget)`` playouts a move, as the server's bot seat does (a fixed count,
not a deadline). ``--playouts`` gives every searching level that many playouts instead.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "bots"))

from service.bots.policies import LEVEL_SPECS, LEVELS, Level  # noqa: E402
from service.bots import policies  # noqa: E402
from service.games.registry import get_game  # noqa: E402
from service.games.renaissance.faith import score as renaissance_score  # noqa: E402
import puzzle_suite  # noqa: E402


@dataclass(frozen=True)
class Config:
    name: str
    game: str
    seats: int
    options: dict[str, object] = field(default_factory=dict)

    def strong_seats(self, index: int) -> set[int]:
        if self.game == "eriantys" and self.seats == 4:  # teams: seats 0, 2 against 1, 3
            return {index % 2, index % 2 + 2}
        return {index % self.seats}


CONFIGS = [
    Config("dolphinfox", "dolphinfox", 2),
    Config("santorini 2p", "santorini", 2, {"gods": True, "deck": "full"}),
    Config("santorini 2p without gods", "santorini", 2, {"gods": False}),
    Config("santorini 3p", "santorini", 3, {"gods": True, "deck": "full"}),
    Config("eriantys 2p expert", "eriantys", 2, {"expert": True}),
    Config("eriantys 3p expert", "eriantys", 3, {"expert": True}),
    Config("eriantys 4p expert", "eriantys", 4, {"expert": True}),
    Config("renaissance solo", "renaissance", 1),
    Config("renaissance 2p", "renaissance", 2),
    Config("renaissance 3p", "renaissance", 3),
    Config("renaissance 4p", "renaissance", 4),
]


#: a game still going after this many actions is stopped and counted as a draw
#: (Santorini's Ares removes blocks, so a game need not end)
MAX_ACTIONS = 3000


@dataclass
class Result:
    won: int = 0
    drawn: int = 0
    lost: int = 0
    stopped: int = 0
    #: the strong side's final score, where the game scores (Renaissance)
    scores: list[int] = field(default_factory=list)
    strong_seconds: list[float] = field(default_factory=list)
    random_seconds: list[float] = field(default_factory=list)
    #: how the game ended (the outcome's reason), one per game
    reason: str = ""
    reasons: list[str] = field(default_factory=list)


#: the landed ``mcts`` before the levels: the whole budget's playouts, without the planner
OLD_MCTS = Level("old-mcts", share=1.0)
#: what the benchmark can pair: the server's levels and the old ``mcts``
BENCH_LEVELS = ["random", *LEVEL_SPECS, "old-mcts"]


def spec_of(level: str) -> Level | None:
    """The search of ``level`` (None for random)."""
    if level == "old-mcts":
        return OLD_MCTS
    return LEVEL_SPECS.get(policies.canonical_level(level))


@dataclass(frozen=True)
class Plan:
    level: str
    budget: float
    playouts: int | None
    max_actions: int = MAX_ACTIONS


def choose(plan: Plan, game: Any, state: Any, seat: int, rng: random.Random,
           after_idle: bool) -> Any:
    """As the server's bot seat chooses: told when its previous action was idle."""
    spec = spec_of(plan.level)
    if spec is None:
        return LEVELS["random"](game, state, seat, plan.budget, rng)
    search = policies.Search(game, state, seat, rng, after_idle=after_idle, level=spec)
    playouts = plan.playouts
    if playouts is None:  # as the server does: the budget buys a fixed number of playouts
        playouts = spec.playouts(game, plan.budget)
    return search.run(plan.budget, playouts=playouts)


def play(config: Config, index: int, plan: Plan, weak: Plan | None = None) -> Result:
    """One game, strong seats (``plan``) against the others (``weak``, random by default);
    who won and how long each move took."""
    weak = weak or Plan("random", 0.0, None)
    game = get_game(config.game)
    state = game.setup(config.seats, game.parse_options(config.options), 1000 + index)
    rng, strong, result = random.Random(index), config.strong_seats(index), Result()
    turn, idle = 0, [False] * config.seats
    while game.outcome(state) is None and turn < plan.max_actions:
        acting = sorted(game.to_act(state))
        seat = acting[turn % len(acting)]  # real time: the sides take turns
        mine = seat in strong
        started = time.perf_counter()
        action = choose(plan if mine else weak, game, state, seat, rng, idle[seat])
        (result.strong_seconds if mine else result.random_seconds).append(
            time.perf_counter() - started)
        idle[seat] = policies.is_idle(game, state, seat, action)
        game.apply(state, seat, action)
        turn += 1
    outcome = game.outcome(state)
    scores = (outcome.detail.get("scores") if outcome is not None else None) or []
    if outcome is None and config.game == "renaissance":  # stopped: the score it had then
        scores = [renaissance_score(p) for p in state.players]
    result.scores = [scores[s] for s in sorted(strong) if s < len(scores)]
    result.reason = outcome.reason if outcome is not None else "stopped"
    if outcome is None:
        result.drawn = result.stopped = 1
    elif outcome.draw and (strong & set(outcome.winners) or not outcome.winners):
        result.drawn = 1
    elif strong & set(outcome.winners):
        result.won = 1
    else:
        result.lost = 1
    return result


def merge(results: list[Result]) -> Result:
    total = Result()
    for r in results:
        total.won += r.won
        total.drawn += r.drawn
        total.lost += r.lost
        total.stopped += r.stopped
        total.scores += r.scores
        total.strong_seconds += r.strong_seconds
        total.random_seconds += r.random_seconds
        total.reasons += [r.reason] if r.reason else r.reasons
    return total


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate ``score / n`` (a draw counts half)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def interval(score: float, n: int) -> str:
    low, high = wilson(score, n)
    return f"{100 * score / max(n, 1):.0f} % [{100 * low:.0f}-{100 * high:.0f}]"


def elo_ladder(pairs: dict[tuple[str, str], tuple[float, int]], anchor: str = "random",
               rounds: int = 2000) -> dict[str, float]:
    """Elo ratings fitted to pair results ``(a, b) -> (a's score, games)`` by maximum
    likelihood (Bradley-Terry, the MM iteration), ``anchor`` at 0. Each pair gets half a win
    and half a loss more, so a sweep gives a finite gap."""
    names = sorted({n for pair in pairs for n in pair})
    wins = {n: 0.0 for n in names}
    games: dict[tuple[str, str], float] = {}
    for (a, b), (score, n) in pairs.items():
        wins[a] += score + 0.5
        wins[b] += n - score + 0.5
        games[(a, b)] = games.get((a, b), 0.0) + n + 1
        games[(b, a)] = games.get((b, a), 0.0) + n + 1
    strength = {n: 1.0 for n in names}
    for _ in range(rounds):
        for n in names:
            denominator = sum(g / (strength[n] + strength[m])
                              for (x, m), g in games.items() if x == n)
            if denominator:
                strength[n] = wins[n] / denominator
    base = strength.get(anchor, 1.0)
    return {n: 400 * math.log10(strength[n] / base) for n in names}


def ms(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def report(config: Config, total: Result, games: int, seconds: float) -> str:
    fair = len(config.strong_seats(0)) / config.seats if config.seats > 1 else 0.0
    stopped = f" ({total.stopped} stopped)" if total.stopped else ""
    score = f"{sum(total.scores) / len(total.scores):.1f}" if total.scores else "-"
    return (f"| {config.name} | {games} | {total.won} / {total.drawn}{stopped} / {total.lost} "
            f"| {interval(total.won, games)} | {100 * fair:.0f} % | {score} "
            f"| {ms(total.strong_seconds, 0.5):.1f} / {ms(total.strong_seconds, 0.95):.1f} ms "
            f"| {ms(total.random_seconds, 0.5):.2f} ms | {seconds:.0f} s |")


def run_games(pool: ProcessPoolExecutor, config: Config, games: int, first: int,
              plan: Plan, weak: Plan | None = None) -> tuple[Result, float]:
    started = time.perf_counter()
    indices = range(first, first + games)
    futures = {pool.submit(play, config, i, plan, weak): i for i in indices}
    results = []
    for future in as_completed(futures):
        result = future.result()
        results.append(result)
        if EACH:
            mark = "won" if result.won else "drawn" if result.drawn else "lost"
            print(f"  game {futures[future]} ({config.name}, {plan.level} vs "
                  f"{(weak or Plan('random', 0.0, None)).level}): {plan.level} {mark} "
                  f"({result.reason}), {time.perf_counter() - started:.0f} s", flush=True)
    return merge(results), time.perf_counter() - started


#: print each game's result as it ends (``--each``)
EACH = False


def solo(pool: ProcessPoolExecutor, args: argparse.Namespace, plan: Plan) -> None:
    config = next(c for c in CONFIGS if c.name == "renaissance solo")
    total, seconds = run_games(pool, config, args.games, args.first, plan)
    scores = total.scores
    mean = sum(scores) / len(scores) if scores else 0.0
    ends = ", ".join(f"{total.reasons.count(r)} {r}" for r in sorted(set(total.reasons)))
    print(f"renaissance solo, {args.level} against Lorenzo, games {args.first}-"
          f"{args.first + args.games - 1}: won {total.won} of {args.games}, "
          f"win rate {interval(total.won, args.games)} (95 % Wilson), mean score {mean:.1f} "
          f"(min {min(scores, default=0)}, max {max(scores, default=0)}); ended by: {ends}; "
          f"per move p50 {ms(total.strong_seconds, 0.5):.0f} ms, p95 "
          f"{ms(total.strong_seconds, 0.95):.0f} ms; wall time {seconds:.0f} s", flush=True)


def ladder(pool: ProcessPoolExecutor, args: argparse.Namespace) -> None:
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    for config in CONFIGS:
        if not selected(config, args) or config.seats < 2 or (config.seats > 2
                                                             and not args.many):
            continue
        fair = 100 * len(config.strong_seats(0)) / config.seats
        print(f"\n{config.name}: {args.games} games a pair, seats alternating"
              + (f" (A holds one seat in turn, B every other: A's fair share {fair:.0f} %; "
                 "a draw A shares counts half)" if config.seats > 2 else ""))
        print("| pair (A vs B) | A won / drawn / lost | A's score, 95 % interval "
              "| A per move p50 / p95 | B per move p50 | wall time |")
        print("|---|---|---|---|---|---|")
        pairs: dict[tuple[str, str], tuple[float, int]] = {}
        for a, b in itertools.combinations(levels, 2):
            strong = Plan(a, args.budget, args.playouts, args.max_actions)
            weak = Plan(b, args.budget, args.playouts, args.max_actions)
            total, seconds = run_games(pool, config, args.games, args.first, strong, weak)
            score = total.won + total.drawn / 2
            pairs[(a, b)] = (score, args.games)
            stopped = f" ({total.stopped} stopped)" if total.stopped else ""
            print(f"| {a} vs {b} | {total.won} / {total.drawn}{stopped} / {total.lost} "
                  f"| {interval(score, args.games)} "
                  f"| {ms(total.strong_seconds, 0.5):.1f} / {ms(total.strong_seconds, 0.95):.1f} ms "
                  f"| {ms(total.random_seconds, 0.5):.1f} ms | {seconds:.0f} s |", flush=True)
        ratings = elo_ladder(pairs)
        print(f"Elo ladder ({config.name}, random = 0): " + ", ".join(
            f"{name} {rating:+.0f}" for name, rating in
            sorted(ratings.items(), key=lambda item: -item[1])), flush=True)


#: seeds of the puzzle mode at most (most positions are fixed; a seed varies the search)
PUZZLE_SEEDS = 5


def solve_one(label: str, level: str, seed: int, budget: float, playouts: int | None) -> bool:
    puzzle = next(p for p in puzzle_suite.all_puzzles() if p.label == label)
    spec = spec_of(level)
    assert spec is not None
    count = playouts if playouts is not None else spec.playouts(puzzle.game, budget)
    return puzzle_suite.solve(puzzle, spec, seed, count)


def puzzles(pool: ProcessPoolExecutor, args: argparse.Namespace) -> None:
    """Each searching level's score on the puzzle suite, per game and kind."""
    levels = [lv.strip() for lv in args.levels.split(",") if spec_of(lv.strip()) is not None]
    suite = [p for p in puzzle_suite.all_puzzles()
             if not ((args.only and args.only not in p.group)
                     or (args.skip and args.skip in p.group))]
    seeds = range(args.first, args.first + min(args.games, PUZZLE_SEEDS))
    groups = sorted({(p.group, p.kind) for p in suite})
    print("| level | " + " | ".join(f"{g} {k}" for g, k in groups) + " |")
    print("|---|" + "---|" * len(groups))
    for level in levels:
        jobs = [(p, seed) for p in suite for seed in seeds]
        solved = list(pool.map(solve_one, [p.label for p, _ in jobs], [level] * len(jobs),
                               [seed for _, seed in jobs], [args.budget] * len(jobs),
                               [args.playouts] * len(jobs)))
        cells = []
        for group, kind in groups:
            marks = [ok for (p, _), ok in zip(jobs, solved) if (p.group, p.kind) == (group, kind)]
            cells.append(f"{sum(marks)}/{len(marks)} ({100 * sum(marks) / len(marks):.0f} %)")
        print(f"| {level} | " + " | ".join(cells) + " |", flush=True)


def selected(config: Config, args: argparse.Namespace) -> bool:
    return not ((args.only and args.only not in config.name)
                or (args.skip and args.skip in config.name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", choices=["random", "solo", "ladder", "puzzles"],
                        default="random",
                        help="a level against random (every game), Renaissance solo against "
                        "Lorenzo, every pair of --levels in the two-player games, or each "
                        "level's score on the puzzle suite")
    parser.add_argument("--games", type=int, default=200, help="games per row (per pair)")
    parser.add_argument("--first", type=int, default=0, help="the index of the first game "
                        "(its seed is 1000 + index): another sample of positions")
    parser.add_argument("--budget", type=float, default=0.02,
                        help="the server's --bot-budget: each level buys its share of "
                        "playouts_for(game, budget) playouts a move")
    parser.add_argument("--playouts", type=int, help="a fixed number of playouts per move instead")
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS,
                        help="a game still going after this many actions is stopped (a draw)")
    parser.add_argument("--level", default="hard", choices=BENCH_LEVELS + ["mcts"],
                        help="the strong side's level (random: a baseline)")
    parser.add_argument("--levels", default=",".join(BENCH_LEVELS[1:4] + ["random", "old-mcts"]),
                        help="the levels the ladder pairs, comma-separated")
    parser.add_argument("--many", action="store_true",
                        help="the ladder also plays the games of more than two seats (A in "
                        "one seat or team in turn, B in every other)")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once")
    parser.add_argument("--only", help="run only the configurations whose name contains this")
    parser.add_argument("--skip", help="leave out the configurations whose name contains this")
    parser.add_argument("--each", action="store_true",
                        help="also print each game's result as it ends")
    args = parser.parse_args()
    global EACH
    EACH = args.each
    search = (f"{args.playouts} playouts" if args.playouts is not None
              else f"the level's share of playouts_for(game, {args.budget:g} s)")
    plan = Plan(args.level, args.budget, args.playouts, args.max_actions)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        if args.mode == "solo":
            print(f"{search} per move, {args.jobs} at once")
            solo(pool, args, plan)
            return
        if args.mode == "puzzles":
            print(f"puzzles of {args.levels}: {search} per move, {args.jobs} at once")
            puzzles(pool, args)
            return
        if args.mode == "ladder":
            print(f"ladder of {args.levels}: {search} per move, {args.jobs} at once")
            ladder(pool, args)
            return
        print(f"strong level {args.level}, {search} per move, {args.games} games per row, "
              f"{args.jobs} at once")
        print("| game | games | strong won / drawn / lost | win rate, 95 % interval "
              "| a random side's share | strong mean score | strong per move p50 / p95 "
              "| random per move p50 | wall time |")
        print("|---|---|---|---|---|---|---|---|---|")
        for config in CONFIGS:
            if not selected(config, args):
                continue
            total, seconds = run_games(pool, config, args.games, args.first, plan)
            print(report(config, total, args.games, seconds), flush=True)


if __name__ == "__main__":
    main()
