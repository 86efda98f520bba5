"""The load of benchmarks/load.py against a cluster: 1 node, and 2 nodes with the clients placed
three ways (issue 18, "Benchmarks").

Every node is a ``serve --cluster-bus nats://... --node-id ...`` process over one fresh
PostgreSQL database. The bots are load.py's: canonical-protocol bot processes (BotClient of
service/bots/client.py) acting at random as soon as their previous action is acknowledged,
each match replaced by a new one when it ends. What changes is which node each client uses:

- ``single``: one node, every client on it (the baseline).
- ``spread``: two nodes; a match is created on one (which owns it) and its players
  alternate between the nodes, so about half of the actions are forwarded to the owner.
- ``forwarded``: two nodes; a match is created on one node, its creator moves to the other
  (``hello {token}`` + ``resume`` there, then leaves the first) and every other player joins
  there: every action is forwarded (what forwarding costs).
- ``owner``: two nodes; each match is created and played on one node, which owns it: nothing
  is forwarded (the cluster's best case).

Matches are shared out over the nodes as owners (match ``i`` of a slot is created on node
``(slot + i) % nodes``). The configurations run interleaved, ``--rounds`` times, each on a
fresh database and fresh nodes, so the machine's load hits all alike. Per run: durable
actions/s, ack p50/p99, CPU ms per action of all nodes together and of each node (from /proc),
the bots' CPU, and (shared with anything else on the machine, indicative only) the CPU of
nats-server and of the PostgreSQL processes. A match the bots could not set up or play (an
error answer, a timeout) is counted and shown, and its slot goes on with a new one; so is a
node whose NATS client stopped reading ("nats: encountered error" in its log, kept in
``--logs``: docs/cluster.md, "Measured: load and failover").

    python benchmarks/cluster_load.py --seconds 25 --rounds 2 --matches 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.load import STARTUP_S, Bots, play_slots, summarise  # noqa: E402
from service.bots.client import TIMEOUT, BotClient, BotClientError, Tally, connect  # noqa: E402
from service.tools.databases import fresh_database  # noqa: E402
from service.tools.limits import UNLIMITED, setting_args  # noqa: E402
from service.tools.process import ServerProcess, cpu_seconds, shares  # noqa: E402

MODES = ("single", "spread", "forwarded", "owner")
#: what the configurations are called in the report (issue 18's a-d)
LABELS = {"single": "(a) 1 node", "spread": "(b) 2 nodes, players alternate",
          "forwarded": "(c) 2 nodes, all clients off the owner",
          "owner": "(d) 2 nodes, all clients on the owner"}
BUS = "nats://127.0.0.1:4222"


# -- clients on chosen nodes ---------------------------------------------------------------

def placement(mode: str, nodes: int, owner: int, seat: int) -> int:
    """The node (index) a client of ``seat`` plays from, for a match owned by node ``owner``."""
    if mode in ("single", "owner"):
        return owner
    if mode == "spread":
        return (owner + seat) % nodes
    if mode == "forwarded":
        return (owner + 1) % nodes
    raise ValueError(mode)


async def cluster_match(session: aiohttp.ClientSession, urls: list[str], mode: str, game: str,
                        owner: int, rng: random.Random, tally: Tally) -> int:
    """One match created on node ``owner`` (it loads it first, so it owns it), played by one
    bot per seat on the nodes ``mode`` places them on; the match id."""
    creator, token = await connect(session, urls[owner], rng, tally)
    clients: list[BotClient] = []
    try:
        created = await creator.must({"type": "create", "game": game, "options": {}})
        match_id = created["result"]["match_id"]
        await asyncio.wait_for(creator.seen_state.wait(), TIMEOUT)
        seats = creator.seats
        home = placement(mode, len(urls), owner, 0)
        if home == owner:
            clients.append(creator)
        else:  # the creator's player moves: attached on its node first, then leaves the owner
            moved, _ = await connect(session, urls[home], rng, tally, token)
            clients.append(moved)
            await moved.must({"type": "resume", "match_id": match_id})
            await creator.close()
        for seat in range(1, seats):
            other, _ = await connect(session, urls[placement(mode, len(urls), owner, seat)],
                                     rng, tally)
            clients.append(other)
            await other.must({"type": "join", "match_id": match_id})
        await asyncio.gather(*(c.play(match_id) for c in clients))
        tally.finished += 1
        return match_id
    finally:
        await asyncio.gather(*(c.close() for c in {creator, *clients}))


async def bot_process(urls: list[str], mode: str, game: str, matches: int, first_slot: int,
                      seconds: float, seed: int, start_at: float) -> None:
    """load.py's bot process, with clients placed over ``urls`` by ``mode``: from
    ``start_at`` (epoch), keep ``matches`` matches going for ``seconds``; print progress,
    then the tally (the same lines as load.py, and the matches that failed)."""
    tally = Tally()
    errors: list[str] = []

    async def slot(session: aiohttp.ClientSession, index: int, deadline: float) -> None:
        number = first_slot + index
        rng = random.Random(seed * 1000 + number)
        for played in range(10**9):
            if time.perf_counter() >= deadline:
                return
            try:
                await cluster_match(session, urls, mode, game, (number + played) % len(urls),
                                    rng, tally)
            except (BotClientError, OSError, aiohttp.ClientError, asyncio.TimeoutError) as exc:
                # counted and reported; the slot goes on with a new match
                errors.append(f"{time.time():.3f} {exc!r}")
                await asyncio.sleep(0.1)

    await play_slots(matches, seconds, start_at, tally, slot, errors=errors)


class ClusterBots(Bots):
    """load.py's bot processes, started with this file's bot loop and a node list."""

    async def start_cluster(self, args: argparse.Namespace, urls: list[str], mode: str,
                            start_at: float) -> None:
        commands, first = [], 0
        for n in shares(args.matches, args.bot_processes):
            if not n:
                continue
            commands.append([
                __file__, "--bot", json.dumps(urls), "--mode", mode,
                "--game", args.game, "--matches", str(n), "--first-slot", str(first),
                "--seconds", str(args.seconds), "--seed", str(random.randrange(10**6)),
                "--start-at", str(start_at)])
            first += n
        await self.spawn(commands)


# -- CPU of the shared servers (indicative: anything else on the machine counts too) ------

def pids_named(name: str) -> list[int]:
    found = subprocess.run(["pgrep", "-x", name], capture_output=True, text=True).stdout.split()
    return [int(p) for p in found]


def postgres_pids(database: str) -> list[int]:
    """The backends of ``database`` and PostgreSQL's own background processes (WAL writer,
    checkpointer...: shared with every other database), not other databases' backends."""
    mine = []
    for pid in pids_named("postgres"):
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        # a backend's title is "postgres: <cluster>: <user> <database> <client> <state>"
        words = title.split()
        backend = len(words) >= 5 and words[0] == "postgres:" and "(" in words[4]
        if not backend or words[3] == database:
            mine.append(pid)
    return mine


