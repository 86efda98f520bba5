"""Clocks (time controls): each seat's time runs while it is to act; a player out of time
loses (two sides) or is replaced by a stand-in (more); the reading is saved with every action
and survives a restart. The wall clock is a fake the tests move (``Hub.now``)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from service.errors import SessionError
from service.sessions.clocks import Clock, TimeControl
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.store import PlayerRecord, Store
from tests.sessions.test_hub import first_legal

T0 = datetime(2026, 11, 26, 12, 0, tzinfo=timezone.utc)
PER_MOVE = {"kind": "per_move", "seconds": 60}
BLITZ = {"kind": "total", "seconds": 300, "increment": 5}


class WallClock:
    def __init__(self) -> None:
        self.at = T0

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


# --- the pure clock ------------------------------------------------------------------------

def test_a_total_clock_runs_for_the_seats_to_act_and_adds_the_increment() -> None:
    clock = Clock.new(TimeControl.model_validate(BLITZ), 2)
    clock.turn({0}, T0)
    assert clock.deadline() == T0 + timedelta(seconds=300)
    later = T0 + timedelta(seconds=40)
    assert clock.remaining(0, later) == 260 and clock.remaining(1, later) == 300
    clock.turn({0}, later)  # a turn of several actions: seat 0 goes on
    clock.turn({1}, T0 + timedelta(seconds=50))
    assert clock.left[0] == 300 - 50 + 5 and clock.running == {1: T0 + timedelta(seconds=50)}
    assert clock.flagged(T0 + timedelta(seconds=349)) == []
    assert clock.flagged(T0 + timedelta(seconds=350)) == [1]
    assert Clock.from_dict(clock.to_dict()) == clock


def test_a_per_move_clock_starts_afresh_each_move() -> None:
    clock = Clock.new(TimeControl.model_validate(PER_MOVE), 2)
    clock.turn({0}, T0)
    clock.turn({1}, T0 + timedelta(seconds=59))
    clock.turn({0}, T0 + timedelta(seconds=70))
    assert clock.remaining(0, T0 + timedelta(seconds=70)) == 60
    assert clock.deadline() == T0 + timedelta(seconds=130)
    clock.stop(0)
    assert clock.deadline() is None and clock.flagged(T0 + timedelta(days=1)) == []


@pytest.mark.parametrize("bad", [{"kind": "fischer", "seconds": 60}, {"kind": "total"},
                                 {"kind": "per_move", "seconds": 0},
                                 {"kind": "per_move", "seconds": 60, "increment": 2},
                                 {"kind": "total", "seconds": 60, "extra": 1}])
async def test_a_bad_clock_is_refused_and_creates_nothing(store: Store, bad: dict) -> None:
    hub = Hub(store)
    alice = (await hub.identify(nickname="alice")).player
    with pytest.raises(SessionError) as caught:
        await hub.create("santorini", player=alice, clock=bad)
    assert caught.value.code == "options/invalid"
    with pytest.raises(SessionError) as real_time:
        await hub.create("dolphinfox", player=alice, clock=PER_MOVE)
    assert real_time.value.code == "options/invalid" and "real-time" in real_time.value.message
    assert await store.list_matches() == []


# --- in a match ----------------------------------------------------------------------------

async def timed_match(store: Store, clock: dict, seats: int = 2, game: str = "santorini"
                      ) -> tuple[Hub, WallClock, MatchRuntime, list[PlayerRecord]]:
    hub, wall = Hub(store), WallClock()
    hub.now = wall
    players = [(await hub.identify(nickname=name)).player for name in "abcd"[:seats]]
    runtime, _ = await hub.create(game, player=players[0], seats=seats, clock=clock)
    for player in players[1:]:
        await hub.join(runtime.id, player)
    assert runtime.status == "active"
    return hub, wall, runtime, players


async def play(runtime: MatchRuntime, players: list[PlayerRecord]) -> int:
    """One action by the seat to act; its seat."""
    seat = sorted(runtime.to_act())[0]
    await runtime.act(players[seat].id, first_legal(runtime, seat))
    return seat


async def test_out_of_time_in_two_sides_loses_and_a_late_move_is_refused(store: Store) -> None:
    hub, wall, runtime, players = await timed_match(store, PER_MOVE)
    first = sorted(runtime.to_act())[0]
    saved = await store.get_match(runtime.id)
    assert saved and saved.clock and saved.clock["running"] == {str(first): T0.isoformat()}
    wall.advance(59)
    await play(runtime, players)  # in time
    wall.advance(61)
    seat = sorted(runtime.to_act())[0]
    with pytest.raises(SessionError) as late:
        await runtime.act(players[seat].id, first_legal(runtime, seat))
    assert late.value.code == "session/time_out"
    await hub.lifecycle.time_out(runtime.id)
    assert runtime.status == "finished"
    result = (await store.get_match(runtime.id)).result
    assert result["reason"] == "time_out" and result["detail"] == {"seat": seat}
    assert result["winners"] == [1 - seat]
    ended = Clock.from_dict((await store.get_match(runtime.id)).clock)
    assert ended.running == {} and ended.left[seat] == 0  # out of time reads 0


async def test_a_restarted_server_ends_a_match_whose_time_ran_out_meanwhile(
        store: Store) -> None:
    _, wall, runtime, players = await timed_match(store, BLITZ)
    await play(runtime, players)
    wall.advance(30)
    moved = await play(runtime, players)
    reading = (await store.get_match(runtime.id)).clock
    assert reading["left"][str(moved)] <= 300  # the reading went with the action
    # a new process: nothing in memory; the sweep finds the deadline in the store
    restarted = Hub(store)
    restarted.now = wall
    assert await store.overdue_clocks(wall()) == []
    wall.advance(306)  # past any seat's 300 s and 5 s of increment
    assert await store.overdue_clocks(wall()) == [runtime.id]
    await restarted.lifecycle.sweep()
    record = await store.get_match(runtime.id)
    assert record.status == "finished" and record.result["reason"] == "time_out"
    assert await store.overdue_clocks(wall()) == []


async def test_out_of_time_with_three_sides_a_stand_in_plays_on(store: Store) -> None:
    hub, wall, runtime, players = await timed_match(store, PER_MOVE, seats=3)
    hub.bot_levels = frozenset({"random"})
    seat = sorted(runtime.to_act())[0]
    wall.advance(61)
    await hub.lifecycle.time_out(runtime.id)
    assert runtime.status == "active" and runtime.stand_ins() == {seat: "random"}
    assert seat in runtime.timing.clock.stopped  # a stand-in's seat has no clock
    saved = Clock.from_dict((await store.get_match(runtime.id)).clock)
    assert seat in saved.stopped and seat not in saved.running


async def test_a_rematch_keeps_the_time_control(store: Store) -> None:
    hub, wall, runtime, players = await timed_match(store, PER_MOVE)
    wall.advance(61)
    await hub.lifecycle.time_out(runtime.id)
    for player in players:
        await hub.rematch(runtime.id, player)
    rematch = await hub.get(runtime.rematch_id)
    assert rematch.timing.clock.control == TimeControl.model_validate(PER_MOVE)
    assert rematch.timing.clock.running  # it started at once: its first seat's time runs


async def test_a_solo_player_out_of_time_loses_to_lorenzo(store: Store) -> None:
    hub, wall = Hub(store), WallClock()
    hub.now = wall
    alone = (await hub.identify(nickname="solo")).player
    runtime, _ = await hub.create("renaissance", player=alone, seats=1, clock=PER_MOVE)
    assert runtime.status == "active" and runtime.timing.clock.running == {0: T0}
    wall.advance(60)
    await hub.lifecycle.time_out(runtime.id)
    assert runtime.status == "finished"
    assert runtime.ended_result["winners"] == [] and runtime.ended_result["reason"] == "time_out"


async def test_both_sides_out_of_time_at_once_is_a_draw(store: Store) -> None:
    """Masters of Renaissance starts with both players keeping leaders at once: both clocks
    run from the same instant with the same time, and both fall together."""
    hub, wall, runtime, _ = await timed_match(store, PER_MOVE, game="renaissance")
    assert sorted(runtime.timing.clock.running) == [0, 1]
    wall.advance(61)
    await hub.lifecycle.time_out(runtime.id)
    result = (await store.get_match(runtime.id)).result
    assert result["reason"] == "time_out" and result["draw"] is True
    assert result["winners"] == [0, 1] and result["detail"]["seats"] == [0, 1]


async def test_out_of_time_in_teams_loses_for_the_whole_team(store: Store) -> None:
    """Four-player Eriantys is two teams of two: a late seat's partner loses with it."""
    hub, wall, runtime, _ = await timed_match(store, PER_MOVE, seats=4, game="eriantys")
    late = sorted(runtime.to_act())[0]
    partner = next(s.seat for s in runtime.seats if s.seat != late and s.team == runtime.seats[late].team)
    wall.advance(61)
    await hub.lifecycle.time_out(runtime.id)
    result = (await store.get_match(runtime.id)).result
    assert result["reason"] == "time_out" and not result["draw"]
    assert late not in result["winners"] and partner not in result["winners"]
    assert len(result["winners"]) == 2
