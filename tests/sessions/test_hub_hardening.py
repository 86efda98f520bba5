"""Issue 8 at the hub: answers for finished matches, unknown commit outcomes, identity
rules, bounded creation."""

from __future__ import annotations

from typing import Any

import pytest
from store_faults import CommitThenFail, database_down
from test_hub import Recorder, first_legal, two_players

from service.errors import BadNickname, NicknameTaken, SessionError, StoreError
from service.sessions.hub import Hub
from service.sessions.limits import CreationLimiter, CreationLimits, Rate
from service.sessions.notices import Applied
from service.store import Store


async def test_d8_the_client_id_that_finished_a_match_is_still_a_duplicate(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, bob = await two_players(hub)
    players = [alice, bob]
    last: tuple[int, dict[str, Any], str] | None = None
    for n in range(1000):
        if runtime.status != "active":
            break
        seat = min(runtime.game.to_act(runtime.state))
        action = first_legal(runtime, seat)
        await runtime.act(players[seat].id, action, f"c{n}")
        last = (seat, action, f"c{n}")
    assert runtime.status == "finished" and last is not None
    seat, action, client_id = last
    again = await runtime.act(players[seat].id, action, client_id)
    assert (again.version, again.duplicate) == (runtime.version, True)
    with pytest.raises(SessionError) as over:
        await runtime.act(players[seat].id, action, "a-new-one")
    assert over.value.code == "session/match_over"
    restarted = await Hub(store).get(runtime.id)  # the same after a restart
    assert (await restarted.act(players[seat].id, action, client_id)).duplicate


# --- D7: identity across dialects -------------------------------------------------------


async def test_d7_a_token_players_nickname_is_taken_for_nickname_dialects(store: Store) -> None:
    hub = Hub(store)
    alice = await hub.identify(nickname="alice")
    for spelling in ("alice", "ALICE", " alice", "ａｌｉｃｅ"):
        with pytest.raises(NicknameTaken):
            await hub.player_by_nickname(spelling, create=True)
    assert (await hub.identify(token=alice.new_token)).player.id == alice.player.id


async def test_d7_a_nickname_dialect_player_is_reached_from_canonical_then_claimed(store: Store) -> None:
    hub = Hub(store)
    bob = await hub.player_by_nickname("bob", create=True)  # first seen on a seed dialect
    reached = await hub.identify(nickname="Bob")
    assert reached.player.id == bob.id and reached.new_token is None  # same trust as there
    assert (await hub.player_by_nickname("bob")).id == bob.id  # still reachable there
    claimed = await hub.identify(nickname="bob", claim=True)
    assert claimed.player.id == bob.id and claimed.new_token and claimed.player.has_token
    with pytest.raises(NicknameTaken):
        await hub.player_by_nickname("bob", create=True)
    with pytest.raises(NicknameTaken):
        await hub.identify(nickname="bob")  # without the token: taken, like any token player
    with pytest.raises(NicknameTaken):
        await hub.identify(nickname="bob", claim=True)  # no second claim
    assert (await hub.identify(token=claimed.new_token)).player.id == bob.id


# --- D13: one nickname rule -------------------------------------------------------------


@pytest.mark.parametrize("look_alike", ["alice ", " alice", "ａｌｉｃｅ", "ALICE", "аӏісе"])
async def test_d13_look_alike_nicknames_are_the_same_player(store: Store, look_alike: str) -> None:
    hub = Hub(store)
    alice = await hub.player_by_nickname("alice", create=True)
    assert (await hub.player_by_nickname(look_alike, create=True)).id == alice.id


@pytest.mark.parametrize("refused", ["аlice", "ali\u200bce", "ali\u0000ce", "\u3164", "",
                                     "   ", "x" * 33, "al\u202eice"])
async def test_d13_invisible_control_and_mixed_script_nicknames_are_refused(store: Store,
                                                                            refused: str) -> None:
    hub = Hub(store)
    with pytest.raises(BadNickname):
        await hub.player_by_nickname(refused, create=True)
    with pytest.raises(BadNickname):
        await hub.identify(nickname=refused)
    assert await store.player_by_nickname("alice") is None


# --- D12: bounded creation, bounded memory ----------------------------------------------


async def test_d12_creation_is_rate_limited_per_connection_and_per_address(store: Store) -> None:
    limits = CreationLimits(per_connection={"player": Rate(3, 0.001), "match": Rate(2, 0.001)},
                            per_address={"player": Rate(5, 0.001), "match": Rate(5, 0.001)})
    hub = Hub(store, limits=CreationLimiter(limits))
    with hub.limits.client_scope("10.0.0.1"):
        for _ in range(3):
            await hub.identify()
        with pytest.raises(SessionError) as limited:
            await hub.identify()
        assert limited.value.code == "session/rate_limited"
        for _ in range(2):
            await hub.create("dolphinfox")
        with pytest.raises(SessionError):
            await hub.create("dolphinfox")
    with hub.limits.client_scope("10.0.0.1"):  # a new connection, the same address
        await hub.player_by_nickname("carol", create=True)
        await hub.identify(nickname="dave")
        with pytest.raises(SessionError):
            await hub.identify(nickname="erin")
        assert await store.player_by_nickname("erin") is None  # nothing created when refused
    with hub.limits.client_scope("10.0.0.2"):  # another address is not affected
        await hub.identify()
    await hub.identify()  # no client (tests, bots): not charged
    assert len(await store.list_matches(status="waiting")) == 2


async def test_d12_waiting_matches_nobody_follows_leave_memory(store: Store) -> None:
    hub = Hub(store, waiting_grace=0)
    alice = (await hub.identify(nickname="alice")).player
    followed, _ = await hub.create("dolphinfox", player=alice)
    watcher = Recorder()
    followed.attach(watcher, 0)
    abandoned, _ = await hub.create("dolphinfox", player=alice)
    await hub.create("dolphinfox")  # loading a match prunes idle ones
    live = hub.live()
    assert followed in live and abandoned not in live
    again = await hub.get(abandoned.id)  # still in the store, seat and all
    assert again.status == "waiting" and again.seat_of(alice.id) == 0


# --- D9: a commit whose outcome is unknown -----------------------------------------------


@pytest.mark.parametrize("saved", [True, False])
async def test_d9_an_unknown_commit_outcome_is_told_and_resolved(store: Store, saved: bool) -> None:
    hub = Hub(store)
    runtime, alice, _ = await two_players(hub)
    watcher = Recorder()
    runtime.attach(watcher, None)
    action = first_legal(runtime, 0)
    CommitThenFail(store, saved=saved)
    with pytest.raises(StoreError) as unknown:
        await runtime.act(alice.id, action, "maybe")
    assert unknown.value.code == "store/unknown_outcome"
    assert watcher.of(Applied) == []  # nobody heard of it yet
    recovery = hub.recovery(runtime.id)
    assert recovery is not None
    await recovery  # the store answers again: the runtime reloads by itself
    assert runtime.version == (1 if saved else 0) and not runtime.broken
    assert [n.version for n in watcher.of(Applied)] == ([1] if saved else [])
    again = await runtime.act(alice.id, action, "maybe")  # the actor learns the truth
    assert (again.version, again.duplicate) == (1, saved)
    assert [a.client_id for a in await store.actions(runtime.id)] == ["maybe"]
    assert [n.version for n in watcher.of(Applied)] == [1]
    await hub.close()


async def test_d9_a_failure_before_the_commit_is_not_applied(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, _ = await two_players(hub)
    with database_down(store), pytest.raises(StoreError) as down:
        await runtime.act(alice.id, first_legal(runtime, 0), "c1")
    assert down.value.code == "store/unavailable"
    recovery = hub.recovery(runtime.id)
    if recovery is not None:
        await recovery
    assert runtime.version == 0 and await store.actions(runtime.id) == []
    await hub.close()
