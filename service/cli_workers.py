"""`serve --workers N`: N `serve` processes sharing every listening port (SO_REUSEPORT), as a
cluster of N nodes over PostgreSQL and the cluster bus; and the checks every `serve` makes of
its cluster settings before it starts.

The parent runs no server. It starts N children with its own command line less ``--workers``,
each with ``--node-id <base>-<i>`` and ``reuse_port``, and with every port fixed (a port 0 is
chosen once here, so all children bind the same one). It forwards SIGTERM and SIGINT to them,
restarts a child that dies (with a doubling backoff, at most MAX_RESTARTS times in a row), and
exits 0 only when every child ended cleanly."""

from __future__ import annotations

import asyncio
import ctypes
import logging
import signal
import socket
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from service.settings import Settings, bus_kind_of, suffixed_node_id
from service.store.engine import is_sqlite_url

log = logging.getLogger("service.workers")

#: restarts of one worker in a row (each after a run shorter than STABLE_AFTER) before the
#: parent gives up, stops the others and exits non-zero
MAX_RESTARTS = 5
#: the first wait before a restart, doubled at each restart in a row up to BACKOFF_MAX (s)
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 10.0
#: a worker that ran this long (s) before it died starts its restart count afresh
STABLE_AFTER = 60.0
#: how long (s) stopping children get before they are killed
STOP_TIMEOUT = 60.0
#: flags of the parent that its children do not get (the children get their own)
_PARENT_ONLY = ("--workers", "--node-id")


#: prctl(2)'s "signal me when my parent dies" (Linux)
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child before it runs: SIGTERM when the parent dies, however it dies (a SIGKILLed
    parent would otherwise leave its workers holding the ports). Linux only; else nothing."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def check_cluster(settings: Settings, workers: int) -> str:
    """The bus kind (``none`` without one); ValueError with a one-line reason for a bus URL
    this build does not support, a bus or several workers on SQLite, workers without a bus."""
    kind = bus_kind_of(settings)  # UnsupportedBus is a ValueError, one line
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, not {workers}")
    if is_sqlite_url(settings.database_url) and (settings.cluster_bus or workers > 1):
        what = "--cluster-bus" if settings.cluster_bus else f"--workers {workers}"
        raise ValueError(f"{what} needs PostgreSQL: SQLite is single-process "
                         "(give --database-url postgresql+asyncpg://...)")
    if workers > 1 and not settings.cluster_bus:
        raise ValueError(f"--workers {workers} needs --cluster-bus URL (or TAVOLO_CLUSTER_BUS): "
                         "the workers form a cluster over PostgreSQL and a bus (nats://...)")
    return kind


def worker_node_id(base: str, index: int) -> str:
    return suffixed_node_id(base, f"-{index}")


def without_parent_flags(argv: Sequence[str]) -> list[str]:
    """``argv`` less ``--workers N`` and ``--node-id ID`` (either spelling, ``--flag=value``)."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in _PARENT_ONLY:
            skip = True
        elif not arg.startswith(tuple(f"{flag}=" for flag in _PARENT_ONLY)):
            out.append(arg)
    return out


def free_port(host: str) -> int:
    """A port the kernel says is free on ``host`` now (for a port 0 all workers must share)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def fixed_ports(settings: Settings, dialects: dict[str, int]) -> list[str]:
    """Flags that fix every listening port (HTTP and each dialect's), choosing the zeros."""
    http = settings.http_port or free_port(settings.host)
    flags = ["--http-port", str(http)]
    for name, port in dialects.items():
        flags += ["--listen", f"{name}={port or free_port(settings.host)}"]
    return flags


@dataclass
class Worker:
    node_id: str
    command: list[str]
    process: asyncio.subprocess.Process | None = None
    code: int | None = None


class Supervisor:
    def __init__(self, workers: list[Worker]) -> None:
        self.workers = workers
        self.stopping = asyncio.Event()
        self.gave_up = False

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stop every worker: ``sig`` to each one running (no restarts from now on)."""
        self.stopping.set()
        for worker in self.workers:
            process = worker.process
            if process is not None and process.returncode is None:
                process.send_signal(sig)

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stop, sig)
        try:
            await asyncio.gather(*(self._keep(worker) for worker in self.workers))
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)
        failed = [w for w in self.workers if w.code != 0]
        for worker in failed:
            log.error("worker %s ended with %s", worker.node_id, _how(worker.code))
        return 1 if failed or self.gave_up else 0

    async def _keep(self, worker: Worker) -> None:
        """Run ``worker`` until the supervisor stops; restart it when it dies."""
        restarts = 0
        while True:
            started = time.monotonic()
            worker.process = await asyncio.create_subprocess_exec(
                *worker.command, preexec_fn=_die_with_parent)
            log.info("worker %s started (pid %d)", worker.node_id, worker.process.pid)
            if self.stopping.is_set():  # a signal came while it was starting
                worker.process.send_signal(signal.SIGTERM)
            worker.code = await self._wait(worker.process)
            if self.stopping.is_set():
                log.info("worker %s (pid %d) stopped: %s", worker.node_id, worker.process.pid,
                         _how(worker.code))
                return
            log.error("worker %s (pid %d) died: %s", worker.node_id, worker.process.pid,
                      _how(worker.code))
            restarts = 0 if time.monotonic() - started >= STABLE_AFTER else restarts
            if restarts >= MAX_RESTARTS:
                log.error("worker %s died %d times in a row: giving up, stopping the others",
                          worker.node_id, restarts + 1)
                self.gave_up = True
                self.stop()
                return
            delay = min(BACKOFF_FIRST * 2 ** restarts, BACKOFF_MAX)
            restarts += 1
            log.warning("restarting worker %s in %.1f s (restart %d of at most %d in a row)",
                        worker.node_id, delay, restarts, MAX_RESTARTS)
            try:
                await asyncio.wait_for(self.stopping.wait(), delay)
                return  # stopped meanwhile: no restart
            except asyncio.TimeoutError:
                pass

    async def _wait(self, process: asyncio.subprocess.Process) -> int:
        """The exit code; a stopping child that outlives STOP_TIMEOUT is killed."""
        waiting = asyncio.ensure_future(process.wait())
        stop = asyncio.ensure_future(self.stopping.wait())
        await asyncio.wait({waiting, stop}, return_when=asyncio.FIRST_COMPLETED)
        stop.cancel()
        if waiting.done():
            return waiting.result()
        try:
            return await asyncio.wait_for(asyncio.shield(waiting), STOP_TIMEOUT)
        except asyncio.TimeoutError:
            log.error("worker pid %d did not stop within %.0f s: killed", process.pid,
                      STOP_TIMEOUT)
            process.kill()
            return await waiting


def _how(code: int | None) -> str:
    if code is None:
        return "no exit code"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def worker_commands(argv: Sequence[str], settings: Settings, dialects: dict[str, int],
                    count: int, base: str) -> list[Worker]:
    """The N children's command lines: the parent's own less its flags, ports fixed,
    SO_REUSEPORT on, each with its node id."""
    common = [sys.executable, "-m", "service", *without_parent_flags(argv),
              *fixed_ports(settings, dialects), "--set", "reuse_port=true"]
    return [Worker(node, [*common, "--node-id", node])
            for node in (worker_node_id(base, i) for i in range(1, count + 1))]


def run_workers(argv: Sequence[str], settings: Settings, dialects: dict[str, int],
                count: int, base: str) -> int:
    workers = worker_commands(argv, settings, dialects, count, base)
    log.info("starting %d workers (%s) sharing their ports", count,
             ", ".join(w.node_id for w in workers))
    return asyncio.run(Supervisor(workers).run())