def cpu_of(pids: list[int]) -> dict[int, float]:
    seen = {}
    for pid in pids:
        try:
            seen[pid] = cpu_seconds(pid)
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            pass
    return seen


def shared_snapshot(database: str) -> dict[str, dict[int, float]]:
    return {"nats": cpu_of(pids_named("nats-server")), "postgres": cpu_of(postgres_pids(database))}


def shared_delta(before: dict[str, dict[int, float]], database: str) -> dict[str, float]:
    """CPU seconds since ``before``: a process that appeared meanwhile (a backend the pool
    opened under load) counts whole."""
    after = shared_snapshot(database)
    return {kind: sum(after[kind][pid] - before[kind].get(pid, 0.0) for pid in after[kind])
            for kind in before}


# -- one run -------------------------------------------------------------------------------

def node_args(name: str) -> tuple[str, ...]:
    """The ``serve`` arguments of a benchmark node called ``name``: on the bus, no limits."""
    return ("--cluster-bus", BUS, "--node-id", name, *setting_args(**UNLIMITED))


async def start_nodes(url: str, count: int, tag: str, logs: Path) -> list[ServerProcess]:
    nodes = []
    try:
        for i in range(count):
            nodes.append(await ServerProcess(url, dialects=("dolphinfox",), extra_args=node_args(
                f"{tag}-n{i + 1}"), log_file=logs / f"{tag}-n{i + 1}.log").start())
    except BaseException:
        await asyncio.gather(*(n.terminate() for n in nodes), return_exceptions=True)
        raise
    return nodes


