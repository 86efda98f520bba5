"""Main action C (§7): base, card and leader productions, once each, outputs not reusable."""

from __future__ import annotations

from renaissance_helpers import GAME, act, rejects, res, rig, started

PRODUCTION_COIN = 16


def test_base_production_turns_two_resources_into_one_of_choice() -> None:
    state = rig(started(2), 0, depots=("", "2stone", ""), strongbox="coin")
    act(state, 0, type="produce_base", inputs=["stone", "coin"], output="servant",
        pay={"warehouse": {"stone": 1}, "strongbox": {"coin": 1}})
    p = state.players[0]
    assert (p.depots[1], p.strongbox, p.produced) == ([3, 1], res("servant"), res("servant"))
    rejects(state, 0, "production_used", type="produce_base", inputs=["stone", "stone"],
            output="coin")
    rejects(state, 0, "action_done", type="take_from_market", line="row", index=1)
    act(state, 0, type="end_turn")
    assert p.produced == [0, 0, 0, 0] and p.strongbox == res("servant")


def test_outputs_of_this_turn_cannot_pay_another_production() -> None:
    state = rig(started(2), 0, depots=("", "2stone", ""),
                slots=("L1-GREEN-2VP", "", ""))  # stone -> servant
    act(state, 0, type="produce_card", slot=1)
    assert state.players[0].strongbox == res("servant")
    rejects(state, 0, "not_enough_resources", type="produce_base",
            inputs=["servant", "stone"], output="coin")
    rejects(state, 0, "not_enough_resources", type="produce_base",
            inputs=["servant", "stone"], output="coin", pay={"strongbox": {"servant": 1},
                                                             "warehouse": {"stone": 1}})
    rejects(state, 0, "production_used", type="produce_card", slot=1)


def test_card_faith_moves_at_once_and_only_the_top_card_produces() -> None:
    state = rig(started(2), 0, depots=("coin", "", ""), strongbox="shield",
                slots=("L1-GREEN-1VP", "", "L1-BLUE-3VP L2-BLUE-5VP"))  # coin -> faith
    rejects(state, 0, "empty_slot", type="produce_card", slot=2)
    act(state, 0, type="produce_card", slot=1)
    assert state.players[0].faith == 1
    rejects(state, 0, "not_enough_resources", type="produce_card", slot=3)  # servant in


def test_a_production_leader_gives_a_resource_and_a_faith() -> None:
    state = rig(started(2), 0, depots=("coin", "", ""), active=(PRODUCTION_COIN,),
                slots=("L1-GREEN-1VP L2-GREEN-5VP", "", ""))
    rejects(state, 0, "not_a_production_leader", type="produce_leader", leader=1,
            output="stone")
    act(state, 0, type="produce_leader", leader=PRODUCTION_COIN, output="stone")
    p = state.players[0]
    assert (p.faith, p.strongbox, p.depots[0]) == (1, res("stone"), [-1, 0])
    rejects(state, 0, "production_used", type="produce_leader", leader=PRODUCTION_COIN,
            output="stone")


def test_listed_productions_are_all_accepted() -> None:
    state = rig(started(2), 0, depots=("coin", "2stone", ""), strongbox="stone shield",
                active=(PRODUCTION_COIN,), slots=("L1-GREEN-2VP", "", ""))
    legal = [a for a in GAME.legal_actions(state, 0) if a.type.startswith("produce")]
    kinds = {a.type for a in legal}
    assert kinds == {"produce_base", "produce_card", "produce_leader"}
    for action in legal:
        copy = GAME.load_state(GAME.dump_state(state))
        GAME.apply(copy, 0, action)
    # the stone input of the card can come from the warehouse or the strongbox
    assert {tuple(sorted(a.pay.model_dump(exclude_defaults=True))) for a in legal
            if a.type == "produce_card"} == {("warehouse",), ("strongbox",)}
