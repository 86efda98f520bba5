"""`tavolo serve --workers 2` on PostgreSQL with a NATS bus, as real processes: both workers
listen on the one HTTP port and on each dialect's port (SO_REUSEPORT) and answer there under
their own node ids; a worker that dies is restarted; SIGTERM to the parent stops every worker
and the parent exits 0. (Nothing here depends on matches crossing nodes: that is the cluster
core's, tested with it.)"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from databases_or_skip import fresh_or_skip
from engines_or_skip import reachable


pytestmark = [pytest.mark.slow, pytest.mark.postgres]

TIMEOUT = 60.0
STARTED = re.compile(r"node=(?P<parent>\S+) service\.workers: worker (?P<node>\S+) started "
                     r"\(pid (?P<pid>\d+)\)")
LISTENING = re.compile(r"node=(?P<node>\S+) service: listening: (?P<name>[\w-]+) on "
                       r"(?:tcp )?[\d.]+:(?P<port>\d+)")


@pytest.fixture
async def bus_url() -> str:
    return await reachable("nats")


@pytest.fixture
async def postgres_url(tmp_path: Path) -> AsyncIterator[str]:
    async with fresh_or_skip("postgres", tmp_path) as url:
        yield url


class Parent:
    """`serve --workers 2` and the lines it (and its workers) print, read as they come."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []
        self._seen = asyncio.Condition()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process.stdout is not None
        async for raw in self.process.stdout:
            async with self._seen:
                self.lines.append(raw.decode(errors="replace").rstrip())
                self._seen.notify_all()
        async with self._seen:
            self.lines.append("<EOF>")
            self._seen.notify_all()

    async def until(self, pattern: re.Pattern[str], count: int = 1, after: int = 0,
                    ) -> list[re.Match[str]]:
        """The first ``count`` matches of ``pattern`` among the lines from index ``after``."""
        def found() -> list[re.Match[str]]:
            return [m for line in self.lines[after:] if (m := pattern.search(line))]

        async def wait() -> list[re.Match[str]]:
            async with self._seen:
                while len(found()) < count:
                    if self.lines and self.lines[-1] == "<EOF>":
                        raise AssertionError("the output ended:\n" + "\n".join(self.lines[-40:]))
                    await self._seen.wait()
                return found()[:count]

        try:
            return await asyncio.wait_for(wait(), TIMEOUT)
        except asyncio.TimeoutError:
            raise AssertionError(f"no {count} line(s) like {pattern.pattern!r}:\n"
                                 + "\n".join(self.lines[-40:])) from None

    async def stop(self) -> int:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.process.wait(), TIMEOUT)
        await asyncio.wait_for(self._reader, TIMEOUT)
        return code


async def health_over_a_new_connection(port: int) -> dict[str, object]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"GET /api/health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        answer = await reader.read()
    finally:
        writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    return json.loads(body)


async def nodes_answering(port: int, wanted: set[str]) -> set[str]:
    """Node ids seen on ``port``, one new connection per request, until all of ``wanted``
    answered (the kernel spreads new connections over the sockets sharing the port)."""
    seen: set[str] = set()

    async def ask() -> None:
        while not wanted <= seen:
            body = await health_over_a_new_connection(port)
            node = body["node"]
            assert isinstance(node, str)
            seen.add(node)
            cluster = body["cluster"]
            assert isinstance(cluster, dict) and cluster["bus"] == "nats"
            assert node in cluster["members"]

    try:
        await asyncio.wait_for(ask(), TIMEOUT)
    except asyncio.TimeoutError:
        raise AssertionError(f"only {sorted(seen)} answered; wanted {sorted(wanted)}") from None
    return seen


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def test_two_workers_share_every_port_restart_and_stop_together(
        postgres_url: str, bus_url: str) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "service", "serve", "--database-url", postgres_url,
        "--host", "127.0.0.1", "--http-port", "0", "--workers", "2", "--cluster-bus", bus_url,
        "--node-id", "e2e", "--listen", "santorini=0", "--listen", "dolphinfox=0",
        *[arg for name in ("eriantys-g27", "eriantys-g13", "eriantys-g13-java", "renaissance")
          for arg in ("--listen", f"{name}=off")],
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    parent = Parent(process)
    try:
        started = await parent.until(STARTED, 2)
        assert {m["node"] for m in started} == {"e2e-1", "e2e-2"}
        assert {m["parent"] for m in started} == {"e2e"}
        pids = {m["node"]: int(m["pid"]) for m in started}
        listening = await parent.until(LISTENING, 6)  # http, santorini, dolphinfox: twice
        ports: dict[str, set[int]] = {}
        for m in listening:
            ports.setdefault(m["name"], set()).add(int(m["port"]))
            assert m["node"] in pids
        assert set(ports) == {"http", "santorini", "dolphinfox"}
        assert all(len(bound) == 1 for bound in ports.values()), ports  # one port each, shared
        assert {m["node"] for m in listening} == {"e2e-1", "e2e-2"}
        http = ports["http"].pop()
        assert await nodes_answering(http, {"e2e-1", "e2e-2"}) == {"e2e-1", "e2e-2"}

        # a worker that dies is reported and started again, under the same node id
        mark = len(parent.lines)
        os.kill(pids["e2e-1"], signal.SIGKILL)
        await parent.until(re.compile(r"worker e2e-1 \(pid \d+\) died: killed by SIGKILL"),
                           after=mark)
        again = (await parent.until(STARTED, after=mark))[0]
        assert again["node"] == "e2e-1" and int(again["pid"]) != pids["e2e-1"]
        pids["e2e-1"] = int(again["pid"])
        await parent.until(re.compile(r"node=e2e-1 service: listening: http"), after=mark)
        assert await nodes_answering(http, {"e2e-1", "e2e-2"}) == {"e2e-1", "e2e-2"}
    finally:
        code = await parent.stop()
    assert code == 0, "\n".join(parent.lines[-40:])
    for node, pid in pids.items():
        assert gone(pid), f"worker {node} (pid {pid}) outlived the parent"
    assert any(re.search(r"worker e2e-1 \(pid \d+\) stopped: exit code 0", line)
               for line in parent.lines)
    assert any(re.search(r"worker e2e-2 \(pid \d+\) stopped: exit code 0", line)
               for line in parent.lines)
    assert not [line for line in parent.lines if line.startswith("Traceback")]
