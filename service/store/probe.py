"""Whether the store can write, as ``/api/health`` asks it: a tiny committed write, made at
most once per interval (the answer is kept meanwhile), callers asking at once sharing it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from service.errors import StoreError
from service.store.episodes import cause_of

#: seconds an answer of the probe is kept before the store is asked again
PROBE_INTERVAL = 5.0


class WriteProbe:
    def __init__(self, write: Callable[[], Awaitable[None]], *, interval: float = PROBE_INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._write, self.interval, self.clock = write, interval, clock
        self._lock = asyncio.Lock()
        self._at: float | None = None
        self._problem: str | None = None
        #: how many writes the probe made (tests, and operators reading the store's state)
        self.writes = 0

    def _fresh(self) -> bool:
        return self._at is not None and self.clock() - self._at < self.interval

    async def problem(self) -> str | None:
        """None when the store wrote (within the interval), else why it could not, e.g.
        ``read-only (OperationalError: attempt to write a readonly database)``."""
        if self._fresh():
            return self._problem
        async with self._lock:
            if not self._fresh():
                self._problem = await self._probe()
                self._at = self.clock()
        return self._problem

    async def _probe(self) -> str | None:
        self.writes += 1
        try:
            await self._write()
        except StoreError as exc:
            if exc.__cause__ is None:
                return f"{exc.code}: {exc}"
            cause, detail = cause_of(exc.__cause__)
            return f"{cause} ({detail})"
        return None
