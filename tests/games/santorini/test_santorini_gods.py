"""One test (or a few) per god power and per interaction of rules file section 6.3."""

from __future__ import annotations

from helpers_santorini import GAME, act, cells_of, pos, rejects, sel, step

from service.games.santorini.board import cell

ATHENA_UP = [{}, {"athena_up": True}]


def mv(st, seat, x, y):  # type: ignore[no-untyped-def]
    return act(st, seat, type="move", x=x, y=y)


def bd(st, seat, x, y, dome=False):  # type: ignore[no-untyped-def]
    return act(st, seat, type="build", x=x, y=y, dome=dome)


# --- Apollo --------------------------------------------------------------------------


def test_apollo_swaps_with_opponent_not_own() -> None:
    st = pos("""
    0 0 0 0 0
    0 A B 0 0
    0 3C 0 0 0
    0 0 0 0 0
    0 0 0 0 D
    """, ["APOLLO", "PAN"])
    sel(st, 0, 1, 1)
    targets = cells_of(st, 0, "move")
    assert (1, 2) not in targets and (2, 1) not in targets  # own worker / too high
    st2 = pos("""
    0 0 0 0 0
    0 A B 0 0
    0 1C 0 0 0
    0 0 0 0 0
    0 0 0 0 D
    """, ["APOLLO", "PAN"])
    sel(st2, 0, 1, 1)
    mv(st2, 0, 2, 1)
    assert st2.workers[0] == cell(2, 1) and st2.workers[2] == cell(1, 1)


def test_apollo_wins_by_swap_up_and_victim_forced_never_wins() -> None:
    st = pos("""
    0 0 0 0 0
    0 2A 0 0 0
    0 3C 0 0 0
    0 0 0 0 B
    0 0 0 0 D
    """, ["APOLLO", "PAN"])
    sel(st, 0, 1, 1)
    ev = mv(st, 0, 2, 1)
    assert st.winner == 0 and ev[-1]["reason"] == "climbed"


def test_apollo_boxed_by_opponents_can_still_move() -> None:
    st = pos("""
    A C 0 0 0
    D 3* 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    0 0 0 0 B
    """, ["APOLLO", "PAN"])
    st.workers[1] = None
    assert GAME.view(st, 0)["turn"]["selectable"] == [0]
    sel(st, 0, 0, 0)
    assert cells_of(st, 0, "move") == {(0, 1), (1, 0)}


# --- Artemis -------------------------------------------------------------------------


