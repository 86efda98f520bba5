"""A creation flood and the memory after it: do waiting matches nobody follows leave on time?

Against a real server (SQLite in a temporary directory, its limits as configured by default),
``--matches`` canonical WebSocket clients each say hello, create a waiting match of Dolphins &
Foxes and hang up, ``--parallel`` at a time, from as many loopback addresses as the server's
per-address bound on waiting matches needs. Then nobody touches the
server. Prints the server's RSS (from /proc) and the matches it holds in memory
(``/api/health``'s ``live_matches``) before, right after the flood, and every few seconds
until ``--watch`` seconds after it, with ``waiting_match_grace`` and the sweep interval given.

    python benchmarks/memory_flood.py --matches 2200 --grace 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from service.tools.process import ServerProcess, cpu_seconds, rss_mb


async def one_match(session: aiohttp.ClientSession, url: str) -> bool:
    """Hello, create a waiting match, hang up; True when the server said ok."""
    async with session.ws_connect(url, heartbeat=None) as ws:
        await ws.send_str(json.dumps({"type": "hello", "id": 1}))
        await _answer(ws, 1)
        await ws.send_str(json.dumps({"type": "create", "id": 2, "game": "dolphinfox",
                                      "seats": 2}))
        return (await _answer(ws, 2)).get("type") == "ok"


async def _answer(ws: aiohttp.ClientWebSocketResponse, cid: int) -> dict[str, Any]:
    while True:
        message = await asyncio.wait_for(ws.receive(), 60)
        if message.type != aiohttp.WSMsgType.TEXT:
            raise RuntimeError(f"connection ended: {message.type}")
        data: dict[str, Any] = json.loads(message.data)
        if data.get("re") == cid:
            return data


async def flood(url: str, count: int, parallel: int, per_address: int) -> int:
    """``count`` matches, ``per_address`` from each loopback address (127.0.x.y), ``parallel``
    clients at once: as many addresses would, within the server's own per-address bounds."""
    addresses = [f"127.0.{1 + i // 250}.{1 + i % 250}" for i in range(-(-count // per_address))]
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(a, 0)))
                for a in addresses]
    created = 0
    try:
        for start in range(0, count, parallel):
            batch = range(start, min(start + parallel, count))
            results = await asyncio.gather(
                *(one_match(sessions[i // per_address], url) for i in batch),
                return_exceptions=True)
            created += sum(r is True for r in results)
    finally:
        for session in sessions:
            await session.close()
    return created


async def live_matches(session: aiohttp.ClientSession, base: str) -> int:
    async with session.get(f"{base}/api/health") as response:
        return int((await response.json())["live_matches"])


def flood_settings(args: argparse.Namespace) -> tuple[str, ...]:
    return ("--set", f"waiting_match_grace={args.grace}",
            "--set", f"lifecycle_sweep_interval={args.sweep}")


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(f"sqlite:///{Path(tmp) / 'flood.db'}", dialects=(),
                               extra_args=flood_settings(args))
        await server.start()
        assert server.process is not None
        pid, base = server.process.pid, f"http://127.0.0.1:{server.ports['http']}"
        try:
            async with aiohttp.ClientSession() as http:
                await asyncio.sleep(1)
                print(f"grace={args.grace:g}s sweep={args.sweep:g}s matches={args.matches}",
                      flush=True)
                print(f"before   rss_mb={rss_mb(pid):6.1f}  live_matches="
                      f"{await live_matches(http, base)}", flush=True)
                started, cpu0 = time.perf_counter(), cpu_seconds(pid)
                created = await flood(f"{base}/ws", args.matches, args.parallel,
                                      args.per_address)
                flooded = time.perf_counter()
                print(f"flooded  rss_mb={rss_mb(pid):6.1f}  live_matches="
                      f"{await live_matches(http, base)}  created={created}  "
                      f"in {flooded - started:.1f}s  server_cpu_s={cpu_seconds(pid) - cpu0:.1f}",
                      flush=True)
                while (after := time.perf_counter() - flooded) < args.watch:
                    await asyncio.sleep(min(args.every, args.watch - after))
                    print(f"+{time.perf_counter() - flooded:5.0f}s   rss_mb={rss_mb(pid):6.1f}  "
                          f"live_matches={await live_matches(http, base)}", flush=True)
        finally:
            await server.terminate()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2200)
    parser.add_argument("--parallel", type=int, default=50, help="clients at once")
    parser.add_argument("--per-address", type=int, default=10,
                        help="matches opened from one address (the server's default bound)")
    parser.add_argument("--grace", type=float, default=10.0,
                        help="waiting_match_grace of the server (s; its default is 60)")
    parser.add_argument("--sweep", type=float, default=5.0,
                        help="lifecycle_sweep_interval of the server (s; its default is 5)")
    parser.add_argument("--watch", type=float, default=40.0,
                        help="seconds to watch the server after the flood")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between readings")
    asyncio.run(main(parser.parse_args()))
