"""Long fuzz run: hostile frames against a real server process, every dialect but group 27's:
over TCP (canonical JSON lines, santorini, eriantys-g13, dolphinfox) and the canonical
protocol over its WebSocket. Prints the frames
sent, the answers, the answers with ``service/internal`` and the tracebacks in the server log
(issue 8: both must be 0).

    python benchmarks/fuzz_dialects.py --frames 20000 --workers 4      # 100k frames in all
    python benchmarks/fuzz_dialects.py --database postgres
"""

from __future__ import annotations

import argparse
import asyncio
import time

from service.tools.databases import fresh_database
from service.tools.fuzz import FuzzTally, fuzz_tcp, fuzz_websocket
from service.tools.limits import unlimited_args
from service.tools.process import ServerProcess

DIALECTS = ("canonical", "santorini", "eriantys-g13", "dolphinfox")


async def main(args: argparse.Namespace) -> None:
    url, cleanup = await fresh_database(args.database)
    server = await ServerProcess(url, dialects=DIALECTS, extra_args=unlimited_args()).start()
    start = time.perf_counter()
    try:
        share = args.frames // args.workers
        runs = [(name, w) for name in (*DIALECTS, "canonical ws") for w in range(args.workers)]
        ws_url = f"ws://127.0.0.1:{server.ports['http']}/ws"
        tallies = await asyncio.gather(*(
            fuzz_websocket(ws_url, share, seed=args.seed + i) if name == "canonical ws"
            else fuzz_tcp(server.ports[name], name, share, seed=args.seed + i)
            for i, (name, _) in enumerate(runs)))
        elapsed = time.perf_counter() - start
        print(f"{'dialect':<14}{'frames':>9}{'answers':>9}{'internal':>9}{'conns':>7}")
        total = FuzzTally()
        for name in (*DIALECTS, "canonical ws"):
            mine = FuzzTally()
            for (dialect, _), tally in zip(runs, tallies):
                if dialect == name:
                    mine.add(tally)
            total.add(mine)
            print(f"{name:<14}{mine.frames:>9}{mine.answers:>9}{mine.internal:>9}{mine.connections:>7}")
        print(f"{'total':<14}{total.frames:>9}{total.answers:>9}{total.internal:>9}{total.connections:>7}")
        print(f"elapsed {elapsed:.0f} s ({total.frames / elapsed:.0f} frames/s), database {args.database}")
        for sample in total.samples:
            print("  internal:", sample)
    finally:
        await server.terminate()
        await cleanup()
    print(f"tracebacks in the server log: {server.tracebacks}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--frames", type=int, default=25_000, help="frames per dialect")
    parser.add_argument("--workers", type=int, default=4, help="concurrent clients per dialect")
    parser.add_argument("--seed", type=int, default=0)
    asyncio.run(main(parser.parse_args()))
