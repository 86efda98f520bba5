"""Abandoned matches end: idle waiting matches are aborted, a side away past the game's grace
can be claimed, players resign, operators abort. Time is a fake clock the tests advance."""

from __future__ import annotations

import pytest

from service.errors import SessionError
from service.inspection import replay
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.sessions.notices import Ended
from service.store import PlayerRecord, Store
from tests.sessions.test_hub import Recorder, first_legal, two_players


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


async def test_a_waiting_match_nobody_attends_is_aborted_after_the_setting(store: Store) -> None:
    clock = FakeClock()
    hub = Hub(store, clock=clock, waiting_abort_after=100)
    alice = (await hub.identify(nickname="alice")).player
    watched, _ = await hub.create("dolphinfox", player=alice)
    lonely, _ = await hub.create("santorini", player=alice)
    watcher = Recorder()
    watched.attach(watcher, 0)
    assert await hub.lifecycle.sweep() == []
    clock.advance(99)
    assert await hub.lifecycle.sweep() == []
    clock.advance(1)
    assert await hub.lifecycle.sweep() == [lonely.id]
    saved = await store.get_match(lonely.id)
    assert saved is not None and saved.status == "aborted"
    assert saved.result == {"winners": [], "draw": False, "reason": "aborted",
                            "detail": {"by": "idle"}}
    watched.detach(watcher)  # unattended from the next sweep on: the count starts again
    assert await hub.lifecycle.sweep() == []
    clock.advance(99)
    assert await hub.lifecycle.sweep() == []
    clock.advance(1)
    assert await hub.lifecycle.sweep() == [watched.id]
    assert watched.status == "aborted"


async def test_no_idle_abort_when_switched_off(store: Store) -> None:
    clock = FakeClock()
    hub = Hub(store, clock=clock, waiting_abort_after=None)
    alice = (await hub.identify(nickname="alice")).player
    runtime, _ = await hub.create("dolphinfox", player=alice)
    clock.advance(10**6)
    assert await hub.lifecycle.sweep() == []
    assert runtime.status == "waiting"


async def bob_gone(hub: Hub) -> tuple[MatchRuntime, PlayerRecord, PlayerRecord, Recorder]:
    """A started match (alice has acted) that alice watches and bob left: its runtime, the
    two players and alice's connection."""
    runtime, alice, bob = await two_players(hub)
    await runtime.act(alice.id, first_legal(runtime, 0))
    here, gone = Recorder(), Recorder()
    runtime.attach(here, 0)
    runtime.attach(gone, 1)
    runtime.detach(gone)
    return runtime, alice, bob, here


async def test_a_side_away_past_the_grace_can_be_claimed(store: Store) -> None:
    clock = FakeClock()
    hub = Hub(store, clock=clock)
    runtime, alice, bob, here = await bob_gone(hub)
    await hub.lifecycle.sweep()
    grace = runtime.game.abandon_grace
    clock.advance(grace - 1)
    with pytest.raises(SessionError) as early:
        await hub.lifecycle.claim(runtime.id, alice.id)
    assert early.value.code == "session/not_abandoned" and runtime.status == "active"
    clock.advance(1)
    with pytest.raises(SessionError) as absent:
        await hub.lifecycle.claim(runtime.id, bob.id)  # the one away has nothing to claim
    assert absent.value.code == "session/not_abandoned"
    await hub.lifecycle.claim(runtime.id, alice.id)
    result = {"winners": [0], "draw": False, "reason": "abandoned", "detail": {"away": [1]}}
    assert runtime.status == "finished" and runtime.outcome() == result
    assert here.of(Ended) == [Ended("finished", result)]
    saved = await store.get_match(runtime.id)
    assert saved is not None and saved.status == "finished" and saved.result == result
    assert replay(saved, await store.actions(runtime.id)) is None  # the log is untouched


