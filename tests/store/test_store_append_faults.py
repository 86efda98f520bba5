"""Issue 25: whatever the append path raises, its caller hears ``store/unavailable`` (before
the COMMIT: nothing saved) or ``store/unknown_outcome`` (at the COMMIT), and the appender
never uses that connection again. asyncpg's ``InternalClientError`` ("cannot switch to state
12; another operation is in progress", seen after a PostgreSQL fast restart) is not one of
its database errors, and went out as ``service/internal``."""

from __future__ import annotations

import inspect
from typing import Any

import asyncpg
import pytest
from test_store_actions import _active_match, _play

from service.errors import StoreError
from service.store import Store

FAULTS = [
    asyncpg.InternalClientError("cannot switch to state 12; another operation (13) is in progress"),
    RuntimeError("a bug below the store"),
    ConnectionResetError("connection lost"),
]


def _fail_once(appender: Any, seam: str, fault: BaseException) -> None:
    """The appender's ``seam`` ("_rows": before the COMMIT, "commit": the COMMIT) raises
    ``fault`` once."""
    real = getattr(appender, seam)

    def restore() -> None:
        setattr(appender, seam, real)

    if inspect.iscoroutinefunction(real):
        async def failing_async(*args: Any) -> Any:
            restore()
            raise fault
        setattr(appender, seam, failing_async)
    else:
        def failing(*args: Any) -> Any:
            restore()
            raise fault
        setattr(appender, seam, failing)


@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: type(f).__name__)
@pytest.mark.parametrize(("seam", "code"), [("_rows", "store/unavailable"),
                                            ("commit", "store/unknown_outcome")])
async def test_any_append_fault_is_an_honest_answer_on_a_new_connection(
        store: Store, fault: BaseException, seam: str, code: str) -> None:
    match = await _active_match(store)
    await _play(store, match.id, 1)
    appender = store._appender
    before = appender._connection
    assert before is not None
    _fail_once(appender, seam, fault)
    with pytest.raises(StoreError) as failed:
        await _play(store, match.id, 2)
    assert failed.value.code == code
    assert appender._connection is None  # discarded, whatever the error was
    if seam == "commit":  # the COMMIT was never sent: the action is not there
        assert [a.seq for a in await store.actions(match.id)] == [1]
    await _play(store, match.id, 2)  # a fresh connection takes the next batch
    assert appender._connection is not None and appender._connection is not before
    assert [a.seq for a in await store.actions(match.id)] == [1, 2]
