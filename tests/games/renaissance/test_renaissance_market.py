"""Main action A (§4) and storage (§5): the tray, placement, discards, depots, swaps, moves."""

from __future__ import annotations

import pytest
from renaissance_helpers import GAME, act, rejects, res, rig, set_market, started, types

from service.errors import MalformedAction

WM_SERVANT, WM_SHIELD, DEPOT_STONE, DEPOT_COIN = 9, 10, 5, 8


def test_a_row_is_taken_left_to_right_and_fed_from_the_right() -> None:
    state = started(2)
    set_market(state, "YPBG/WWWR/BGYP", "W")
    events = act(state, 0, type="take_from_market", line="row", index=1)
    assert events[0]["marbles"] == ["yellow", "purple", "blue", "grey"]
    assert state.market[:4] == ["purple", "blue", "grey", "white"]
    assert state.spare == "yellow"
    assert state.pending == res("coin servant shield stone")
    assert state.main == "market"


def test_a_column_is_taken_top_down_and_fed_from_the_bottom() -> None:
    state = started(2)
    set_market(state, "YPBG/WWWR/BGYP", "W")
    events = act(state, 0, type="take_from_market", line="column", index=4)
    assert events[0]["marbles"] == ["grey", "red", "purple"]
    assert [state.market[3], state.market[7], state.market[11]] == ["red", "purple", "white"]
    assert state.spare == "grey"
    assert state.players[0].faith == 1  # the red marble
    assert state.pending == res("servant stone")


def test_lines_out_of_the_tray_are_refused() -> None:
    state = started(2)
    rejects(state, 0, "index_out_of_bounds", type="take_from_market", line="row", index=4)
    rejects(state, 1, "not_your_turn", type="take_from_market", line="row", index=1)


def test_white_marbles_give_nothing_without_a_leader() -> None:
    state = started(2)
    set_market(state, "WWWR/YPBG/BGYP", "W")
    act(state, 0, type="take_from_market", line="row", index=1)
    assert state.pending == [0, 0, 0, 0] and state.pending_white == 0
    act(state, 0, type="end_turn")


def test_one_white_marble_leader_converts_by_itself() -> None:
    state = rig(started(2), 0, active=(WM_SERVANT,))
    set_market(state, "WWWR/YPBG/BGYP", "W")
    act(state, 0, type="take_from_market", line="row", index=1)
    assert state.pending == res("3servant")


def test_with_two_white_marble_leaders_each_marble_is_chosen() -> None:
    state = rig(started(2), 0, active=(WM_SERVANT, WM_SHIELD))
    set_market(state, "WWYR/WPBG/BGYP", "W")
    act(state, 0, type="take_from_market", line="row", index=1)
    assert (state.pending, state.pending_white) == (res("coin"), 2)
    rejects(state, 0, "not_a_white_marble_resource", type="convert_white_marble",
            resource="coin")
    rejects(state, 0, "placement_pending", type="end_turn")
    act(state, 0, type="convert_white_marble", resource="shield")
    act(state, 0, type="convert_white_marble", resource="servant")
    rejects(state, 0, "no_white_marble", type="convert_white_marble", resource="shield")
    assert state.pending == res("coin servant shield")


def test_discarding_gives_faith_to_every_other_player() -> None:
    state = started(3)
    set_market(state, "YYBG/WWWR/BGPP", "W")
    act(state, 0, type="take_from_market", line="row", index=1)
    before = [p.faith for p in state.players]
    events = act(state, 0, type="discard_resource", resource="coin")
    assert [p.faith for p in state.players] == [before[0], before[1] + 1, before[2] + 1]
    assert "resource_discarded" in types(events)
    rejects(state, 0, "nothing_pending", type="discard_resource", resource="servant")


def test_solo_discards_move_the_black_cross() -> None:
    state = started(1)
    set_market(state, "YYBG/WWWR/BGPP", "W")
    act(state, 0, type="take_from_market", line="row", index=1)
    act(state, 0, type="discard_resource", resource="coin")
    assert (state.lorenzo, state.players[0].faith) == (1, 0)


