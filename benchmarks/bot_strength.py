"""Bot strength: a stronger level (``mcts``) against the random one, in every game.

Engine only (no server): each game is set up from a seed, the strong seats (one seat, or
one team in 4-player Eriantys) rotate from game to game, and every action goes through the
game contract. Dolphins & Foxes is real time; here the two sides move in turn, so the
comparison is of choices, not of speed. Masters of Renaissance solo is the strong seat
alone against Lorenzo (the game's own opponent): a win is the player ending the game first.
Prints per configuration: wins, draws and losses of the strong side, its win rate against
the share a random player would get, the strong side's mean score (Renaissance), and the
time per move of each level.

    python benchmarks/bot_strength.py [--games 200] [--budget 0.02] [--playouts N]
        [--level mcts] [--jobs 2] [--only NAME] [--skip NAME]

``--budget`` buys what the server's bot seat buys: ``playouts_for(game, budget)`` playouts per
move (the game's measured playout rate times the budget, a fixed count, not a deadline).
``--playouts`` searches that many playouts per move in every game instead.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.bots.policies import LEVELS  # noqa: E402
from service.bots import policies  # noqa: E402
from service.games.registry import get_game  # noqa: E402
from service.games.renaissance.faith import score as renaissance_score  # noqa: E402


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
    Config("santorini 3p", "santorini", 3, {"gods": True, "deck": "full"}),
    Config("eriantys 2p expert", "eriantys", 2, {"expert": True}),
    Config("eriantys 3p expert", "eriantys", 3, {"expert": True}),
    Config("eriantys 4p expert", "eriantys", 4, {"expert": True}),
    Config("renaissance solo", "renaissance", 1),
    Config("renaissance 2p", "renaissance", 2),
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


@dataclass(frozen=True)
class Plan:
    level: str
    budget: float
    playouts: int | None
    max_actions: int = MAX_ACTIONS


def choose(plan: Plan, game: Any, state: Any, seat: int, rng: random.Random,
           after_idle: bool) -> Any:
    """As the server's bot seat chooses: told when its previous action was idle."""
    if plan.level == "random":
        return LEVELS["random"](game, state, seat, plan.budget, rng)
    search = policies.Search(game, state, seat, rng, after_idle=after_idle)
    playouts = plan.playouts
    if playouts is None:  # as the server does: the budget buys a fixed number of playouts
        playouts = policies.playouts_for(game, plan.budget)
    return search.run(plan.budget, playouts=playouts)


def play(config: Config, index: int, plan: Plan) -> Result:
    """One game, strong seats against random ones; who won and how long each move took."""
    game = get_game(config.game)
    state = game.setup(config.seats, game.parse_options(config.options), 1000 + index)
    rng, strong, result = random.Random(index), config.strong_seats(index), Result()
    turn, idle = 0, [False] * config.seats
    while game.outcome(state) is None and turn < plan.max_actions:
        acting = sorted(game.to_act(state))
        seat = acting[turn % len(acting)]  # real time: the sides take turns
        mine = seat in strong
        started = time.perf_counter()
        action = choose(plan if mine else Plan("random", 0.0, None), game, state, seat, rng,
                        idle[seat])
        (result.strong_seconds if mine else result.random_seconds).append(
            time.perf_counter() - started)
        idle[seat] = mine and policies.is_idle(game, state, seat, action)
        game.apply(state, seat, action)
        turn += 1
    outcome = game.outcome(state)
    scores = (outcome.detail.get("scores") if outcome is not None else None) or []
    if outcome is None and config.game == "renaissance":  # stopped: the score it had then
        scores = [renaissance_score(p) for p in state.players]
    result.scores = [scores[s] for s in sorted(strong) if s < len(scores)]
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
    return total


def ms(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def report(config: Config, total: Result, games: int, seconds: float) -> str:
    fair = len(config.strong_seats(0)) / config.seats if config.seats > 1 else 0.0
    stopped = f" ({total.stopped} stopped)" if total.stopped else ""
    score = f"{sum(total.scores) / len(total.scores):.1f}" if total.scores else "-"
    return (f"| {config.name} | {games} | {total.won} / {total.drawn}{stopped} / {total.lost} "
            f"| {100 * total.won / games:.0f} % | {100 * fair:.0f} % | {score} "
            f"| {ms(total.strong_seconds, 0.5):.1f} / {ms(total.strong_seconds, 0.95):.1f} ms "
            f"| {ms(total.random_seconds, 0.5):.2f} ms | {seconds:.0f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.02,
                        help="mcts search per move, in seconds of one core's playouts: "
                        "playouts_for(game, budget) playouts, as the server buys")
    parser.add_argument("--playouts", type=int, help="a fixed number of playouts per move instead")
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS,
                        help="a game still going after this many actions is stopped (a draw)")
    parser.add_argument("--level", default="mcts", choices=sorted(LEVELS),
                        help="the strong side's level (random: a baseline)")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once")
    parser.add_argument("--only", help="run only the configurations whose name contains this")
    parser.add_argument("--skip", help="leave out the configurations whose name contains this")
    args = parser.parse_args()
    search = (f"{args.playouts} playouts" if args.playouts is not None
              else f"playouts_for(game, {args.budget:g} s)")
    print(f"strong level {args.level}, {search} per move, {args.games} games per row, "
          f"{args.jobs} at once")
    print("| game | games | strong won / drawn / lost | win rate | a random side's share "
          "| strong mean score | strong per move p50 / p95 | random per move p50 | wall time |")
    print("|---|---|---|---|---|---|---|---|---|")
    plan = Plan(args.level, args.budget, args.playouts, args.max_actions)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for config in CONFIGS:
            if (args.only and args.only not in config.name) or (args.skip and args.skip in config.name):
                continue
            started = time.perf_counter()
            results = list(pool.map(play, [config] * args.games, range(args.games),
                                    [plan] * args.games))
            print(report(config, merge(results), args.games, time.perf_counter() - started),
                  flush=True)


if __name__ == "__main__":
    main()
