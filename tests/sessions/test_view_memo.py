"""Views, legal lists and update frames are worked out once per version and seat (issue 23),
only for seats someone listens to, never shared across seats, and never past a change."""

from __future__ import annotations

import json
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest

from service.sessions.dialects.canonical import CanonicalConversation
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.store import PlayerRecord, Store


class FramePeer:
    """What a conversation writes to: the frames it sent, kept."""

    name = "test peer"
    closing = False

    def __init__(self) -> None:
        self.frames: list[str] = []

    def send(self, frame: str) -> None:
        self.frames.append(frame)

    def updates(self) -> list[dict[str, Any]]:
        return [m for m in map(json.loads, self.frames) if m["type"] == "update"]


class Counted:
    """Counts the views the game works out (``view``, or ``view_beside`` others) and its legal
    lists, per viewer, while the test runs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, runtime: MatchRuntime) -> None:
        self.views: Counter[int | None] = Counter()
        self.legal: Counter[int] = Counter()
        game = runtime.game
        view, beside, legal_actions = game.view, game.view_beside, game.legal_actions
        inside = [False]  # a view_beside that works the view out afresh is counted once

        def counted_view(state: Any, seat: int | None) -> dict[str, Any]:
            if not inside[0]:
                self.views[seat] += 1
            return view(state, seat)

        def counted_beside(state: Any, seat: int | None, seen: Any) -> dict[str, Any]:
            self.views[seat] += 1
            inside[0] = True
            try:
                return beside(state, seat, seen)
            finally:
                inside[0] = False

        def counted_legal(state: Any, seat: int) -> Any:
            self.legal[seat] += 1
            return legal_actions(state, seat)

        monkeypatch.setattr(game, "view", counted_view)  # the instance: undone after the test
        monkeypatch.setattr(game, "view_beside", counted_beside)
        monkeypatch.setattr(game, "legal_actions", counted_legal)


async def start(hub: Hub, game: str) -> tuple[MatchRuntime, PlayerRecord, PlayerRecord]:
    alice = (await hub.identify(nickname="alice")).player
    bob = (await hub.identify(nickname="bob")).player
    runtime, _ = await hub.quick_join(game, alice, seats=2)
    await hub.quick_join(game, bob, seats=2)
    assert runtime.status == "active"
    return runtime, alice, bob


def listen(hub: Hub, runtime: MatchRuntime, seat: int | None, *,
           push_legal: bool = True) -> FramePeer:
    peer = FramePeer()
    conversation = CanonicalConversation(hub, peer)  # type: ignore[arg-type]
    conversation.push_legal = push_legal
    conversation._watch(runtime, seat)
    return peer


def to_move(runtime: MatchRuntime, players: dict[int, PlayerRecord]) -> tuple[int, dict[str, Any]]:
    seat = sorted(runtime.game.to_act(runtime.state))[0]
    fresh = runtime.game.legal_actions(runtime.state, seat)
    return players[seat].id, runtime.game.dump_action(fresh[0])


async def test_each_seat_view_and_legal_list_once_per_version_whatever_the_listeners(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Renaissance hides each seat's leaders from the others: every listener gets its own
    seat's view (the spectator the public one), worked out once per version for all its
    listeners."""
    hub = Hub(store)
    runtime, alice, bob = await start(hub, "renaissance")
    players = {0: alice, 1: bob}
    fresh = {seat: runtime.game.view(runtime.state, seat) for seat in (0, 1, None)}
    assert "dealt" in fresh[0]["players"][0] and "dealt" not in fresh[1]["players"][0]
    assert "dealt" in fresh[1]["players"][1] and "dealt" not in fresh[None]["players"][1]
    listeners = {0: [listen(hub, runtime, 0) for _ in range(3)],
                 1: [listen(hub, runtime, 1), listen(hub, runtime, 1, push_legal=False)],
                 None: [listen(hub, runtime, None) for _ in range(2)]}
    for version in (1, 2, 3):
        player_id, action = to_move(runtime, players)
        counted = Counted(monkeypatch, runtime)
        result = await runtime.act(player_id, action, f"c{version}")
        assert result.version == version
        assert counted.views == {0: 1, 1: 1, None: 1}  # each its own: none derived beside
        to_act = sorted(runtime.game.to_act(runtime.state))
        assert counted.legal == {seat: 1 for seat in to_act}
        monkeypatch.undo()
        for seat, peers in listeners.items():
            view = runtime.game.view(runtime.state, seat)
            for peer in peers:
                update = peer.updates()[-1]
                assert update["version"] == version and update["view"] == view
        for peer in listeners[0] + listeners[1][:1]:  # those who asked for their legal list
            update, seat = peer.updates()[-1], 0 if peer in listeners[0] else 1
            if seat in to_act:
                listed = runtime.game.legal_actions(runtime.state, seat)
                assert update["legal"] == [runtime.game.dump_action(a) for a in listed]
            else:
                assert "legal" not in update
        assert "legal" not in listeners[1][1].updates()[-1]  # it did not ask


async def test_nothing_is_worked_out_for_a_match_nobody_listens_to(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    hub = Hub(store)
    runtime, alice, bob = await start(hub, "santorini")
    player_id, action = to_move(runtime, {0: alice, 1: bob})
    counted = Counted(monkeypatch, runtime)
    await runtime.act(player_id, action, "c1")
    assert not counted.views and not counted.legal


async def test_a_new_version_or_a_reload_works_the_view_out_again(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    hub = Hub(store)
    runtime, alice, bob = await start(hub, "dolphinfox")
    counted = Counted(monkeypatch, runtime)
    first = runtime.shown(0)
    assert runtime.shown(0) is first and counted.views == {0: 1}
    assert runtime.legal(0) is runtime.legal(0) and counted.legal == {0: 1}
    player_id, action = to_move(runtime, {0: alice, 1: bob})
    await runtime.act(player_id, action, "c1")
    moved = runtime.shown(0)
    assert counted.views == {0: 2} and moved == runtime.game.view(runtime.state, 0)
    saved = await store.get_match(runtime.id)
    assert saved is not None and saved.version == runtime.version
    runtime.reload(saved, [])  # the same version, read again: nothing kept holds
    assert runtime.shown(0) is not moved and counted.views == {0: 4}


async def test_the_update_frame_of_a_clocked_match_reads_the_clock_each_time(
        store: Store) -> None:
    """A frame is shared between listeners of a seat only without a clock: a clock's reading
    is taken when each frame is written."""
    hub = Hub(store)
    alice = (await hub.identify(nickname="alice")).player
    bob = (await hub.identify(nickname="bob")).player
    clock = {"kind": "total", "seconds": 300, "increment": 2}
    runtime, _ = await hub.quick_join("santorini", alice, clock=clock)
    await hub.quick_join("santorini", bob, clock=clock)
    assert runtime.timing.clock is not None
    peers = [listen(hub, runtime, 1) for _ in range(2)]
    player_id, action = to_move(runtime, {0: alice, 1: bob})
    started, ticks = runtime.timing.now(), iter(range(1, 10**6))
    runtime.timing.now = lambda: started + timedelta(milliseconds=next(ticks))  # each read later
    await runtime.act(player_id, action, "c1")
    readings = [p.updates()[-1]["clock"]["at"] for p in peers]
    assert all(p.updates()[-1]["version"] == 1 for p in peers)
    assert readings[0] < readings[1]  # each frame read the clock itself
