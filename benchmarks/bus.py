"""The cluster bus candidates measured on this machine (issue 18): Redis pub/sub, NATS core,
PostgreSQL LISTEN/NOTIFY, through service.cluster's own implementations (what a node runs).

One publisher process and 1-3 subscriber processes per engine, payloads shaped like Tavolo's
``update`` notices (JSON, 1-4 KB):

- latency: publish -> receive, p50/p99, at a steady 500 messages/s (CLOCK_MONOTONIC is one
  clock for every process of the machine, so the stamps compare across processes);
- throughput: as many messages as the engine takes, 100 publishes in flight at a time (many
  matches at once), received per second by the slowest subscriber, and the client CPU per
  message of the publisher and of a subscriber;
- request/reply: round trip of a command forwarded to another process, p50/p99, one at a time.

    python benchmarks/bus.py                       # every engine
    python benchmarks/bus.py --engines redis,nats --messages 20000

The Redis and NATS clients come from pip (`pip install redis hiredis nats-py`: redis-py parses
with hiredis when it is installed, as a Redis deployment would); PostgreSQL uses a
fresh database on TAVOLO_TEST_POSTGRES_URL. The figures go to docs/cluster.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import struct
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.cluster.bus import Bus, open_bus  # noqa: E402
from service.cluster.ownership import asyncpg_dsn  # noqa: E402
from service.tools.databases import fresh_database  # noqa: E402
from service.tools.process import cpu_seconds  # noqa: E402

URLS = {"redis": "redis://127.0.0.1:6379/0", "nats": "nats://127.0.0.1:4222"}
STAMP = struct.Struct("!qq")  # sequence number, CLOCK_MONOTONIC ns at publish
LATENCY_RATE = 500.0
IN_FLIGHT = 100
QUIET = 10.0  # a subscriber gives up this long after its last message


def notice(rng: random.Random) -> bytes:
    """A JSON body like a canonical update: 1-4 KB of match, version, events and view."""
    size = rng.randint(1024, 4096)
    cells = [{"x": i % 7, "y": i // 7, "piece": rng.choice(["dolphin", "fox", None])}
             for i in range(size // 40)]
    body = json.dumps({"type": "update", "match_id": rng.randint(1, 10**6), "version": 17,
                       "events": [{"type": "moved", "from": [1, 2], "to": [2, 3]}],
                       "view": {"board": cells}}).encode()
    return body[:size]


async def server_pids(engine: str, url: str) -> list[int]:
    """The engine's server processes on this machine that serve the benchmark (for
    PostgreSQL, the backends of the benchmark's own connections)."""
    if engine == "postgresql":
        import asyncpg
        admin = await asyncpg.connect(asyncpg_dsn(url))
        try:
            rows = await admin.fetch("SELECT pid FROM pg_stat_activity "
                                     "WHERE application_name LIKE 'bench-%' "
                                     "AND datname = current_database()")
        finally:
            await admin.close()
        return [row["pid"] for row in rows]
    name = {"redis": "redis-server", "nats": "nats-server"}.get(engine)
    pids = []
    for stat in Path("/proc").glob("[0-9]*/comm"):
        try:
            if stat.read_text().strip() == name:
                pids.append(int(stat.parent.name))
        except OSError:
            continue
    return pids


def server_cpu(pids: list[int]) -> dict[int, float]:
    """CPU seconds so far of each of ``pids`` that still runs."""
    seconds = {}
    for pid in pids:
        try:
            seconds[pid] = cpu_seconds(pid)
        except OSError:
            continue
    return seconds


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(after[pid] - before[pid] for pid in before.keys() & after.keys())


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


# --- child processes ---------------------------------------------------------------------------


async def subscriber(url: str, subject: str, expected: int) -> dict[str, Any]:
    bus = await open_bus(url, name="bench-sub")
    got: list[tuple[int, int, int]] = []  # sequence, sent ns, received ns
    changed = asyncio.Event()

    async def on_message(_: str, data: bytes) -> None:
        sequence, sent = STAMP.unpack_from(data)
        got.append((sequence, sent, time.monotonic_ns()))
        changed.set()

    await bus.subscribe(subject, on_message)
    print("ready", flush=True)
    cpu = time.process_time()
    while len(got) < expected:
        changed.clear()
        try:
            await asyncio.wait_for(changed.wait(), QUIET)
        except asyncio.TimeoutError:
            break
    cpu = time.process_time() - cpu
    await bus.close()
    in_order = all(a[0] < b[0] for a, b in zip(got, got[1:]))
    span = (got[-1][2] - got[0][2]) / 1e9 if len(got) > 1 else float("nan")
    return {"received": len(got), "in_order": in_order, "span_s": span, "cpu_s": cpu,
            "latency_ms": [(r - s) / 1e6 for _, s, r in got]}


async def responder(url: str, subject: str) -> None:
    bus = await open_bus(url, name="bench-responder")

    async def answer(_: str, data: bytes) -> bytes:
        return data[:64]

    await bus.serve(subject, answer)
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await bus.close()


# --- the publisher (this process) -----------------------------------------------------------------


async def start(*args: str) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, *args, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE)
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 60)
    if line.strip() != b"ready":
        raise RuntimeError(f"child {args[0]} did not start: {line!r}")
    return process


async def result(process: asyncio.subprocess.Process) -> dict[str, Any]:
    assert process.stdout is not None
    out = await process.stdout.read()
    await process.wait()
    return json.loads(out)


async def publish_paced(bus: Bus, subject: str, bodies: list[bytes], rate: float) -> float:
    cpu = time.process_time()
    began = time.monotonic()
    for n, body in enumerate(bodies):
        wait = began + n / rate - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        await bus.publish(subject, STAMP.pack(n, time.monotonic_ns()) + body)
    return time.process_time() - cpu