async def test_a_seat_back_in_time_cannot_be_claimed(store: Store) -> None:
    clock = FakeClock()
    hub = Hub(store, clock=clock)
    runtime, alice, _ = await two_players(hub)
    bob_conn = Recorder()
    runtime.attach(bob_conn, 1)
    runtime.detach(bob_conn)
    await hub.lifecycle.sweep()
    clock.advance(runtime.game.abandon_grace - 1)
    runtime.attach(bob_conn, 1)  # back
    await hub.lifecycle.sweep()
    runtime.detach(bob_conn)  # and away again: the count starts over
    await hub.lifecycle.sweep()
    clock.advance(2)
    with pytest.raises(SessionError):
        await hub.lifecycle.claim(runtime.id, alice.id)


async def test_resign_gives_the_win_to_the_other_side_and_replays(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, bob = await two_players(hub)
    await runtime.act(alice.id, first_legal(runtime, 0))
    await hub.lifecycle.resign(runtime.id, bob.id)
    assert runtime.outcome() == {"winners": [0], "draw": False, "reason": "resigned",
                                 "detail": {"seat": 1}}
    with pytest.raises(SessionError) as twice:
        await hub.lifecycle.resign(runtime.id, alice.id)
    assert twice.value.code == "session/match_over"
    with pytest.raises(SessionError) as after:
        await runtime.act(alice.id, first_legal(runtime, 0))
    assert after.value.code == "session/match_over"
    saved = await store.get_match(runtime.id)
    assert saved is not None and replay(saved, await store.actions(runtime.id)) is None
    again = await Hub(store).get(runtime.id)  # after a restart the result is the saved one
    assert again.status == "finished" and again.outcome() == runtime.outcome()
    await hub.rematch(runtime.id, alice)  # a resigned match may be rematched
    assert (await hub.rematch(runtime.id, bob)).rematch_id is not None


async def test_resign_needs_two_sides_and_a_seat(store: Store) -> None:
    hub = Hub(store)
    players = [(await hub.identify(nickname=n)).player for n in ("a1", "b2", "c3")]
    runtime, _ = await hub.create("eriantys", seats=3, player=players[0])
    for p in players[1:]:
        await hub.join(runtime.id, p)
    with pytest.raises(SessionError) as many:
        await hub.lifecycle.resign(runtime.id, players[0].id)
    assert many.value.code == "session/cannot_resign"
    stranger = (await hub.identify(nickname="stranger")).player
    with pytest.raises(SessionError) as unseated:
        await hub.lifecycle.resign(runtime.id, stranger.id)
    assert unseated.value.code == "session/not_seated"


async def test_an_operator_aborts_a_live_match_and_its_followers_hear(store: Store) -> None:
    hub = Hub(store)
    runtime, _, _ = await two_players(hub)
    follower = Recorder()
    runtime.attach(follower, None)
    await hub.lifecycle.abort(runtime.id)
    assert follower.of(Ended)[0].status == "aborted" and runtime.status == "aborted"
    with pytest.raises(SessionError) as again:
        await hub.lifecycle.abort(runtime.id)
    assert again.value.code == "session/match_over"


async def test_a_real_time_match_without_actions_is_aborted(store: Store) -> None:
    clock = FakeClock()
    hub = Hub(store, clock=clock)
    runtime, alice, bob = await two_players(hub)
    limit = runtime.game.inactivity_limit
    assert limit is not None
    here = Recorder()
    runtime.attach(here, 0)  # present or not: nobody moves
    assert await hub.lifecycle.sweep() == []
    clock.advance(limit - 1)
    await runtime.act(alice.id, first_legal(runtime, 0))  # an action: the count starts again
    assert await hub.lifecycle.sweep() == []
    clock.advance(limit - 1)
    assert await hub.lifecycle.sweep() == []
    clock.advance(1)
    assert await hub.lifecycle.sweep() == [runtime.id]
    assert runtime.status == "aborted" and here.of(Ended)[0].result["detail"] == {"by": "inactive"}
    saved = await store.get_match(runtime.id)
    assert saved is not None and replay(saved, await store.actions(runtime.id)) is None


async def test_turn_based_matches_have_no_inactivity_limit(store: Store) -> None:
    clock = FakeClock()
    hub = Hub(store, clock=clock)
    players = [(await hub.identify(nickname=n)).player for n in ("ann", "ben")]
    runtime, _ = await hub.create("santorini", player=players[0])
    await hub.join(runtime.id, players[1])
    await hub.lifecycle.sweep()
    clock.advance(10**6)
    assert await hub.lifecycle.sweep() == [] and runtime.status == "active"


# --- memory after a creation flood (issue 25) --------------------------------------------------


async def test_waiting_matches_nobody_follows_leave_memory_at_the_sweep_after_their_grace(
        store: Store) -> None:
    """Issue 25: 2,200 waiting matches stayed in memory 80 minutes after a creation flood, as
    only loading another match pruned them. Now every sweep does, once their grace is over."""
    hub = Hub(store, waiting_grace=3600)
    alice = (await hub.identify(nickname="alice")).player
    watcher = Recorder()
    flood = [(await hub.create("dolphinfox", player=alice))[0]]
    flood += [(await hub.create("dolphinfox"))[0] for _ in range(29)]
    followed = flood[-1]
    for runtime in flood:
        runtime.attach(watcher, None)
    assert await hub.lifecycle.sweep() == [] and len(hub.live()) == 30
    for runtime in flood[:-1]:
        runtime.detach(watcher)  # their creators hang up
    await hub.lifecycle.sweep()
    assert len(hub.live()) == 30  # within the grace they stay
    hub.waiting_grace = 0  # the grace is over
    await hub.lifecycle.sweep()
    assert hub.live() == [followed]
    again = await hub.get(flood[0].id)  # still in the store, seat and all
    assert again.status == "waiting" and again.seat_of(alice.id) == 0


async def test_no_eviction_while_a_lobby_change_is_under_way(store: Store) -> None:
    """A join holds the runtime it got between two awaits: the sweep leaves memory alone then
    and drops the idle matches at the next sweep."""
    hub = Hub(store, waiting_grace=0)
    alice = (await hub.identify(nickname="alice")).player
    runtime, _ = await hub.create("dolphinfox", player=alice)
    async with hub._lobby:  # what join, create and leave hold
        assert await hub.lifecycle.sweep() == []
        assert runtime in hub.live()
    await hub.lifecycle.sweep()
    assert runtime not in hub.live()


async def test_a_match_the_sweep_aborts_leaves_memory_in_the_same_sweep(store: Store) -> None:
    clock = FakeClock()
    hub = Hub(store, clock=clock, waiting_abort_after=100, waiting_grace=3600)
    alice = (await hub.identify(nickname="alice")).player
    lonely, _ = await hub.create("santorini", player=alice)
    assert await hub.lifecycle.sweep() == [] and lonely in hub.live()
    clock.advance(100)
    assert await hub.lifecycle.sweep() == [lonely.id]
    assert lonely.status == "aborted" and hub.live() == []


async def test_an_active_match_all_its_players_left_leaves_memory_after_the_grace(
        store: Store) -> None:
    """Started matches whose players all hung up grew with traffic too: they leave memory at
    the sweep after the grace and load again, as saved, when someone comes back. One player
    still attached keeps the match (and the away time of the other) in memory."""
    clock = FakeClock()
    hub = Hub(store, clock=clock, waiting_grace=3600)
    runtime, _, bob, here = await bob_gone(hub)
    hub.waiting_grace = 0  # the grace is over
    await hub.lifecycle.sweep()
    assert hub.live() == [runtime]  # alice is still there
    clock.advance(runtime.game.abandon_grace)
    assert hub.lifecycle.away_for(runtime, 1) == runtime.game.abandon_grace
    runtime.detach(here)
    await hub.lifecycle.sweep()
    assert hub.live() == []
    again = await hub.get(runtime.id)
    assert again is not runtime and again.status == "active" and again.version == 1
    assert again.seat_of(bob.id) == 1
