"""Store failures as episodes: the first failure of an episode is logged once, with its cause
(disk full, read-only, lock timeout, connection lost, ...), and its end is logged once, when
the store works again; the failures in between are counted, not logged. ``/metrics`` has
``tavolo_store_failing`` (1 during an episode) and ``tavolo_store_failures_total{cause}``.

An episode whose cause is about reaching the database (connection lost, no free connection)
ends with any successful operation; the others (disk full, read-only, lock timeout, ...) only
with a successful write: a read-only database still answers reads."""

from __future__ import annotations

import errno
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import asyncpg
from sqlalchemy import exc as sa_exc

from service import metrics

log = logging.getLogger("service.store")

DISK_FULL = "disk full"
READ_ONLY = "read-only"
LOCK_TIMEOUT = "lock timeout"
CONNECTION_LOST = "connection lost"
NO_CONNECTION = "no free connection"
CANNOT_OPEN = "cannot open the database file"
IO_ERROR = "I/O error"
OTHER = "database error"
CAUSES = (DISK_FULL, READ_ONLY, LOCK_TIMEOUT, CONNECTION_LOST, NO_CONNECTION, CANNOT_OPEN,
          IO_ERROR, OTHER)
#: the causes that any successful round trip (a read too) shows to be over
REACHING = frozenset({CONNECTION_LOST, NO_CONNECTION})

for _cause in CAUSES:  # every cause's series from the start, at 0
    metrics.STORE_FAILURES.labels(_cause)

_SQLITE_MESSAGES = (("database or disk is full", DISK_FULL), ("readonly", READ_ONLY),
                    ("read-only", READ_ONLY), ("database is locked", LOCK_TIMEOUT),
                    ("database table is locked", LOCK_TIMEOUT),
                    ("unable to open database file", CANNOT_OPEN), ("disk i/o error", IO_ERROR))
_PG_CLASSES: tuple[tuple[type[BaseException], str], ...] = (
    (asyncpg.DiskFullError, DISK_FULL), (asyncpg.ReadOnlySQLTransactionError, READ_ONLY),
    (asyncpg.LockNotAvailableError, LOCK_TIMEOUT), (asyncpg.QueryCanceledError, LOCK_TIMEOUT),
    (asyncpg.DeadlockDetectedError, LOCK_TIMEOUT),
    (asyncpg.TooManyConnectionsError, NO_CONNECTION),
    (asyncpg.PostgresConnectionError, CONNECTION_LOST),
    (asyncpg.ConnectionDoesNotExistError, CONNECTION_LOST),
    (asyncpg.AdminShutdownError, CONNECTION_LOST), (asyncpg.CannotConnectNowError, CONNECTION_LOST),
    (asyncpg.InterfaceError, CONNECTION_LOST), (asyncpg.InternalClientError, CONNECTION_LOST))
_OS_ERRNOS = {errno.ENOSPC: DISK_FULL, errno.EDQUOT: DISK_FULL, errno.EROFS: READ_ONLY,
              errno.EACCES: READ_ONLY, errno.EPERM: READ_ONLY}


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc``, the driver's exception inside it, and their causes (each once)."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        found = todo.pop(0)
        if id(found) in seen:
            continue
        seen.add(id(found))
        yield found
        inner = [getattr(found, "orig", None), found.__cause__, found.__context__]
        todo.extend(e for e in inner if isinstance(e, BaseException))


def _cause_of_one(exc: BaseException) -> str | None:
    if isinstance(exc, sa_exc.TimeoutError):  # the pool had no connection to give
        return NO_CONNECTION
    if isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated:
        return CONNECTION_LOST
    for kind, cause in _PG_CLASSES:
        if isinstance(exc, kind):
            return cause
    if isinstance(exc, sqlite3.Error):
        text = str(exc).lower()
        return next((cause for words, cause in _SQLITE_MESSAGES if words in text), OTHER)
    if isinstance(exc, (ConnectionError, TimeoutError)):
        return CONNECTION_LOST
    if isinstance(exc, OSError):
        return _OS_ERRNOS.get(exc.errno or 0, CONNECTION_LOST)
    return None


def cause_of(exc: BaseException) -> tuple[str, str]:
    """(cause, detail) of a database failure: the cause one of :data:`CAUSES`, the detail the
    driver's own message (the innermost that names a cause)."""
    for found in _chain(exc):
        cause = _cause_of_one(found)
        if cause is not None and (cause != OTHER or found is not exc):
            return cause, f"{type(found).__name__}: {found}".strip()
    return OTHER, f"{type(exc).__name__}: {exc}".strip()


@dataclass
class Episode:
    cause: str
    started: float
    failures: int = 1


class FailureEpisodes:
    """The store's failure episodes, fed by every translated store operation (failures.py).
    Thread-safe: the SQLite appender reports from its own thread."""

    def __init__(self, name: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.name, self.clock = name, clock
        self.current: Episode | None = None
        self._lock = threading.Lock()

    def failed(self, exc: BaseException) -> None:
        cause, detail = cause_of(exc)
        metrics.STORE_FAILURES.labels(cause).inc()
        with self._lock:
            episode = self.current
            if episode is not None and episode.cause == cause:
                episode.failures += 1
                return
            self.current = Episode(cause, self.clock())
        metrics.STORE_FAILING.set(1)
        if episode is None:
            log.error("store %s failing: %s (%s); further failures are counted, not logged, "
                      "until it works again", self.name, cause, detail)
        else:
            log.error("store %s failing: now %s (%s), after %d failure(s) of %s", self.name,
                      cause, detail, episode.failures, episode.cause)

    def succeeded(self, *, wrote: bool) -> None:
        if self.current is None:  # the common case: no lock, nothing to do
            return
        with self._lock:
            episode = self.current
            if episode is None or not (wrote or episode.cause in REACHING):
                return
            self.current = None
        metrics.STORE_FAILING.set(0)
        log.warning("store %s works again after %s: %d failure(s) over %.1f s", self.name,
                    episode.cause, episode.failures, self.clock() - episode.started)