def bus_failures(node: ServerProcess) -> int:
    """How often nats-py's read loop died in this node ("nats: encountered error": from then
    on the node hears nothing on the bus, docs/cluster.md)."""
    assert node.log_file is not None
    return node.log_file.read_text().count("nats: encountered error")


def loads(node: ServerProcess) -> tuple[int, int]:
    """How many matches this node loaded as owner, and as a follower (from its log)."""
    assert node.log_file is not None
    loaded = [line for line in node.log_file.read_text().splitlines()
              if " loaded (" in line and "match " in line]
    followed = sum("followed" in line for line in loaded)
    return len(loaded) - followed, followed


async def one_run(args: argparse.Namespace, mode: str, tag: str) -> dict[str, Any]:
    url, cleanup = await fresh_database("postgres")
    nodes: list[ServerProcess] = []
    try:
        nodes = await start_nodes(url, 1 if mode == "single" else 2, tag, Path(args.logs))
        pids = [n.process.pid for n in nodes]  # type: ignore[union-attr]
        urls = [f"ws://127.0.0.1:{n.ports['http']}/ws" for n in nodes]
        bots = ClusterBots()
        start_at = time.time() + STARTUP_S
        await bots.start_cluster(args, urls, mode, start_at)
        await asyncio.sleep(max(0.0, start_at - time.time()))
        cpu0 = [cpu_seconds(p) for p in pids]
        database = url.rsplit("/", 1)[1]
        shared0 = shared_snapshot(database)
        started = time.perf_counter()
        done = asyncio.gather(*bots.readers)
        while not done.done():
            await asyncio.wait([done], timeout=1.0)
            if time.perf_counter() - started > args.seconds + 60:
                raise RuntimeError("the bots did not report in time")
        elapsed = time.perf_counter() - started
        cpu = [cpu_seconds(p) - c for p, c in zip(pids, cpu0)]
        shared = shared_delta(shared0, database)
        result: dict[str, Any] = summarise(args, bots.results, sum(cpu), elapsed, 0.0)
        acks = len([a for r in bots.results for a in r["acks"]])  # type: ignore[attr-defined]
        result.update(mode=mode, nodes=len(nodes),
                      node_cpu_ms_per_action=[1000 * c / max(acks, 1) for c in cpu],
                      node_cpu_pct=[100 * c / elapsed for c in cpu],
                      nats_cpu_ms_per_action=1000 * shared["nats"] / max(acks, 1),
                      postgres_cpu_ms_per_action=1000 * shared["postgres"] / max(acks, 1),
                      bots_cpu_ms_per_action=1000 * result["bots_cpu_s"] / max(acks, 1),
                      loads=[loads(n) for n in nodes],
                      errors=[e for r in bots.results for e in r["errors"]],  # type: ignore[attr-defined]
                      tracebacks=[n.tracebacks for n in nodes],
                      bus_read_loop_died=[bus_failures(n) for n in nodes])
        return result
    finally:
        for node in nodes:
            await node.terminate()
        await cleanup()


