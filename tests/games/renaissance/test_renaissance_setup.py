"""Set-up (§2): decks, market, leaders dealt and kept, seat bonuses, the simultaneous start."""

from __future__ import annotations

from collections import Counter

import pytest
from renaissance_helpers import GAME, act, rejects, types

from service.games.renaissance import catalog as K


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_material_is_laid_out(seats: int) -> None:
    state = GAME.setup(seats, GAME.parse_options({}), 7)
    assert [len(d) for d in state.decks] == [4] * 12
    for d, deck in enumerate(state.decks):
        level, colour = d // 4 + 1, K.COLOURS[d % 4]
        assert {(K.CARDS[c].level, K.CARDS[c].colour) for c in deck} == {(level, colour)}
    assert Counter(state.market + [state.spare]) == Counter(
        {"white": 4, "blue": 2, "grey": 2, "yellow": 2, "purple": 2, "red": 1})
    dealt = [lid for p in state.players for lid in p.dealt]
    assert len(dealt) == 4 * seats == len(set(dealt))
    assert [p.faith for p in state.players] == [0, 0, 1, 1][:seats]
    assert [p.bonus_left for p in state.players] == [0, 1, 1, 2][:seats]
    assert GAME.to_act(state) == frozenset(range(seats))
    assert (state.lorenzo, len(state.tokens)) == ((0, 7) if seats == 1 else (-1, 0))


def test_the_seed_decides_everything() -> None:
    one, two = (GAME.dump_state(GAME.setup(3, GAME.parse_options({}), 42)) for _ in range(2))
    assert one == two
    assert GAME.dump_state(GAME.setup(3, GAME.parse_options({}), 43)) != one


def test_green_level_one_card_of_one_point_costs_two_shields() -> None:
    green = next(c for c in K.CARDS.values() if (c.level, c.colour, c.vp) == (1, "green", 1))
    assert green.cost == (0, 0, 2, 0)


def test_seats_choose_in_any_order_and_play_starts_with_seat_zero() -> None:
    state = GAME.setup(4, GAME.parse_options({}), 3)
    dealt = [list(p.dealt) for p in state.players]
    act(state, 3, type="take_bonus_resource", resource="stone", depot=3)
    act(state, 3, type="take_bonus_resource", resource="stone", depot=3)
    rejects(state, 3, "no_bonus_left", type="take_bonus_resource", resource="coin", depot=1)
    rejects(state, 0, "no_bonus_left", type="take_bonus_resource", resource="coin", depot=1)
    rejects(state, 1, "same_leader_twice", type="choose_leaders", leaders=[dealt[1][0]] * 2)
    rejects(state, 1, "leader_not_dealt", type="choose_leaders",
            leaders=[dealt[1][0], dealt[2][0]])
    rejects(state, 0, "setup_pending", type="take_from_market", line="row", index=1)
    for seat in range(4):
        act(state, seat, type="choose_leaders", leaders=dealt[seat][1:3])
    rejects(state, 0, "leaders_already_chosen", type="choose_leaders", leaders=dealt[0][:2])
    assert GAME.to_act(state) == frozenset({1, 2})
    act(state, 1, type="take_bonus_resource", resource="coin", depot=1)
    events = act(state, 2, type="take_bonus_resource", resource="shield", depot=2)
    assert types(events)[-1] == "game_started"
    assert GAME.to_act(state) == frozenset({0})
    assert state.players[3].depots[2] == [K.RES_INDEX["stone"], 2]
    assert state.players[0].leaders == dealt[0][1:3]
    assert state.players[0].status == ["hand", "hand"]
    rejects(state, 0, "setup_done", type="choose_leaders", leaders=dealt[0][1:3])


def test_two_different_bonus_resources_must_use_two_depots() -> None:
    state = GAME.setup(4, GAME.parse_options({}), 3)
    act(state, 3, type="take_bonus_resource", resource="stone", depot=2)
    rejects(state, 3, "depot_other_type", type="take_bonus_resource", resource="coin", depot=2)
    rejects(state, 3, "type_in_other_depot", type="take_bonus_resource", resource="stone",
            depot=3)
    act(state, 3, type="take_bonus_resource", resource="coin", depot=1)


def test_setup_listing_is_the_six_pairs_and_the_legal_placements() -> None:
    state = GAME.setup(4, GAME.parse_options({}), 5)
    legal = GAME.legal_actions(state, 3)
    assert sum(a.type == "choose_leaders" for a in legal) == 6
    assert sum(a.type == "take_bonus_resource" for a in legal) == 12
    act(state, 3, type="take_bonus_resource", resource="servant", depot=1)
    legal = GAME.legal_actions(state, 3)
    bonus = [(a.resource, a.depot) for a in legal if a.type == "take_bonus_resource"]
    assert ("servant", 1) not in bonus and ("servant", 2) not in bonus
    assert ("coin", 2) in bonus and ("coin", 1) not in bonus
