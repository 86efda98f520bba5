"""Group 27's greeting under many connected users: what one registration costs the server.

Each newcomer on the group-27 (seed 004) listener is greeted with the usernames connected right
now, cut to fit one frame. This registers ``--users`` players one after another against a real
server (SQLite in a temporary directory): connect, read the greeting, send a username, then a
PING whose PONG says the server has handled the username. Every connection stays open (and
answers the server's PINGs), so the connected set grows by one per registration.

Prints, per window of registrations, the wall time of one registration (p50, worst) and the
server's CPU per registration (from /proc: other load on the machine does not count), then the
server's idle CPU with everyone connected (the heartbeat alone), to tell the two apart.

    python benchmarks/g27_greeting.py --users 2000
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from service.protocol import eriantys_g27 as wire
from service.protocol.eriantys_g27 import LengthFramer, Message, Typed
from service.tools.process import ServerProcess, cpu_seconds, rss_mb

TIMEOUT = 120.0


class Link:
    """One connected user: answers the server's PINGs, hands every other frame on."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.framer = LengthFramer()
        self.frames: asyncio.Queue[str] = asyncio.Queue()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while data := await self.reader.read(65_536):
            for frame in self.framer.feed(data):
                if not isinstance(frame, str):
                    continue
                if '"PING"' in frame and len(frame) < 40:
                    self.send(Message("PONG"))
                else:
                    self.frames.put_nowait(frame)

    def send(self, message: Message) -> None:
        self.writer.write(self.framer.encode(wire.format_message(message)))

    async def next_frame(self) -> str:
        return await asyncio.wait_for(self.frames.get(), TIMEOUT)

    async def close(self) -> None:
        self.task.cancel()
        self.writer.close()


async def register(port: int, username: str) -> tuple[Link, int]:
    """Connect and register; returns the link and how many names the greeting listed."""
    link = Link(*await asyncio.open_connection("127.0.0.1", port))
    greeting = await link.next_frame()
    if "USERNAMEANDMAGICAGE" not in greeting:
        raise RuntimeError(f"expected the greeting, got {greeting[:200]!r}")
    listed = len(_names_in(greeting))
    link.send(wire.response("INSERTEDUSERNAMEANDAGE", Typed(
        wire.USERNAME_AND_AGE, {"username": username, "magicAge": 30})))
    link.send(Message("PING"))
    while '"PONG"' not in (frame := await link.next_frame()):
        if "USERNAMEANDMAGICAGE" in frame:
            raise RuntimeError(f"{username} was refused")
    return link, listed


def _names_in(greeting: str) -> list[str]:
    right = wire.parse_message(greeting).value
    assert right is not None and isinstance(right.value, wire.Pair) and right.value.right
    return list(right.value.right.value)


def _name(i: int, length: int) -> str:
    return f"user{i:06d}".ljust(length, "x")[:32]


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(
            f"sqlite:///{Path(tmp) / 'greeting.db'}", dialects=("eriantys-g27",),
            extra_args=("--set", "max_connections_per_address=1000000",
                        "--set", "network_connection_share=1",
                        "--set", f"max_connections_per_listener={args.users + 100}",
                        "--set", "creation_burst_per_address=1000000",
                        "--set", "creation_per_minute_per_address=1000000"))
        await server.start()
        assert server.process is not None
        pid, port = server.process.pid, server.ports["eriantys-g27"]
        links: list[Link] = []
        try:
            await _run(args, pid, port, links)
        finally:
            await asyncio.gather(*(link.close() for link in links), return_exceptions=True)
            await server.terminate()


async def _run(args: argparse.Namespace, pid: int, port: int, links: list[Link]) -> None:
    window = max(1, args.users // args.windows)
    print(f"{'connected':>10} {'wall p50 ms':>12} {'wall max ms':>12} {'cpu ms/reg':>11} "
          f"{'names listed':>13}", flush=True)
    started, cpu_start = time.perf_counter(), cpu_seconds(pid)
    walls: list[float] = []
    cpu0, listed = cpu_start, 0
    for i in range(args.users):
        t0 = time.perf_counter()
        link, listed = await register(port, _name(i, args.name_length))
        links.append(link)
        walls.append(time.perf_counter() - t0)
        if len(walls) == window or i == args.users - 1:
            cpu1 = cpu_seconds(pid)
            print(f"{i + 1:>10} {1000 * statistics.median(walls):>12.2f} "
                  f"{1000 * max(walls):>12.2f} {1000 * (cpu1 - cpu0) / len(walls):>11.2f} "
                  f"{listed:>13}", flush=True)
            walls, cpu0 = [], cpu1
    took, cpu = time.perf_counter() - started, cpu_seconds(pid) - cpu_start
    idle0 = cpu_seconds(pid)
    await asyncio.sleep(args.idle)
    idle = (cpu_seconds(pid) - idle0) / args.idle
    print(f"result users={args.users} register_seconds={took:.1f} "
          f"server_cpu_ms_per_registration={1000 * cpu / args.users:.2f} "
          f"idle_cpu_share_with_all_connected={idle:.3f} rss_mb={rss_mb(pid):.0f}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=2000)
    parser.add_argument("--windows", type=int, default=8, help="lines of figures printed")
    parser.add_argument("--name-length", type=int, default=12,
                        help="characters per username (at most 32)")
    parser.add_argument("--idle", type=float, default=5.0,
                        help="seconds of idle CPU measured with everyone connected")
    asyncio.run(main(parser.parse_args()))