def test_depot_rules_hold_while_placing() -> None:
    state = rig(started(2), 0, depots=("", "stone", ""))
    set_market(state, "YYGB/WWWR/BGPP", "W")
    act(state, 0, type="take_from_market", line="row", index=1)
    act(state, 0, type="place_resource", resource="coin", depot=1)
    rejects(state, 0, "depot_full", type="place_resource", resource="coin", depot=1)
    rejects(state, 0, "depot_other_type", type="place_resource", resource="coin", depot=2)
    rejects(state, 0, "type_in_other_depot", type="place_resource", resource="stone", depot=3)
    rejects(state, 0, "no_extra_depot", type="place_resource", resource="stone", depot="extra")
    act(state, 0, type="place_resource", resource="stone", depot=2)
    rejects(state, 0, "placement_pending", type="buy_card", level=1, color="green", slot=1)
    # make room by swapping, as the seed's dialogue allows in the middle of placement
    act(state, 0, type="swap_depots", first=1, second=3)
    act(state, 0, type="place_resource", resource="coin", depot=3)
    act(state, 0, type="place_resource", resource="shield", depot=1)
    assert state.players[0].depots == [[2, 1], [3, 2], [0, 2]]
    rejects(state, 0, "action_done", type="take_from_market", line="row", index=2)
    act(state, 0, type="end_turn")
    assert state.current == 1


def test_extra_depots_take_only_their_resource_even_if_the_warehouse_has_it() -> None:
    state = rig(started(2), 0, depots=("", "", "2stone"), active=(DEPOT_STONE,))
    set_market(state, "GGWB/WWYR/BYPP", "W")
    act(state, 0, type="take_from_market", line="row", index=1)
    act(state, 0, type="place_resource", resource="stone", depot=3)
    act(state, 0, type="place_resource", resource="stone", depot="extra")
    rejects(state, 0, "no_extra_depot", type="place_resource", resource="shield",
            depot="extra")
    assert state.players[0].extra == res("stone")


def test_swaps_must_fit_and_moves_go_between_warehouse_and_extra() -> None:
    state = rig(started(2), 0, depots=("coin", "", "3stone"), extra="stone",
                active=(DEPOT_STONE,))
    rejects(state, 0, "cannot_swap", type="swap_depots", first=1, second=3)
    rejects(state, 0, "same_depot", type="swap_depots", first=2, second=2)
    act(state, 0, type="swap_depots", first=1, second=2)
    rejects(state, 0, "bad_move", type="move_resources", resource="stone", source=3, target=1)
    rejects(state, 0, "extra_depot_full", type="move_resources", resource="stone", source=3,
            target="extra", count=2)
    act(state, 0, type="move_resources", resource="stone", source=3, target="extra")
    rejects(state, 0, "type_in_other_depot", type="move_resources", resource="stone",
            source="extra", target=1)
    rejects(state, 0, "no_extra_depot", type="move_resources", resource="coin", source=2,
            target="extra")
    act(state, 0, type="move_resources", resource="stone", source="extra", target=3)
    rejects(state, 0, "not_enough_in_depot", type="move_resources", resource="stone",
            source=1, target="extra")
    p = state.players[0]
    assert (p.depots, p.extra) == ([[-1, 0], [0, 1], [3, 3]], res("stone"))
    legal = {(a.source, a.target, a.count) for a in GAME.legal_actions(state, 0)
             if a.type == "move_resources"}
    assert legal == {(3, "extra", 1)}


@pytest.mark.parametrize("raw", [
    {"type": "place_resource", "resource": "coin", "depot": "strongbox"},
    {"type": "place_resource", "resource": "coin", "depot": 4},
    {"type": "place_resource", "resource": "faith", "depot": 1},
    {"type": "take_from_market", "line": "diagonal", "index": 1},
    {"type": "take_from_market", "line": "row", "index": 1, "extra": True},
    {"type": "buy_card", "level": 0, "color": "green", "slot": 1},
    {"type": "buy_card", "level": 1, "color": "green", "slot": 1, "pay": {"hand": {}}},
    {"type": "buy_card", "level": 1, "color": "green", "slot": 1,
     "pay": {"warehouse": {"shield": 0}}},
    {"type": "produce_leader", "leader": 13, "output": "faith"},
    {"type": "pass"},
])
def test_malformed_actions_are_told_apart_and_change_nothing(raw: dict[str, object]) -> None:
    state = started(2)
    before = GAME.dump_state(state)
    with pytest.raises(MalformedAction):
        GAME.apply(state, 0, raw)
    assert GAME.dump_state(state) == before


def test_a_seat_out_of_range_is_malformed() -> None:
    state = started(2)
    with pytest.raises(MalformedAction):
        GAME.apply(state, 2, {"type": "end_turn"})
