"""Base rules, setup flow and rules errors."""

from __future__ import annotations

import pytest
from helpers_santorini import GAME, act, cells_of, pos, rejects, sel, step

from service.errors import MalformedAction
from service.games.santorini.notation import board_text, parse_board

EMPTY = """
0 0 0 0 0
0 A 0 0 0
0 0 0 0 0
0 0 0 C 0
B 0 0 0 D
"""


def test_move_then_build_and_turn_passes() -> None:
    st = pos(EMPTY)
    sel(st, 0, 1, 1)
    assert step(st) == "MOVE"
    assert len(cells_of(st, 0, "move")) == 8
    act(st, 0, type="move", x=2, y=2)
    assert step(st) == "BUILD"
    ev = act(st, 0, type="build", x=2, y=3)
    assert st.blocks[13] == 1 and st.current == 1
    assert [e["type"] for e in ev] == ["piece_built", "turn_ended", "turn_started"]


def test_climb_at_most_one_level_and_domes_block() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 2 1 0
    0 1* 0 0 0
    0 0 0 C 0
    B 0 0 0 D
    """)
    sel(st, 0, 1, 1)
    targets = cells_of(st, 0, "move")
    assert (1, 2) not in targets and (2, 1) not in targets
    rejects(st, 0, "illegal_move", type="move", x=1, y=2)
    rejects(st, 0, "illegal_move", type="move", x=3, y=3)  # not neighbouring


def test_win_by_moving_up_to_level_3() -> None:
    st = pos("""
    0 0 0 0 0
    0 2A 3 0 0
    0 0 0 0 0
    0 0 0 C 0
    B 0 0 0 D
    """)
    sel(st, 0, 1, 1)
    ev = act(st, 0, type="move", x=1, y=2)
    assert ev[-1] == {"type": "game_won", "seat": 0, "reason": "climbed"}
    assert GAME.outcome(st).winners == (0,)  # type: ignore[union-attr]
    rejects(st, 1, "game_over", type="skip")


def test_moving_3_to_3_does_not_win() -> None:
    st = pos("""
    0 0 0 0 0
    0 3A 3 0 0
    0 0 0 0 0
    0 0 0 C 0
    B 0 0 0 D
    """)
    sel(st, 0, 1, 1)
    act(st, 0, type="move", x=1, y=2)
    assert st.phase == "play" and step(st) == "BUILD"


def test_building_on_level_3_is_a_dome_and_never_under_self() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 3 0 0
    0 0 0 0 0
    0 0 0 C 0
    B 0 0 0 D
    """)
    sel(st, 0, 1, 1)
    act(st, 0, type="move", x=1, y=0)
    assert (1, 0) not in cells_of(st, 0, "build")
    rejects(st, 0, "illegal_build", type="build", x=1, y=1, dome=True)  # no Atlas
    act(st, 0, type="build", x=1, y=1)
    act(st, 1, type="select_worker", x=3, y=3)
    assert True
    st2 = pos("""
    0 0 0 0 0
    0 A 3 0 0
    0 0 0 0 0
    0 0 0 C 0
    B 0 0 0 D
    """)
    sel(st2, 0, 1, 1)
    act(st2, 0, type="move", x=0, y=1)
    act(st2, 0, type="build", x=1, y=2)
    assert st2.domes[7] and st2.blocks[7] == 3 and st2.complete_towers() == 1


def test_lose_when_no_worker_can_move_2p() -> None:
    st = pos("""
    A 2 0 0 0
    2 2 0 0 0
    0 0 0 0 B
    0 0 0 C 0
    0 0 0 0 D
    """, current=1)
    # seat 1 builds the last free step around B: then A and B... only A is boxed
    sel(st, 1, 3, 3)
    act(st, 1, type="move", x=3, y=2)
    act(st, 1, type="build", x=2, y=2)
    assert st.current == 0  # B can still move
    boxed = pos("""
    A 2 0 0 0
    2 2 0 0 0
    0 0 0 0 0
    0 0 0 C 0
    0 0 0 0 D
    """, current=1)
    sel(boxed, 1, 3, 3)
    act(boxed, 1, type="move", x=3, y=2)
    ev = act(boxed, 1, type="build", x=2, y=2)
    assert boxed.phase == "over" and boxed.winner == 1
    assert {"type": "player_lost", "seat": 0, "reason": "cannot_move"} in ev
    assert boxed.reason == "opponent_cannot_move"


