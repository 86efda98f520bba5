"""The `--workers` parent as a supervisor, with stand-in children: a child that keeps dying is
restarted with a backoff up to a limit, then the parent stops the others and fails."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

import pytest

from service import cli_workers
from service.cli_workers import Supervisor, Worker

DIES = [sys.executable, "-c", "raise SystemExit(3)"]
SLEEPS = [sys.executable, "-c", "import time; time.sleep(600)"]


async def test_a_worker_that_keeps_dying_is_restarted_then_given_up(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(cli_workers, "MAX_RESTARTS", 2)
    monkeypatch.setattr(cli_workers, "BACKOFF_FIRST", 0.01)
    caplog.set_level(logging.INFO, logger="service.workers")
    dying, sleeping = Worker("w-1", DIES), Worker("w-2", SLEEPS)
    assert await Supervisor([dying, sleeping]).run() == 1
    messages = [r.getMessage() for r in caplog.records]
    assert sum("worker w-1 started" in m for m in messages) == 3  # the first run, 2 restarts
    assert sum("worker w-1 (pid" in m and "died: exit code 3" in m for m in messages) == 3
    assert [m for m in messages if "restarting worker w-1" in m] == [
        "restarting worker w-1 in 0.0 s (restart 1 of at most 2 in a row)",
        "restarting worker w-1 in 0.0 s (restart 2 of at most 2 in a row)"]
    assert any("w-1 died 3 times in a row: giving up" in m for m in messages)
    # the other one was stopped (SIGTERM), and its end is reported
    assert sleeping.code is not None and sleeping.code < 0
    assert sleeping.process is not None and sleeping.process.returncode is not None
    assert "worker w-2 ended with killed by SIGTERM" in messages


def polite(ready: Path) -> list[str]:
    """A child that exits 0 on SIGTERM, and says it is ready (its handler in) by a file."""
    code = ("import pathlib, signal, sys, time\n"
            "signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))\n"
            f"pathlib.Path({str(ready)!r}).touch()\n"
            "time.sleep(600)\n")
    return [sys.executable, "-c", code]


async def test_a_stop_is_forwarded_and_clean_ends_make_a_clean_parent(tmp_path: Path) -> None:
    marks = [tmp_path / "a-1", tmp_path / "a-2"]
    workers = [Worker(m.name, polite(m)) for m in marks]
    supervisor = Supervisor(workers)
    running = asyncio.create_task(supervisor.run())

    async def ready() -> None:
        while not all(m.exists() for m in marks):
            await asyncio.sleep(0.05)

    await asyncio.wait_for(ready(), 60)
    os.kill(os.getpid(), signal.SIGTERM)  # what the parent's signal handler forwards
    assert await asyncio.wait_for(running, 60) == 0
    assert [w.code for w in workers] == [0, 0]


async def test_a_worker_that_ignores_the_stop_is_killed_and_fails_the_parent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(cli_workers, "STOP_TIMEOUT", 0.5)
    ready = tmp_path / "deaf"
    deaf = [sys.executable, "-c",
            "import pathlib, signal, time\n"
            "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            f"pathlib.Path({str(ready)!r}).touch()\n"
            "time.sleep(600)\n"]
    worker = Worker("deaf-1", deaf)
    supervisor = Supervisor([worker])
    running = asyncio.create_task(supervisor.run())

    async def started() -> None:
        while not ready.exists():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(started(), 60)
    supervisor.stop()
    assert await asyncio.wait_for(running, 60) == 1
    assert worker.code == -signal.SIGKILL
    assert any("did not stop within" in r.getMessage() for r in caplog.records)
