"""Finished matches into the ratings (docs/ratings.md): each one as it ends, in a task of its
own after the commit, and by a sweep those whose take-in was missed (a failure, a process that
died). Taking a match in twice is taking it in once, so nothing here needs to be exact."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from service.sessions import logcontext, ratings
from service.sessions.budget import detached
from service.sessions.match import MatchRuntime
from service.store import Store
from service.store.ratings import TakenIn

log = logging.getLogger(__name__)

#: how many untaken finished matches one sweep takes in
SWEEP_BATCH = 100
#: seconds between two looks at every finished match for untaken ones, once caught up
#: (matches whose take-in failed here are tried again at every sweep)
FULL_LOOK_EVERY = 600.0


class RatingIntake:
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self._tasks: set[asyncio.Task[None]] = set()
        #: matches whose take-in failed in this process: the next sweep tries them again
        self._missed: set[int] = set()
        #: when the last look at every finished match found them all taken in (None: never)
        self._caught_up_at: float | None = None

    def match_ended(self, runtime: MatchRuntime) -> None:
        """``MatchRuntime.on_ended``: a finished match is taken in after its commit."""
        if runtime.status != "finished":
            return
        task = detached(self._take(runtime.id), name=f"rate match {runtime.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def take(self, match_id: int) -> TakenIn | None:
        """Take one match in now (idempotent); None when it is not finished."""
        return await self.store.take_in_match(match_id, ratings.judge)

    async def _take(self, match_id: int) -> None:
        try:
            taken = await self.take(match_id)
        except Exception:  # the sweep tries again; a match always ends whatever this does
            self._missed.add(match_id)
            log.exception("match %s: could not take it into the ratings", match_id,
                          extra=logcontext.about(match_id))
            return
        self._missed.discard(match_id)
        if taken is not None and taken.fresh:
            log.info("match %s taken into the ratings: %s", match_id, taken.unrated or "rated",
                     extra=logcontext.about(match_id))

    async def sweep(self) -> int:
        """Take in the matches whose take-in failed here and, at start and every
        ``FULL_LOOK_EVERY`` seconds, a batch of any finished match not taken in. Returns how
        many were looked at; failures are logged (the next sweep tries again)."""
        due = sorted(self._missed)
        full = self._caught_up_at is None or self.clock() - self._caught_up_at >= FULL_LOOK_EVERY
        try:
            if full:
                found = await self.store.untaken_matches(limit=SWEEP_BATCH)
                if len(found) < SWEEP_BATCH:
                    self._caught_up_at = self.clock()
                due = sorted(set(due) | set(found))
        except Exception:
            log.exception("ratings sweep: could not look for untaken matches")
        for match_id in due:
            await self._take(match_id)
        return len(due)

    async def idle(self) -> None:
        """Wait for the take-ins under way (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """The take-ins under way finish (each is one short transaction); missed ones wait
        for the next process's sweep."""
        await self.idle()
