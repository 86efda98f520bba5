"""Match ownership in PostgreSQL measured on this machine (issue 18): what owning costs, and
how soon another node owns a dead node's matches.

- try_own + release round trip on the ownership connection, p50/p99;
- SIGKILL of a node process that owns N matches -> every one of them owned by another node
  (polling try_own every 10 ms), over several kills: p50/p99/max.

    python benchmarks/ownership.py [--matches 100] [--kills 20]

Uses a fresh database on TAVOLO_TEST_POSTGRES_URL.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.cluster.ownership import Ownership  # noqa: E402
from service.tools.databases import fresh_database  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def owner_child(url: str, first: int, count: int) -> None:
    ownership = await Ownership.open(url, f"doomed-{os.getpid()}")
    for match_id in range(first, first + count):
        assert await ownership.try_own(match_id)
    print("owning", flush=True)
    await asyncio.Event().wait()  # until killed


async def round_trips(url: str, count: int) -> list[float]:
    ownership = await Ownership.open(url, "bench-rt")
    times = []
    try:
        for n in range(count):
            began = time.perf_counter()
            await ownership.try_own(1_000_000 + n)
            await ownership.release(1_000_000 + n)
            times.append((time.perf_counter() - began) * 1e3)
    finally:
        await ownership.close()
    return times


async def one_kill(url: str, survivor: Ownership, first: int, count: int) -> float:
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--child", url, "--first", str(first), "--matches", str(count),
        stdout=asyncio.subprocess.PIPE)
    assert child.stdout is not None
    assert (await asyncio.wait_for(child.stdout.readline(), 60)).strip() == b"owning"
    assert not await survivor.try_own(first)
    waiting = set(range(first, first + count))
    killed = time.perf_counter()
    child.send_signal(signal.SIGKILL)
    while waiting:
        waiting = {m for m in waiting if not await survivor.try_own(m)}
        if waiting:
            await asyncio.sleep(0.01)
    taken = time.perf_counter() - killed
    await child.wait()
    for match_id in range(first, first + count):
        await survivor.release(match_id)
    return taken


async def main(args: argparse.Namespace) -> None:
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    url, cleanup = await fresh_database("postgres")
    try:
        times = await round_trips(url, 2000)
        print(f"try_own + release round trip p50 {percentile(times, 50):.3f} ms  "
              f"p99 {percentile(times, 99):.3f} ms  (2000)")
        survivor = await Ownership.open(url, "survivor")
        takeovers = [await one_kill(url, survivor, 1 + k * args.matches, args.matches)
                     for k in range(args.kills)]
        await survivor.close()
        print(f"SIGKILL of a node owning {args.matches} matches -> all owned by another: "
              f"p50 {1e3 * percentile(takeovers, 50):.1f} ms  "
              f"p99 {1e3 * percentile(takeovers, 99):.1f} ms  "
              f"max {1e3 * max(takeovers):.1f} ms  ({args.kills} kills)")
    finally:
        await cleanup()
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--first", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        asyncio.run(owner_child(options.child, options.first, options.matches))
    else:
        asyncio.run(main(options))