def test_stuck_worker_cannot_be_selected_but_the_other_can() -> None:
    st = pos("""
    A 2 0 0 0
    2 2 0 0 0
    0 0 0 0 B
    0 0 0 C 0
    0 0 0 0 D
    """)
    rejects(st, 0, "worker_stuck", type="select_worker", x=0, y=0)
    assert GAME.view(st, 0)["turn"]["selectable"] == [1]
    sel(st, 0, 2, 4)


def test_lose_when_moved_worker_cannot_build() -> None:
    st = pos("""
    A 0 0 0 0
    3* 3* 0 0 0
    0 0 0 0 0
    0 0 0 C 0
    0 0 0 0 D
    """, seats=2)
    st.workers[1] = None  # a lone worker (as after Medusa)
    sel(st, 0, 0, 0)
    ev = act(st, 0, type="move", x=0, y=1)
    assert step(st) == "BUILD"
    st2 = pos("""
    0 A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    0 0 0 C 0
    0 0 0 0 D
    """, seats=2, enforce_supply=True)
    st2.workers[1] = None
    st2.supply = [0, 0, 0, 0]
    sel(st2, 0, 0, 1)
    ev = act(st2, 0, type="move", x=0, y=0)
    assert {"type": "player_lost", "seat": 0, "reason": "cannot_build"} in ev
    assert st2.winner == 1 and st2.reason == "opponent_cannot_build"


def test_three_player_elimination_removes_workers_and_play_goes_on() -> None:
    st = pos("""
    A 2 0 E 0
    2 2 0 0 F
    0 0 0 0 0
    0 0 0 C 0
    0 0 0 0 D
    """, ["PAN", "APOLLO", "ZEUS"], current=1)
    st.workers[1] = None
    sel(st, 1, 3, 3)
    act(st, 1, type="move", x=3, y=2)
    ev = act(st, 1, type="build", x=2, y=2)
    assert {"type": "player_lost", "seat": 0, "reason": "cannot_move"} not in ev
    assert st.current == 2
    sel(st, 2, 0, 3)
    act(st, 2, type="move", x=0, y=2)
    ev = act(st, 2, type="build", x=1, y=2)  # seat 0 (A boxed in) is next and is out
    assert {"type": "player_lost", "seat": 0, "reason": "cannot_move"} in ev
    assert GAME.eliminated(st) == frozenset({0}) and st.phase == "play"
    assert st.workers_of(0) == [] and st.current == 1
    assert GAME.to_act(st) == frozenset({1})


def test_last_standing_wins_in_three_player_game() -> None:
    st = pos("""
    A 2 0 0 0
    2 2 0 0 0
    0 0 0 0 0
    0 0 0 C 0
    0 0 0 0 0
    """, ["PAN", "APOLLO", "ZEUS"], current=1)
    st.alive[2] = False
    st.out_order = [2]
    sel(st, 1, 3, 3)
    act(st, 1, type="move", x=3, y=2)
    act(st, 1, type="build", x=2, y=2)
    assert st.winner == 1 and st.reason == "last_standing"
    assert GAME.outcome(st).detail == {"eliminated": [2, 0]}  # type: ignore[union-attr]


def test_challenger_flow_and_placement() -> None:
    st = GAME.setup(3, GAME.parse_options({}), 7)
    rejects(st, 1, "not_your_turn", type="pick_gods", gods=["APOLLO", "PAN", "ZEUS"])
    rejects(st, 0, "god_not_allowed", type="pick_gods", gods=["APOLLO", "PAN", "CHRONUS"])
    rejects(st, 0, "god_not_allowed", type="pick_gods", gods=["APOLLO", "PAN", "APHRODITE"])
    rejects(st, 0, "god_not_allowed", type="pick_gods", gods=["APOLLO", "PAN", "ODYSSEUS"])  # not implemented
    rejects(st, 0, "wrong_god_count", type="pick_gods", gods=["APOLLO", "PAN"])
    rejects(st, 0, "wrong_god_count", type="pick_gods", gods=["APOLLO", "PAN", "PAN"])
    rejects(st, 0, "wrong_phase", type="choose_god", god="PAN")
    act(st, 0, type="pick_gods", gods=["apollo", "pan", "zeus"])
    assert st.current == 1
    rejects(st, 1, "god_not_offered", type="choose_god", god="ATLAS")
    act(st, 1, type="choose_god", god="PAN")
    act(st, 2, type="choose_god", god="ZEUS")
    assert st.gods == ["APOLLO", "PAN", "ZEUS"] and st.phase == "place_workers" and st.current == 0
    act(st, 0, type="place_workers", positions=[{"x": 0, "y": 0}, {"x": 1, "y": 1}])
    rejects(st, 1, "illegal_placement", type="place_workers",
            positions=[{"x": 0, "y": 0}, {"x": 2, "y": 2}])
    rejects(st, 1, "illegal_placement", type="place_workers",
            positions=[{"x": 2, "y": 2}, {"x": 2, "y": 2}])
    act(st, 1, type="place_workers", positions=[{"x": 4, "y": 4}, {"x": 3, "y": 3}])
    ev = act(st, 2, type="place_workers", positions=[{"x": 0, "y": 4}, {"x": 4, "y": 0}])
    assert st.phase == "play" and st.current == 0 and ev[-1]["type"] == "turn_started"


