"""Seeded random playouts: invariants on every step, refusals change nothing, listed actions are
complete, resources follow the events, JSON round trip, replay from the log, an outcome."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from renaissance_helpers import GAME

from service.errors import MalformedAction, RulesError
from service.games.renaissance import board as B
from service.games.renaissance import catalog as K
from service.games.renaissance.checks import invariant_errors
from service.games.renaissance.state import State

#: (seats, number of games, first seed); 1,040 games in all, split so each test stays short
CONFIGS = [(seats, 130, first) for seats in (1, 2, 3, 4) for first in (0, 1000)]
MAX_ACTIONS = 3000
ENDS = {1: {"lorenzo_faith", "lorenzo_cards", "seventh_card", "faith_track"},
        2: {"faith_track", "seventh_card"}, 3: {"faith_track", "seventh_card"},
        4: {"faith_track", "seventh_card"}}
#: verbs a "builder" bot prefers, so that playouts also reach the seventh card
BUILDER = ("buy_card", "produce_card", "produce_leader", "produce_base", "activate_leader",
           "place_resource", "convert_white_marble", "end_turn")


def choose(rnd: random.Random, legal: list[Any], builder: bool) -> Any:
    """A verb uniformly (a builder first looks for its favourite verbs), then one action."""
    kinds: dict[str, list[Any]] = {}
    for action in legal:
        kinds.setdefault(action.type, []).append(action)
    if builder:
        for verb in BUILDER:
            if verb in kinds and (verb != "end_turn" or rnd.random() < 0.9):
                return rnd.choice(kinds[verb])
    return rnd.choice(kinds[rnd.choice(sorted(kinds))])


def random_raw(rnd: random.Random) -> dict[str, Any]:
    """Any well-formed action, legal or not."""
    r, d = rnd.choice(K.RESOURCES), rnd.choice([1, 2, 3, "extra"])
    return rnd.choice([
        {"type": "take_from_market", "line": rnd.choice(["row", "column"]),
         "index": rnd.randint(1, 4)},
        {"type": "place_resource", "resource": r, "depot": d},
        {"type": "discard_resource", "resource": r},
        {"type": "convert_white_marble", "resource": r},
        {"type": "swap_depots", "first": rnd.randint(1, 3), "second": rnd.randint(1, 3)},
        {"type": "move_resources", "resource": r, "source": d, "target": "extra",
         "count": rnd.randint(1, 2)},
        {"type": "buy_card", "level": rnd.randint(1, 3), "color": rnd.choice(K.COLOURS),
         "slot": rnd.randint(1, 3)},
        {"type": "produce_base", "inputs": [r, rnd.choice(K.RESOURCES)], "output": r},
        {"type": "produce_card", "slot": rnd.randint(1, 3)},
        {"type": "produce_leader", "leader": rnd.randint(13, 16), "output": r},
        {"type": "activate_leader", "leader": rnd.randint(1, 16)},
        {"type": "discard_leader", "leader": rnd.randint(1, 16)},
        {"type": "choose_leaders", "leaders": [rnd.randint(1, 16), rnd.randint(1, 16)]},
        {"type": "take_bonus_resource", "resource": r, "depot": rnd.randint(1, 3)},
        {"type": "end_turn"},
    ])


def decision(action: Any) -> str:
    """An action without its payment, with unordered pairs in order: what the list must hold."""
    data = GAME.dump_action(action)
    data.pop("pay", None)
    for key in ("inputs", "leaders"):
        if key in data:
            data[key] = sorted(data[key])
    if data["type"] == "swap_depots":
        data["first"], data["second"] = sorted((data["first"], data["second"]))
    return json.dumps(data, sort_keys=True)


def try_other(state: State, rnd: random.Random, legal: list[Any]) -> None:
    """A random action for a random seat: refused without a trace, or one the list offered."""
    raw, seat = random_raw(rnd), rnd.randrange(state.seats)
    before = GAME.dump_state(state)
    trial = GAME.load_state(before)
    try:
        GAME.apply(trial, seat, raw)
    except (RulesError, MalformedAction):
        assert GAME.dump_state(trial) == before, raw
        return
    listed = {decision(a) for a in GAME.legal_actions(state, seat)}
    assert decision(GAME.parse_action(raw)) in listed, (raw, seat)


def stored(state: State) -> list[int]:
    return [sum(B.held(p)) for p in state.players]


def expected_change(events: list[dict[str, Any]], seats: int) -> list[int]:
    """What the events say happened to each seat's stored resources."""
    delta = [0] * seats
    for e in events:
        if e["type"] in ("resource_placed", "bonus_resource_taken"):
            delta[e["seat"]] += 1
        elif e["type"] in ("card_bought", "production_run"):
            paid = sum(n for part in e["paid"].values() for n in part.values())
            delta[e["seat"]] += sum(e.get("gained", {}).values()) - paid
    return delta


def pending_after(state: State, before: int, events: list[dict[str, Any]]) -> int:
    total = before
    for e in events:
        if e["type"] == "resources_taken":
            total = sum(e["pending"].values()) + e["pending_white"]
        elif e["type"] in ("resource_placed", "resource_discarded"):
            total -= 1
    return total


def step(state: State, seat: int, action: Any) -> list[dict[str, Any]]:
    held, pending = stored(state), sum(state.pending) + state.pending_white
    events = GAME.apply(state, seat, json.loads(json.dumps(GAME.dump_action(action))))
    change = expected_change(events, state.seats)
    assert stored(state) == [h + c for h, c in zip(held, change)], events
    assert sum(state.pending) + state.pending_white == pending_after(state, pending, events)
    errors = invariant_errors(state)
    assert not errors, errors
    assert GAME.load_state(json.loads(json.dumps(GAME.dump_state(state)))) == state
    return events


def initial(seats: int, seed: int) -> State:
    """Odd seeds are builders' games: each player starts with a rich strongbox, so cards are
    bought often and games also end by the seventh card (or a solo player's win)."""
    state = GAME.setup(seats, GAME.parse_options({}), seed)
    if seed % 2:
        for player in state.players:
            player.strongbox = [8, 8, 8, 8]
    return state


def playout(seats: int, seed: int) -> str:
    state = initial(seats, seed)
    rnd = random.Random(seed * 5 + seats)
    builder = seed % 2 == 1
    log: list[tuple[int, dict[str, Any]]] = []
    while GAME.outcome(state) is None:
        assert len(log) < MAX_ACTIONS
        seat = rnd.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_actions(state, seat)
        assert legal
        if rnd.random() < 0.05:
            try_other(state, rnd, legal)
        action = choose(rnd, legal, builder)
        step(state, seat, action)
        log.append((seat, GAME.dump_action(action)))
    replay = initial(seats, seed)
    for seat, raw in log:
        GAME.apply(replay, seat, raw)
    assert GAME.dump_state(replay) == GAME.dump_state(state)
    assert GAME.to_act(state) == frozenset()
    for seat in [None, *range(seats)]:
        json.dumps(GAME.view(state, seat))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason in ENDS[seats]
    assert outcome.winners or (seats == 1 and outcome.reason.startswith("lorenzo"))
    return outcome.reason


@pytest.mark.parametrize("seats,games,first", CONFIGS)
def test_random_playouts(seats: int, games: int, first: int) -> None:
    reasons = {playout(seats, seed) for seed in range(first, first + games)}
    assert reasons == ENDS[seats]
