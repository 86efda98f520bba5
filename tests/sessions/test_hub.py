"""The hub and match runtimes against a real store: identity, lobby, durability, rematch."""

from __future__ import annotations

from typing import Any

import pytest

from service.errors import MalformedAction, RulesError, SessionError, StoreError
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.sessions.notices import Applied, Notice, PresenceChanged, RematchChanged, Started
from service.store import PlayerRecord, Store


class Recorder:
    """A listener that keeps what it was told."""

    def __init__(self) -> None:
        self.notices: list[Notice] = []

    def notify(self, match: MatchRuntime, notice: Notice) -> None:
        self.notices.append(notice)

    def of(self, kind: type) -> list[Any]:
        return [n for n in self.notices if isinstance(n, kind)]


def first_legal(runtime: MatchRuntime, seat: int) -> dict[str, Any]:
    legal = runtime.game.legal_actions(runtime.state, seat)
    assert legal
    return runtime.game.dump_action(legal[0])


async def two_players(hub: Hub) -> tuple[MatchRuntime, PlayerRecord, PlayerRecord]:
    alice = (await hub.identify(nickname="alice")).player
    bob = (await hub.identify(nickname="bob")).player
    runtime, seat_a = await hub.quick_join("dolphinfox", alice)
    same, seat_b = await hub.quick_join("dolphinfox", bob)
    assert same is runtime and (seat_a, seat_b) == (0, 1)
    return runtime, alice, bob


async def test_identify_issues_a_token_that_reclaims_the_player(store: Store) -> None:
    hub = Hub(store)
    first = await hub.identify(nickname="Alice")
    assert first.new_token
    again = await hub.identify(token=first.new_token)
    assert again.player.id == first.player.id and again.new_token is None
    with pytest.raises(SessionError) as taken:
        await hub.identify(nickname="ALICE")
    assert taken.value.code == "session/nickname_taken"
    with pytest.raises(SessionError) as bad:
        await hub.identify(token="not-a-token")
    assert bad.value.code == "session/bad_token"
    guest = await hub.identify()
    assert guest.player.nickname.startswith("guest-") and guest.new_token


async def test_quick_join_pairs_players_and_starts_the_match(store: Store) -> None:
    hub = Hub(store)
    alice = (await hub.identify(nickname="alice")).player
    runtime, _ = await hub.quick_join("dolphinfox", alice)
    watcher = Recorder()
    runtime.attach(watcher, None)
    assert runtime.status == "waiting"
    again, seat = await hub.quick_join("dolphinfox", alice)  # already seated: same seat
    assert again is runtime and seat == 0
    bob = (await hub.identify(nickname="bob")).player
    await hub.quick_join("dolphinfox", bob)
    assert runtime.status == "active" and watcher.of(Started)
    saved = await store.get_match(runtime.id)
    assert saved is not None and saved.status == "active"
    assert [s.nickname for s in saved.seats] == ["alice", "bob"]
    carol = (await hub.identify(nickname="carol")).player
    other, _ = await hub.quick_join("dolphinfox", carol)
    assert other.id != runtime.id


