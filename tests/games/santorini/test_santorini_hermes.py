"""Hermes: each part of the power, the edge cases of docs/rules/santorini.md, forced playouts."""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers_santorini import GAME, act, cells_of, check_legal_exact, pos, rejects, sel, step
from test_santorini_playouts import check_invariants, replay, round_trip, try_rejected

from service.games.base import ActionModel
from service.games.santorini.actions import (
    ChooseGod, Move, PickGods, SelectWorker, Skip,
)
from service.games.santorini.board import cell
from service.games.santorini.gods import deck
from service.games.santorini.state import OVER, PICK, State

OPEN = """
0 0 0 0 0
0 A 0 0 0
0 0 0 0 0
0 0 0 B 0
0 0 0 C D
"""


def mv(st: State, seat: int, x: int, y: int) -> list[dict[str, Any]]:
    return act(st, seat, type="move", x=x, y=y)


def bd(st: State, seat: int, x: int, y: int) -> list[dict[str, Any]]:
    return act(st, seat, type="build", x=x, y=y)


def skip(st: State, seat: int) -> list[dict[str, Any]]:
    return act(st, seat, type="skip")


def around(*centres: tuple[int, int]) -> set[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    for x, y in centres:
        out |= {(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                if (dx or dy) and 0 <= x + dx < 5 and 0 <= y + dy < 5}
    return out


# --- deck ----------------------------------------------------------------------------


def test_hermes_in_full_deck_for_2_and_3_never_in_original() -> None:
    assert "HERMES" in deck("full", 2) and "HERMES" in deck("full", 3)
    assert "HERMES" not in deck("original", 2) and "HERMES" not in deck("original", 3)
    st = GAME.setup(2, GAME.parse_options({"deck": "original"}), 1)
    rejects(st, 0, "god_not_allowed", type="pick_gods", gods=["APOLLO", "HERMES"])
    st3 = GAME.setup(3, GAME.parse_options({}), 1)
    act(st3, 0, type="pick_gods", gods=["APOLLO", "HERMES", "ZEUS"])
    assert st3.offered == ["APOLLO", "HERMES", "ZEUS"]


# --- the normal turn -------------------------------------------------------------------


def test_first_move_up_is_a_normal_turn_and_only_that_worker_builds() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 1 0 0
    0 0 0 0 0
    0 0 0 B 0
    0 0 0 C D
    """, ["HERMES", "PAN"])
    sel(st, 0, 1, 1)
    assert (1, 2) in cells_of(st, 0, "move")  # the first move may go up
    mv(st, 0, 1, 2)
    assert step(st) == "BUILD" and not GAME.view(st, 0)["turn"]["optional"]
    assert cells_of(st, 0, "build") == around((1, 2))
    assert cells_of(st, 0, "select_worker") == set()
    rejects(st, 0, "worker_locked", type="select_worker", x=3, y=3)
    rejects(st, 0, "cannot_skip", type="skip")
    rejects(st, 0, "illegal_build", type="build", x=4, y=2)  # next to B only
    bd(st, 0, 0, 2)
    assert st.current == 1


def test_first_move_down_is_a_normal_turn() -> None:
    st = pos("""
    0 0 0 0 0
    0 1A 0 0 0
    0 0 0 0 0
    0 0 0 B 0
    0 0 0 C D
    """, ["HERMES", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    assert step(st) == "BUILD" and cells_of(st, 0, "build") == around((1, 2))


def test_normal_turn_climbing_wins() -> None:
    st = pos("""
    0 0 0 0 0
    0 2A 3 0 0
    0 0 0 0 0
    0 0 0 B 0
    0 0 0 C D
    """, ["HERMES", "PAN"])
    sel(st, 0, 1, 1)
    ev = mv(st, 0, 1, 2)
    assert st.winner == 0 and ev[-1]["reason"] == "climbed"


# --- the Hermes turn -----------------------------------------------------------------


def test_level_first_move_opens_the_hermes_moves() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 0 1 0
    0 0 0 0 0
    0 0 0 B 0
    0 0 0 C D
    """, ["HERMES", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    view = GAME.view(st, 0)["turn"]
    assert step(st) == "MOVE_LEVEL" and view["wire_step"] == "MOVE_UNTIL" and view["optional"]
    assert (1, 3) not in cells_of(st, 0, "move")  # level only now
    rejects(st, 0, "illegal_move", type="move", x=1, y=3)
    mv(st, 0, 1, 1)  # back to its start space: allowed
    mv(st, 0, 0, 0)
    mv(st, 0, 0, 1)
    assert step(st) == "MOVE_LEVEL" and st.workers[0] == cell(0, 1)
    skip(st, 0)
    assert step(st) == "BUILD"
    assert cells_of(st, 0, "build") == around((0, 1), (3, 3)) - {(4, 3), (4, 4)}


def test_both_workers_move_alternately_then_either_builds() -> None:
    st = pos(OPEN, ["HERMES", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    assert cells_of(st, 0, "select_worker") == {(3, 3)}
    assert GAME.view(st, 0)["turn"]["selectable"] == [1]
    ev = sel(st, 0, 3, 3)
    assert ev[-1]["type"] == "worker_selected" and st.turn is not None and st.turn.worker == 1
    assert step(st) == "MOVE_LEVEL"
    assert cells_of(st, 0, "move") == around((3, 3)) - {(4, 3), (4, 4)}
    mv(st, 0, 2, 2)
    sel(st, 0, 1, 2)  # back to A
    mv(st, 0, 0, 2)
    sel(st, 0, 2, 2)
    mv(st, 0, 2, 1)
    skip(st, 0)
    assert st.workers[:2] == [cell(0, 2), cell(2, 1)]
    assert cells_of(st, 0, "build") == around((0, 2), (2, 1))
    bd(st, 0, 3, 0)  # next to B only
    assert st.blocks[cell(3, 0)] == 1 and st.current == 1


def test_either_worker_builds_even_one_that_did_not_move() -> None:
    st = pos(OPEN, ["HERMES", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    skip(st, 0)
    assert step(st) == "BUILD"
    bd(st, 0, 4, 2)  # next to B, which never moved
    assert st.blocks[cell(4, 2)] == 1 and st.current == 1


def test_zero_moves_then_build() -> None:
    st = pos(OPEN, ["HERMES", "PAN"])
    sel(st, 0, 1, 1)
    assert GAME.view(st, 0)["turn"]["optional"]
    skip(st, 0)
    assert step(st) == "MOVE_LEVEL" and cells_of(st, 0, "select_worker") == {(3, 3)}
    skip(st, 0)
    assert step(st) == "BUILD"
    assert cells_of(st, 0, "build") == around((1, 1), (3, 3)) - {(4, 3), (4, 4)}
    bd(st, 0, 2, 2)
    assert st.workers[:2] == [cell(1, 1), cell(3, 3)] and st.current == 1


def test_skip_then_other_worker_moves() -> None:
    st = pos(OPEN, ["HERMES", "PAN"])
    sel(st, 0, 1, 1)
    skip(st, 0)
    sel(st, 0, 3, 3)
    mv(st, 0, 3, 2)
    assert step(st) == "MOVE_LEVEL"
    rejects(st, 0, "worker_locked", type="select_worker", x=3, y=2)  # already the acting one


def test_hermes_turn_cannot_climb_so_cannot_win_that_way() -> None:
    st = pos("""
    0 0 0 0 0
    0 2A 2 3 0
    0 0 0 0 0
    0 0 0 B 0
    0 0 0 C D
    """, ["HERMES", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)  # level: a Hermes turn
    assert (1, 3) not in cells_of(st, 0, "move")
    rejects(st, 0, "illegal_move", type="move", x=1, y=3)
    skip(st, 0)
    assert st.phase != OVER


def test_switch_only_to_a_worker_with_a_level_move() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 0 0
    0 0 1 1 1
    0 0 1 1B 1
    """, ["HERMES", "PAN"], seats=2)
    st.workers[2] = cell(0, 4)
    st.workers[3] = cell(2, 4)
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    assert cells_of(st, 0, "select_worker") == {(4, 3)}
    st.blocks[cell(3, 2)] = st.blocks[cell(3, 3)] = st.blocks[cell(3, 4)] = 2
    st.blocks[cell(4, 2)] = st.blocks[cell(4, 4)] = 2
    assert cells_of(st, 0, "select_worker") == set()  # B cannot move on its level
    rejects(st, 0, "worker_locked", type="select_worker", x=4, y=3)


# --- legal actions: exact ------------------------------------------------------------


def test_legal_actions_exact_at_every_step_of_a_hermes_turn() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 0 1 0
    0 0 3 0 0
    0 0 0 B 0
    0 0 0 C D
    """, ["HERMES", "LIMUS"])
    check_legal_exact(st)
    sel(st, 0, 1, 1)
    check_legal_exact(st)
    mv(st, 0, 1, 2)
    check_legal_exact(st)
    sel(st, 0, 3, 3)
    check_legal_exact(st)
    mv(st, 0, 3, 2)
    check_legal_exact(st)
    skip(st, 0)
    check_legal_exact(st)


# --- losing ----------------------------------------------------------------------------


def test_no_move_but_a_build_is_not_a_loss() -> None:
    st = pos("""
    A 2 0 0 0
    2 2 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    0 0 0 C D
    """, ["HERMES", "PAN"])  # a lone boxed-in worker (after a Medusa, say)
    assert st.phase != OVER and GAME.view(st, 0)["turn"]["selectable"] == [0]
    sel(st, 0, 0, 0)
    assert step(st) == "BUILD"  # nothing to move: straight to the build
    bd(st, 0, 0, 1)
    assert st.current == 1


def test_no_move_and_no_build_loses() -> None:
    st = pos("""
    A 3* 0 0 0
    3* 3* 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    0 0 0 C D
    """, ["HERMES", "PAN"], current=1)
    sel(st, 1, 4, 3)
    mv(st, 1, 3, 3)
    ev = bd(st, 1, 2, 2)
    assert st.winner == 1 and st.reason == "opponent_cannot_move"
    assert any(e["type"] == "player_lost" and e["seat"] == 0 for e in ev)


def test_hermes_turn_without_a_build_loses() -> None:
    st = pos("""
    A 0 3* 0 0
    3* 3* 3* 0 0
    0 0 0 0 0
    0 0 0 0 0
    0 0 0 C D
    """, ["HERMES", "PAN"], enforce_supply=True)
    st.supply[0] = 0  # no level-1 block left: the ground cells cannot be built on
    assert GAME.view(st, 0)["turn"]["selectable"] == [0]
    sel(st, 0, 0, 0)
    mv(st, 0, 0, 1)
    skip(st, 0)
    assert st.winner == 1 and st.reason == "opponent_cannot_build"


# --- interactions ----------------------------------------------------------------------


def test_athena_forbids_the_climb_not_the_hermes_turn() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 1 0 0
    0 0 0 0 0
    0 0 0 B 0
    0 0 0 C D
    """, ["HERMES", "ATHENA"], flags=[{}, {"athena_up": True}])
    sel(st, 0, 1, 1)
    assert (1, 2) not in cells_of(st, 0, "move")
    mv(st, 0, 0, 1)
    sel(st, 0, 3, 3)
    mv(st, 0, 2, 3)
    skip(st, 0)
    bd(st, 0, 0, 0)
    assert st.current == 1


def test_hypnus_blocked_worker_cannot_move_but_may_build() -> None:
    st = pos("""
    0 0 0 0 0
    0 1A 0 0 0
    0 0 0 0 0
    0 0 0 B 0
    0 0 0 C D
    """, ["HERMES", "HYPNUS"])
    assert st.turn is not None and st.turn.blocked == [0]
    assert GAME.view(st, 0)["turn"]["selectable"] == [0, 1]  # A: a turn without moving
    sel(st, 0, 3, 3)
    mv(st, 0, 3, 2)
    assert cells_of(st, 0, "select_worker") == set()  # A may not move
    rejects(st, 0, "worker_locked", type="select_worker", x=1, y=1)
    skip(st, 0)
    bd(st, 0, 0, 0)  # next to the blocked worker
    assert st.current == 1


def test_limus_restricts_builds_next_to_either_worker() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 0 0
    0 0 0 B 0
    C 0 0 0 D
    """, ["HERMES", "LIMUS"])
    sel(st, 0, 1, 1)
    skip(st, 0)
    skip(st, 0)
    builds = cells_of(st, 0, "build")
    assert (3, 4) not in builds and (2, 1) in builds and (3, 2) in builds
    rejects(st, 0, "illegal_build", type="build", x=4, y=3)


def test_aphrodite_last_move_of_a_bound_worker() -> None:
    st = pos("""
    0 0 0 0 0
    0 A C 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 0 D
    """, ["HERMES", "APHRODITE"])
    assert st.turn is not None and st.turn.bound == [0]
    sel(st, 0, 1, 1)
    assert (0, 0) in cells_of(st, 0, "move")  # a level move may wander: more may follow
    mv(st, 0, 0, 0)
    assert step(st) == "MOVE_LEVEL" and not GAME.view(st, 0)["turn"]["optional"]
    sel(st, 0, 4, 0)
    rejects(st, 0, "cannot_skip", type="skip")  # A's last move is not next to her
    sel(st, 0, 0, 0)
    mv(st, 0, 0, 1)
    skip(st, 0)
    assert step(st) == "BUILD"


def test_aphrodite_bound_worker_moving_up_must_end_next_to_her() -> None:
    st = pos("""
    0 0 0 0 0
    1 A C 0 0
    1 0 0 0 0
    0 0 0 0 0
    B 0 0 0 D
    """, ["HERMES", "APHRODITE"])
    sel(st, 0, 1, 1)
    moves = cells_of(st, 0, "move")
    assert (1, 0) not in moves and (2, 0) not in moves  # up: the last move, far from her
    assert (0, 0) in moves  # level: the Hermes turn may go on


# --- forced playouts -------------------------------------------------------------------


def choose(st: State, rng: random.Random, legal: list[ActionModel]) -> ActionModel:
    """Random, with Hermes' level moves ended now and then and worker switches tried."""
    switches = [a for a in legal if isinstance(a, SelectWorker)]
    steps = [a for a in legal if not isinstance(a, SelectWorker)]
    if st.turn is not None and st.turn.acted and switches and rng.random() < 0.2:
        return rng.choice(switches)
    if st.turn is not None and st.turn.step == "MOVE_LEVEL" and Skip() in legal and rng.random() < 0.35:
        return Skip()
    pool = steps or legal
    if len(pool) > 1 and rng.random() < 0.7:
        pool = [a for a in pool if not isinstance(a, Skip)] or pool
    return rng.choice(pool)


def hermes_playout(seed: int, seats: int, partner: str | None = None) -> tuple[State, list[tuple[int, Any]], int]:
    rng = random.Random(seed)
    st = GAME.setup(seats, GAME.parse_options({}), seed)
    log: list[tuple[int, Any]] = []
    hermes_moves = 0
    for n in range(500):
        if st.phase == OVER:
            break
        (seat,) = GAME.to_act(st)
        action: ActionModel
        if st.phase == PICK:
            others = [g for g in deck("full", seats) if g not in ("HERMES", partner)]
            fixed = ["HERMES"] + ([partner] if partner else [])
            action = PickGods(gods=tuple(fixed + rng.sample(others, seats - len(fixed))))
        elif st.phase == "choose_god" and "HERMES" in st.offered and rng.random() < 0.5:
            action = ChooseGod(god="HERMES")
        else:
            legal = GAME.legal_actions(st, seat) or []
            assert legal
            if rng.random() < 0.3:
                try_rejected(st, rng, legal)
            if n % 9 == 0 and st.phase == "play":
                check_legal_exact(st)
            action = choose(st, rng, legal)
        if st.turn is not None and st.turn.step == "MOVE_LEVEL" and isinstance(action, Move):
            hermes_moves += 1
        GAME.apply(st, seat, action)
        log.append((seat, GAME.dump_action(action)))
        check_invariants(st)
        round_trip(st)
    return st, log, hermes_moves


@pytest.mark.parametrize("seed,seats", [(s, 2) for s in range(300, 312)] + [(s, 3) for s in range(400, 410)])
def test_hermes_playout(seed: int, seats: int) -> None:
    st, log, _ = hermes_playout(seed, seats)
    assert "HERMES" in st.gods
    assert GAME.dump_state(replay(seats, {}, seed, log)) == GAME.dump_state(st)
    if st.phase == OVER:
        out = GAME.outcome(st)
        assert out is not None and out.winners == (st.winner,)
    GAME.render(st)


@pytest.mark.parametrize("partner", ["APHRODITE", "ATHENA", "HYPNUS", "LIMUS", "MEDUSA"])
def test_hermes_playout_against(partner: str) -> None:
    for seed in range(500, 503):
        st, log, _ = hermes_playout(seed, 2, partner)
        assert sorted(st.gods) == sorted(["HERMES", partner])  # type: ignore[type-var]
        assert GAME.dump_state(replay(2, {}, seed, log)) == GAME.dump_state(st)


def test_hermes_playouts_use_the_power() -> None:
    total = sum(hermes_playout(s, 2)[2] for s in range(300, 304))
    assert total > 0


def test_unused_action_types_stay_refused() -> None:
    st = pos(OPEN, ["HERMES", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    rejects(st, 0, "wrong_step", type="build", x=1, y=1)
    rejects(st, 0, "wrong_step", type="remove", x=1, y=1)
    rejects(st, 0, "wrong_phase", type="place_workers", positions=[{"x": 0, "y": 0}, {"x": 0, "y": 1}])
    rejects(st, 1, "not_your_turn", type="skip")
    skip(st, 0)
    rejects(st, 0, "wrong_step", type="move", x=1, y=3)
    rejects(st, 0, "worker_locked", type="select_worker", x=3, y=3)
