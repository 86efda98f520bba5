"""Connections past the file-descriptor limit (issue 8, D11): a server run under
``prlimit --nofile=N`` gets many more connections than it has descriptors. It should serve
what fits, make the rest wait (it stops accepting), and log one line, not a traceback per
accept.

    python benchmarks/descriptor_limit.py --nofile 200 --connections 400
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
from pathlib import Path

LISTENING = re.compile(r"listening: dolphinfox on tcp [\d.]+:(\d+)")


async def _served(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
    writer.write(b"QCJ\n")
    try:
        return bool(await asyncio.wait_for(reader.readline(), 5))
    except (asyncio.TimeoutError, ConnectionError):
        return False


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        proc = await asyncio.create_subprocess_exec(
            "prlimit", f"--nofile={args.nofile}:{args.nofile}", sys.executable, "-m", "service",
            "serve", "--database-url", f"sqlite:///{Path(tmp) / 'fd.db'}", "--host", "127.0.0.1",
            "--http-port", "0", "--listen", "dolphinfox=0", "--listen", "santorini=off",
            "--listen", "eriantys-g13=off", "--listen", "eriantys-g27=off",
            "--set", "max_connections_per_address=1000000", "--set", "network_connection_share=1",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        assert proc.stdout is not None
        port = None
        while port is None:
            found = LISTENING.search((await proc.stdout.readline()).decode())
            port = int(found[1]) if found else None
        streams = []
        for _ in range(args.connections):  # past the backlog, connecting waits: give up then
            try:
                streams.append(await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2))
            except (asyncio.TimeoutError, OSError):
                break
        served = sum(await asyncio.gather(*(_served(r, w) for r, w in streams)))
        proc.terminate()
        log = (await proc.stdout.read()).decode()
        await proc.wait()
    print(f"descriptor limit {args.nofile}: {len(streams)} of {args.connections} connections "
          f"opened, {served} served, {len(streams) - served} waiting or shed")
    print(f"tracebacks in the log: {log.count('Traceback')}, log lines: {log.count(chr(10))}")
    if args.show:
        first = log.find("Traceback")
        print(log[max(first - 300, 0):first + 3000] if first >= 0 else log[-3000:])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nofile", type=int, default=200)
    parser.add_argument("--connections", type=int, default=400)
    parser.add_argument("--show", action="store_true", help="print the end of the log")
    asyncio.run(main(parser.parse_args()))