async def test_an_action_is_saved_before_anyone_hears_of_it(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, _ = await two_players(hub)
    saved_at_notice: list[int] = []

    class Checker(Recorder):
        def notify(self, match: MatchRuntime, notice: Notice) -> None:
            super().notify(match, notice)
            if isinstance(notice, Applied):
                saved_at_notice.append(notice.version)

    runtime.attach(Checker(), None)
    action = first_legal(runtime, 0)
    result = await runtime.act(alice.id, action, "c1")
    assert result.version == 1 and saved_at_notice == [1]
    log = await store.actions(runtime.id)
    assert [(a.seq, a.seat, a.action) for a in log] == [(1, 0, action)]
    record = await store.get_match(runtime.id)
    assert record is not None and record.version == 1
    assert record.snapshot == runtime.game.dump_state(runtime.state)


async def test_rejected_commands_change_nothing(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, bob = await two_players(hub)
    before = runtime.game.dump_state(runtime.state)
    with pytest.raises(RulesError):
        await runtime.act(alice.id, {"type": "move", "r1": 9, "c1": 9, "r2": 9, "c2": 8})
    with pytest.raises(MalformedAction):
        await runtime.act(alice.id, {"type": "fly"})
    stranger = (await hub.identify(nickname="eve")).player
    with pytest.raises(SessionError) as not_seated:
        await runtime.act(stranger.id, first_legal(runtime, 0))
    assert not_seated.value.code == "session/not_seated"
    with pytest.raises(SessionError) as ahead:
        await runtime.act(alice.id, first_legal(runtime, 0), seen_version=5)
    assert ahead.value.code == "session/bad_version"
    assert runtime.version == 0 and runtime.game.dump_state(runtime.state) == before
    assert await store.actions(runtime.id) == []


async def test_a_resent_client_id_is_applied_once(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, _ = await two_players(hub)
    action = first_legal(runtime, 0)
    first = await runtime.act(alice.id, action, "same")
    second = await runtime.act(alice.id, action, "same")
    assert (first.version, first.duplicate) == (1, False)
    assert (second.version, second.duplicate) == (1, True)
    assert len(await store.actions(runtime.id)) == 1


async def test_waiting_match_refuses_actions(store: Store) -> None:
    hub = Hub(store)
    alice = (await hub.identify(nickname="alice")).player
    runtime, _ = await hub.quick_join("dolphinfox", alice)
    with pytest.raises(SessionError) as err:
        await runtime.act(alice.id, first_legal(runtime, 0))
    assert err.value.code == "session/not_started"


async def test_a_new_hub_loads_matches_lazily_from_the_store(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, bob = await two_players(hub)
    await runtime.act(alice.id, first_legal(runtime, 0))
    await runtime.act(bob.id, first_legal(runtime, 1))
    restarted = Hub(store)  # a server restart: nothing in memory
    assert restarted.live() == []
    loaded = await restarted.get(runtime.id)
    assert loaded.version == 2 and loaded.status == "active"
    assert loaded.game.dump_state(loaded.state) == runtime.game.dump_state(runtime.state)
    await loaded.act(alice.id, first_legal(loaded, 0))
    assert (await store.get_match(runtime.id)).version == 3  # type: ignore[union-attr]
    with pytest.raises(SessionError) as missing:
        await restarted.get(99999)
    assert missing.value.code == "session/no_such_match"


async def test_a_failed_commit_rejects_the_action_and_reloads(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, _ = await two_players(hub)
    watcher = Recorder()
    runtime.attach(watcher, None)
    real_append = store.append_action

    async def failing_append(*args: Any, **kwargs: Any) -> None:
        raise StoreError("disk on fire", code="store/unavailable")

    store.append_action = failing_append  # type: ignore[method-assign]
    with pytest.raises(StoreError):
        await runtime.act(alice.id, first_legal(runtime, 0))
    store.append_action = real_append  # type: ignore[method-assign]
    assert watcher.of(Applied) == []  # nobody heard of it
    reloaded = await hub.get(runtime.id)
    assert reloaded is runtime and reloaded.version == 0  # reloaded in place: holders stay current
    record = await store.get_match(runtime.id)
    assert record is not None and reloaded.game.dump_state(reloaded.state) == record.snapshot
    await reloaded.act(alice.id, first_legal(reloaded, 0))
    assert reloaded.version == 1 and watcher.of(Applied)  # listeners stayed


async def test_presence_is_announced_to_the_others(store: Store) -> None:
    hub = Hub(store)
    runtime, _, _ = await two_players(hub)
    spectator, alice_conn = Recorder(), Recorder()
    runtime.attach(spectator, None)
    runtime.attach(alice_conn, 0)
    runtime.detach(alice_conn)
    assert [(p.seat, p.present) for p in spectator.of(PresenceChanged)] == [(0, True), (0, False)]


async def finish(runtime: MatchRuntime, players: list[PlayerRecord]) -> None:
    for _ in range(1000):
        if runtime.status != "active":
            return
        seat = min(runtime.game.to_act(runtime.state))
        legal = runtime.game.legal_actions(runtime.state, seat)
        if not legal:
            seat = max(runtime.game.to_act(runtime.state))
            legal = runtime.game.legal_actions(runtime.state, seat)
        await runtime.act(players[seat].id, runtime.game.dump_action(legal[-1]))
    raise AssertionError("the match did not end")


async def test_rematch_when_all_agree_is_idempotent(store: Store) -> None:
    hub = Hub(store)
    alice = (await hub.identify(nickname="alice")).player
    bob = (await hub.identify(nickname="bob")).player
    runtime, _ = await hub.create("dolphinfox", {"size": 4, "units": 1, "max_moves": 6}, player=alice)
    await hub.join(runtime.id, bob)
    with pytest.raises(SessionError) as early:
        await hub.rematch(runtime.id, alice)
    assert early.value.code == "session/not_finished"
    await finish(runtime, [alice, bob])
    watcher = Recorder()
    runtime.attach(watcher, None)
    await hub.rematch(runtime.id, alice)
    assert runtime.rematch_id is None and runtime.rematch_votes == {0}
    await hub.rematch(runtime.id, bob)
    new_id = runtime.rematch_id
    assert new_id is not None
    assert (await hub.rematch(runtime.id, alice)).rematch_id == new_id
    new = await hub.get(new_id)
    assert new.status == "active" and new.rematch_of == runtime.id
    assert [s.player_id for s in new.seats] == [alice.id, bob.id]
    assert new.options == runtime.options
    assert watcher.of(RematchChanged)[-1].new_match_id == new_id
    listed = await store.list_matches(game="dolphinfox")
    assert {m.id for m in listed} == {runtime.id, new_id}


async def test_catch_up_gives_missed_actions_or_nothing(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, bob = await two_players(hub)
    await runtime.act(alice.id, first_legal(runtime, 0))
    await runtime.act(bob.id, first_legal(runtime, 1))
    missed = await hub.missed(runtime, 1)
    assert missed is not None and [a.seq for a in missed] == [2]
    assert await hub.missed(runtime, 2) == []


async def test_finished_matches_nobody_follows_are_forgotten(store: Store) -> None:
    hub = Hub(store)
    alice = (await hub.identify(nickname="alice")).player
    bob = (await hub.identify(nickname="bob")).player
    runtime, _ = await hub.create("dolphinfox", {"size": 4, "units": 1, "max_moves": 2}, player=alice)
    await hub.join(runtime.id, bob)
    watcher = Recorder()
    runtime.attach(watcher, None)
    await finish(runtime, [alice, bob])
    await hub.create("dolphinfox")  # loading another match prunes idle ones
    assert runtime in hub.live()  # still followed
    runtime.detach(watcher)
    await hub.create("dolphinfox")
    assert runtime not in hub.live()
    again = await hub.get(runtime.id)  # and comes back from the store on demand
    assert again.status == "finished" and again.version == runtime.version


async def test_a_client_id_is_recognised_after_a_restart(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, _ = await two_players(hub)
    action = first_legal(runtime, 0)
    await runtime.act(alice.id, action, "sent-before-the-crash")
    restarted = await Hub(store).get(runtime.id)  # the ack never reached the client
    again = await restarted.act(alice.id, action, "sent-before-the-crash")
    assert (again.version, again.duplicate) == (1, True)
    assert [a.client_id for a in await store.actions(runtime.id)] == ["sent-before-the-crash"]


async def test_a_seat_is_given_up_only_before_the_start(store: Store) -> None:
    hub = Hub(store)
    alice = (await hub.identify(nickname="alice")).player
    bob = (await hub.identify(nickname="bob")).player
    carol = (await hub.identify(nickname="carol")).player
    runtime, seat = await hub.quick_join("dolphinfox", alice)
    assert await hub.give_up_seat(runtime, alice.id) is True
    assert runtime.empty_seats() == [0, 1]
    saved = await store.get_match(runtime.id)
    assert saved is not None and [s.player_id for s in saved.seats] == [None, None]
    same, seat = await hub.quick_join("dolphinfox", bob)  # the lobby is reused, seat 0 again
    assert same is runtime and seat == 0
    await hub.quick_join("dolphinfox", carol)
    assert runtime.status == "active"
    assert await hub.give_up_seat(runtime, bob.id) is False  # started: the seat stays bob's
    assert await hub.give_up_seat(runtime, alice.id) is False  # not seated at all
    assert runtime.seat_of(bob.id) == 0
