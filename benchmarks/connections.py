"""Many open WebSocket connections on one server process: its memory (issue 11's target is
20,000 connections under 1 GB).

Client processes (``--client-processes``, each holding its share) open canonical WebSocket
connections to a real server and send one ``ping`` on each, so every connection is served and
idle, not just accepted. The server runs under ``prlimit`` with room for them all. Prints the
server's RSS before and with the connections open, per connection, and the server CPU it took
to accept them.

    python benchmarks/connections.py --connections 20000
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from service.tools.process import ServerProcess, cpu_seconds, rss_mb, shares

#: connections one client process opens at once (each waits for its pong)
BATCH = 200


async def hold(url: str, count: int) -> None:
    """A client process: open ``count`` connections, ping each, say how many answered, then
    keep them open until stdin closes."""
    sockets: list[aiohttp.ClientWebSocketResponse] = []
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:

        async def one() -> bool:
            ws = await session.ws_connect(url, heartbeat=None, autoping=True)
            sockets.append(ws)
            await ws.send_str(json.dumps({"type": "ping", "id": 1}))
            answer = await asyncio.wait_for(ws.receive(), 60)
            return answer.type == aiohttp.WSMsgType.TEXT and '"pong"' in answer.data

        answered, failures = 0, collections.Counter[str]()
        for start in range(0, count, BATCH):
            results = await asyncio.gather(*(one() for _ in range(min(BATCH, count - start))),
                                           return_exceptions=True)
            answered += sum(r is True for r in results)
            failures.update(f"{type(r).__name__}: {r}"[:120] for r in results if r is not True)
        for failure, times in failures.most_common(3):  # why a connection did not open
            print(f"{times} x {failure}", file=sys.stderr, flush=True)
        print(f"open {answered}", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        for ws in sockets:
            await ws.close()


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(
            f"sqlite:///{Path(tmp) / 'connections.db'}", dialects=(),
            extra_args=("--set", "max_connections_per_address=1000000",
                        "--set", "network_connection_share=1",
                        "--set", f"max_connections_per_listener={args.connections}"))
        # room for every connection, as far as the hard limit allows (a process needs a
        # descriptor for each, plus its own files and listeners)
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        room = args.connections + 100 if hard == resource.RLIM_INFINITY else hard
        if room < args.connections + 100:
            print(f"note: the hard descriptor limit is {hard}: the server may hold at most "
                  f"about {hard - 100} connections", flush=True)
        await server.start(prefix=("prlimit", f"--nofile={room}"))
        assert server.process is not None
        pid = server.process.pid
        url = f"http://127.0.0.1:{server.ports['http']}/ws"
        await asyncio.sleep(1)
        before, cpu0, started = rss_mb(pid), cpu_seconds(pid), time.perf_counter()
        clients = [await asyncio.create_subprocess_exec(
            "prlimit", f"--nofile={min(n + 1000, room)}", sys.executable, __file__, "--hold", url,
            "--connections", str(n), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE)
            for n in shares(args.connections, args.client_processes) if n]
        opened = 0
        for client in clients:
            assert client.stdout is not None
            line = (await client.stdout.readline()).decode().split()
            opened += int(line[1]) if line[:1] == ["open"] else 0
        took, cpu = time.perf_counter() - started, cpu_seconds(pid) - cpu0
        await asyncio.sleep(2)
        held = rss_mb(pid)
        for client in clients:
            assert client.stdin is not None
            client.stdin.close()
            await client.wait()
        await server.terminate()
    print(f"result connections={opened} of {args.connections}  rss_before_mb={before:.0f}  "
          f"rss_open_mb={held:.0f}  kb_per_connection={1024 * (held - before) / max(opened, 1):.1f}  "
          f"open_seconds={took:.1f}  server_cpu_ms_per_connection={1000 * cpu / max(opened, 1):.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=20000)
    parser.add_argument("--client-processes", type=int, default=4)
    parser.add_argument("--hold", metavar="URL", help=argparse.SUPPRESS)
    parsed = parser.parse_args()
    if parsed.hold:
        asyncio.run(hold(parsed.hold, parsed.connections))
    else:
        asyncio.run(main(parsed))
