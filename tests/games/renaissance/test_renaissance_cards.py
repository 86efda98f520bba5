"""Main action B (§6): buying a development card, discounts, slots, payments, the 7th card."""

from __future__ import annotations

import pytest
from renaissance_helpers import (
    GAME, act, card, market_turn, on_top, rejects, res, rig, started, types,
)

from service.errors import RulesError

DISCOUNT_SHIELD, DISCOUNT_COIN = 2, 4


def test_buy_pays_exactly_and_fills_the_chosen_slot() -> None:
    state = rig(started(2), 0, depots=("", "2shield", ""), strongbox="shield")
    cid = on_top(state, "L1-GREEN-1VP")
    rejects(state, 0, "wrong_payment", type="buy_card", level=1, color="green", slot=2,
            pay={"warehouse": {"shield": 3}})
    rejects(state, 0, "wrong_payment", type="buy_card", level=1, color="green", slot=2,
            pay={"warehouse": {"shield": 1}, "strongbox": {"coin": 1}})
    rejects(state, 0, "not_enough_resources", type="buy_card", level=1, color="green", slot=2,
            pay={"strongbox": {"shield": 2}})
    events = act(state, 0, type="buy_card", level=1, color="green", slot=2,
                 pay={"warehouse": {"shield": 1}, "strongbox": {"shield": 1}})
    assert events[0]["paid"] == {"warehouse": {"shield": 1}, "strongbox": {"shield": 1}}
    p = state.players[0]
    assert (p.slots, p.depots[1], p.strongbox) == ([[], [cid], []], [2, 1], [0, 0, 0, 0])
    assert cid not in state.decks[0]
    rejects(state, 0, "action_done", type="produce_base", inputs=["shield", "shield"],
            output="coin")


def test_automatic_payment_takes_the_warehouse_first() -> None:
    state = rig(started(2), 0, depots=("", "shield", ""), strongbox="3shield")
    on_top(state, "L1-GREEN-1VP")
    events = act(state, 0, type="buy_card", level=1, color="green", slot=1)
    assert events[0]["paid"] == {"warehouse": {"shield": 1}, "strongbox": {"shield": 1}}


def test_discounts_lower_the_price_and_stack() -> None:
    state = rig(started(2), 0, strongbox="shield", active=(DISCOUNT_SHIELD, DISCOUNT_COIN))
    on_top(state, "L1-GREEN-1VP")  # 2 shields -> 1
    act(state, 0, type="buy_card", level=1, color="green", slot=1)
    assert state.players[0].strongbox == [0, 0, 0, 0]
    state = rig(started(2), 0, strongbox="shield stone", active=(DISCOUNT_SHIELD, DISCOUNT_COIN))
    on_top(state, "L1-YELLOW-2VP")  # coin + shield + stone, less a coin and a shield
    rejects(state, 0, "wrong_payment", type="buy_card", level=1, color="yellow", slot=1,
            pay={"strongbox": {"shield": 1, "stone": 1}})
    act(state, 0, type="buy_card", level=1, color="yellow", slot=1,
        pay={"strongbox": {"stone": 1}})


def test_slot_levels_decide_where_a_card_may_go() -> None:
    state = rig(started(2), 0, strongbox="20shield 20coin 20stone 20servant",
                slots=("L1-BLUE-1VP", "L1-BLUE-2VP L2-BLUE-5VP", ""))
    rejects(state, 0, "no_more_space", type="buy_card", level=1, color="green", slot=1)
    rejects(state, 0, "no_level_1_card", type="buy_card", level=2, color="green", slot=3)
    rejects(state, 0, "no_level_1_card", type="buy_card", level=2, color="green", slot=2)
    rejects(state, 0, "no_level_2_card", type="buy_card", level=3, color="green", slot=1)
    legal = {(a.level, a.slot) for a in GAME.legal_actions(state, 0) if a.type == "buy_card"}
    assert legal == {(1, 3), (2, 1), (3, 2)}
    act(state, 0, type="buy_card", level=3, color="purple", slot=2)
    assert len(state.players[0].slots[1]) == 3


def test_an_empty_deck_cannot_be_bought_from() -> None:
    state = rig(started(2), 0, strongbox="20shield")
    state.removed += state.decks[0]
    state.decks[0] = []
    rejects(state, 0, "deck_empty", type="buy_card", level=1, color="green", slot=1)


def test_the_seventh_card_starts_the_last_round_and_the_round_is_finished() -> None:
    state = rig(started(3), 1, strongbox="20shield 20coin 20stone 20servant",
                slots=("L1-BLUE-1VP L2-BLUE-5VP L3-BLUE-9VP", "L1-BLUE-2VP L2-BLUE-6VP",
                       "L1-BLUE-3VP"))
    market_turn(state, 0)
    events = act(state, 1, type="buy_card", level=2, color="green", slot=3)
    assert "last_round_triggered" in types(events)
    assert state.final_round and state.end_reason == "seventh_card"
    act(state, 1, type="end_turn")
    events = market_turn(state, 2)
    assert types(events)[-1] == "game_ended"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.reason == "seventh_card"
    assert GAME.to_act(state) == frozenset()
    rejects(state, 0, "game_over", type="end_turn")
    assert card("L3-BLUE-9VP") in state.players[1].slots[0]


def test_check_buy_answers_before_slot_and_payment_are_known() -> None:
    state = rig(started(2), 0, strongbox="shield", active=(DISCOUNT_SHIELD,),
                slots=("L1-BLUE-1VP", "L1-BLUE-2VP", "L1-BLUE-3VP"))
    on_top(state, "L2-GREEN-5VP")
    before = GAME.dump_state(state)
    with pytest.raises(RulesError) as info:
        GAME.check_buy(state, 0, 1, "green")
    assert info.value.code == "rules/no_more_space"
    with pytest.raises(RulesError) as info:
        GAME.check_buy(state, 0, 2, "green")  # 4 shields less 1
    assert info.value.code == "rules/not_enough_resources"
    state.players[0].strongbox = res("3shield")
    assert GAME.check_buy(state, 0, 2, "green") == {"shield": 3}
    with pytest.raises(RulesError) as info:
        GAME.check_buy(state, 1, 2, "green")
    assert info.value.code == "rules/not_your_turn"
    state.players[0].strongbox = res("shield")
    assert GAME.dump_state(state) == before


def test_check_production_names_the_input() -> None:
    state = rig(started(2), 0, depots=("coin", "", ""), slots=("L1-GREEN-1VP", "", ""))
    assert GAME.check_production(state, 0, "slot1") == {"coin": 1}
    with pytest.raises(RulesError) as info:
        GAME.check_production(state, 0, "slot2")
    assert info.value.code == "rules/empty_slot"
    with pytest.raises(RulesError) as info:
        GAME.check_production(state, 0, "base")
    assert info.value.code == "rules/not_enough_resources"
    with pytest.raises(RulesError) as info:
        GAME.check_production(state, 0, "leader16")
    assert info.value.code == "rules/not_a_production_leader"
    act(state, 0, type="produce_card", slot=1)
    with pytest.raises(RulesError) as info:
        GAME.check_production(state, 0, "slot1")
    assert info.value.code == "rules/production_used"
