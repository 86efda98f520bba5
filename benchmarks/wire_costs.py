"""The small costs behind the server's CPU per action, timed in-process (issue 11).

For each game, at the start of a seeded game: building a seat's view, encoding a canonical
``update`` with it, and listing the seat's legal actions as the wire writes them. Then the
store's part of setting a match up on SQLite (two new players, one match, two seats taken), in
CPU time of the whole process (its threads included).

    python benchmarks/wire_costs.py
"""

from __future__ import annotations

import asyncio
import tempfile
import time
import timeit
from pathlib import Path

from service.games.registry import get_game
from service.protocol import canonical as msg
from service.store import Store

GAMES = {"dolphinfox": 2, "santorini": 2, "eriantys": 2, "renaissance": 2}
SETUPS = 300


def per_call_us(function: object, number: int) -> float:
    return 1e6 * min(timeit.repeat(function, number=number, repeat=5)) / number  # type: ignore[arg-type]


def wire(name: str, seats: int) -> str:
    game = get_game(name)
    state = game.setup(seats, game.parse_options({}), 5)
    seat = sorted(game.to_act(state))[0]
    view = game.view(state, seat)
    update = msg.Update(match_id=1, version=3, seat=seat, action={"type": "x"}, events=[],
                        to_act=[seat], status="active", view=view)
    listed = len(game.legal_actions(state, seat))
    return (f"{name:12} view {per_call_us(lambda: game.view(state, seat), 2000):7.1f} us  "
            f"encode update {per_call_us(lambda: msg.encode(update), 2000):6.1f} us  "
            f"legal actions ({listed}) listed and dumped "
            f"{per_call_us(lambda: [game.dump_action(a) for a in game.legal_actions(state, seat)], 200):8.1f} us")


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
    print(asyncio.run(store_setup()))
