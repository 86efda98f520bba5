"""Issue 25: strangers' database work has its own lane (store/lanes.py): their lookups and
writes run on the strangers' engine, never on the players' pool nor the append path."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import event

from service.store import Store
from service.store.lanes import STRANGERS, lane


def _count_statements(engine: Any) -> list[str]:
    seen: list[str] = []
    event.listen(engine.sync_engine, "before_cursor_execute",
                 lambda conn, cursor, statement, *rest: seen.append(statement))
    return seen


async def test_strangers_work_runs_on_their_own_engine(store: Store) -> None:
    players, strangers = _count_statements(store.engine), _count_statements(store.strangers_engine)

    async def as_a_stranger() -> None:
        lane.set(STRANGERS)
        created = await store.create_player("newcomer", "h" * 64)
        assert (await store.player_by_nickname("NEWCOMER")) == created

    await asyncio.create_task(as_a_stranger())
    assert any("INSERT INTO players" in s for s in strangers)
    assert any("INSERT INTO devices" in s for s in strangers)
    assert any("SELECT" in s for s in strangers)
    assert players == []  # the players' pool was not touched
    assert store._appender._connection is None  # nor the append path's connection
    assert (await store.player_by_nickname("newcomer")) is not None  # players' lane: same data
    # the player and its first device, then the read; nothing after on the strangers' lane
    assert players and len(strangers) == 3


async def test_the_strangers_pool_is_small_and_separate(store: Store) -> None:
    pool: Any = store.strangers_engine.pool
    if store.url.endswith(":memory:"):
        return
    assert pool.size() == 2 and pool._max_overflow == 0
    assert store.engine.pool is not pool
