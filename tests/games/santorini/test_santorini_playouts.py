"""Seeded random playouts: invariants, JSON round trip, rejection changes nothing, replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from service.errors import MalformedAction, RulesError
from service.games.base import ActionModel
from service.games.santorini import GAME
from service.games.santorini.actions import (
    Build, ChooseGod, Force, Move, PickGods, Remove, SelectWorker, Skip,
)
from service.games.santorini.board import CELLS, PIECES
from service.games.santorini.gods import deck
from service.games.santorini.state import OVER, PICK, State

MAX_ACTIONS = 400


def check_invariants(st: State) -> None:
    on_board = [c for c in st.workers if c is not None]
    assert len(on_board) == len(set(on_board)), "two workers on one cell"
    for c in on_board:
        assert not st.domes[c], "worker on a dome"
    assert all(0 <= b <= 3 for b in st.blocks)
    used = [sum(1 for c in range(CELLS) if st.blocks[c] > k) for k in range(3)] + [sum(st.domes)]
    assert [u + s for u, s in zip(used, st.supply)] == list(PIECES), "piece supply not conserved"
    for s in range(st.seats):
        if not st.alive[s]:
            assert not st.workers_of(s)
    if st.phase == OVER:
        assert st.winner is not None and st.alive[st.winner]


def round_trip(st: State) -> None:
    data = GAME.dump_state(st)
    again = GAME.load_state(json.loads(json.dumps(data)))
    assert again == st


def random_illegal(rng: random.Random) -> ActionModel:
    x, y = rng.randrange(5), rng.randrange(5)
    return rng.choice([
        Move(x=x, y=y), Build(x=x, y=y), Build(x=x, y=y, dome=True), Remove(x=x, y=y),
        Force(x=x, y=y), SelectWorker(x=x, y=y), Skip(), ChooseGod(god="ZEUS"),
        PickGods(gods=("ZEUS", "HERA")),
    ])


def try_rejected(st: State, rng: random.Random, legal: list[ActionModel]) -> None:
    """Apply an action that is not listed: it must be refused and change nothing."""
    action = random_illegal(rng)
    seat = rng.choice([next(iter(GAME.to_act(st))), rng.randrange(st.seats)])
    if seat in GAME.to_act(st) and action in legal:
        return
    before = GAME.dump_state(st)
    with pytest.raises(RulesError):
        GAME.apply(st, seat, action)
    assert GAME.dump_state(st) == before


def choose(st: State, rng: random.Random, legal: list[ActionModel]) -> ActionModel:
    steps = [a for a in legal if not isinstance(a, SelectWorker)]
    pool = steps or legal
    if len(pool) > 1 and rng.random() < 0.7:
        pool = [a for a in pool if not isinstance(a, Skip)] or pool
    return rng.choice(pool)


def playout(seed: int, seats: int, options: dict[str, Any]) -> tuple[State, list[tuple[int, Any]]]:
    rng = random.Random(seed)
    opts = GAME.parse_options(options)
    st = GAME.setup(seats, opts, seed)
    log: list[tuple[int, Any]] = []
    for n in range(MAX_ACTIONS):
        if st.phase == OVER:
            break
        (seat,) = GAME.to_act(st)
        if st.phase == PICK:
            action: ActionModel = PickGods(gods=tuple(rng.sample(deck(st.deck, seats), seats)))
        else:
            legal = GAME.legal_actions(st, seat)
            assert legal, f"seat {seat} to act without a legal action"
            if rng.random() < 0.3:
                try_rejected(st, rng, legal)
            action = choose(st, rng, legal)
        GAME.apply(st, seat, action)
        log.append((seat, GAME.dump_action(action)))
        check_invariants(st)
        round_trip(st)
        if n % 8 == 0:
            json.dumps(GAME.view(st, seat))
    return st, log


def replay(seats: int, options: dict[str, Any], seed: int, log: list[tuple[int, Any]]) -> State:
    st = GAME.setup(seats, GAME.parse_options(options), seed)
    for seat, raw in log:
        GAME.apply(st, seat, GAME.parse_action(raw))
    return st


CASES = (
    [(s, 2, {}) for s in range(90)]
    + [(s, 3, {}) for s in range(100, 160)]
    + [(s, 2, {"gods": False}) for s in range(170, 190)]
    + [(s, 2, {"deck": "original", "enforce_supply": True}) for s in range(190, 210)]
    + [(s, 3, {"enforce_supply": True}) for s in range(210, 220)]
)


@pytest.mark.parametrize("seed,seats,options", CASES)
def test_playout(seed: int, seats: int, options: dict[str, Any]) -> None:
    st, log = playout(seed, seats, options)
    assert GAME.dump_state(replay(seats, options, seed, log)) == GAME.dump_state(st)
    if st.phase == OVER:
        out = GAME.outcome(st)
        assert out is not None and out.winners == (st.winner,)
        assert GAME.to_act(st) == frozenset()
        assert len(GAME.eliminated(st)) <= seats - 1
    GAME.render(st)


def test_malformed_actions() -> None:
    for raw in ({"type": "fly"}, {"type": "move", "x": 5, "y": 0}, {"type": "move"},
                {"type": "skip", "extra": 1}, {"type": "place_workers", "positions": [{"x": 0, "y": 0}]}):
        with pytest.raises(MalformedAction):
            GAME.parse_action(raw)
