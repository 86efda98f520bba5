"""A seat abandoned in a game of more than two sides: once its grace has passed, a player
present claims, and a server-side stand-in bot plays that seat (ordinary actions of the seat,
so the log replays) until its player comes back; the stand-in is saved and survives a restart.
Time is a fake clock the tests advance; the bot is waited for by its notices, never by time."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from service.bots.seats import BotSeats
from service.bots.thinker import Thinker
from service.errors import SessionError
from service.inspection import replay
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.sessions.notices import Applied, Ended, Notice, StandIn
from service.store import PlayerRecord, Store
from tests.sessions.test_hub import Recorder
from tests.sessions.test_lifecycle import FakeClock

AWAY = 2  # the seat whose player goes away


class Moves(Recorder):
    """A listener that also wakes whoever waits for the next action or end."""

    def __init__(self) -> None:
        super().__init__()
        self.event = asyncio.Event()

    def notify(self, match: MatchRuntime, notice: Notice) -> None:
        super().notify(match, notice)
        if isinstance(notice, Applied | Ended | StandIn):
            self.event.set()

    async def next(self) -> None:
        await asyncio.wait_for(self.event.wait(), 60)  # a guard against a hang, not a timing


@dataclass
class Table:
    hub: Hub
    bots: BotSeats
    clock: FakeClock
    runtime: MatchRuntime
    players: list[PlayerRecord]
    watch: Moves


def new_bots(hub: Hub) -> BotSeats:
    return BotSeats(hub, Thinker(ThreadPoolExecutor(max_workers=1), budget=0.01))


@pytest.fixture
async def table(store: Store) -> AsyncIterator[Table]:
    """Santorini for three; the player of seat 2 was attached once and went away."""
    clock = FakeClock()
    hub = Hub(store, clock=clock)
    bots = new_bots(hub)
    players = [(await hub.identify(nickname=n)).player for n in ("ann", "ben", "cy")]
    runtime, _ = await hub.create("santorini", seats=3, player=players[0])
    for player in players[1:]:
        await hub.join(runtime.id, player)
    watch = Moves()
    runtime.attach(watch, 0)
    runtime.attach(Recorder(), 1)
    gone = Recorder()
    runtime.attach(gone, AWAY)
    runtime.detach(gone)
    await hub.lifecycle.sweep()
    yield Table(hub, bots, clock, runtime, players, watch)
    await bots.close()


async def claim_after_grace(t: Table) -> None:
    t.clock.advance(t.runtime.game.abandon_grace)
    await t.hub.lifecycle.claim(t.runtime.id, t.players[1].id)


async def play(runtime: MatchRuntime, players: list[PlayerRecord], watch: Moves,
               until: int | None = None, away: int | None = AWAY,
               done: Callable[[], bool] = lambda: False) -> None:
    """The people present play random legal moves; the ``away`` seat's turns are waited for.
    Stops when the match is over, once the match reaches version ``until``, or once ``done()``."""
    rng = random.Random(7)
    for _ in range(5000):
        if (runtime.status != "active" or (until is not None and runtime.version >= until)
                or done()):
            return
        watch.event.clear()
        people = [s for s in runtime.to_act() if s != away]
        if not people:
            await watch.next()
            continue
        seat = people[0]
        action = rng.choice(runtime.game.legal_actions(runtime.state, seat))
        await runtime.act(players[seat].id, runtime.game.dump_action(action), None,
                          runtime.version)
    raise AssertionError("the game did not end")


async def test_a_claim_before_the_grace_is_refused(table: Table) -> None:
    table.clock.advance(table.runtime.game.abandon_grace - 1)
    with pytest.raises(SessionError) as early:
        await table.hub.lifecycle.claim(table.runtime.id, table.players[1].id)
    assert early.value.code == "session/not_abandoned"
    assert table.runtime.stand_ins() == {} and table.runtime.status == "active"


async def test_the_stand_in_plays_the_away_seat_to_the_end(table: Table, store: Store) -> None:
    runtime = table.runtime
    await claim_after_grace(table)
    assert runtime.stand_ins() == {AWAY: "random"} and runtime.status == "active"
    assert table.watch.of(StandIn) == [StandIn(AWAY, "random")]
    assert runtime.seats_public()[AWAY]["stand_in"] == "random"
    assert not runtime.seats_public()[AWAY]["present"]
    with pytest.raises(SessionError) as again:  # nobody else is away
        await table.hub.lifecycle.claim(runtime.id, table.players[0].id)
    assert again.value.code == "session/not_abandoned"
    await play(runtime, table.players, table.watch)
    assert runtime.status == "finished"
    actions = await store.actions(runtime.id)
    assert any(a.seat == AWAY for a in actions)  # ordinary actions of that seat
    saved = await store.get_match(runtime.id)
    assert saved is not None and replay(saved, actions) is None  # the log replays exactly


async def test_the_stand_in_stops_when_its_player_is_back(table: Table, store: Store) -> None:
    runtime = table.runtime
    await claim_after_grace(table)
    await play(runtime, table.players, table.watch, until=runtime.version + 6)
    back = Recorder()
    runtime.attach(back, AWAY)
    while (runtime.id, AWAY) in table.bots.drivers:  # the driver hears it and stands down
        table.watch.event.clear()
        await table.watch.next()
    assert runtime.stand_ins() == {} and table.watch.of(StandIn)[-1] == StandIn(AWAY, None)
    saved = await store.get_match(runtime.id)
    assert saved is not None and "stand_ins" not in saved.dialect_data
    assert runtime.seats_public()[AWAY]["stand_in"] is None
    since = runtime.version

    def cy_moved() -> bool:  # a fixed number of actions is not enough: Hermes may move 30 times
        return any(n.seat == AWAY and n.version > since for n in table.watch.of(Applied))

    await play(runtime, table.players, table.watch, away=None, done=cy_moved)  # cy plays again
    assert (runtime.id, AWAY) not in table.bots.drivers
    mine = [a for a in await store.actions(runtime.id) if a.seq > since and a.seat == AWAY]
    assert all(a.client_id is None for a in mine)  # the player's moves, no bot's
    # (random moves may end the game first, or leave cy's workers unable to move: out)
    assert mine or runtime.status == "finished" or AWAY in runtime.game.eliminated(runtime.state)


async def test_the_stand_in_goes_on_after_a_restart(table: Table, store: Store) -> None:
    await claim_after_grace(table)
    await table.bots.close()  # the server stops
    hub = Hub(store, clock=FakeClock())
    bots = new_bots(hub)
    try:
        assert await bots.resume() == 1
        runtime = await hub.get(table.runtime.id)
        assert runtime.stand_ins() == {AWAY: "random"} and (runtime.id, AWAY) in bots.drivers
        watch = Moves()
        runtime.attach(watch, 0)
        runtime.attach(Recorder(), 1)
        await play(runtime, table.players, watch)
        assert runtime.status == "finished"
        assert any(a.seat == AWAY for a in await store.actions(runtime.id))
    finally:
        await bots.close()


async def test_two_sides_still_claim_the_win(store: Store) -> None:
    clock = FakeClock()
    hub = Hub(store, clock=clock)
    players = [(await hub.identify(nickname=n)).player for n in ("ann", "ben")]
    runtime, _ = await hub.create("santorini", seats=2, player=players[0])
    await hub.join(runtime.id, players[1])
    runtime.attach(Recorder(), 0)
    await hub.lifecycle.sweep()
    clock.advance(runtime.game.abandon_grace)
    await hub.lifecycle.claim(runtime.id, players[0].id)
    assert runtime.status == "finished" and runtime.stand_ins() == {}
    assert runtime.outcome() == {"winners": [0], "draw": False, "reason": "abandoned",
                                 "detail": {"away": [1]}}
