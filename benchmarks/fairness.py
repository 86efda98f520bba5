"""Fairness under abuse: honest players' ack times, quiet and beside a flood of bad frames.

A real server process (default settings unless ``--server-arg``); honest players from
127.0.0.1 (tests/fairness_clients.py): a canonical Dolphins & Foxes pair over the WebSocket, a
group-27 Eriantys pair and a Santorini table of three over their TCP dialects, each playing
whole games (a new one when one ends), and a returning player who connects, says ``hello``
with its token and reads the lobby every 0.2 s. First measured quiet, then beside ``--flood``
connections spread over every dialect and transport (canonical JSON over TCP and WebSocket,
Santorini, group 13, group 27, Dolphins & Foxes, Renaissance), each from its own loopback
address (127.0.0.2, ...), sending mutated real frames as fast as the server reads them and
reconnecting whenever the server closes it. The flood runs in its own processes at nice 19
(an attacker's CPU is not the server's; here they share the machine). Prints, per honest
client, acks and ack p50/p99 both ways and the ratio, the time-outs and drops the honest
clients suffered, the server's CPU in each window and the flood's connections. ``--profile
FILE`` records the server with py-spy (collapsed stacks) during the flood.

An "ack" is: canonical, ``act`` -> ``ack``; Santorini, a turn message (setStartTurn,
selectWorker, playStep, skipStep) -> its response; group 27, an answer to a REQUESTACTION ->
the server's next frame to that client; hello+lobby, the connect to the lobby's answer.

    python benchmarks/fairness.py --flood 36 --quiet 20 --seconds 30
    python benchmarks/fairness.py --database postgres         # a fresh PostgreSQL database
    python benchmarks/fairness.py --database-url postgresql+asyncpg://postgres@127.0.0.1/test
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the ready clients

from fairness_clients import (  # noqa: E402
    DIALECTS,
    TARGETS,
    Honest,
    canonical_games,
    flood_tcp,
    flood_ws,
    g27_game,
    keep_playing,
    newcomers,
    santorini_game,
)

from service.tools.databases import fresh_database  # noqa: E402
from service.tools.process import ServerProcess, cpu_seconds  # noqa: E402


def percentile(ordered: list[float], p: float) -> float:
    return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


def flood_process(jobs: list[tuple[str, str, str, int]], ports: dict[str, int], seconds: float,
                  results: Any) -> None:
    """Run ``jobs`` (dialect, transport, source address, seed) for ``seconds``."""
    async def run() -> list[int]:
        deadline = time.time() + seconds
        tally = [0, 0]  # frames, connections
        await asyncio.gather(*(
            flood_ws(f"ws://127.0.0.1:{ports['http']}/ws", source, random.Random(seed), tally,
                     deadline) if transport == "ws" else
            flood_tcp(ports[dialect], dialect, source, random.Random(seed), tally, deadline)
            for dialect, transport, source, seed in jobs))
        return tally

    os.nice(19)  # an attacker's CPU is not the server's: here they share two cores
    tally = asyncio.run(run())
    times = os.times()
    results.put([*tally, times.user + times.system])


def start_flood(n: int, processes: int, ports: dict[str, int], seconds: float
                ) -> tuple[list[multiprocessing.Process], Any]:
    jobs = [(*TARGETS[i % len(TARGETS)], f"127.0.0.{2 + i}", i) for i in range(n)]
    results: Any = multiprocessing.Queue()
    workers = [multiprocessing.Process(target=flood_process, daemon=True,
                                       args=(jobs[k::processes], ports, seconds, results))
               for k in range(processes)]
    for worker in workers:
        worker.start()
    return workers, results


# -- the run ---------------------------------------------------------------------------------

async def measure(args: argparse.Namespace) -> None:
    url, cleanup = ((args.database_url, None) if args.database_url
                    else await fresh_database(args.database))
    server = await ServerProcess(url, dialects=DIALECTS, extra_args=tuple(args.server_arg)).start()
    ports = server.ports
    honest = [Honest("canonical ws"), Honest("santorini"), Honest("eriantys-g27"),
              Honest("hello+lobby")]
    stop = asyncio.Event()
    rng, serials = random.Random(1), ([0], [0])
    session = aiohttp.ClientSession()
    ws_url = f"ws://127.0.0.1:{ports['http']}/ws"
    players = [
        asyncio.create_task(keep_playing(honest[0], lambda: canonical_games(
            session, ws_url, honest[0], rng, stop), stop)),
        asyncio.create_task(keep_playing(honest[1], lambda: santorini_game(
            ports["santorini"], honest[1], serials[0]), stop)),
        asyncio.create_task(keep_playing(honest[2], lambda: g27_game(
            ports["eriantys-g27"], honest[2], serials[1]), stop)),
        asyncio.create_task(keep_playing(honest[3], lambda: newcomers(
            session, ws_url, honest[3], stop), stop)),
    ]
    try:
        await asyncio.sleep(args.warmup)
        pid = server.process.pid if server.process else 0
        quiet = (time.perf_counter(), 0.0)
        cpu = [cpu_seconds(pid)]
        await asyncio.sleep(args.quiet)
        quiet = (quiet[0], time.perf_counter())
        cpu.append(cpu_seconds(pid))
        workers, results = start_flood(args.flood, args.processes, ports, args.seconds + 2)
        await asyncio.sleep(2)  # the flood is up
        flood = (time.perf_counter(), 0.0)
        cpu.append(cpu_seconds(pid))
        profiler = await profile(server, args)
        await asyncio.sleep(args.seconds)
        if profiler is not None:
            await profiler.wait()
        flood = (flood[0], time.perf_counter())
        cpu.append(cpu_seconds(pid))
        tallies = [results.get(timeout=120) for _ in workers]
        for worker in workers:
            worker.join(10)
    finally:
        stop.set()
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        await session.close()
        await server.terminate()
        if cleanup is not None:
            await cleanup()
    busy = ((cpu[1] - cpu[0]) / (quiet[1] - quiet[0]), (cpu[3] - cpu[2]) / (flood[1] - flood[0]))
    report(args, honest, quiet, flood, tallies, server.tracebacks, busy)


async def profile(server: ServerProcess, args: argparse.Namespace) -> Any:
    """py-spy on the server for the flood window (``--profile FILE``, collapsed stacks)."""
    if not args.profile or server.process is None:
        return None
    spy = Path(sys.executable).with_name("py-spy")
    return await asyncio.create_subprocess_exec(
        str(spy), "record", "--gil", "-p", str(server.process.pid), "-d", str(int(args.seconds)),
        "-f", "raw", "-o", args.profile, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL)


def report(args: argparse.Namespace, honest: list[Honest], quiet: tuple[float, float],
           flood: tuple[float, float], tallies: list[list[int]], tracebacks: int,
           busy: tuple[float, float]) -> None:
    frames, connections = sum(t[0] for t in tallies), sum(t[1] for t in tallies)
    flood_cpu = sum(t[2] for t in tallies) / (args.seconds + 2)
    backend = "postgresql" if "postgres" in (args.database_url or args.database) else "sqlite"
    print(f"database {backend}; flood: {args.flood} connections, {frames} frames "
          f"({frames / args.seconds:.0f}/s), {connections} connections made; "
          f"load {os.getloadavg()[0]:.2f}; server tracebacks {tracebacks}; server CPU "
          f"{100 * busy[0]:.0f}% quiet, {100 * busy[1]:.0f}% in the flood; the flood's CPU "
          f"{100 * flood_cpu:.0f}% (nice 19)")
    print(f"{'honest':<14}{'acks q/f':>12}{'p50 quiet':>11}{'p50 flood':>11}"
          f"{'p99 quiet':>11}{'p99 flood':>11}{'p99 ratio':>11}{'troubles q/f':>14}")
    for h in honest:
        q, f = h.window(*quiet), h.window(*flood)
        q99, f99 = percentile(q, 0.99), percentile(f, 0.99)
        print(f"{h.name:<14}{len(q):>6}/{len(f):<5}{percentile(q, 0.5):>11.1f}"
              f"{percentile(f, 0.5):>11.1f}{q99:>11.1f}{f99:>11.1f}{f99 / q99:>10.1f}x"
              f"{h.troubles_in(*quiet):>7}/{h.troubles_in(*flood):<6}")
    for h in honest:
        for what, count in Counter(t for _, t in h.troubles).most_common(3):
            print(f"  {h.name}: {count} x {what}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite",
                        help="a fresh database of this kind (unless --database-url)")
    parser.add_argument("--database-url", help="use this database (e.g. PostgreSQL)")
    parser.add_argument("--flood", type=int, default=36, help="flooding connections")
    parser.add_argument("--processes", type=int, default=2, help="processes running the flood")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--quiet", type=float, default=20.0, help="seconds measured quiet")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds measured in the flood")
    parser.add_argument("--profile", help="py-spy the server during the flood into this file")
    parser.add_argument("--server-arg", action="append", default=[],
                        help="an extra argument of `serve` (repeat)")
    asyncio.run(measure(parser.parse_args()))
