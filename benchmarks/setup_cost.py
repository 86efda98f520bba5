"""What setting a match up costs (issue 23): server CPU per match, and PostgreSQL's.

``load.py --setup-only`` against a real server process: bot processes keep ``--matches`` slots
busy setting matches up (two guests say hello over the canonical WebSocket, one creates a
Dolphins & Foxes match, the other joins it and it starts). Printed per match set up: the
server's CPU (from /proc of the server process), and on PostgreSQL the CPU of the server
processes of the benchmark's database (the backends in pg_stat_activity for it, read from
/proc before and after; a backend that came and went in between is missed).

    python benchmarks/setup_cost.py --database sqlite --rounds 2
    python benchmarks/setup_cost.py --database postgres --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import asyncpg
from sqlalchemy.engine import make_url

import load
from service.tools.databases import fresh_database
from service.tools.limits import UNLIMITED, setting_args
from service.tools.process import ServerProcess, cpu_seconds


async def backends(url: str) -> dict[int, float]:
    """pid -> CPU seconds of the PostgreSQL server processes connected to ``url``'s database."""
    parsed = make_url(url)
    connection = await asyncpg.connect(parsed.set(drivername="postgresql").render_as_string(
        hide_password=False))
    try:
        pids = [row[0] for row in await connection.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
            parsed.database)]
    finally:
        await connection.close()
    return {pid: cpu_seconds(pid) for pid in pids if Path(f"/proc/{pid}").exists()}


async def one_round(args: argparse.Namespace) -> str:
    url, cleanup = await fresh_database(args.database)
    server = await ServerProcess(url, dialects=("dolphinfox",), extra_args=(
        *setting_args(**UNLIMITED),)).start()
    try:
        database_before = await backends(url) if args.database == "postgres" else {}
        result = await load.drive(args, server)
        database = 0.0
        if args.database == "postgres":
            after = await backends(url)
            database = sum(cpu - database_before.get(pid, 0.0) for pid, cpu in after.items())
    finally:
        await server.terminate()
        await cleanup()
    matches = max(float(result["finished_matches"]), 1.0)
    line = (f"{args.database:8} {int(matches)} matches set up, server CPU "
            f"{result['server_cpu_ms_per_match']:.2f} ms per match")
    if args.database == "postgres":
        line += f" + PostgreSQL {1000 * database / matches:.2f} ms"
    return line + f"  (load average {result['load_avg_1m']:.1f})"


async def main(args: argparse.Namespace) -> None:
    for _ in range(args.rounds):
        print(await one_round(args), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rounds", type=int, default=1)
    parsed = parser.parse_args()
    parsed.setup_only, parsed.bot_processes, parsed.game = True, 2, "dolphinfox"
    asyncio.run(main(parsed))
