"""The small costs behind the server's CPU per action, timed in-process (issues 11 and 23).

For each game, at the start of a seeded game: building a seat's view, encoding a canonical
``update`` with it, and listing the seat's legal actions as the wire writes them. Then each
game's own work per action over seeded random games (issue 23): applying the action, the
views a match with every seat and a spectator listening works out (each seat's and the
spectator's, once per version), and the legal lists of the seats to act (once per version),
as the server does it now. Then the store's part of setting a match up on SQLite (two new
players, one match, two seats taken), in CPU time of the whole process (its threads included).

    python benchmarks/wire_costs.py
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
import timeit
from pathlib import Path

from service.games.registry import get_game
from service.protocol import canonical as msg
from service.store import Store

GAMES = {"dolphinfox": 2, "santorini": 2, "eriantys": 2, "renaissance": 2}
SETUPS = 300
#: actions played per game for its work per action (whole games, new ones as they end)
ACTIONS = 1500


def per_call_us(function: object, number: int) -> float:
    return 1e6 * min(timeit.repeat(function, number=number, repeat=5)) / number  # type: ignore[arg-type]


def wire(name: str, seats: int) -> str:
    game = get_game(name)
    state = game.setup(seats, game.parse_options({}), 5)
    seat = sorted(game.to_act(state))[0]
    view = game.view(state, seat)
    update = msg.Update(match_id=1, version=3, seat=seat, action={"type": "x"}, events=[],
                        to_act=[seat], status="active", view=view)
    fields = dict(match_id=1, version=3, seat=seat, action={"type": "x"}, events=[],
                  to_act=[seat], status="active", view=view)
    listed = len(game.legal_actions(state, seat))
    return (f"{name:12} view {per_call_us(lambda: game.view(state, seat), 2000):7.1f} us  "
            f"encode update {per_call_us(lambda: msg.encode(update), 2000):6.1f} us  "
            f"(built and encoded: the model "
            f"{per_call_us(lambda: msg.encode(msg.Update(**fields)), 2000):6.1f} us, "
            f"encode_update {per_call_us(lambda: msg.encode_update(**fields), 2000):6.1f} us)  "
            f"legal actions ({listed}) listed and dumped "
            f"{per_call_us(lambda: [game.dump_action(a) for a in game.legal_actions(state, seat)], 200):8.1f} us")


def game_work(name: str, seats: int, actions: int = ACTIONS) -> str:
    """A game's own CPU per action in seeded random games (random legal actions, as load.py's
    bots play): apply, every seat's view and the spectator's (the first worked out, the others
    beside it: Game.view_beside), and the legal lists of the seats to act, each once per
    version (what MatchRuntime.shown and .legal keep)."""
    game, rng = get_game(name), random.Random(23)
    spent = {"apply": 0.0, "views": 0.0, "legal": 0.0, "afresh": 0.0}
    played, games = 0, 0
    clock = time.perf_counter
    while played < actions:
        state, games = game.setup(seats, game.parse_options({}), rng.randrange(2**31)), games + 1
        listed: dict[int, list[dict[str, object]]] = {}
        while game.outcome(state) is None and played < actions:
            started = clock()
            listed = {seat: [game.dump_action(a) for a in game.legal_actions(state, seat) or []]
                      for seat in sorted(game.to_act(state))}
            spent["legal"] += clock() - started
            seat = rng.choice([s for s, legal in listed.items() if legal])
            action = game.parse_action(rng.choice(listed[seat]))
            started = clock()
            game.apply(state, seat, action)
            spent["apply"] += clock() - started
            started = clock()
            seen: dict[int | None, dict[str, object]] = {}
            for viewer in [*range(seats), None]:  # as MatchRuntime.shown works them out
                seen[viewer] = (game.view_beside(state, viewer, seen) if seen  # type: ignore[arg-type]
                                else game.view(state, viewer))
            spent["views"] += clock() - started
            started = clock()
            for viewer in [*range(seats), None]:  # each afresh, as before issue 23
                game.view(state, viewer)
            spent["afresh"] += clock() - started
            played += 1
    per = {part: 1e6 * seconds / played for part, seconds in spent.items()}
    return (f"{name:12} per action: apply {per['apply']:6.1f} us  views ({seats} seats + "
            f"spectator) {per['views']:6.1f} us (each afresh {per['afresh']:6.1f})  legal "
            f"lists (seats to act) {per['legal']:6.1f} us  = "
            f"{per['apply'] + per['views'] + per['legal']:6.1f} us  "
            f"({played} actions, {games} games)")


async def store_setup() -> str:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'setup.db'}")
        await store.upgrade()
        game = get_game("dolphinfox")
        options = game.parse_options({})
        snapshot = game.dump_state(game.setup(2, options, 7))

        async def one(index: int) -> None:
            first = await store.create_player(f"a{index}", None)
            second = await store.create_player(f"b{index}", None)
            match = await store.create_match(
                game="dolphinfox", options=options.model_dump(mode="json"), seed=7,
                seats=[(0, None, 0, "x"), (1, None, 1, "y")], snapshot=snapshot, status="waiting")
            await store.sit(match.id, 0, first.id, status="waiting")
            await store.sit(match.id, 1, second.id, status="active")

        for index in range(50):  # warm up: connections, statement caches
            await one(index)
        cpu, wall = time.process_time(), time.perf_counter()
        for index in range(50, 50 + SETUPS):
            await one(index)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        await store.close()
    return (f"store set-up on SQLite: {1000 * cpu / SETUPS:.2f} ms CPU, "
            f"{1000 * wall / SETUPS:.2f} ms wall per match ({SETUPS} matches)")


if __name__ == "__main__":
    for game_name, seat_count in GAMES.items():
        print(wire(game_name, seat_count))
    for game_name, seat_count in GAMES.items():
        print(game_work(game_name, seat_count))
    print(asyncio.run(store_setup()))
