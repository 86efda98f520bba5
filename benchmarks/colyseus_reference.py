"""Issue 23's Colyseus yardstick: Tavolo on PostgreSQL against a minimal Colyseus room playing
the same game (Dolphins & Foxes), measured in interleaved rounds with the same kind of bots.

The room (benchmarks/colyseus/server.mjs, rules ported in rules.mjs) validates each move,
commits it to PostgreSQL (the action row and the match's version, status and snapshot in one
transaction) and only then acknowledges it and sends both seats their view and legal moves.
``colyseus`` commits each move alone (the minimal room); ``colyseus-group`` puts every move
waiting into one transaction, as Tavolo's appender does. Its bots (bots.mjs, colyseus.js) play
as load.py's bots play Tavolo: both seats at once, a random legal move as soon as one is
pushed, the next after the answer; a finished match is replaced by a new one.

Per run: durable actions/s, the server's CPU per action (``/proc`` of the server process),
PostgreSQL's CPU per action (``/proc`` of the backends serving that server: Tavolo's fresh
database, or the room's ``application_name``), over the same measured window.

    (cd benchmarks/colyseus && npm ci)           # once: Colyseus 0.16, colyseus.js, pg
    python benchmarks/colyseus_reference.py --rounds 3 --seconds 15
    python benchmarks/colyseus_reference.py --check-rules 200   # rules.mjs vs Tavolo's rules
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402  (benchmarks/load.py: Tavolo's runner, its bots, the summary)

from service.cli_workers import free_port  # noqa: E402
from service.errors import RulesError  # noqa: E402
from service.games.dolphinfox import GAME  # noqa: E402
from service.tools.databases import fresh_database  # noqa: E402
from service.tools.limits import UNLIMITED, setting_args  # noqa: E402
from service.tools.process import ServerProcess, cpu_seconds, rss_mb, shares  # noqa: E402

ROOM = Path(__file__).resolve().parent / "colyseus"
PG = "postgres://postgres@127.0.0.1:5432/test"


# -- PostgreSQL's CPU: the backends serving one server ---------------------------------------

async def backends(where: str, value: str) -> list[int]:
    """The pids of the PostgreSQL backends whose ``where`` (datname or application_name) is
    ``value`` (the query's own backend is neither)."""
    connection = await asyncpg.connect(PG)
    try:
        rows = await connection.fetch(
            f"SELECT pid FROM pg_stat_activity WHERE {where} = $1 AND pid <> pg_backend_pid()",
            value)
        return [row["pid"] for row in rows]
    finally:
        await connection.close()


def cpu_of(pids: list[int]) -> dict[int, float]:
    seen = {}
    for pid in pids:
        try:
            seen[pid] = cpu_seconds(pid)
        except (FileNotFoundError, ProcessLookupError):
            pass
    return seen


class PostgresCPU:
    """CPU seconds the matching backends used between ``start`` and ``stop`` (a backend born
    in between counts whole; one that ended in between is lost, and counted in ``lost``)."""

    def __init__(self, where: str, value: str) -> None:
        self.where, self.value = where, value

    async def start(self) -> None:
        self.before = cpu_of(await backends(self.where, self.value))

    async def stop(self) -> float:
        after = cpu_of(await backends(self.where, self.value))
        self.lost = len(set(self.before) - set(after))
        self.count = len(after)
        return sum(cpu - self.before.get(pid, 0.0) for pid, cpu in after.items())


# -- one measured window, for either server --------------------------------------------------

class NodeBots(load.Bots):
    """bots.mjs processes, read as load.py reads its own bot processes."""

    async def start(self, args: argparse.Namespace, url: str, start_at: float) -> None:
        self.children = [await asyncio.create_subprocess_exec(
            "node", str(ROOM / "bots.mjs"), "--url", url, "--matches", str(n),
            "--seconds", str(args.seconds), "--start-at", str(start_at),
            stdout=asyncio.subprocess.PIPE, limit=2**28, cwd=ROOM)
            for n in shares(args.matches, args.bot_processes) if n]
        self.readers = [asyncio.create_task(self._read(i, c)) for i, c in enumerate(self.children)]


async def measure(args: argparse.Namespace, pid: int, url: str, bots: load.Bots,
                  pg: PostgresCPU) -> dict[str, Any]:
    """load.drive, with PostgreSQL's CPU read over the same window."""
    start_at = time.time() + load.STARTUP_S
    await bots.start(args, url, start_at)
    await asyncio.sleep(start_at - time.time())
    await pg.start()
    cpu0, started = cpu_seconds(pid), time.perf_counter()
    done = asyncio.gather(*bots.readers)
    while not done.done():
        await asyncio.wait([done], timeout=1.0)
        elapsed = time.perf_counter() - started
        acks = bots.acks()
        print(f"\r{elapsed:5.1f} s  {acks} actions ({acks / elapsed:.0f}/s)", end="",
              file=sys.stderr, flush=True)
        if elapsed > args.seconds + 30:
            raise RuntimeError("the bots did not report in time")
    server_cpu, elapsed = cpu_seconds(pid) - cpu0, time.perf_counter() - started
    pg_cpu = await pg.stop()
    print(file=sys.stderr)
    result = load.summarise(args, bots.results, server_cpu, elapsed, rss_mb(pid))
    actions = max(1.0, float(result["actions_per_s"]) * min(elapsed, args.seconds))
    result["pg_cpu_ms_per_action"] = 1000 * pg_cpu / actions
    result["pg_backends"], result["pg_backends_lost"] = pg.count, pg.lost
    return result


async def run_tavolo(args: argparse.Namespace) -> dict[str, Any]:
    """load.run_tavolo on a fresh PostgreSQL database, with that database's backends' CPU."""
    url, cleanup = await fresh_database("postgres")
    server = await ServerProcess(url, dialects=("dolphinfox",), extra_args=(
        *setting_args(**UNLIMITED), *args.server_arg)).start()
    try:
        assert server.process is not None
        return await measure(args, server.process.pid, f"ws://127.0.0.1:{server.ports['http']}/ws",
                             load.Bots(), PostgresCPU("datname", url.rsplit("/", 1)[1]))
    finally:
        await server.terminate()
        await cleanup()


async def start_room(group: bool) -> tuple[asyncio.subprocess.Process, int]:
    """server.mjs on a free port (another one if that port was taken meanwhile)."""
    for _ in range(5):
        port = free_port("127.0.0.1")
        process = await asyncio.create_subprocess_exec(
            "node", "server.mjs", "--port", str(port), "--pg", PG, *(["--group"] if group else []),
            cwd=ROOM, stdout=asyncio.subprocess.PIPE)
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 30)
        if line.startswith(b"listening"):
            return process, port
        await process.wait()  # it printed its error on stderr
    raise RuntimeError("the Colyseus server did not start")


