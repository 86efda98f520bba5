"""How fast one address can guess the admin token of a real server (issue 17).

Starts ``serve`` with an admin token and sends wrong tokens to ``GET /api/admin/players`` from
one address for ``--seconds``, ``--concurrency`` requests at a time. Prints how many requests
were answered, how many tokens the server actually compared (401) and how many it refused
unread (429), and the guesses per second that reached the comparison. Also reports the WARNING
lines (the alarm) the server logged.

    python benchmarks/admin_guessing.py [--seconds 10] [--concurrency 8] [--database sqlite]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from collections import Counter

import aiohttp

from service.tools.databases import fresh_database
from service.tools.process import ServerProcess

TOKEN = "the-real-admin-token-0123456789"


async def guess(url: str, seconds: float, concurrency: int) -> Counter[int]:
    statuses: Counter[int] = Counter()
    deadline = time.monotonic() + seconds
    async with aiohttp.ClientSession() as session:

        async def worker(n: int) -> None:
            attempt = 0
            while time.monotonic() < deadline:
                attempt += 1
                headers = {"Authorization": f"Bearer guess-{n}-{attempt}"}
                async with session.get(url, headers=headers) as response:
                    statuses[response.status] += 1

        await asyncio.gather(*(worker(n) for n in range(concurrency)))
    return statuses


async def main(args: argparse.Namespace) -> None:
    url, cleanup = await fresh_database(args.database)
    server = ServerProcess(url, dialects=(), extra_args=("--set", f"admin_token={TOKEN}"))
    alarms: list[str] = []
    keep = server._keep

    def counting(line: bytes) -> str:  # the server's output keeps its last lines only
        text = keep(line)
        if "wrong tokens from" in text:
            alarms.append(text)
        return text

    server._keep = counting  # type: ignore[method-assign]
    await server.start()
    try:
        port = server.ports["http"]
        statuses = await guess(f"http://127.0.0.1:{port}/api/admin/players", args.seconds,
                               args.concurrency)
    finally:
        await server.terminate()
        await cleanup()
    answered = sum(statuses.values())
    print(f"result seconds={args.seconds} answered={answered} compared_401={statuses[401]} "
          f"refused_429={statuses[429]} other={answered - statuses[401] - statuses[429]} "
          f"guesses_per_second={statuses[401] / args.seconds:.2f} alarms={len(alarms)} "
          f"load_avg_1m={os.getloadavg()[0]:.2f}")
    for line in alarms[-3:]:
        print("alarm:", line.strip())


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    asyncio.run(main(parser.parse_args()))
