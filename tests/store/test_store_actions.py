from __future__ import annotations

import asyncio
from typing import Any

import pytest

from service.errors import StoreError
from service.store import MatchRecord, Store, StoreConflict
from service.store.models import Action


async def _active_match(store: Store) -> MatchRecord:
    return await store.create_match(
        game="dolphinfox",
        options={},
        seed=7,
        seats=[(0, None, None, None), (1, None, None, None)],
        snapshot={"turn": 0},
        status="active",
    )


async def _play(store: Store, match_id: int, seq: int, **overrides: Any) -> None:
    values: dict[str, Any] = {
        "seq": seq,
        "seat": seq % 2,
        "action": {"type": "move", "to": [seq, {"via": [seq - 1]}]},
        "snapshot": {"turn": seq, "log": list(range(seq))},
        "status": "active",
        "result": None,
    }
    await store.append_action(match_id, **{**values, **overrides})


async def test_append_and_read_actions(store: Store) -> None:
    store.snapshot_every = 1  # each append saves its (made-up) snapshot: no replay of the log
    match = await _active_match(store)
    for seq in range(1, 6):
        await _play(store, match.id, seq)
    saved = await store.get_match(match.id)
    assert saved is not None
    assert saved.version == 5 and saved.snapshot == {"turn": 5, "log": [0, 1, 2, 3, 4]}
    assert saved.status == "active" and saved.updated_at >= match.updated_at
    actions = await store.actions(match.id)
    assert [action.seq for action in actions] == [1, 2, 3, 4, 5]
    assert [action.seat for action in actions] == [1, 0, 1, 0, 1]
    assert actions[1].action == {"type": "move", "to": [2, {"via": [1]}]}
    assert all(action.created_at.tzinfo is not None for action in actions)
    assert [a.seq for a in await store.actions(match.id, after=3)] == [4, 5]
    assert [a.seq for a in await store.actions(match.id, after=1, limit=2)] == [2, 3]
    assert await store.actions(match.id, after=5) == []
    assert await store.actions(match.id + 1) == []
    await _play(store, match.id, 6, status="finished", result={"winners": [1]})
    done = await store.get_match(match.id)
    assert done is not None and done.status == "finished" and done.result == {"winners": [1]}


async def test_conflicts_change_nothing(store: Store) -> None:
    match = await _active_match(store)
    for wrong_seq in (0, 2, 5):
        with pytest.raises(StoreError) as caught:
            await _play(store, match.id, wrong_seq, status="finished")
        assert caught.value.code == "store/conflict"
    assert await store.get_match(match.id) == match
    assert await store.actions(match.id) == []
    await _play(store, match.id, 1)
    before = await store.get_match(match.id)
    with pytest.raises(StoreConflict):  # duplicate seq
        await _play(store, match.id, 1, snapshot={"evil": True})
    assert await store.get_match(match.id) == before
    assert len(await store.actions(match.id)) == 1
    with pytest.raises(StoreConflict):
        await _play(store, match.id + 1, 1)  # no such match


async def test_stray_logged_action_makes_the_append_conflict(store: Store) -> None:
    """The unique (match, seq) key catches a log row that the version check cannot."""
    match = await _active_match(store)
    async with store._tx() as session:
        session.add(Action(match_id=match.id, seq=1, seat=0, action={"stray": True}))
    with pytest.raises(StoreConflict):
        await _play(store, match.id, 1)
    assert await store.get_match(match.id) == match


async def test_concurrent_writers_one_wins(store: Store) -> None:
    match = await _active_match(store)
    attempts = [_play(store, match.id, 1, seat=seat) for seat in (0, 1, 0)]
    results = await asyncio.gather(*attempts, return_exceptions=True)
    assert sum(result is None for result in results) == 1
    assert all(isinstance(r, StoreConflict) for r in results if r is not None)
    saved = await store.get_match(match.id)
    assert saved is not None and saved.version == 1
    assert len(await store.actions(match.id)) == 1


async def test_one_batch_holds_several_appends_of_one_match_and_a_broken_chain(
        store: Store) -> None:
    """Appends sent at once are written as one batch (one statement on PostgreSQL): the ones
    that follow each other are all saved, the last one's snapshot is the match's, and an
    append that does not follow (a gap) is refused alone, in the same batch."""
    store.snapshot_every = 1  # each append saves its (made-up) snapshot: no replay of the log
    first, second = await _active_match(store), await _active_match(store)
    await _play(store, first.id, 1)
    results = await asyncio.gather(
        _play(store, first.id, 2), _play(store, first.id, 3), _play(store, second.id, 1),
        _play(store, first.id, 5), _play(store, second.id, 2, status="finished",
                                         result={"winners": [0]}),
        return_exceptions=True)
    assert [type(r).__name__ for r in results] == [
        "NoneType", "NoneType", "NoneType", "StoreConflict", "NoneType"], results
    saved = await store.get_match(first.id)
    assert saved is not None and saved.version == 3 and saved.snapshot == {"turn": 3, "log": [0, 1, 2]}
    assert [a.seq for a in await store.actions(first.id)] == [1, 2, 3]
    done = await store.get_match(second.id)
    assert done is not None and done.status == "finished" and done.result == {"winners": [0]}
    assert [a.seq for a in await store.actions(second.id)] == [1, 2]
