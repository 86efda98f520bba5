"""Snapshots every few actions (issue 23): the whole state is saved every ``snapshot_every``
actions and when a match ends; a load replays the log after the snapshot. A match read back
after a stop at any point between two snapshots is exactly the acknowledged state."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from sqlalchemy import text

from service.inspection import replay
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.store import Store
from service.store.group_commit import PendingAppend
from service.store.migrate import downgrade, upgrade

EVERY = 5


async def _opened(database_url: str, every: int = EVERY) -> Store:
    store = Store(database_url, snapshot_every=every)
    await store.upgrade()
    return store


async def _started(hub: Hub, game: str) -> tuple[MatchRuntime, dict[int, int]]:
    """A two-seat match of ``game`` with two new players; seat -> player id."""
    alice = (await hub.identify(nickname=f"alice-{game}")).player
    bob = (await hub.identify(nickname=f"bob-{game}")).player
    runtime, seat_a = await hub.quick_join(game, alice)
    same, seat_b = await hub.quick_join(game, bob)
    assert same is runtime and runtime.status == "active"
    return runtime, {seat_a: alice.id, seat_b: bob.id}


async def _play_one(runtime: MatchRuntime, players: dict[int, int], rng: random.Random) -> None:
    seat = rng.choice(sorted(runtime.game.to_act(runtime.state)))
    legal = runtime.game.legal_actions(runtime.state, seat)
    action = runtime.game.dump_action(rng.choice(legal))
    await runtime.act(players[seat], action, f"c{runtime.version + 1}")


async def _saved_columns(store: Store, match_id: int) -> tuple[int, int]:
    async with store.engine.connect() as connection:
        row = (await connection.execute(text(
            "SELECT version, snapshot_version FROM matches WHERE id = :id"),
            {"id": match_id})).one()
    return int(row[0]), int(row[1])


@pytest.mark.parametrize("game", ["dolphinfox", "santorini", "eriantys"])
async def test_a_match_read_back_between_snapshots_is_the_acknowledged_state(
        database_url: str, game: str) -> None:
    """After every action, a new hub on a new store over the same database (as after a crash:
    nothing of the first is shut down) loads the match: the same version, the same state as
    the runtime that never stopped, and the snapshot saved only every EVERY actions."""
    store = await _opened(database_url)
    rng = random.Random(23)
    try:
        runtime, players = await _started(Hub(store), game)
        played = 0
        while played < 2 * EVERY + 3 and runtime.status == "active":
            await _play_one(runtime, players, rng)
            played += 1
            version, at = await _saved_columns(store, runtime.id)
            ended = runtime.status != "active"  # a match that ends is saved whole
            assert (version, at) == (played, played if ended else played - played % EVERY)
            other = await _opened(database_url)
            try:
                loaded = await Hub(other).get(runtime.id)
                assert loaded is not runtime and loaded.version == runtime.version == played
                assert loaded.game.dump_state(loaded.state) == runtime.game.dump_state(
                    runtime.state)
                assert loaded.to_act() == runtime.to_act()
                record = await other.get_match(runtime.id)
                assert record is not None and record.snapshot_version == at
                assert len(record.tail) == played - at
                assert replay(record, await other.actions(runtime.id)) is None
            finally:
                await other.close()
        assert played > EVERY  # long enough to pass a snapshot and stop between two
    finally:
        await store.close()


async def test_a_loaded_match_plays_on_and_its_next_snapshot_comes_on_time(
        database_url: str) -> None:
    store = await _opened(database_url)
    rng = random.Random(5)
    try:
        runtime, players = await _started(Hub(store), "dolphinfox")
        for _ in range(EVERY + 2):
            await _play_one(runtime, players, rng)
    finally:
        await store.close()
    store = await _opened(database_url)
    try:
        loaded = await Hub(store).get(runtime.id)
        for _ in range(EVERY - 2):
            await _play_one(loaded, players, rng)
        assert await _saved_columns(store, runtime.id) == (2 * EVERY, 2 * EVERY)
        record = await store.get_match(runtime.id)
        assert record is not None and record.tail == ()
        assert record.saved_snapshot == loaded.game.dump_state(loaded.state)
    finally:
        await store.close()


async def test_a_match_that_ends_keeps_its_whole_state(database_url: str) -> None:
    """Ended by a resignation between two snapshots: the state is saved with the status."""
    store = await _opened(database_url)
    rng = random.Random(9)
    try:
        hub = Hub(store)
        runtime, players = await _started(hub, "dolphinfox")
        for _ in range(EVERY + 1):
            await _play_one(runtime, players, rng)
        await runtime.end("finished", {"winners": [1], "reason": "resigned"})
        assert await _saved_columns(store, runtime.id) == (EVERY + 1, EVERY + 1)
        record = await store.get_match(runtime.id)
        assert record is not None and record.status == "finished" and record.tail == ()
        assert record.saved_snapshot == runtime.game.dump_state(runtime.state)
    finally:
        await store.close()


async def test_a_snapshot_every_action_is_what_was_written_before(database_url: str) -> None:
    store = await _opened(database_url, every=1)
    try:
        runtime, players = await _started(Hub(store), "santorini")
        for _ in range(3):
            await _play_one(runtime, players, random.Random(runtime.version))
            assert await _saved_columns(store, runtime.id) == (runtime.version,) * 2
    finally:
        await store.close()
    with pytest.raises(ValueError):
        Store(database_url, snapshot_every=0)


async def test_one_batch_keeps_the_newest_snapshot_of_a_match_and_refuses_what_does_not_follow(
        database_url: str) -> None:
    """Appends of one match in one batch (written by the appender directly): the row gets the
    last one's version and the newest snapshot among them; an append that does not follow the
    saved version is refused, whatever it carries."""
    store = await _opened(database_url)
    try:
        match = await store.create_match(game="dolphinfox", options={}, seed=1,
                                         seats=[(0, None, None, None)],
                                         snapshot={"at": 0}, status="active")

        def append(seq: int, snapshot: dict[str, Any] | None) -> PendingAppend:
            return PendingAppend(match.id, seq, 0, {"type": "x", "n": seq}, snapshot, "active",
                                 None)

        outcomes = await store._appender.write([append(1, {"at": 1}), append(2, None)])
        assert outcomes == [None, None]
        assert await _saved_columns(store, match.id) == (2, 1)
        outcomes = await store._appender.write([append(2, {"at": 2}), append(4, None)])
        assert all(outcome is not None for outcome in outcomes)  # behind, and a gap
        assert await _saved_columns(store, match.id) == (2, 1)
        assert await store._appender.write([append(3, None)]) == [None]
        assert await _saved_columns(store, match.id) == (3, 1)
        record = await store.get_match(match.id)
        assert record is not None and record.saved_snapshot == {"at": 1}
        assert [a.seq for a in record.tail] == [2, 3]
    finally:
        await store.close()


async def test_downgrade_brings_every_snapshot_up_to_its_version(database_url: str) -> None:
    store = await _opened(database_url)
    rng = random.Random(3)
    try:
        runtime, players = await _started(Hub(store), "santorini")
        for _ in range(EVERY + 3):
            await _play_one(runtime, players, rng)
        state = runtime.game.dump_state(runtime.state)
    finally:
        await store.close()
    await downgrade(database_url, "0008")
    store = Store(database_url)
    try:
        async with store.engine.connect() as connection:
            saved = (await connection.execute(text(
                "SELECT snapshot FROM matches WHERE id = :id"), {"id": runtime.id})).scalar_one()
        saved = saved if isinstance(saved, dict) else json.loads(saved)
        assert saved == state
    finally:
        await store.close()
    await upgrade(database_url)
    store = Store(database_url)
    try:
        assert await _saved_columns(store, runtime.id) == (EVERY + 3, EVERY + 3)
    finally:
        await store.close()


async def test_tails_are_read_for_many_matches_at_once_and_lists_carry_none(
        database_url: str) -> None:
    """A player's matches (more than one query's worth of tails) come with the log after each
    snapshot; a list of matches comes without, and its records say so instead of giving a
    stale state."""
    store = await _opened(database_url)
    try:
        player = await store.create_player("many", None)
        ids = []
        for _ in range(105):
            match = await store.create_match(game="dolphinfox", options={}, seed=1,
                                             seats=[(0, player.id, None, None)],
                                             snapshot={"at": 0}, status="active")
            ids.append(match.id)
        assert await store._appender.write([
            PendingAppend(match_id, 1, 0, {"type": "x", "m": match_id}, None, "active", None)
            for match_id in ids]) == [None] * len(ids)
        records = await store.matches_of_player(player.id, statuses=("active",))
        assert sorted(r.id for r in records) == ids
        assert all([(a.seq, a.action["m"]) for a in r.tail] == [(1, r.id)] for r in records)
        listed = await store.list_matches(status="active", limit=200)
        assert len(listed) == 105 and all(r.tail == () and r.version == 1 for r in listed)
        with pytest.raises(ValueError, match="get_match"):
            listed[0].snapshot  # noqa: B018
    finally:
        await store.close()
