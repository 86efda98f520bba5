"""SQLite is single-process: one `serve` per database file.

Two servers on one SQLite file would each load the same matches and each refuse the other's
appends (issue 18). ``serve`` holds an exclusive ``flock`` on a lock file beside the database
(``<database>-serve.lock``) for the whole life of the process; the kernel drops it when the
process ends, however it ends (SIGKILL included), so a stale file never blocks a restart. The
file holds the owner's pid, which a refused second server names.

Only ``serve`` takes the lock: tools, the CLI's other commands and tests that open several
stores in one process are not affected.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

from sqlalchemy.engine import make_url

SUFFIX = "-serve.lock"


class ServeLockError(RuntimeError):
    """The serve lock of a SQLite database cannot be taken."""


class DatabaseInUse(ServeLockError):
    """Another process serves this SQLite database."""


def sqlite_file(url: str) -> Path | None:
    """The database file of a SQLite URL (None for another database, or in memory)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    if parsed.database.startswith("file:") or parsed.query.get("mode") == "memory":
        return None
    return Path(parsed.database).resolve()


class ServeLock:
    """An exclusive lock on one SQLite database, held until :meth:`release` or the process
    ends. A context manager."""

    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + SUFFIX)
        self._fd: int | None = None

    def acquire(self) -> ServeLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            folder = self.path.parent
            if exc.errno == errno.EROFS:
                raise ServeLockError(f"the folder {folder} of the SQLite database is on a "
                                     "read-only filesystem: the service must write there") from None
            if exc.errno == errno.EACCES:
                raise ServeLockError(f"the folder {folder} of the SQLite database is not "
                                     "writable by this user: the service must write there") from None
            raise ServeLockError(f"cannot open the lock file {self.path}: "
                                 f"{exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise DatabaseInUse(
                f"the SQLite database {self.path.with_name(self.path.name[:-len(SUFFIX)])} is "
                f"served by another process (pid {holder}); SQLite is single-process: stop "
                "that one, or run several nodes on PostgreSQL") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the last descriptor drops the flock
            self._fd = None

    def __enter__(self) -> ServeLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def lock_for_serve(url: str) -> ServeLock | None:
    """Take the serve lock of ``url``'s SQLite file (None for PostgreSQL or memory). Raises
    :class:`DatabaseInUse` naming the pid of the process that holds it, ServeLockError (one
    line naming the cause) when the file's folder does not exist, is read-only or not
    writable, or the lock file cannot be opened."""
    database = sqlite_file(url)
    if database is None:
        return None
    if not database.parent.is_dir():
        raise ServeLockError(f"the folder {database.parent} of the SQLite database does not "
                             "exist: create it, or name a file in another folder")
    return ServeLock(database).acquire()
