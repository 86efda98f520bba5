"""Load benchmark: many concurrent Dolphins & Foxes matches over TCP against a real server process.

Each match has two viewers (one per team) and two bot players. The bots read the
position from their viewer's boards and send random legal moves as fast as their
acknowledgements (``N``) come back; both players move at once, as the real-time
rules allow. Prints durable actions per second and acknowledgement latency.

    python benchmarks/load_dolphinfox.py --database sqlite --matches 50 --seconds 20
    python benchmarks/load_dolphinfox.py --database postgres --matches 50 --seconds 20
    python benchmarks/load_dolphinfox.py --sqlite-synchronous NORMAL   # the cost of FULL
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from clients import LineClient  # noqa: E402

from service.games.dolphinfox import GAME, DolphinFoxState, Move  # noqa: E402
from service.games.dolphinfox.board import decode_board  # noqa: E402
from service.tools.databases import fresh_database  # noqa: E402
from service.tools.limits import UNLIMITED, setting_args  # noqa: E402
from service.tools.process import ServerProcess  # noqa: E402


@dataclass
class Totals:
    applied: int = 0
    failed: int = 0
    matches_finished: int = 0
    stalls: int = 0
    latencies: list[float] = field(default_factory=list)


def parse_board(line: str) -> DolphinFoxState:
    board = line.split(" ", 1)[1]
    size = int(len(board) ** 0.5)
    terrain, units = decode_board(board, size)
    return DolphinFoxState(size=size, terrain=terrain, max_moves=10**9, units=units,
                           start_rows=(1, size))


class Table:
    """One match: two viewers and two players on their own connections."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.board: DolphinFoxState | None = None
        self.boards = 0  # boards seen so far: a bot waits for the one that shows its move
        self.new_board = asyncio.Condition()
        self.over = asyncio.Event()

    async def open(self, setup_lock: asyncio.Lock) -> None:
        async with setup_lock:  # players open a match, then viewers take the match lacking them
            self.players = [await LineClient.connect(self.port) for _ in range(2)]
            for player in self.players:
                await player.send("PCJ")
                await player.recv()
                await player.recv()
            self.viewers = [await LineClient.connect(self.port) for _ in range(2)]
            for viewer in self.viewers:
                await viewer.send("QCJ")
                await viewer.recv()
        for player in self.players:
            await player.expect("B")  # N: the game has started

    async def drain(self, viewer: LineClient) -> None:
        """Read a viewer we do not need: a client that never reads is dropped by the server."""
        while not self.over.is_set():
            try:
                await viewer.recv(timeout=60)
            except (ConnectionError, asyncio.TimeoutError):
                return

    async def watch(self) -> None:
        viewer = self.viewers[0]
        while not self.over.is_set():
            try:
                line = await viewer.recv(timeout=60)
            except ConnectionError:
                return
            if line[2] == "B":
                async with self.new_board:
                    self.board = parse_board(line)
                    self.boards += 1
                    self.new_board.notify_all()
            elif line[2] == "S":
                self.over.set()
                async with self.new_board:
                    self.new_board.notify_all()

    async def play(self, team: int, rng: random.Random, totals: Totals, deadline: float) -> None:
        player = self.players[team]
        while not self.over.is_set() and time.perf_counter() < deadline:
            legal = GAME.legal_actions(self.board, team) if self.board else []
            if not legal:
                await asyncio.sleep(0.001)
                continue
            mv: Move = rng.choice(legal)
            seen = self.boards
            sent = time.perf_counter()
            await player.send(f"{'DF'[team]}BM {mv.r1} {mv.c1} {mv.r2} {mv.c2}")
            failed = False
            while True:
                line = await player.recv(timeout=60)
                if line[2] == "N":
                    break
                failed = failed or line[2] == "F"
            totals.latencies.append(time.perf_counter() - sent)
            if failed:
                totals.failed += 1
                continue
            totals.applied += 1
            try:  # the viewer's board may trail the acknowledgement
                await asyncio.wait_for(self._board_after(seen), timeout=10)
            except asyncio.TimeoutError:
                totals.stalls += 1
                return

    async def _board_after(self, seen: int) -> None:
        async with self.new_board:
            await self.new_board.wait_for(lambda: self.boards > seen or self.over.is_set())

    async def close(self) -> None:
        for client in (*self.viewers, *self.players):
            await client.close()


async def run_table(port: int, lock: asyncio.Lock, seed: int, totals: Totals, deadline: float) -> None:
    rng = random.Random(seed)
    while time.perf_counter() < deadline:
        table = Table(port)
        await table.open(lock)
        readers = [asyncio.create_task(table.watch()), asyncio.create_task(table.drain(table.viewers[1]))]
        await asyncio.gather(*(table.play(t, rng, totals, deadline) for t in (0, 1)))
        if table.over.is_set():
            totals.matches_finished += 1
        for reader in readers:
            reader.cancel()
        await table.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def load(port: int, args: argparse.Namespace) -> tuple[Totals, float]:
    totals = Totals()
    lock = asyncio.Lock()
    start = time.perf_counter()
    deadline = start + args.seconds
    await asyncio.gather(*(run_table(port, lock, i, totals, deadline) for i in range(args.matches)))
    return totals, time.perf_counter() - start


def server_settings(args: argparse.Namespace) -> tuple[str, ...]:
    """The load comes from one address, far faster than any client should: lift the limits."""
    return setting_args(sqlite_synchronous=args.sqlite_synchronous, **UNLIMITED)


async def main(args: argparse.Namespace) -> None:
    if args.connect:  # a server started by hand (e.g. under a profiler)
        totals, elapsed = await load(args.connect, args)
    else:
        url, cleanup = await fresh_database(args.database)
        server = await ServerProcess(url, extra_args=server_settings(args)).start()
        try:
            totals, elapsed = await load(server.ports["dolphinfox"], args)
        finally:
            await server.terminate()
            await cleanup()
    lat = totals.latencies
    print(f"database           {args.database}"
          + (f" (synchronous={args.sqlite_synchronous})" if args.database == "sqlite" else ""))
    print(f"concurrent matches {args.matches}  ({args.matches * 4} connections)")
    print(f"elapsed            {elapsed:.1f} s")
    print(f"durable actions    {totals.applied}  ({totals.applied / elapsed:.0f} /s)")
    print(f"rejected moves     {totals.failed}")
    print(f"finished matches   {totals.matches_finished}")
    if totals.stalls:
        print(f"stalled bots       {totals.stalls} (no board within 10 s of an acknowledgement)")
    if lat:
        print(f"ack latency        p50 {percentile(lat, 50) * 1000:.1f} ms  "
              f"p99 {percentile(lat, 99) * 1000:.1f} ms  mean {statistics.mean(lat) * 1000:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--connect", type=int, metavar="PORT",
                        help="load a running server's dolphinfox port instead of starting one")
    parser.add_argument("--sqlite-synchronous", choices=("FULL", "NORMAL"), default="FULL")
    asyncio.run(main(parser.parse_args()))