def test_artemis_second_move_not_back_and_optional() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["ARTEMIS", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    assert step(st) == "MOVE_SPECIAL" and GAME.view(st, 0)["turn"]["optional"]
    rejects(st, 0, "illegal_move", type="move", x=1, y=1)
    mv(st, 0, 1, 3)
    assert step(st) == "BUILD"
    assert (1, 1) not in cells_of(st, 0, "build")  # build next to the final space
    st2 = pos("""
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["ARTEMIS", "PAN"])
    sel(st2, 0, 1, 1)
    mv(st2, 0, 1, 2)
    act(st2, 0, type="skip")
    assert step(st2) == "BUILD"


def test_artemis_climbs_twice_and_wins() -> None:
    st = pos("""
    0 0 0 0 0
    1A 2 3 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["ARTEMIS", "PAN"])
    sel(st, 0, 1, 0)
    mv(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    assert st.winner == 0


# --- Athena --------------------------------------------------------------------------


def test_athena_moving_up_stops_opponents_climbing_until_her_next_turn() -> None:
    st = pos("""
    0A 1 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    0 0 1 0 0
    B 0 0 C D
    """, ["ATHENA", "PAN"])
    sel(st, 0, 0, 0)
    mv(st, 0, 0, 1)
    bd(st, 0, 0, 2)
    assert st.flags[0]["athena_up"] and st.current == 1
    sel(st, 1, 4, 3)
    assert (3, 2) not in cells_of(st, 1, "move")
    mv(st, 1, 3, 3)
    bd(st, 1, 2, 3)
    sel(st, 0, 4, 0)  # her turn starts: the restriction is over
    assert not st.flags[0]["athena_up"]


def test_athena_forced_rise_does_not_trigger() -> None:
    st = pos("""
    0A 0 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 1C D
    """, ["PAN", "ATHENA"], current=0)
    assert not st.flags[1].get("athena_up")


def test_athena_vs_apollo_minotaur_artemis_triton_prometheus() -> None:
    board = """
    0 0 0 0 0
    0 A 1 0 0
    0 1C 0 0 0
    0 0 0 0 0
    B 0 0 0 D
    """
    for god in ("APOLLO", "MINOTAUR", "ARTEMIS", "TRITON", "PROMETHEUS"):
        st = pos(board, [god, "ATHENA"], flags=ATHENA_UP)
        sel(st, 0, 1, 1)
        if god == "PROMETHEUS":
            act(st, 0, type="skip")
        targets = cells_of(st, 0, "move")
        assert (1, 2) not in targets and (2, 1) not in targets, god
        assert (1, 0) in targets


# --- Atlas ---------------------------------------------------------------------------


def test_atlas_dome_at_any_level_is_not_a_complete_tower() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["ATLAS", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    bd(st, 0, 1, 1, dome=True)
    assert st.domes[cell(1, 1)] and st.blocks[cell(1, 1)] == 0 and st.complete_towers() == 0
    assert st.supply[3] == 17


# --- Demeter, Hephaestus, Hestia -----------------------------------------------------------


def test_demeter_second_build_not_same_space() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["DEMETER", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    bd(st, 0, 1, 3)
    assert step(st) == "BUILD_SPECIAL" and GAME.view(st, 0)["turn"]["wire_step"] == "BUILD_SPECIAL"
    rejects(st, 0, "illegal_build", type="build", x=1, y=3)
    bd(st, 0, 0, 3)
    assert st.current == 1


def test_hephaestus_second_block_same_space_never_dome() -> None:
    board = """
    0 0 0 0 0
    0 A 0 {h} 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """
    st = pos(board.format(h=0), ["HEPHAESTUS", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    bd(st, 0, 1, 3)
    assert cells_of(st, 0, "build") == {(1, 3)}
    rejects(st, 0, "illegal_build", type="build", x=0, y=3)
    bd(st, 0, 1, 3)
    assert st.blocks[cell(1, 3)] == 2
    st2 = pos(board.format(h=2), ["HEPHAESTUS", "PAN"])
    sel(st2, 0, 1, 1)
    mv(st2, 0, 1, 2)
    bd(st2, 0, 1, 3)  # level 3 reached: no extra block
    assert st2.current == 1


def test_hestia_extra_build_not_perimeter_may_repeat_space() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["HESTIA", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    bd(st, 0, 1, 3)
    targets = cells_of(st, 0, "build")
    assert (1, 3) in targets and (0, 3) not in targets and (0, 1) not in targets
    bd(st, 0, 1, 3)
    assert st.blocks[cell(1, 3)] == 2


# --- Minotaur ----------------------------------------------------------------------------


def test_minotaur_pushes_straight_back_onto_free_space_only() -> None:
    st = pos("""
    0 0 0 0 0
    0 A C 0 0
    0 D 0 0 0
    0 3* 0 0 0
    0 0 0 0 B
    """, ["MINOTAUR", "PAN"])
    sel(st, 0, 1, 1)
    targets = cells_of(st, 0, "move")
    assert (1, 2) in targets and (2, 1) not in targets  # D would land on a dome
    mv(st, 0, 1, 2)
    assert st.workers[2] == cell(1, 3) and st.workers[0] == cell(1, 2)


def test_minotaur_push_off_board_impossible_and_diagonal_push() -> None:
    st = pos("""
    0 C 0 0 0
    0 0 A 0 0
    0 0 0 D 0
    0 0 0 0 0
    0 0 0 0 B
    """, ["MINOTAUR", "PAN"])
    sel(st, 0, 1, 2)
    targets = cells_of(st, 0, "move")
    assert (0, 1) not in targets and (2, 3) in targets
    mv(st, 0, 2, 3)
    assert st.workers[3] == cell(3, 4)


# --- Pan -----------------------------------------------------------------------------------


def test_pan_wins_dropping_two_levels() -> None:
    st = pos("""
    0 0 0 0 0
    0 2A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["PAN", "APOLLO"])
    sel(st, 0, 1, 1)
    mv(st, 0, 2, 2)
    assert st.winner == 0 and st.reason == "pan_drop"


def test_pan_forced_down_does_not_win() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 2C 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 0 D
    """, ["APOLLO", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2) if st.blocks[cell(1, 2)] <= 1 else None
    st2 = pos("""
    0 0 0 0 0
    0 1A 2C 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 0 D
    """, ["APOLLO", "PAN"])
    sel(st2, 0, 1, 1)
    mv(st2, 0, 1, 2)
    assert st2.phase == "play" and st2.workers[2] == cell(1, 1)


# --- Prometheus ------------------------------------------------------------------------------


def test_prometheus_build_before_then_no_moving_up() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 1 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["PROMETHEUS", "PAN"])
    sel(st, 0, 1, 1)
    assert step(st) == "PRE_BUILD" and GAME.view(st, 0)["turn"]["wire_step"] == "BUILD"
    bd(st, 0, 0, 0)
    assert step(st) == "MOVE" and (1, 2) not in cells_of(st, 0, "move")
    mv(st, 0, 2, 2)
    bd(st, 0, 2, 3)
    assert st.current == 1


def test_prometheus_skip_gives_a_normal_turn() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 1 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["PROMETHEUS", "PAN"])
    sel(st, 0, 1, 1)
    act(st, 0, type="skip")
    assert (1, 2) in cells_of(st, 0, "move")
    rejects(st, 0, "worker_locked", type="select_worker", x=4, y=0)


def test_prometheus_boxing_itself_in_loses() -> None:
    st = pos("""
    A 1 3* 0 0
    3* 3* 3* 0 0
    0 0 0 0 0
    0 0 0 0 0
    0 0 0 C D
    """, ["PROMETHEUS", "PAN"])
    st.workers[1] = None
    sel(st, 0, 0, 0)
    ev = bd(st, 0, 0, 1)  # now the only move would be up
    assert {"type": "player_lost", "seat": 0, "reason": "cannot_move"} in ev and st.winner == 1


# --- Ares ----------------------------------------------------------------------------------


def test_ares_removes_block_near_unmoved_worker() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 0 0
    2 1* 0 0 0
    B 1 0 C D
    """, ["ARES", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    bd(st, 0, 1, 3)
    assert step(st) == "REMOVE" and GAME.view(st, 0)["turn"]["acting_worker"] == 1
    assert cells_of(st, 0, "remove") == {(3, 0), (4, 1)}  # not the dome, not ground
    act(st, 0, type="remove", x=3, y=0)
    assert st.blocks[cell(3, 0)] == 1 and st.supply[1] == 18 and st.current == 1


def test_ares_remove_is_skippable_and_absent_without_blocks() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 0 0
    1 0 0 0 0
    B 0 0 C D
    """, ["ARES", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    bd(st, 0, 1, 3)
    act(st, 0, type="skip")
    assert st.current == 1
    st2 = pos("""
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["ARES", "PAN"])
    sel(st2, 0, 1, 1)
    mv(st2, 0, 1, 2)
    bd(st2, 0, 1, 3)
    assert st2.current == 1  # nothing to remove: the step is passed over


# --- Chronus -----------------------------------------------------------------------------------


TOWERS4 = """
3* 3* 3* 3* 0
0 A 0 0 0
0 0 3 0 0
0 0 0 0 0
B 0 0 C D
"""


def test_chronus_wins_with_five_complete_towers_even_on_opponent_build() -> None:
    st = pos(TOWERS4, ["PAN", "CHRONUS"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    ev = bd(st, 0, 2, 2)
    assert st.winner == 1 and ev[-1]["reason"] == "chronus_towers"


def test_chronus_vs_atlas_low_domes_do_not_count() -> None:
    st = pos(TOWERS4.replace("0 0 3 0 0", "0 0 0 0 0"), ["ATLAS", "CHRONUS"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    bd(st, 0, 2, 2, dome=True)
    assert st.phase == "play" and st.complete_towers() == 4


# --- Triton ------------------------------------------------------------------------------------


def test_triton_moves_again_while_on_perimeter() -> None:
    st = pos("""
    0 0 0 0 0
    A 0 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    0 0 B C D
    """, ["TRITON", "PAN"])
    sel(st, 0, 1, 0)
    mv(st, 0, 0, 0)
    assert step(st) == "MOVE_UNTIL"
    mv(st, 0, 0, 1)
    mv(st, 0, 1, 0)
    mv(st, 0, 0, 0)  # revisiting spaces is allowed
    mv(st, 0, 1, 1)  # inner space: the chain stops
    assert step(st) == "BUILD"
    st2 = pos("""
    0 0 0 0 0
    A 0 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    0 0 B C D
    """, ["TRITON", "PAN"])
    sel(st2, 0, 1, 0)
    mv(st2, 0, 0, 0)
    act(st2, 0, type="skip")
    assert step(st2) == "BUILD"


# --- Zeus --------------------------------------------------------------------------------------


def test_zeus_builds_under_itself_to_level_3_without_winning_then_3_to_3_no_win() -> None:
    st = pos("""
    0 0 0 0 0
    0 1A 2 3 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["ZEUS", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    assert (1, 2) in cells_of(st, 0, "build")
    bd(st, 0, 1, 2)
    assert st.blocks[cell(1, 2)] == 3 and st.phase == "play" and st.current == 1
    sel(st, 1, 4, 3)
    mv(st, 1, 3, 3)
    bd(st, 1, 3, 4)
    sel(st, 0, 1, 2)
    mv(st, 0, 1, 3)
    assert st.phase == "play"
    assert (1, 3) not in cells_of(st, 0, "build")  # no block under itself on level 3


# --- Hera ------------------------------------------------------------------------------------


def test_hera_denies_perimeter_wins_of_pan_artemis_triton_apollo() -> None:
    cases = {
        "PAN": ("0 0 0 0 0\n0 2A 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 B C D", (1, 0), (2, 2)),
        "APOLLO": ("2 2A 3C 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 B 0 D", (0, 2), None),
        "ARTEMIS": ("1A 2 3 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 B C D", (0, 2), None),
    }
    for god, (board, denied, allowed) in cases.items():
        st = pos(board, [god, "HERA"])
        sel(st, 0, *[(x, y) for x in range(5) for y in range(5) if st.workers[0] == cell(x, y)][0])
        if god == "ARTEMIS":
            mv(st, 0, 0, 1)
        mv(st, 0, *denied)
        assert st.phase == "play", god
        if allowed:
            st2 = pos(board, [god, "HERA"])
            sel(st2, 0, 1, 1)
            mv(st2, 0, *allowed)
            assert st2.winner == 0
    st = pos("0 0 0 0 0\n0 2A 3 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 B C D", ["TRITON", "HERA"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)  # inner space: the win stands
    assert st.winner == 0
    st = pos("0 0 0 0 0\n2A 3 0 0 0\n3 0 0 0 0\n0 0 0 0 0\n0 0 B C D", ["TRITON", "HERA"])
    sel(st, 0, 1, 0)
    mv(st, 0, 2, 0)  # perimeter: no win, but Triton may go on
    assert st.phase == "play" and step(st) == "MOVE_UNTIL"


# --- Limus -------------------------------------------------------------------------------------


def test_limus_blocks_builds_next_to_its_workers_except_tower_domes() -> None:
    board = """
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 3 0
    0 0 0 0 C
    B 0 0 0 D
    """
    for god in ("DEMETER", "HESTIA", "HEPHAESTUS", "ATLAS", None):
        st = pos(board, [god or "PAN", "LIMUS"])
        sel(st, 0, 1, 1)
        mv(st, 0, 2, 2)
        targets = cells_of(st, 0, "build")
        assert (2, 3) in targets and (3, 3) not in targets and (3, 2) in targets, god
        if god == "ATLAS":
            rejects(st, 0, "illegal_build", type="build", x=3, y=3, dome=True)
        if god in ("DEMETER", "HESTIA"):
            bd(st, 0, 3, 2)
            assert (3, 3) not in cells_of(st, 0, "build")


def test_limus_blocking_every_build_makes_the_opponent_lose() -> None:
    st = pos("""
    A 0 C 0 0
    D 3* 3* 0 0
    0 0 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    """, ["PAN", "LIMUS"])
    st.workers[1] = None
    sel(st, 0, 0, 0)
    ev = mv(st, 0, 0, 1)
    assert {"type": "player_lost", "seat": 0, "reason": "cannot_build"} in ev


# --- Medusa ----------------------------------------------------------------------------------------


def test_medusa_petrifies_lower_neighbours_at_end_of_turn() -> None:
    st = pos("""
    0 0 0 0 0
    0 1A 0 0 0
    0 0 C 0 0
    0 0 0 0 0
    B 0 0 1 1D
    """, ["MEDUSA", "PAN"])
    sel(st, 0, 4, 0)
    mv(st, 0, 4, 1)
    ev = bd(st, 0, 3, 0)
    assert st.workers[2] is None and st.blocks[cell(2, 2)] == 1
    assert any(e["type"] == "worker_removed" and e["reason"] == "petrified" for e in ev)
    assert st.workers[3] is not None  # D is not lower


def test_medusa_removing_both_workers_wins_2p() -> None:
    st = pos("""
    0 0 0 0 0
    0 1A 0 0 0
    0 0 C 0 0
    0 0 0 0 0
    B 0 0 0 0
    """, ["MEDUSA", "PAN"])
    st.workers[3] = None
    sel(st, 0, 4, 0)
    mv(st, 0, 4, 1)
    ev = bd(st, 0, 3, 0)
    assert st.winner == 0 and {"type": "player_lost", "seat": 1, "reason": "petrified"} in ev


# --- Poseidon ---------------------------------------------------------------------------------------


def test_poseidon_unmoved_ground_worker_builds_up_to_three_times() -> None:
    st = pos("""
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["POSEIDON", "PAN"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 2)
    bd(st, 0, 1, 3)
    assert step(st) == "BUILD_UNMOVED" and GAME.view(st, 0)["turn"]["wire_step"] == "BUILD_SPECIAL"
    bd(st, 0, 3, 0)
    bd(st, 0, 3, 0)
    bd(st, 0, 4, 1)
    assert st.current == 1 and st.blocks[cell(3, 0)] == 2
    st2 = pos("""
    0 0 0 0 0
    0 A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    1B 0 0 C D
    """, ["POSEIDON", "PAN"])
    sel(st2, 0, 1, 1)
    mv(st2, 0, 1, 2)
    bd(st2, 0, 1, 3)
    assert st2.current == 1  # unmoved worker not on the ground


# --- Charon -----------------------------------------------------------------------------------------


def test_charon_forces_opponent_across_then_moves() -> None:
    st = pos("""
    0 0 0 0 0
    0 C 0 0 0
    0 0 A 0 0
    0 0 0 3* 0
    B 0 0 0 D
    """, ["CHARON", "PAN"])
    sel(st, 0, 2, 2)
    assert step(st) == "MOVE"  # C would land on a dome: nothing to force, the step is passed over
    st2 = pos("""
    0 0 0 0 0
    0 C 0 0 0
    0 0 A 0 0
    0 0 0 2 0
    B 0 0 0 D
    """, ["CHARON", "PAN"])
    sel(st2, 0, 2, 2)
    assert step(st2) == "FORCE" and cells_of(st2, 0, "force") == {(1, 1)}
    act(st2, 0, type="force", x=1, y=1)
    assert st2.workers[2] == cell(3, 3) and step(st2) == "MOVE"
    mv(st2, 0, 1, 1)  # may use the freed space


def test_charon_forcing_onto_level_3_is_no_win() -> None:
    st = pos("""
    0 0 0 0 0
    0 2C 0 0 0
    0 0 A 0 0
    0 0 0 3 0
    B 0 0 0 D
    """, ["CHARON", "PAN"])
    sel(st, 0, 2, 2)
    act(st, 0, type="force", x=1, y=1)
    assert st.phase == "play" and st.workers[2] == cell(3, 3)


# --- Hypnus ------------------------------------------------------------------------------------------


def test_hypnus_blocks_the_single_highest_worker() -> None:
    st = pos("""
    0 0 0 0 0
    0 1A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 C D
    """, ["PAN", "HYPNUS"])
    rejects(st, 0, "worker_stuck", type="select_worker", x=1, y=1)
    sel(st, 0, 4, 0)
    st2 = pos("""
    0 0 0 0 0
    0 1A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    1B 0 0 C D
    """, ["PAN", "HYPNUS"])
    sel(st2, 0, 1, 1)  # equal heights: no effect


def test_hypnus_lone_worker_is_not_blocked() -> None:
    st = pos("""
    0 0 0 0 0
    0 1A 0 0 0
    0 0 0 0 0
    0 0 0 0 0
    0 0 0 C D
    """, ["PAN", "HYPNUS"])
    st.workers[1] = None
    st = pos("0 0 0 0 0\n0 1A 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 C D", ["PAN", "HYPNUS"])
    sel(st, 0, 1, 1)


# --- Aphrodite ------------------------------------------------------------------------------------------


def test_aphrodite_bound_worker_must_end_next_to_her() -> None:
    st = pos("""
    0 0 0 0 0
    0 A C 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 0 D
    """, ["PAN", "APHRODITE"])
    sel(st, 0, 1, 1)
    assert cells_of(st, 0, "move") == {(0, 1), (0, 2), (2, 1), (2, 2)}


def test_aphrodite_with_artemis_second_move_becomes_mandatory() -> None:
    st = pos("""
    0 0 0 0 0
    0 A C 0 0
    0 0 0 0 0
    0 0 0 0 0
    B 0 0 0 D
    """, ["ARTEMIS", "APHRODITE"])
    sel(st, 0, 1, 1)
    mv(st, 0, 1, 0)  # away from her: allowed, a second move may follow
    assert not GAME.view(st, 0)["turn"]["optional"]
    rejects(st, 0, "cannot_skip", type="skip")
    assert cells_of(st, 0, "move") == {(0, 1), (2, 1)}


# --- 3-player eliminations with lasting effects ------------------------------------------------------------


def test_three_player_elimination_of_athena_ends_her_restriction() -> None:
    st = pos("""
    A 2 0 0 0
    2 2 0 0 0
    0 0 0 1 0
    0 0 0 C E
    0 0 0 D F
    """, ["ATHENA", "PAN", "ZEUS"], current=2, flags=[{"athena_up": True}, {}, {}])
    st.workers[1] = None
    sel(st, 2, 3, 4)
    assert (2, 3) not in cells_of(st, 2, "move")
    mv(st, 2, 2, 4)
    bd(st, 2, 1, 3)
    assert GAME.eliminated(st) == frozenset({0}) and st.current == 1
    sel(st, 1, 3, 3)
    assert (2, 3) in cells_of(st, 1, "move")


def test_three_player_elimination_of_hypnus_ends_its_block() -> None:
    st = pos("""
    0 C 0 0 E
    0 0 0 0 0
    0 0 0 0 0
    3* 3* 0 0 1F
    A 3* 0 0 0
    """, ["HYPNUS", "PAN", "ZEUS"], current=2, seats=3)
    st.workers[1] = None
    st.workers[3] = None
    rejects(st, 2, "worker_stuck", type="select_worker", x=3, y=4)
    sel(st, 2, 0, 4)
    mv(st, 2, 1, 4)
    bd(st, 2, 2, 4)
    assert GAME.eliminated(st) == frozenset({0}) and st.current == 1
    sel(st, 1, 0, 1)
    mv(st, 1, 0, 2)
    bd(st, 1, 0, 3)
    sel(st, 2, 3, 4)  # F is still the highest of seat 2 but Hypnus is gone
