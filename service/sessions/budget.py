"""What one connection, and one address, may cost: frames, rejected frames, database work.

Every frame waits here BEFORE it is handled (and so before it can touch the database): while
it waits nothing more is read from the connection, so the kernel's buffers fill and the
client is held back by TCP itself. Three budgets (README, "Hardening"):

* frames: a token bucket per connection; a connection that has not identified itself yet
  (no hello/login) gets a much smaller one. Over it, the next frame waits for a token.
* rejected frames of a connection: after ``free_streak`` rejected in a row, each further
  one pauses the reads twice as long as the one before (up to ``max_pause``); at
  ``close_streak`` the connection is closed. An accepted frame ends the streak.
* rejected frames of an address, all its connections together: a bucket that may go into
  debt; while it is in debt, each frame of that address's unidentified connections waits
  for the debt to be repaid (up to ``max_pause``), so reconnecting does not start afresh.
  Connections that identified themselves do not wait for their neighbours' debt, unless
  their own last frame was rejected too.

Unidentified connections also use their own, small share of the database (store/lanes.py):
their lookups never queue in front of the players'; and the frames of one address's
unidentified connections are handled one at a time, so one address holds at most one
connection of that share.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Coroutine
from contextvars import Context, ContextVar
from typing import Any
from dataclasses import dataclass

from service.store.lanes import PLAYERS, STRANGERS, lane


#: a paused connection looks this often (s) whether it was closed meanwhile
PAUSE_SLICE = 0.1


@dataclass(frozen=True)
class FrameLimits:
    frames_per_second: float = 2000.0
    frame_burst: int = 20_000
    stranger_frames_per_second: float = 10.0
    stranger_frame_burst: int = 30
    #: rejected frames in a row before the reads are paused, and the first pause (s)
    free_streak: int = 10
    first_pause: float = 0.005
    max_pause: float = 2.0
    #: rejected frames in a row that close the connection
    close_streak: int = 25
    rejected_per_address_burst: int = 100
    rejected_per_address_per_second: float = 5.0
    #: addresses remembered at most (the least recently seen are forgotten first)
    addresses: int = 10_000


class Bucket:
    """Tokens refilled at ``rate`` up to ``burst``; ``take`` may run into debt."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = time.monotonic()

    def refill(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        return self.tokens

    def take(self, floor: float) -> None:
        self.refill()
        self.tokens = max(floor, self.tokens - 1)

    def wait(self) -> float:
        """Seconds until the bucket holds a whole token again."""
        tokens = self.refill()
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate


class FrameBudgets:
    """The budgets of every connection of one server, and the debts of addresses."""

    def __init__(self, limits: FrameLimits | None = None) -> None:
        self.limits = limits or FrameLimits()
        self._addresses: OrderedDict[str, Bucket] = OrderedDict()
        #: frames held back so far (the tests read it)
        self.paused = 0
        #: per address, the lock its strangers' frames take turns on, and how many hold or
        #: wait for it (the entry goes when nobody does)
        self._turns: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    @contextlib.asynccontextmanager
    async def stranger_turn(self, address: str) -> AsyncIterator[None]:
        """One frame at a time per address from connections that did not say who they are:
        an address never holds more than one connection of the strangers' database lane,
        however many connections it opens."""
        lock, users = self._turns.setdefault(address, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._turns[address]

    def connection(self, address: str | None) -> ConnectionBudget:
        return ConnectionBudget(self, address or "?")

    def address(self, address: str) -> Bucket:
        bucket = self._addresses.pop(address, None)
        if bucket is None:
            bucket = Bucket(self.limits.rejected_per_address_per_second,
                            self.limits.rejected_per_address_burst)
            while len(self._addresses) >= self.limits.addresses:
                self._addresses.popitem(last=False)
        self._addresses[address] = bucket  # most recent last
        return bucket


class ConnectionBudget:
    __slots__ = ("budgets", "limits", "address", "identified", "streak", "_frames", "_pause")

    def __init__(self, budgets: FrameBudgets, address: str) -> None:
        self.budgets, self.limits, self.address = budgets, budgets.limits, address
        self.identified = False
        self.streak = 0
        self._frames = Bucket(self.limits.stranger_frames_per_second,
                              self.limits.stranger_frame_burst)
        self._pause = 0.0

    def identify(self) -> None:
        """The connection said who it is: the players' frame budget and database lane."""
        if not self.identified:
            self.identified = True
            self._frames = Bucket(self.limits.frames_per_second, self.limits.frame_burst)
            lane.set(PLAYERS)

    def enter(self) -> None:
        """Called in the connection's own task, once: its lookups use the strangers' lane."""
        current.set(self)
        lane.set(STRANGERS)

    async def before_frame(self, gone: Callable[[], bool] = lambda: False) -> None:
        """Wait until the next frame may be handled (the reads are paused meanwhile); stop
        waiting as soon as ``gone()`` says the connection is closing."""
        delay = min(self.limits.max_pause, max(self._frames.wait(), self._pause,
                                                self._address_debt()))
        self._pause = 0.0
        if delay > 0:
            self.budgets.paused += 1
            until = time.monotonic() + delay
            while (left := until - time.monotonic()) > 0 and not gone():
                await asyncio.sleep(min(left, PAUSE_SLICE))
        self._frames.take(floor=0.0)

    def _address_debt(self) -> float:
        if self.identified and self.streak == 0:  # a player whose last frame was accepted
            return 0.0
        return self.budgets.address(self.address).wait()

    @contextlib.asynccontextmanager
    async def handling(self) -> AsyncIterator[None]:
        """Around the handling of one frame: a stranger's waits for its address's turn."""
        if self.identified:
            yield
            return
        async with self.budgets.stranger_turn(self.address):
            yield

    def accepted(self) -> None:
        self.streak = 0

    def rejected(self) -> bool:
        """Count a rejected frame; True when the connection must now be closed."""
        self.streak += 1
        self.budgets.address(self.address).take(floor=-self.limits.rejected_per_address_burst)
        over = self.streak - self.limits.free_streak
        if over > 0:
            self._pause = min(self.limits.max_pause, self.limits.first_pause * 2 ** (over - 1))
        return self.streak >= self.limits.close_streak


#: the budget of the connection whose task is running (None outside connections)
current: ContextVar[ConnectionBudget | None] = ContextVar("tavolo_frame_budget", default=None)


def identified() -> None:
    """The current connection identified itself (called by the hub's identity methods)."""
    budget = current.get()
    if budget is not None:
        budget.identify()


def detached(work: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task[Any]:
    """A task of the service's own (a bot, a reload, the lobby's pushes), not of the connection
    whose frame happened to start it: it runs in a fresh context, so it keeps neither that
    connection's frame budget nor its database lane."""
    return asyncio.get_running_loop().create_task(work, name=name, context=Context())
