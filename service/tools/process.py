"""Run a Tavolo server as a child process and learn the ports it bound (tests, benchmarks)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

LISTENING = re.compile(r"listening: (?P<name>[\w-]+) on (?:tcp )?(?P<host>[\d.]+|[\w.-]+):(?P<port>\d+)")

#: clock ticks per second of /proc's CPU times
_TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """Seconds of CPU (user + system) the process ``pid`` has used so far (from /proc, so
    other load on the machine does not count)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def rss_mb(pid: int) -> float:
    """The resident memory of the process ``pid``, in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def shares(total: int, parts: int) -> list[int]:
    """``total`` split into ``parts`` shares as even as can be (for worker processes)."""
    return [total // parts + (i < total % parts) for i in range(parts)]



@dataclass
class ServerProcess:
    database_url: str
    dialects: tuple[str, ...] = ("dolphinfox",)
    extra_args: tuple[str, ...] = ()
    ports: dict[str, int] = field(default_factory=dict)
    output: list[str] = field(default_factory=list)
    #: tracebacks the server printed so far (``output`` keeps only the last lines)
    tracebacks: int = 0
    process: asyncio.subprocess.Process | None = None
    #: also append every line the server prints to this file (``output`` keeps the last 500)
    log_file: Path | None = None
    _reader: asyncio.Task[None] | None = None

    async def start(self, timeout: float = 60.0, prefix: tuple[str, ...] = ()) -> ServerProcess:
        """Start ``python -m service serve`` on free ports (run by ``prefix``, e.g. a
        ``prlimit`` command, if given); return once every listener is up."""
        from service.sessions.dialects import DIALECTS

        # the dialects asked for on free ports; the others off, so no fixed port is ever taken
        listen = [arg for name in DIALECTS for arg in
                  ("--listen", f"{name}=0" if name in self.dialects else f"{name}=off")]
        if "canonical" in self.dialects:  # JSON lines over TCP (off unless asked for)
            listen += ["--listen", "canonical=0"]
        self.ports = {}
        self.process = await asyncio.create_subprocess_exec(
            *prefix, sys.executable, "-m", "service", "serve", "--database-url", self.database_url,
            "--host", "127.0.0.1", "--http-port", "0", *listen, *self.extra_args,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        wanted = {*self.dialects, "http"}
        try:
            await asyncio.wait_for(self._until_listening(wanted), timeout)
        except (asyncio.TimeoutError, EOFError):
            await self.kill()
            raise RuntimeError("the server did not start:\n" + "\n".join(self.output[-30:])) from None
        self._reader = asyncio.create_task(self._drain())
        return self

    async def _until_listening(self, wanted: set[str]) -> None:
        assert self.process is not None and self.process.stdout is not None
        while not wanted <= set(self.ports):
            line = await self.process.stdout.readline()
            if not line:
                raise EOFError
            text = self._keep(line)
            found = LISTENING.search(text)
            if found:
                self.ports[found["name"]] = int(found["port"])

    async def _drain(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        async for line in self.process.stdout:
            self._keep(line)
            del self.output[:-500]

    def _keep(self, line: bytes) -> str:
        text = line.decode(errors="replace").rstrip()
        self.output.append(text)
        if self.log_file is not None:
            with self.log_file.open("a") as log:
                log.write(text + "\n")
        if text.startswith("Traceback (most recent call last)"):
            self.tracebacks += 1
        return text

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, exactly like a crash."""
        await self._stop(signal.SIGKILL)

    async def terminate(self) -> int:
        """SIGTERM: a clean shutdown; returns the exit code."""
        return await self._stop(signal.SIGTERM)

    async def _stop(self, sig: int) -> int:
        if self.process is None or self.process.returncode is not None:
            return self.process.returncode if self.process else 0
        self.process.send_signal(sig)
        code = await asyncio.wait_for(self.process.wait(), 30)
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
        return code
