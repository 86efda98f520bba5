"""The operator's store queries on both databases: players listed and found, matches deleted
with their seats and log, and no action saved into a match that ended meanwhile."""

from __future__ import annotations

import pytest

from service.errors import StoreError
from service.sessions.hub import Hub
from service.store import Store
from tests.sessions.test_hub import finish, first_legal, two_players


async def test_players_are_listed_newest_first_bots_on_request(store: Store) -> None:
    hub = Hub(store)
    hub.bot_levels = frozenset({"random"})
    alice = (await hub.identify(nickname="alice")).player
    await hub.create("dolphinfox", player=alice, bots=["random"])
    people = await store.list_players()
    assert [p.nickname for p in people] == ["alice"] and people[0].last_seen_at is not None
    everyone = await store.list_players(bots=True)
    assert len(everyone) == 2 and everyone[0].bot_level == "random"
    assert await store.player_by_id(alice.id) == alice
    assert await store.player_by_id(10**6) is None


async def test_delete_takes_seats_and_log_and_unlinks_the_rematch(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, bob = await two_players(hub)
    await finish(runtime, [alice, bob])
    await hub.rematch(runtime.id, alice)
    new_id = (await hub.rematch(runtime.id, bob)).rematch_id
    assert new_id is not None
    assert await hub.lifecycle.delete(runtime.id)
    assert await store.get_match(runtime.id) is None
    assert await store.actions(runtime.id) == []
    rematch = await store.get_match(new_id)
    assert rematch is not None and rematch.rematch_of is None
    assert not await hub.lifecycle.delete(runtime.id)


async def test_no_action_is_saved_into_a_match_aborted_elsewhere(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, _ = await two_players(hub)
    elsewhere = Hub(store)  # another process, e.g. `matches abort`
    await elsewhere.lifecycle.abort(runtime.id)
    with pytest.raises(StoreError):
        await runtime.act(alice.id, first_legal(runtime, 0))
    saved = await store.get_match(runtime.id)
    assert saved is not None and saved.status == "aborted" and saved.version == 0
    reloading = hub.recovery(runtime.id)
    if reloading is not None:
        await reloading
    assert runtime.status == "aborted"