async def run_colyseus(args: argparse.Namespace, group: bool) -> dict[str, Any]:
    process, port = await start_room(group)
    try:
        return await measure(args, process.pid, f"ws://127.0.0.1:{port}", NodeBots(),
                             PostgresCPU("application_name", "colyseus_reference"))
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()
        drop = await asyncio.create_subprocess_exec("node", "server.mjs", "--drop", "--pg", PG,
                                                    cwd=ROOM)
        await drop.wait()


# -- rules check -----------------------------------------------------------------------------

def check_rules(games: int) -> None:
    """Play ``games`` random games with Tavolo's rules; at every position ask rules.mjs for
    both seats' legal moves and what a move (legal, or now and then not) does."""
    node = subprocess.Popen(["node", "check_rules.mjs"], cwd=ROOM, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert node.stdin is not None and node.stdout is not None
    rng, positions, refusals = random.Random(23), 0, 0
    for game in range(games):
        options = GAME.parse_options({"max_moves": rng.choice([200, 40])})
        state = GAME.setup(2, options, rng.randrange(2**31))
        while True:
            legal = [[GAME.dump_action(a) for a in GAME.legal_actions(state, s)] for s in (0, 1)]
            seat = rng.choice([0, 1])
            if rng.random() < 0.1 or not legal[seat]:  # an illegal or random move
                r, c = rng.randint(0, 9), rng.randint(0, 9)
                action = {"type": "move", "r1": r, "c1": c, "r2": r + rng.choice([-1, 0, 1]),
                          "c2": c + rng.choice([-1, 1])}
            else:
                action = rng.choice(legal[seat])
            before = GAME.dump_state(state)
            node.stdin.write(json.dumps({"state": before, "seat": seat, "action": action}) + "\n")
            node.stdin.flush()
            answer = json.loads(node.stdout.readline())
            try:
                GAME.apply(state, seat, GAME.parse_action(action))
                refusal = None
            except RulesError as exc:
                refusal = exc.reason
                refusals += 1
            positions += 1
            problems = []
            if answer["legal"] != legal:
                problems.append(f"legal moves differ: {answer['legal']} vs {legal}")
            if answer["refusal"] != refusal:
                problems.append(f"refusal differs: {answer['refusal']} vs {refusal}")
            if answer["after"] != GAME.dump_state(state):
                problems.append(f"the position after differs: {answer['after']}")
            if problems:
                raise SystemExit(f"game {game}, position {before}, seat {seat}, {action}: "
                                 + "; ".join(problems))
            if GAME.outcome(state) is not None:
                break
    node.stdin.close()
    node.wait()
    print(f"rules.mjs agrees with Tavolo's rules on {positions} positions of {games} games "
          f"(legal moves of both seats, {refusals} refusals, the position after each move)")


# -- the interleaved rounds ------------------------------------------------------------------

def mean(values: list[float]) -> float:
    return sum(values) / len(values)


async def main(args: argparse.Namespace) -> None:
    if not (ROOM / "node_modules").is_dir():
        raise SystemExit(f"first: (cd {ROOM} && npm ci)")
    runs: list[tuple[str, Callable[[argparse.Namespace], Awaitable[dict[str, Any]]]]] = [
        ("tavolo", run_tavolo), ("colyseus", lambda a: run_colyseus(a, False))]
    if not args.no_group:
        runs.append(("colyseus-group", lambda a: run_colyseus(a, True)))
    rows = await load.interleaved(runs, args, lambda round_, name, r: (
        f"round {round_} {name:15} {r['actions_per_s']:6.0f} actions/s  server "
        f"{r['server_cpu_ms_per_action']:.3f} + PostgreSQL {r['pg_cpu_ms_per_action']:.3f}"
        f" ms/action ({r['pg_backends']} backends, {r['pg_backends_lost']} lost)  ack p50 "
        f"{r['ack_p50_ms']:.1f} p99 {r['ack_p99_ms']:.1f} ms  refused {r['refused']}  "
        f"load {r['load_avg_1m']:.2f}"))
    total = {name: mean([r["server_cpu_ms_per_action"] + r["pg_cpu_ms_per_action"] for r in rs])
             for name, rs in rows.items()}
    rate = {name: mean([r["actions_per_s"] for r in rs]) for name, rs in rows.items()}
    print(f"\nDolphins & Foxes, {args.matches} matches, {args.rounds} x {args.seconds:g} s, "
          "means over the rounds (ms of CPU per durable action)")
    print(f"{'':15} {'server':>7} {'PG':>7} {'total':>7} {'actions/s':>10} "
          f"{'tavolo/this CPU':>16} {'tavolo/this rate':>17}")
    for name, rs in rows.items():
        server = mean([r["server_cpu_ms_per_action"] for r in rs])
        pg = mean([r["pg_cpu_ms_per_action"] for r in rs])
        print(f"{name:15} {server:7.3f} {pg:7.3f} {total[name]:7.3f} {rate[name]:10.0f} "
              f"{total['tavolo'] / total[name]:15.2f}x {rate['tavolo'] / rate[name]:16.2f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    load.interleaved_arguments(parser)
    parser.add_argument("--no-group", action="store_true",
                        help="leave out the group-committing room")
    parser.add_argument("--check-rules", type=int, metavar="GAMES",
                        help="only compare rules.mjs with Tavolo's rules on GAMES random games")
    parsed = parser.parse_args()
    if parsed.check_rules:
        check_rules(parsed.check_rules)
    else:
        parsed.game, parsed.database, parsed.setup_only = "dolphinfox", "postgres", False
        parsed.server_arg = []
        asyncio.run(main(parsed))
