"""Load benchmark for every game: many concurrent matches against a real server process.

The bots are the external canonical-protocol bots of ``tavolo bot`` (service/bots/client.py),
run in separate processes so their CPU is not the server's. Each bot asks for its legal
actions and plays one at random as soon as its acknowledgement comes back; every match is
replaced by a new one when it ends, so set-up is part of the load. While it runs, a progress
line; at the end one result line: durable actions/s, ack p50/p99/p999, the server's CPU per
action (read from /proc of the server process, so other load on the machine does not count),
the bots' CPU and the server's RSS.

    python benchmarks/load.py --game dolphinfox --database sqlite --matches 20 --seconds 20
    python benchmarks/load.py --game santorini --database postgres --matches 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

from service.bots.client import Plan, Tally, _connect, one_match, percentile
from service.tools.databases import fresh_database
from service.tools.limits import UNLIMITED, setting_args
from service.tools.process import ServerProcess, cpu_seconds, rss_mb, shares

GAMES = ("dolphinfox", "santorini", "eriantys", "renaissance")
#: seconds given to the bot processes to start before the measured window opens
STARTUP_S = 5.0


# -- a bot process -------------------------------------------------------------------------

async def set_up(session: aiohttp.ClientSession, plan: Plan, rng: random.Random,
                 tally: Tally) -> None:
    """Only set a match up: two guests say hello, one creates it, the other joins (it starts)."""
    clients = [await _connect(session, plan, rng, tally) for _ in range(2)]
    try:
        created = await clients[0].must({"type": "create", "game": plan.game, "options": {}})
        await clients[1].must({"type": "join", "match_id": created["result"]["match_id"]})
        tally.finished += 1
    finally:
        await asyncio.gather(*(c.close() for c in clients))


#: one slot of a bot process: (session, its index, the deadline on perf_counter) -> keeps
#: playing matches until the deadline
Slot = Callable[[aiohttp.ClientSession, int, float], Awaitable[None]]


async def play_slots(matches: int, seconds: float, start_at: float, tally: Tally, slot: Slot,
                     **extra: object) -> None:
    """From ``start_at`` (epoch), keep ``matches`` slots going for ``seconds``; print
    progress, then the tally (and ``extra``, more fields of the result line); end the process."""
    await asyncio.sleep(max(0.0, start_at - time.time()))  # every bot process is up by then
    deadline = time.perf_counter() + seconds
    async with aiohttp.ClientSession() as session:
        slots = [asyncio.create_task(slot(session, i, deadline)) for i in range(matches)]
        while time.perf_counter() < deadline:
            await asyncio.sleep(min(1.0, max(0.0, deadline - time.perf_counter())))
            print(f"progress {len(tally.acks)}", flush=True)
            if all(s.done() for s in slots):  # a failed slot: report it, do not hide it
                break
        failed = [repr(s.exception()) for s in slots if s.done() and s.exception() is not None]
        times = os.times()
        print("result " + json.dumps({"acks": tally.acks, "refused": tally.refused,
                                      "finished": tally.finished, "failed": failed, **extra,
                                      "cpu": times.user + times.system}), flush=True)
    os._exit(0)  # the matches still being played are abandoned, not finished


async def bot_process(url: str, game: str, matches: int, seconds: float, seed: int,
                      start_at: float, setup_only: bool = False) -> None:
    """From ``start_at`` (epoch), keep ``matches`` matches going for ``seconds``; print
    progress, then the tally."""
    tally = Tally()
    plan = Plan(url=url, game=game, options={}, seats=None, against=None, seed=seed)
    serial = iter(range(10**9))

    async def slot(session: aiohttp.ClientSession, index: int, deadline: float) -> None:
        while time.perf_counter() < deadline:
            if setup_only:
                await set_up(session, plan, random.Random(next(serial)), tally)
            else:
                await one_match(session, plan, next(serial), tally)

    await play_slots(matches, seconds, start_at, tally, slot)


# -- the driver ----------------------------------------------------------------------------

class Bots:
    """The bot processes and what they print."""

    def __init__(self) -> None:
        self.progress: dict[int, int] = {}
        self.results: list[dict[str, object]] = []

    async def start(self, args: argparse.Namespace, url: str, start_at: float) -> None:
        await self.spawn([
            [__file__, "--bot", url, "--game", args.game, "--matches", str(n),
             "--seconds", str(args.seconds), "--seed", str(random.randrange(10**6)),
             "--start-at", str(start_at), *(["--setup-only"] if args.setup_only else [])]
            for n in shares(args.matches, args.bot_processes) if n])

    async def spawn(self, commands: list[list[str]]) -> None:
        """One bot process per command (a script and its arguments), read as it prints."""
        self.children = [await asyncio.create_subprocess_exec(
            sys.executable, *command, stdout=asyncio.subprocess.PIPE, limit=2**28)
            for command in commands]
        self.readers = [asyncio.create_task(self._read(i, c)) for i, c in enumerate(self.children)]

    async def _read(self, index: int, child: asyncio.subprocess.Process) -> None:
        assert child.stdout is not None
        async for raw in child.stdout:
            kind, _, rest = raw.decode().strip().partition(" ")
            if kind == "progress":
                self.progress[index] = int(rest)
            elif kind == "result":
                self.results.append(json.loads(rest))
        await child.wait()

    def acks(self) -> int:
        return sum(self.progress.values())


async def drive(args: argparse.Namespace, server: ServerProcess) -> dict[str, float | str]:
    assert server.process is not None
    pid = server.process.pid
    bots = Bots()
    start_at = time.time() + STARTUP_S
    await bots.start(args, f"ws://127.0.0.1:{server.ports['http']}/ws", start_at)
    await asyncio.sleep(start_at - time.time())
    cpu0, started = cpu_seconds(pid), time.perf_counter()
    done = asyncio.gather(*bots.readers)
    while not done.done():
        await asyncio.wait([done], timeout=1.0)
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(pid) - cpu0
        acks = bots.acks()
        print(f"\r{elapsed:5.1f} s  {acks} actions ({acks / elapsed:.0f}/s)  server CPU "
              f"{100 * cpu / elapsed:.0f} %  {1000 * cpu / max(acks, 1):.3f} ms/action  "
              f"RSS {rss_mb(pid):.0f} MB", end="", file=sys.stderr, flush=True)
        if elapsed > args.seconds + 30:
            raise RuntimeError("the bots did not report in time")
    print(file=sys.stderr)
    return summarise(args, bots.results, cpu_seconds(pid) - cpu0, time.perf_counter() - started,
                     rss_mb(pid))


def summarise(args: argparse.Namespace, results: list[dict[str, object]], server_cpu: float,
              elapsed: float, rss: float) -> dict[str, float | str]:
    failed = [f for r in results for f in r["failed"]]  # type: ignore[attr-defined]
    if failed:
        raise RuntimeError(f"bot slots failed: {failed[:3]}")
    acks = sorted(a for r in results for a in r["acks"])  # type: ignore[attr-defined]
    seconds = min(elapsed, args.seconds)
    finished = sum(int(r["finished"]) for r in results)  # type: ignore[call-overload]
    return {"game": args.game, "database": args.database, "matches": args.matches,
            "actions_per_s": len(acks) / seconds,
            "ack_p50_ms": percentile(acks, 0.5), "ack_p99_ms": percentile(acks, 0.99),
            "ack_p999_ms": percentile(acks, 0.999),
            "server_cpu_ms_per_action": 1000 * server_cpu / max(len(acks), 1),
            "server_cpu_pct": 100 * server_cpu / elapsed,
            "bots_cpu_s": sum(float(r["cpu"]) for r in results),  # type: ignore[arg-type]
            "refused": sum(int(r["refused"]) for r in results),  # type: ignore[call-overload]
            "finished_matches": finished,
            "server_rss_mb": rss, "load_avg_1m": os.getloadavg()[0],
            "server_cpu_ms_per_match": 1000 * server_cpu / max(finished, 1)}


async def run_tavolo(args: argparse.Namespace) -> dict[str, float | str]:
    """One measured run of a Tavolo server on a fresh ``args.database``."""
    url, cleanup = await fresh_database(args.database)
    server = await ServerProcess(url, dialects=("dolphinfox",), extra_args=(
        *setting_args(**UNLIMITED), *args.server_arg)).start()
    try:
        return await drive(args, server)
    finally:
        await server.terminate()
        await cleanup()


async def interleaved(runs: list[tuple[str, Callable[[argparse.Namespace], Awaitable[Any]]]],
                      args: argparse.Namespace, line: Callable[[int, str, Any], str],
                      ) -> dict[str, list[dict[str, Any]]]:
    """Each of ``runs`` (name, ``async run(args)``) once per round, in the same order every
    round, so that what they are compared by was read under the same load; ``line(round,
    name, result)`` is printed after each. The results by name, in round order; the machine's
    uptime is printed before and after."""
    print(f"start: {os.popen('uptime').read().strip()}")
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in runs}
    for round_ in range(1, args.rounds + 1):
        for name, run in runs:
            result = await run(args)
            rows[name].append(result)
            print(line(round_, name, result), flush=True)
    print(f"end: {os.popen('uptime').read().strip()}")
    return rows


def interleaved_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of a benchmark that interleaves Tavolo with a yardstick (``interleaved``)."""
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bot-processes", type=int, default=2)


async def main(args: argparse.Namespace) -> None:
    result = await run_tavolo(args)
    print("result " + "  ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                                for k, v in result.items()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=GAMES, default="dolphinfox")
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--bot-processes", type=int, default=2)
    parser.add_argument("--server-arg", action="append", default=[],
                        help="one more argument of `serve` (repeatable), e.g. --server-arg=--set")
    parser.add_argument("--setup-only", action="store_true",
                        help="only set matches up (hello, create, join): server CPU per match")
    parser.add_argument("--bot", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, default=0.0, help=argparse.SUPPRESS)
    parsed = parser.parse_args()
    if parsed.bot:
        asyncio.run(bot_process(parsed.bot, parsed.game, parsed.matches, parsed.seconds, parsed.seed,
                               parsed.start_at, parsed.setup_only))
    else:
        asyncio.run(main(parsed))
