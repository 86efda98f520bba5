"""What each durable action writes (issue 23), for every game, on SQLite and PostgreSQL.

In one process, a hub on a fresh database plays ``--matches`` matches at once (random legal
actions, a match that ends is replaced) until ``--actions`` actions are saved, with the whole
state saved with every action (``snapshot_every`` 1: what the store did before issue 23) and
every 16th. Per action it prints:

* ``params``: the bytes of the appends' parameters (the JSON texts of the action, of the
  snapshot when one goes, of the result and the clocks, 8 bytes per number and time);
* SQLite: ``written``, the bytes this process handed to ``write()`` (``wchar`` of
  /proc/self/io: the WAL's pages and the checkpoints into the database file);
* PostgreSQL: ``relations``, the growth of ``pg_total_relation_size`` of matches and actions
  (heap, TOAST and indexes; dead row versions count until vacuum takes them), and ``wal``,
  the bytes of the WAL records (full-page images included) that touch this database's
  relations, read back with pg_walinspect (PostgreSQL 15; commit records, which name no
  relation, are left out), so other work on the same server does not count;
* ``cpu``: this process's CPU per action (rules, bots' random choices, hub and store).

    python benchmarks/write_volume.py [--games santorini eriantys] [--every 1 16]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import text

from service.sessions.hub import Hub
from service.store import Store
from service.store.engine import dump_json
from service.store.group_commit import PendingAppend
from service.tools.databases import fresh_database

GAMES = ("dolphinfox", "santorini", "eriantys", "renaissance")


def param_bytes(append: PendingAppend) -> int:
    texts = [append.action, append.snapshot, append.result, append.clock, append.client_id]
    numbers = 7  # match id, seq, seat, version, snapshot version, times
    return sum(len(dump_json(t)) if not isinstance(t, str) else len(t)
               for t in texts if t is not None) + 8 * numbers + len(append.status)


def written_bytes() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise RuntimeError("no wchar in /proc/self/io")


async def pg_sizes(store: Store) -> tuple[int, str]:
    async with store.engine.connect() as connection:
        row = (await connection.execute(text(
            "SELECT pg_total_relation_size('matches') + pg_total_relation_size('actions'), "
            "pg_current_wal_lsn()::text"))).one()
    return int(row[0]), str(row[1])


async def pg_wal_bytes(store: Store, start: str, end: str) -> int:
    """Bytes of the WAL records between two positions that touch this database's relations."""
    if start == end:
        return 0
    async with store.engine.connect() as connection:
        found = await connection.scalar(text(
            "SELECT coalesce(sum(record_length), 0) FROM pg_get_wal_records_info("
            "CAST(CAST(:start AS text) AS pg_lsn), CAST(CAST(:end AS text) AS pg_lsn)) "
            "WHERE block_ref LIKE "
            "'%/' || (SELECT oid FROM pg_database WHERE datname = current_database()) || '/%'"),
            {"start": start, "end": end})
    return int(found)


async def wal_of(store: Store, start: str, wal: list[Any]) -> None:
    """Keep adding this database's WAL bytes since ``start`` into ``wal[0]``, a short range
    at a time (the server recycles old WAL segments while other work writes)."""
    wal[:] = [0, start]
    while True:
        await asyncio.sleep(0.25)
        now = (await pg_sizes(store))[1]
        wal[0] += await pg_wal_bytes(store, wal[1], now)
        wal[1] = now


async def play(hub: Hub, game: str, index: int, rng: random.Random, budget: list[int]) -> None:
    """Matches of ``game`` one after another, an action at a time, while the budget lasts."""
    while budget[0] > 0:
        players = [(await hub.identify(nickname=f"p{index}-{i}-{rng.randrange(10**9)}")).player
                   for i in range(2)]
        runtime, first = await hub.create(game, seats=2, player=players[0])
        _, second = await hub.join(runtime.id, players[1])
        assert first is not None
        seats = {first: players[0].id, second: players[1].id}
        while runtime.status == "active" and budget[0] > 0:
            seat = rng.choice(sorted(runtime.game.to_act(runtime.state)))
            action = rng.choice(runtime.game.legal_actions(runtime.state, seat))
            budget[0] -= 1
            await runtime.act(seats[seat], runtime.game.dump_action(action))


async def measure(url: str, game: str, every: int | None, matches: int,
                  actions: int) -> dict[str, Any]:
    store = Store(url) if every is None else Store(url, snapshot_every=every)
    await store.upgrade()
    sizes: list[int] = []
    write = store._appender.write

    async def counted(batch: list[PendingAppend]) -> Any:
        sizes.extend(param_bytes(append) for append in batch)
        return await write(batch)

    store._appender.write = counted  # type: ignore[method-assign]
    hub = Hub(store, waiting_grace=3600.0)
    rng = random.Random(23)
    try:
        await asyncio.gather(*(play(hub, game, i, rng, [20]) for i in range(matches)))  # warm up
        sizes.clear()
        pg = not store.is_sqlite
        if pg:
            async with store.engine.begin() as connection:
                await connection.execute(text("CREATE EXTENSION IF NOT EXISTS pg_walinspect"))
            before = await pg_sizes(store)
        wal: list[Any] = [0, before[1] if pg else ""]
        sampler = asyncio.create_task(wal_of(store, before[1], wal)) if pg else None
        wrote, cpu = written_bytes(), time.process_time()
        budget = [actions]
        await asyncio.gather(*(play(hub, game, i, rng, budget) for i in range(matches)))
        cpu, wrote = time.process_time() - cpu, written_bytes() - wrote
        if sampler is not None:
            sampler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sampler
        done = len(sizes)
        found: dict[str, Any] = {"actions": done, "params": sum(sizes) / done,
                                 "cpu_ms": 1000 * cpu / done}
        if pg:
            after = await pg_sizes(store)
            wal[0] += await pg_wal_bytes(store, wal[1], after[1])
            found |= {"relations": (after[0] - before[0]) / done, "wal": wal[0] / done}
        else:
            found["written"] = wrote / done
        return found
    finally:
        await store.close()


async def main(args: argparse.Namespace) -> None:
    for database in args.databases:
        for game in args.games:
            for every in args.every:
                with tempfile.TemporaryDirectory() as tmp:
                    url, cleanup = await fresh_database(database, Path(tmp))
                    try:
                        found = await measure(url, game, None if every == 0 else every,
                                              args.matches, args.actions)
                    finally:
                        await cleanup()
                shown = "  ".join(f"{k} {v:.0f}" if isinstance(v, float) and k != "cpu_ms"
                                  else f"{k} {v:.3f}" if k == "cpu_ms" else f"{k} {v}"
                                  for k, v in found.items())
                print(f"{database:8} {game:12} every {every or '-':>3}  {shown}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--databases", nargs="+", default=["sqlite", "postgres"])
    parser.add_argument("--every", nargs="+", type=int, default=[1, 16],
                        help="snapshot_every values to compare (0: the store's own default, "
                             "for a tree before issue 23)")
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--actions", type=int, default=1000)
    asyncio.run(main(parser.parse_args()))