def test_original_deck_and_two_player_only_gods() -> None:
    st = GAME.setup(2, GAME.parse_options({"deck": "original"}), 1)
    rejects(st, 0, "god_not_allowed", type="pick_gods", gods=["HERA", "PAN"])
    act(st, 0, type="pick_gods", gods=["CHRONUS", "PAN"])
    assert len(GAME.view(st, 0)["deck"]) == 14


def test_base_game_options() -> None:
    with pytest.raises(MalformedAction):
        GAME.setup(3, GAME.parse_options({"gods": False}), 1)
    with pytest.raises(MalformedAction):
        GAME.parse_options({"colour": "red"})
    st = GAME.setup(2, GAME.parse_options({"gods": False}), 1)
    assert st.phase == "place_workers"


def test_step_errors() -> None:
    st = pos(EMPTY)
    rejects(st, 0, "no_worker", type="move", x=2, y=2)
    rejects(st, 0, "no_worker", type="skip")
    rejects(st, 0, "not_your_worker", type="select_worker", x=3, y=3)
    rejects(st, 0, "not_your_worker", type="select_worker", x=2, y=2)
    rejects(st, 1, "not_your_turn", type="select_worker", x=3, y=3)
    rejects(st, 0, "wrong_phase", type="place_workers", positions=[{"x": 2, "y": 2}, {"x": 2, "y": 3}])
    sel(st, 0, 1, 1)
    sel(st, 0, 4, 0)  # reselect before acting is fine
    rejects(st, 0, "wrong_step", type="build", x=3, y=0)
    rejects(st, 0, "cannot_skip", type="skip")
    rejects(st, 0, "wrong_step", type="remove", x=3, y=0)
    rejects(st, 0, "wrong_step", type="force", x=3, y=0)
    act(st, 0, type="move", x=3, y=0)
    rejects(st, 0, "worker_locked", type="select_worker", x=1, y=1)
    rejects(st, 0, "illegal_build", type="build", x=0, y=0)
    rejects(st, 0, "wrong_step", type="move", x=2, y=0)


def test_supply_enforced_forbids_missing_piece() -> None:
    st = pos(EMPTY.replace("0 0 0 0 0\n0 A", "0 0 0 0 0\n1 A", 1), enforce_supply=True)
    st.supply[0] = 0
    sel(st, 0, 1, 1)
    act(st, 0, type="move", x=2, y=1)
    assert cells_of(st, 0, "build") == {(1, 0)}
    rejects(st, 0, "illegal_build", type="build", x=2, y=2)
    act(st, 0, type="build", x=1, y=0)
    assert st.supply[1] == 17
    st2 = pos(EMPTY)
    st2.supply[0] = 0
    sel(st2, 0, 1, 1)
    act(st2, 0, type="move", x=2, y=2)
    act(st2, 0, type="build", x=2, y=3)
    assert st2.supply[0] == -1  # counted, not enforced by default


def test_view_mask_and_notation_round_trip() -> None:
    st = pos(EMPTY)
    assert parse_board(board_text(st)) == parse_board(EMPTY)
    sel(st, 0, 4, 0)
    v = GAME.view(st, 0)["turn"]
    assert v["wire_step"] == "MOVE" and v["action"] == "move"
    assert v["mask"][3][0] and v["mask"][3][1] and v["mask"][4][1] and not v["mask"][2][2]
    assert "A" in GAME.render(st)
