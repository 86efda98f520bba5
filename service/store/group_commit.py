"""Group commit: many matches' actions made durable by one transaction and one commit.

Each match has one writer, but a busy server has hundreds of matches writing at
once. Committing each action alone costs a commit (an fsync on PostgreSQL) and,
on SQLite, lets pooled connections fight for the single write lock by sleeping
in the busy handler. Here a single flusher task takes every append waiting at
that moment, writes them in one transaction, commits once, and only then lets
each caller return: still durable before visible, at a fraction of the cost.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

#: most appends written by one transaction
MAX_BATCH = 256


@dataclass
class PendingAppend:
    match_id: int
    seq: int
    seat: int
    action: dict[str, Any]
    #: the state after this action; None: not saved with it (the snapshot stays behind)
    snapshot: dict[str, Any] | None
    status: str
    result: dict[str, Any] | None
    client_id: str | None = None
    #: the match's clocks after this action, and when the first flag falls (None: no clock)
    clock: dict[str, Any] | None = None
    clock_deadline: datetime | None = None
    done: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


#: writes a batch in one transaction; returns, per append, None or the error for that append
BatchWriter = Callable[[list[PendingAppend]], Awaitable[list[BaseException | None]]]


class GroupCommitter:
    def __init__(self, write: BatchWriter, *, max_batch: int = MAX_BATCH) -> None:
        self._write = write
        self._max_batch = max_batch
        self._waiting: list[PendingAppend] = []
        self._flusher: asyncio.Task[None] | None = None

    async def submit(self, append: PendingAppend) -> None:
        """Wait until ``append`` is committed; raise its own error if it was refused."""
        self._waiting.append(append)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_all(), name="store group commit")
        await asyncio.shield(append.done)

    async def _flush_all(self) -> None:
        while self._waiting:
            batch = self._waiting[: self._max_batch]
            del self._waiting[: self._max_batch]
            try:
                outcomes = await self._write(batch)
            except BaseException as exc:  # the whole transaction failed: nobody is saved
                for append in batch:
                    _settle(append, exc)
                if isinstance(exc, asyncio.CancelledError):
                    raise
                continue
            for append, error in zip(batch, outcomes):
                _settle(append, error)

    async def close(self) -> None:
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)


def _settle(append: PendingAppend, error: BaseException | None) -> None:
    if append.done.done():
        return
    if error is None:
        append.done.set_result(None)
    else:
        append.done.set_exception(error)
