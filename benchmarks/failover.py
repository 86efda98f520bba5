"""Failover under load: SIGKILL the node that owns the matches, again and again (issue 18,
"Benchmarks").

Three ``serve --cluster-bus nats://...`` nodes over one fresh PostgreSQL database: the victim
and two survivors. Each round:

1. ``--matches`` Dolphins & Foxes matches (real time, ``max_moves`` raised so they last) are
   created on the victim, which therefore owns them; each creator moves to a survivor
   (``hello {token}`` + ``resume`` there, then leaves the victim) and the other player joins
   on the other survivor. So every client is on a survivor and needs no reconnect, and every
   action is forwarded to the victim over the bus.
2. Canonical-protocol bots (BotClient of service/bots/client.py for the connection; the play
   loop here, which keeps the ``client_id`` of an action whose outcome it did not hear and
   resends it) act every ``--pace`` seconds per seat, until each match has a few acks.
3. SIGKILL the victim. For each of its matches: the time from the kill to the first ack of an
   action *sent after the kill* (an upper bound: an action sent before it and acknowledged
   after could be one the victim had committed). The survivors' watchers see the owner gone
   and one of them takes each match over.
4. One more second of play, then the bots stop and every action acknowledged to a bot
   (client id, version) is looked up in the store: it must be there, at that version, with
   that client id. ``python -m service matches replay`` runs on ``--replays`` matches (the
   log must reproduce the snapshot).
5. The victim is started again under the same node id (the cluster is back to three nodes).

Printed: per kill, the failover time of each match, the time from the kill to the ack of
each action that was in flight at the kill (sent before, acknowledged after: a command
forwarded to the dead owner waits for its reply until the forwarding timeout, then is sent
again with its client id), and any error the bots got; at the end p50/p99/max over all
matches, lost acks, replays, whether nats-py's read loop died in a node (the node then hears
nothing on the bus), and ``uptime`` at start and end.

    python benchmarks/failover.py --kills 20 --matches 4
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.cluster_load import bus_failures, code_version, node_args, uptime  # noqa: E402
from service.bots.client import TIMEOUT, BotClient, Tally, connect, percentile  # noqa: E402
from service.store import Store  # noqa: E402
from service.tools.databases import fresh_database  # noqa: E402
from service.tools.process import ServerProcess  # noqa: E402

#: error codes after which the same action (same client_id) is sent again: its outcome is
#: unknown or the match is being moved; any other error is a refusal and the bot looks again
RESEND = ("store/", "service/", "cluster/", "timeout")
#: seconds a round waits for every match to be acknowledged again after the kill
FAILOVER_LIMIT = 60.0
#: acks each match must have before the kill
WARM_ACKS = 5


@dataclass
class Ack:
    client_id: str
    version: int
    sent: float
    received: float
    duplicate: bool


@dataclass
class Played:
    """One match of a round as its bots saw it."""

    match_id: int
    acks: list[Ack] = field(default_factory=list)
    errors: collections.Counter[str] = field(default_factory=collections.Counter)
    finished: bool = False

    def first_ack_sent_after(self, moment: float) -> Ack | None:
        after = [a for a in self.acks if a.sent > moment]
        return min(after, key=lambda a: a.received) if after else None


async def play_seat(client: BotClient, seat: int, played: Played, pace: float,
                    stop: asyncio.Event) -> None:
    """Act at random every ``pace`` seconds until ``stop``; an action whose outcome is unknown
    is sent again with its client id until it is acknowledged (or refused)."""
    match_id = played.match_id
    for turn in range(10**9):
        if stop.is_set() or client.ws.closed:
            return
        if client.status in ("finished", "aborted"):
            played.finished = True
            return
        client.changed.clear()
        offer, client.offer = client.offer, None
        if offer is None or not offer[1]:
            try:
                await asyncio.wait_for(client.changed.wait(), 1.0)
            except asyncio.TimeoutError:  # ask, in case an update was missed
                answer = await client.call({"type": "legal", "match_id": match_id})
                if answer["type"] == "ok" and client.offer is None:
                    client.offer = (answer["result"]["version"], answer["result"]["actions"])
                elif answer["type"] == "error":
                    played.errors[f"legal {answer['code']}"] += 1
            continue
        await asyncio.sleep(pace)
        version, actions = offer
        command = {"type": "act", "match_id": match_id, "client_id": f"s{seat}-{turn}",
                   "version": version, "action": client.rng.choice(actions)}
        sent = time.perf_counter()
        while True:
            try:
                answer = await client.call(command)
            except asyncio.TimeoutError:
                answer = {"type": "error", "code": "timeout"}
            if answer["type"] == "ack":
                played.acks.append(Ack(command["client_id"], answer["version"], sent,
                                       time.perf_counter(), answer.get("duplicate", False)))
                break
            played.errors[answer["code"]] += 1
            if not answer["code"].startswith(RESEND) or client.ws.closed or stop.is_set():
                break  # refused (the position moved on): look again; or the round is over
            await asyncio.sleep(0.05)


@dataclass
class Seated:
    played: Played
    clients: list[BotClient]


async def open_match(session: aiohttp.ClientSession, victim: str, seats_at: list[str],
                     rng: random.Random, tally: Tally) -> Seated:
    """A match created on ``victim`` (its owner) whose players sit on ``seats_at``."""
    creator, token = await connect(session, victim, rng, tally)
    try:
        created = await creator.must({"type": "create", "game": "dolphinfox",
                                      "options": {"max_moves": 100_000}})
        match_id = created["result"]["match_id"]
        moved, _ = await connect(session, seats_at[0], rng, tally, token)
        await moved.must({"type": "resume", "match_id": match_id})
    finally:
        await creator.close()
    other, _ = await connect(session, seats_at[1], rng, tally)
    await other.must({"type": "join", "match_id": match_id})
    return Seated(Played(match_id), [moved, other])


def owner_loads(node: ServerProcess, match_ids: list[int]) -> list[int]:
    """The matches of ``match_ids`` this node loaded as their owner (from its log)."""
    return [m for m in match_ids if any(f"match {m} loaded (" in line and "followed" not in line
                                        for line in node.output)]


async def check_store(store: Store, matches: list[Played]) -> list[str]:
    """Every acknowledged (client id, version) must be in the log; what is not."""
    lost = []
    for played in matches:
        logged = {a.seq: a.client_id for a in await store.actions(played.match_id)}
        for ack in played.acks:
            if logged.get(ack.version) != ack.client_id:
                lost.append(f"match {played.match_id}: ack {ack.client_id} at version "
                            f"{ack.version}, the log has {logged.get(ack.version)!r} there")
    return lost


def replay(url: str, match_id: int) -> tuple[bool, str]:
    done = subprocess.run([sys.executable, "-m", "service", "matches", "replay", str(match_id),
                           "--database-url", url], capture_output=True, text=True, timeout=120)
    return done.returncode == 0, (done.stdout + done.stderr).strip()


async def one_round(args: argparse.Namespace, number: int, nodes: list[ServerProcess],
                    url: str, store: Store) -> dict[str, Any]:
    victim, survivors = nodes[0], nodes[1:]
    ws = [f"ws://127.0.0.1:{n.ports['http']}/ws" for n in nodes]
    rng, tally = random.Random(number), Tally()
    stop = asyncio.Event()
    async with aiohttp.ClientSession() as session:
        seated = [await open_match(session, ws[0], [ws[1 + (i + number) % 2], ws[1 + (i + number + 1) % 2]],
                                   rng, tally) for i in range(args.matches)]
        matches = [s.played for s in seated]
        ids = [p.match_id for p in matches]
        tasks = [asyncio.create_task(play_seat(c, seat, s.played, args.pace, stop))
                 for s in seated for seat, c in enumerate(s.clients)]
        try:
            warm_until = time.perf_counter() + 30
            while any(len(p.acks) < WARM_ACKS for p in matches):
                if time.perf_counter() > warm_until:
                    raise RuntimeError(f"no play before the kill: {[len(p.acks) for p in matches]}")
                await asyncio.sleep(0.05)
            owned = owner_loads(victim, ids)
            if owned != ids:
                raise RuntimeError(f"the victim does not own {sorted(set(ids) - set(owned))}")
            killed = time.perf_counter()
            await victim.kill()
            limit = killed + FAILOVER_LIMIT
            while (any(p.first_ack_sent_after(killed) is None and not p.finished for p in matches)
                   and time.perf_counter() < limit):
                await asyncio.sleep(0.02)
            await asyncio.sleep(1.0)  # a little more play on the new owners
        finally:
            stop.set()
            await asyncio.wait(tasks, timeout=TIMEOUT)
            await asyncio.gather(*(c.close() for s in seated for c in s.clients),
                                 return_exceptions=True)
    crashed = [repr(t.exception()) for t in tasks if t.done() and t.exception() is not None]
    times: dict[int, float | None] = {}
    in_flight: list[float] = []  # actions sent before the kill and acknowledged after it
    for played in matches:
        first = played.first_ack_sent_after(killed)
        times[played.match_id] = None if first is None else first.received - killed
        in_flight += [a.received - killed for a in played.acks if a.sent < killed < a.received]
    lost = await check_store(store, matches)
    replays = [(m, *replay(url, m)) for m in ids[:args.replays]]
    takeovers = {m: [s.ports["http"] for s in survivors
                     if any(f"match {m}: taken over" in line for line in s.output)] for m in ids}
    errors: collections.Counter[str] = collections.Counter()
    for played in matches:
        errors.update(played.errors)
    return {"round": number, "times": times, "lost": lost, "replays": replays, "errors": errors,
            "crashed": crashed, "in_flight": in_flight, "acks": sum(len(p.acks) for p in matches),
            "finished": [p.match_id for p in matches if p.finished],
            "taken_over_by": takeovers}


async def main(args: argparse.Namespace) -> int:
    print(f"start: {uptime()}  ({os.cpu_count()} cores); {code_version()}", flush=True)
    url, cleanup = await fresh_database("postgres")
    store = Store(url)
    names = ["fo-victim", "fo-s1", "fo-s2"]
    logs = Path(args.logs)
    logs.mkdir(parents=True, exist_ok=True)
    nodes: list[ServerProcess] = []
    all_times: list[float] = []
    all_in_flight: list[float] = []
    missing = lost = bad_replays = 0
    try:
        for name in names:
            nodes.append(await ServerProcess(url, extra_args=node_args(name),
                                             log_file=logs / f"{name}.log").start())
        for number in range(1, args.kills + 1):
            if nodes[0].process is None or nodes[0].process.returncode is not None:
                nodes[0] = await ServerProcess(url, extra_args=node_args(names[0]),
                                               log_file=logs / f"{names[0]}.log").start()
            result = await one_round(args, number, nodes, url, store)
            times = result["times"]
            all_times += [t for t in times.values() if t is not None]
            all_in_flight += result["in_flight"]
            missing += sum(t is None for m, t in times.items() if m not in result["finished"])
            lost += len(result["lost"])
            bad_replays += sum(not ok for _, ok, _ in result["replays"])
            shown = ", ".join(f"{m}: {'-' if t is None else f'{t:.2f}'}" for m, t in times.items())
            taken = sorted({p for ports in result["taken_over_by"].values() for p in ports})
            print(f"kill {number:2d}: first ack after kill (s) {shown}; acks {result['acks']}, "
                  f"in flight at the kill, acked after (s) "
                  f"{', '.join(f'{t:.2f}' for t in sorted(result['in_flight']))}; "
                  f"lost {len(result['lost'])}, replays ok "
                  f"{sum(ok for _, ok, _ in result['replays'])}/{len(result['replays'])}, "
                  f"errors {dict(result['errors'])}, finished {result['finished']}, "
                  f"taken over on ports {taken}, survivors' tracebacks "
                  f"{[n.tracebacks for n in nodes[1:]]}, nats read loop died (victim, s1, s2) "
                  f"{[bus_failures(n) for n in nodes]}, load {os.getloadavg()[0]:.2f}", flush=True)
            for line in result["lost"][:5] + result["crashed"][:3]:
                print(f"    {line}", flush=True)
            for m, ok, text in result["replays"]:
                if not ok:
                    print(f"    replay {m}: {text}", flush=True)
    finally:
        for node in nodes:
            await node.terminate()
        await store.close()
        await cleanup()
    ordered = sorted(all_times)
    print(f"end: {uptime()}; {code_version()}")
    if ordered:
        print(f"failover over {args.kills} kills, {len(ordered)} matches: p50 "
              f"{percentile(ordered, 0.5) / 1000:.2f} s, p99 {percentile(ordered, 0.99) / 1000:.2f} s, "
              f"max {ordered[-1]:.2f} s, min {ordered[0]:.2f} s; never acknowledged again: {missing}; "
              f"acknowledged actions missing from the store: {lost}; replays that differ: "
              f"{bad_replays}")
    if all_in_flight:
        flight = sorted(all_in_flight)
        print(f"actions in flight at a kill ({len(flight)}), kill to their ack: p50 "
              f"{percentile(flight, 0.5) / 1000:.2f} s, p99 {percentile(flight, 0.99) / 1000:.2f} s, "
              f"max {flight[-1]:.2f} s")
    return 1 if missing or lost or bad_replays else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--matches", type=int, default=4, help="matches per kill (default 4)")
    parser.add_argument("--pace", type=float, default=0.05,
                        help="seconds between two actions of one seat (default 0.05)")
    parser.add_argument("--logs", default=f"/tmp/failover-{int(time.time())}",
                        help="a folder for the nodes' logs")
    parser.add_argument("--replays", type=int, default=2,
                        help="matches per kill checked with `matches replay` (default 2)")
    sys.exit(asyncio.run(main(parser.parse_args())))
