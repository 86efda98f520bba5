"""Leader cards (§8): requirements possessed not paid, activation, discard for faith."""

from __future__ import annotations

from renaissance_helpers import (
    GAME, act, drain, market_turn, rejects, rig, set_market, started, types,
)

DISCOUNT_STONE, DEPOT_STONE, WM_COIN, PRODUCTION_COIN = 3, 5, 12, 16


def test_card_requirements_count_covered_cards_of_any_level() -> None:
    state = rig(started(2), 0, hand=(DISCOUNT_STONE, WM_COIN),
                slots=("L1-GREEN-1VP L2-PURPLE-5VP", "L1-PURPLE-1VP", ""))
    rejects(state, 0, "requirements_not_met", type="activate_leader", leader=DISCOUNT_STONE)
    act(state, 0, type="activate_leader", leader=WM_COIN)  # 2 purple + 1 green, one covered
    assert state.players[0].status == ["hand", "active"]
    rejects(state, 0, "leader_not_in_hand", type="activate_leader", leader=WM_COIN)
    rejects(state, 0, "leader_not_in_hand", type="discard_leader", leader=WM_COIN)
    rejects(state, 0, "leader_not_in_hand", type="activate_leader", leader=1)


def test_production_leaders_need_exactly_a_level_two_card() -> None:
    state = rig(started(2), 0, hand=(PRODUCTION_COIN,),
                slots=("L1-GREEN-1VP L2-BLUE-5VP L3-GREEN-9VP", "", ""))
    rejects(state, 0, "requirements_not_met", type="activate_leader", leader=PRODUCTION_COIN)
    state = rig(started(2), 0, hand=(PRODUCTION_COIN,),
                slots=("L1-BLUE-1VP L2-GREEN-6VP L3-BLUE-9VP", "", ""))
    act(state, 0, type="activate_leader", leader=PRODUCTION_COIN)


def test_resource_requirements_count_everything_stored_and_pay_nothing() -> None:
    state = rig(started(2), 0, hand=(DEPOT_STONE,), depots=("", "2coin", ""),
                strongbox="2coin")
    rejects(state, 0, "requirements_not_met", type="activate_leader", leader=DEPOT_STONE)
    state.players[0].strongbox[0] += 1
    act(state, 0, type="activate_leader", leader=DEPOT_STONE)
    assert state.players[0].strongbox[0] == 3 and state.players[0].depots[1] == [0, 2]


def test_discarding_a_leader_gives_one_faith_and_leader_actions_wrap_the_main_action() -> None:
    state = rig(started(2), 0, hand=(DISCOUNT_STONE, WM_COIN))
    events = act(state, 0, type="discard_leader", leader=DISCOUNT_STONE)
    assert types(events) == ["leader_discarded", "faith_moved"]
    assert state.players[0].faith == 1
    set_market(state, "YYBG/WWWR/BGPP", "W")
    act(state, 0, type="take_from_market", line="row", index=1)
    rejects(state, 0, "placement_pending", type="discard_leader", leader=WM_COIN)
    drain(state, 0)
    act(state, 0, type="discard_leader", leader=WM_COIN)
    assert state.players[0].status == ["discarded", "discarded"]
    act(state, 0, type="end_turn")
    rejects(state, 1, "no_main_action", type="end_turn")
    market_turn(state, 1)
    assert GAME.to_act(state) == frozenset({0})
