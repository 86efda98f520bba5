"""Store faults for tests, cut at the append path's seams (service/store/appender.py):
a commit the database makes (or not) but whose answer is lost; a database that is down."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy.exc import OperationalError

from service.store import Store


def _lost(statement: str) -> OperationalError:
    return OperationalError(statement, {}, ConnectionResetError("connection lost"))


class CommitThenFail:
    """The next append commit is made and then reported as lost (a connection cut between
    the COMMIT and its answer); or, with ``saved=False``, lost before it is made."""

    def __init__(self, store: Store, *, saved: bool) -> None:
        appender = store._appender
        real = appender.commit

        def once(connection: Any) -> Any:
            appender.commit = real  # type: ignore[method-assign]
            return real(connection) if saved else None

        if inspect.iscoroutinefunction(real):
            async def lost_async(connection: Any) -> None:
                if (made := once(connection)) is not None:
                    await made
                raise _lost("COMMIT")
            appender.commit = lost_async  # type: ignore[method-assign]
        else:
            def lost(connection: Any) -> None:
                once(connection)
                raise _lost("COMMIT")
            appender.commit = lost  # type: ignore[method-assign]


@contextmanager
def database_down(store: Store) -> Iterator[None]:
    """While the block runs, the append path cannot reach its database (on SQLite, nor can
    the other writes, which run on the appender's connection)."""
    appender = store._appender
    real = appender.connect

    def refuse() -> Any:
        raise OperationalError("SELECT", {}, ConnectionRefusedError("database down"))

    async def refuse_async() -> Any:
        refuse()

    down = refuse_async if inspect.iscoroutinefunction(real) else refuse
    appender.connect = down  # type: ignore[method-assign]
    try:
        yield
    finally:
        appender.connect = real  # type: ignore[method-assign]