async def publish_flat_out(bus: Bus, subject: str, bodies: list[bytes]) -> float:
    cpu = time.process_time()
    for first in range(0, len(bodies), IN_FLIGHT):
        await asyncio.gather(*(bus.publish(subject, STAMP.pack(n, time.monotonic_ns()) + body)
                               for n, body in enumerate(bodies[first:first + IN_FLIGHT], first)))
    return time.process_time() - cpu


async def fan_out(url: str, subscribers: int, bodies: list[bytes], paced: bool) -> dict[str, Any]:
    subject = f"bench.{uuid.uuid4().hex[:8]}.match.1"
    children = [await start("--role", "subscriber", "--url", url, "--subject", subject,
                            "--count", str(len(bodies))) for _ in range(subscribers)]
    bus = await open_bus(url, name="bench-pub")
    pids = await server_pids(bus.kind, url)
    server = server_cpu(pids)
    try:
        began = time.monotonic()
        if paced:
            cpu = await publish_paced(bus, subject, bodies, LATENCY_RATE)
        else:
            cpu = await publish_flat_out(bus, subject, bodies)
        publish_s = time.monotonic() - began
        results = [await result(child) for child in children]
        used = spent(server, server_cpu(pids)) if pids else float("nan")
    finally:
        await bus.close()
    return {"publish_s": publish_s, "publisher_cpu_s": cpu, "server_cpu_s": used,
            "subscribers": results}


async def round_trips(url: str, count: int) -> list[float]:
    subject = f"bench.{uuid.uuid4().hex[:8]}.node.b.cmd"
    child = await start("--role", "responder", "--url", url, "--subject", subject)
    bus = await open_bus(url, name="bench-req")
    command = json.dumps({"type": "act", "match_id": 1, "action": {"type": "move"}}).encode()
    times: list[float] = []
    try:
        for _ in range(count):
            began = time.monotonic_ns()
            await bus.request(subject, command, timeout=10)
            times.append((time.monotonic_ns() - began) / 1e6)
    finally:
        await bus.close()
        assert child.stdin is not None
        child.stdin.close()
        await child.wait()
    return times


def report_fan_out(engine: str, subscribers: int, run: dict[str, Any], paced: bool,
                   total: int) -> str:
    subs = run["subscribers"]
    lost = sum(total - s["received"] for s in subs)
    order = "in order" if all(s["in_order"] for s in subs) else "OUT OF ORDER"
    if paced:
        latencies = [x for s in subs for x in s["latency_ms"]]
        return (f"{engine:10} subs={subscribers} latency p50 {percentile(latencies, 50):6.3f} ms  "
                f"p99 {percentile(latencies, 99):6.3f} ms  lost {lost}  {order}")
    rate = min(s["received"] / s["span_s"] for s in subs)
    sub_cpu = statistics.mean(1e6 * s["cpu_s"] / max(s["received"], 1) for s in subs)
    return (f"{engine:10} subs={subscribers} throughput {rate:8.0f} msg/s (slowest subscriber)  "
            f"publisher {1e6 * run['publisher_cpu_s'] / total:5.1f} us CPU/msg  "
            f"subscriber {sub_cpu:5.1f} us CPU/msg  "
            f"server {1e6 * run['server_cpu_s'] / total:5.1f} us CPU/msg  lost {lost}  {order}")


async def bench_engine(engine: str, url: str, args: argparse.Namespace) -> list[str]:
    rng = random.Random(18)
    lines: list[str] = []
    latency_bodies = [notice(rng) for _ in range(args.latency_messages)]
    bodies = [notice(rng) for _ in range(args.messages)]
    for subscribers in args.subscribers:
        run = await fan_out(url, subscribers, latency_bodies, paced=True)
        lines.append(report_fan_out(engine, subscribers, run, True, len(latency_bodies)))
        print(lines[-1], flush=True)
        run = await fan_out(url, subscribers, bodies, paced=False)
        lines.append(report_fan_out(engine, subscribers, run, False, len(bodies)))
        print(lines[-1], flush=True)
    times = await round_trips(url, args.requests)
    lines.append(f"{engine:10} request/reply round trip p50 {percentile(times, 50):6.3f} ms  "
                 f"p99 {percentile(times, 99):6.3f} ms  ({len(times)} one at a time)")
    print(lines[-1], flush=True)
    return lines


async def main(args: argparse.Namespace) -> None:
    print(f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f} on {os.cpu_count()} cores", flush=True)
    for engine in args.engines:
        if engine == "postgresql":
            url, cleanup = await fresh_database("postgres")
            try:
                await bench_engine(engine, url, args)
            finally:
                await cleanup()
        else:
            await bench_engine(engine, URLS[engine], args)
    print(f"load after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f}", flush=True)


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engines", default="redis,nats,postgresql",
                        type=lambda s: [e for e in s.split(",") if e])
    parser.add_argument("--subscribers", default="1,2,3",
                        type=lambda s: [int(n) for n in s.split(",")])
    parser.add_argument("--messages", type=int, default=20_000, help="throughput run")
    parser.add_argument("--latency-messages", type=int, default=2_500, help="paced run")
    parser.add_argument("--requests", type=int, default=2_000)
    parser.add_argument("--role", choices=["subscriber", "responder"], help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--subject", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    options = parse()
    if options.role == "subscriber":
        print(json.dumps(asyncio.run(subscriber(options.url, options.subject, options.count))))
    elif options.role == "responder":
        asyncio.run(responder(options.url, options.subject))
    else:
        unknown = set(options.engines) - {"redis", "nats", "postgresql"}
        if unknown:
            sys.exit(f"bus.py: unknown engines {sorted(unknown)}: redis, nats, postgresql")
        asyncio.run(main(options))
