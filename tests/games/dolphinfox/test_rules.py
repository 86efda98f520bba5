"""Dolphins & Foxes rules: terrain, moves, captures, end conditions."""

from __future__ import annotations

import pytest

from service.errors import MalformedAction, RulesError
from service.games.dolphinfox import GAME, DolphinFoxState, Move
from service.games.dolphinfox.board import decode_board, mirror, terrain_at


def position(board: str, *, max_moves: int = 200, moves: int = 0) -> DolphinFoxState:
    """A position from the seed's board string (n*n characters, row 1 first)."""
    size = int(len(board) ** 0.5)
    terrain, units = decode_board(board, size)
    return DolphinFoxState(size=size, terrain=terrain, max_moves=max_moves, units=units,
                           moves=moves, start_rows=(1, size))


def move(r1: int, c1: int, r2: int, c2: int) -> Move:
    return Move(r1=r1, c1=c1, r2=r2, c2=c2)


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("size,units", [(4, 2), (8, 3), (8, 4), (16, 8)])
def test_setup_is_fair_and_places_units_on_home_rows(seed: int, size: int, units: int) -> None:
    state = GAME.setup(2, GAME.parse_options({"size": size, "units": units}), seed)
    for r in range(1, size + 1):
        for c in range(1, size + 1):
            here = terrain_at(state.terrain, size, (r, c))
            there = terrain_at(state.terrain, size, mirror((r, c), size))
            assert {here, there} == {"W", "L"}
    dolphins = [sq for sq, t in state.units.items() if t == 0]
    foxes = [sq for sq, t in state.units.items() if t == 1]
    assert len(dolphins) == len(foxes) == units
    assert all(sq[0] == 1 and terrain_at(state.terrain, size, sq) == "W" for sq in dolphins)
    assert sorted(foxes) == sorted(mirror(sq, size) for sq in dolphins)


def test_setup_is_a_function_of_the_seed() -> None:
    options = GAME.parse_options({})
    assert GAME.setup(2, options, 7) == GAME.setup(2, options, 7)
    assert GAME.board(GAME.setup(2, options, 7)) != GAME.board(GAME.setup(2, options, 8))


@pytest.mark.parametrize("raw", [{"size": 5}, {"size": 2}, {"size": 18}, {"units": 5, "size": 8},
                                 {"units": 0}, {"colour": "red"}])
def test_bad_options_are_malformed(raw: dict[str, int]) -> None:
    with pytest.raises(MalformedAction):
        GAME.parse_options(raw)


def test_seed_example_move_is_a_plain_step() -> None:
    # the seed's 4x4 example board and its example move DBM 4 1 4 2
    state = position("WWWDWLFGWLLGDWDW")
    events = GAME.apply(state, 0, move(4, 1, 4, 2))
    assert events[0]["type"] == "unit_moved" and not events[0]["captured"]
    assert GAME.board(state) == "WWWDWLFGWLLGWDDW"


@pytest.mark.parametrize("action,reason", [
    (move(0, 1, 1, 1), "off_board"),
    (move(4, 4, 4, 5), "off_board"),
    (move(1, 4, 2, 3), "not_adjacent"),
    (move(1, 4, 3, 4), "not_adjacent"),
    (move(1, 1, 1, 2), "no_own_unit"),
    (move(2, 3, 2, 2), "no_own_unit"),
    (move(4, 1, 4, 1), "not_adjacent"),
])
def test_illegal_moves_change_nothing(action: Move, reason: str) -> None:
    state = position("WWWDWLFGWLLGDWDW")
    before = GAME.dump_state(state)
    with pytest.raises(RulesError) as err:
        GAME.apply(state, 0, action)
    assert err.value.code == f"rules/{reason}"
    assert GAME.dump_state(state) == before


def test_cannot_move_onto_own_unit() -> None:
    state = position("DDWW" "WWWW" "LLLL" "LLFL")
    with pytest.raises(RulesError, match="own team") as err:
        GAME.apply(state, 0, move(1, 1, 1, 2))
    assert err.value.code == "rules/own_unit_there"


def test_capture_on_home_terrain_removes_enemy() -> None:
    # fox abroad on water (G) at (1,2); dolphin at (1,1) on water captures it
    state = position("DGWW" "WWWW" "LLLL" "LLFL")
    events = GAME.apply(state, 0, move(1, 1, 1, 2))
    assert events[0]["captured"] is True
    assert state.count(1) == 1 and state.units[(1, 2)] == 0


def test_capture_abroad_is_illegal() -> None:
    # dolphin at (3,1) on land (E) next to a fox on land (F) at (3,2)
    state = position("DWWW" "WWWW" "EFLL" "LLLL")
    with pytest.raises(RulesError) as err:
        GAME.apply(state, 0, move(3, 1, 3, 2))
    assert err.value.code == "rules/capture_abroad"
    # the fox, at home on land, takes the dolphin standing abroad
    GAME.apply(state, 1, move(3, 2, 3, 1))
    assert state.units == {(1, 1): 0, (3, 1): 1}


def test_taking_the_last_unit_wins() -> None:
    state = position("DGWW" "WWWW" "LLLL" "LLLL")
    events = GAME.apply(state, 0, move(1, 1, 1, 2))
    assert GAME.outcome(state).winners == (0,)
    assert GAME.outcome(state).reason == "eliminated"
    assert events[-1]["type"] == "game_ended"
    assert GAME.to_act(state) == frozenset()
    with pytest.raises(RulesError) as err:
        GAME.apply(state, 0, move(1, 2, 1, 3))
    assert err.value.code == "rules/game_over"


def test_reaching_the_opponents_start_row_wins() -> None:
    state = position("WWWW" "WWWW" "DLLL" "LLLF")
    GAME.apply(state, 0, move(3, 1, 4, 1))
    assert GAME.outcome(state).winners == (0,) and GAME.outcome(state).reason == "crossed"
    state = position("DWWW" "FWWW" "LLLL" "LLLL")
    GAME.apply(state, 1, move(2, 1, 2, 2))
    assert GAME.outcome(state) is None
    GAME.apply(state, 1, move(2, 2, 1, 2))
    assert GAME.outcome(state).winners == (1,)


@pytest.mark.parametrize("board,expected", [
    ("DWWW" "WWWW" "LLLL" "LLFF", (1,)),
    ("DDWW" "WWWW" "LLLL" "LLFL", (0,)),
    ("DWWW" "WWWW" "LLLL" "LLFL", ()),
])
def test_move_limit_counts_units(board: str, expected: tuple[int, ...]) -> None:
    state = position(board, max_moves=5, moves=4)
    mover = 0
    source = next(sq for sq, t in state.units.items() if t == mover)
    GAME.apply(state, mover, move(source[0], source[1], source[0] + 1, source[1]))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "move_limit"
    assert outcome.winners == expected and outcome.draw == (expected == ())


def test_views_show_board_team_and_outcome() -> None:
    state = position("WWWDWLFGWLLGDWDW")
    assert GAME.view(state, 0)["team"] == "D" and GAME.view(state, 1)["team"] == "F"
    spectator = GAME.view(state, None)
    assert "team" not in spectator and spectator["board"] == "WWWDWLFGWLLGDWDW"
    assert "1 WWWD" in GAME.render(state)


def test_malformed_action_is_rejected() -> None:
    state = position("WWWDWLFGWLLGDWDW")
    with pytest.raises(MalformedAction):
        GAME.apply(state, 0, GAME.parse_action({"type": "move", "r1": "x"}))  # type: ignore[arg-type]