def show(result: dict[str, Any]) -> str:
    nodes = " + ".join(f"{c:.3f}" for c in result["node_cpu_ms_per_action"])
    return (f"{LABELS[result['mode']]:<40} {result['actions_per_s']:7.0f}/s  "
            f"ack p50 {result['ack_p50_ms']:6.1f} p99 {result['ack_p99_ms']:7.1f} ms  "
            f"nodes CPU {result['server_cpu_ms_per_action']:.3f} ms/action ({nodes})  "
            f"bots {result['bots_cpu_ms_per_action']:.3f}  nats {result['nats_cpu_ms_per_action']:.3f}  "
            f"pg {result['postgres_cpu_ms_per_action']:.3f}  refused {result['refused']}  "
            f"matches {result['finished_matches']}  loads owner/followed {result['loads']}  "
            f"tracebacks {result['tracebacks']}  nats read loop died {result['bus_read_loop_died']}  "
            f"failed matches {len(result['errors'])}"
            + "".join(f"\n      {e}" for e in result["errors"][:5]))


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def code_version() -> str:
    """The commit the nodes run, and whether service/ has uncommitted changes."""
    root = Path(__file__).resolve().parents[1]
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "service"],
                           capture_output=True, text=True).stdout.strip()
    return f"commit {head or '?'}{' + uncommitted changes in service/' if dirty else ''}"


async def main(args: argparse.Namespace) -> None:
    Path(args.logs).mkdir(parents=True, exist_ok=True)
    print(f"start: {uptime()}  ({os.cpu_count()} cores); {code_version()}; node logs in "
          f"{args.logs}", flush=True)
    results: list[dict[str, Any]] = []
    for round_ in range(args.rounds):
        for mode in args.modes:
            result = await one_run(args, mode, f"r{round_}{mode[:2]}")
            result["round"] = round_ + 1
            results.append(result)
            print(f"round {round_ + 1} {show(result)}  load {os.getloadavg()[0]:.2f}", flush=True)
    print(f"end: {uptime()}; {code_version()}", flush=True)
    print("\nmean over rounds:")
    baseline = None
    for mode in args.modes:
        mine = [r for r in results if r["mode"] == mode]
        rate = sum(r["actions_per_s"] for r in mine) / len(mine)
        baseline = rate if mode == "single" else baseline
        cpu = sum(r["server_cpu_ms_per_action"] for r in mine) / len(mine)
        per_node = [sum(r["node_cpu_ms_per_action"][i] for r in mine) / len(mine)
                    for i in range(mine[0]["nodes"])]
        p50 = "/".join(f"{r['ack_p50_ms']:.1f}" for r in mine)
        p99 = "/".join(f"{r['ack_p99_ms']:.1f}" for r in mine)
        bots = sum(r["bots_cpu_ms_per_action"] for r in mine) / len(mine)
        ratio = f"  {rate / baseline:.2f}x of (a)" if baseline else ""
        print(f"{LABELS[mode]:<40} {rate:7.0f}/s{ratio}  ack p50 {p50} p99 {p99} ms (each round)  "
              f"nodes {cpu:.3f} ms/action (per node {', '.join(f'{c:.3f}' for c in per_node)})  "
              f"bots {bots:.3f} ms/action")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="dolphinfox")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--bot-processes", type=int, default=2)
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--logs", default=f"/tmp/cluster_load-{int(time.time())}",
                        help="a folder for the nodes' logs (one file per node and run)")
    parser.add_argument("--json", metavar="FILE", help="also write every run's figures here")
    parser.add_argument("--bot", metavar="URLS", help=argparse.SUPPRESS)
    parser.add_argument("--mode", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--first-slot", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--start-at", type=float, default=0.0, help=argparse.SUPPRESS)
    parsed = parser.parse_args()
    parsed.database = "postgres"  # for load.summarise
    if parsed.bot:
        asyncio.run(bot_process(json.loads(parsed.bot), parsed.mode, parsed.game, parsed.matches,
                                parsed.first_slot, parsed.seconds, parsed.seed, parsed.start_at))
    else:
        asyncio.run(main(parsed))
