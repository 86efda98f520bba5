"""A match can be followed in the log: one INFO line for each step of its life (created,
joined, started, left, stand-in, finished, aborted) with ``match``, ``game``, ``player`` and
``seat`` as structured fields (each its own key in JSON logs), the lines about a match carry
its id, and /metrics counts the matches created, finished and aborted."""

from __future__ import annotations

import json
import logging
import random
from typing import Any

import pytest
from prometheus_client import REGISTRY

from service.logs import ContextFilter, JsonFormatter
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.store import PlayerRecord, Store


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


class Lines:
    """The JSON lines the service would write, as dicts."""

    def __init__(self, caplog: pytest.LogCaptureFixture) -> None:
        self.caplog = caplog
        self.formatter = JsonFormatter()
        caplog.set_level(logging.INFO)

    def all(self) -> list[dict[str, Any]]:
        out = []
        for record in self.caplog.records:
            ContextFilter().filter(record)
            out.append(json.loads(self.formatter.format(record)))
        return out

    def events(self, match_id: int) -> list[dict[str, Any]]:
        return [line for line in self.all() if line.get("event") and line["match"] == match_id]


async def player(hub: Hub, nickname: str) -> PlayerRecord:
    return (await hub.identify(nickname=nickname)).player


async def play_to_the_end(runtime: MatchRuntime, players: list[PlayerRecord]) -> None:
    rng, game = random.Random(7), runtime.game
    for _ in range(5000):
        if runtime.status != "active":
            return
        seat = min(game.to_act(runtime.state))
        action = rng.choice(game.legal_actions(runtime.state, seat))
        await runtime.act(players[seat].id, game.dump_action(action))
    raise AssertionError("the match did not end")


async def test_a_match_played_to_the_end_is_followed_in_the_log(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    lines = Lines(caplog)
    hub = Hub(store)
    alice, bob = await player(hub, "alice"), await player(hub, "bob")
    created = sample("tavolo_matches_created_total", game="dolphinfox")
    runtime, seat = await hub.create("dolphinfox", player=alice)
    await hub.join(runtime.id, bob)
    await play_to_the_end(runtime, [alice, bob])
    reason = runtime.outcome()["reason"]  # type: ignore[index]
    events = lines.events(runtime.id)
    assert [e["event"] for e in events] == ["match_created", "player_joined", "player_joined",
                                            "match_started", "match_finished"]
    assert all(e["game"] == "dolphinfox" and e["level"] == "INFO" for e in events)
    joined = [(e["player"], e["nickname"], e["seat"]) for e in events[1:3]]
    assert joined == [(alice.id, "alice", seat), (bob.id, "bob", 1 - seat)]
    finished = events[-1]
    assert finished["reason"] == reason and finished["version"] == runtime.version
    assert finished["result"]["winners"] == runtime.outcome()["winners"]  # type: ignore[index]
    assert f"match {runtime.id} (dolphinfox): finished at version" in finished["message"]
    assert "{" not in finished["message"]  # the result in words, not a dict
    assert sample("tavolo_matches_created_total", game="dolphinfox") == created + 1
    assert sample("tavolo_matches_finished_total", game="dolphinfox", reason=reason) >= 1


async def test_left_stand_in_resigned_and_aborted_matches_say_who(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    lines = Lines(caplog)
    hub = Hub(store)
    alice, bob = await player(hub, "alice"), await player(hub, "bob")
    left, seat = await hub.quick_join("dolphinfox", alice)
    assert await hub.give_up_seat(left, alice.id)
    aborted_before = sample("tavolo_matches_aborted_total", game="dolphinfox", reason="admin")
    await hub.lifecycle.abort(left.id, by="admin")
    events = lines.events(left.id)
    assert [e["event"] for e in events] == ["match_created", "player_joined", "player_left",
                                            "match_aborted"]
    assert (events[2]["player"], events[2]["seat"]) == (alice.id, seat)
    assert events[3]["by"] == "admin" and "aborted by admin" in events[3]["message"]
    assert sample("tavolo_matches_aborted_total", game="dolphinfox",
                  reason="admin") == aborted_before + 1

    played, _ = await hub.quick_join("dolphinfox", alice)
    await hub.quick_join("dolphinfox", bob)
    await played.set_stand_in(1, "random")
    finished_before = sample("tavolo_matches_finished_total", game="dolphinfox", reason="resigned")
    await hub.lifecycle.resign(played.id, alice.id)
    events = lines.events(played.id)
    assert [e["event"] for e in events][-2:] == ["stand_in", "match_finished"]
    assert (events[-2]["seat"], events[-2]["bot_level"]) == (1, "random")
    assert events[-1]["reason"] == "resigned" and "won by seat 1 (resigned)" in events[-1]["message"]
    assert sample("tavolo_matches_finished_total", game="dolphinfox",
                  reason="resigned") == finished_before + 1


async def test_a_rematch_is_created_and_started(store: Store,
                                                caplog: pytest.LogCaptureFixture) -> None:
    lines = Lines(caplog)
    hub = Hub(store)
    alice, bob = await player(hub, "alice"), await player(hub, "bob")
    old, _ = await hub.quick_join("dolphinfox", alice)
    await hub.quick_join("dolphinfox", bob)
    await hub.lifecycle.resign(old.id, bob.id)
    await hub.rematch(old.id, alice)
    await hub.rematch(old.id, bob)
    assert old.rematch_id is not None
    events = lines.events(old.rematch_id)
    assert [(e["event"], e["rematch_of"]) for e in events] == [("match_created", old.id),
                                                             ("match_started", old.id)]


async def test_lines_about_a_match_carry_its_id(store: Store,
                                                caplog: pytest.LogCaptureFixture) -> None:
    lines = Lines(caplog)
    alice = await player(Hub(store), "alice")
    runtime, _ = await Hub(store).quick_join("dolphinfox", alice)
    await Hub(store).get(runtime.id)  # another process, as after a restart: it loads the match
    loaded = [line for line in lines.all() if line["message"].startswith(f"match {runtime.id} loaded")]
    assert loaded and all(line["match"] == runtime.id for line in loaded)
