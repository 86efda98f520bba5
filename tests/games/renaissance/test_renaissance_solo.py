"""Solo play against Lorenzo (§12): tokens, the black cross, both ways for either side to win."""

from __future__ import annotations

import pytest
from renaissance_helpers import (
    GAME, act, card, market_turn, on_top, rejects, rig, set_market, started, types,
)

from service.games.renaissance import catalog as K
from service.games.renaissance.state import State

GREEN_TOKEN, CROSS_TWO, CROSS_SHUFFLE = 1, 5, 7


def solo(*tokens: int) -> State:
    """A solo game whose token pile is ``tokens`` (top = last) and whose first market row
    holds three white marbles and the red one, so a market turn discards nothing."""
    state = started(1)
    state.tokens = list(tokens)
    set_market(state, "WWWR/YPBG/BGYP", "W")
    return state


def test_a_cross_token_moves_lorenzo_after_the_players_turn() -> None:
    state = solo(CROSS_SHUFFLE, CROSS_TWO)
    events = market_turn(state, 0)
    token = next(e for e in events if e["type"] == "token_revealed")
    assert token == {"type": "token_revealed", "token": CROSS_TWO, "steps": 2, "shuffle": False}
    assert (state.lorenzo, state.last_token, state.tokens) == (2, CROSS_TWO, [CROSS_SHUFFLE])
    assert GAME.to_act(state) == frozenset({0})


def test_the_shuffle_token_moves_one_and_rebuilds_the_whole_pile() -> None:
    state = solo(CROSS_SHUFFLE)
    market_turn(state, 0)
    assert state.lorenzo == 1 and sorted(state.tokens) == list(K.TOKENS)
    assert state.shuffles == 1


def test_a_colour_token_removes_two_cards_from_the_lowest_level() -> None:
    state = solo(GREEN_TOKEN)
    green1 = state.decks[K.deck_index(1, "green")]
    state.removed += green1[:3]
    del green1[:3]
    top2 = state.decks[K.deck_index(2, "green")][-1]
    events = market_turn(state, 0)
    token = next(e for e in events if e["type"] == "token_revealed")
    assert token["removed"][1] == top2 and not green1
    assert len(state.decks[K.deck_index(2, "green")]) == 3


def test_lorenzo_wins_when_a_colour_is_gone() -> None:
    state = solo(GREEN_TOKEN)
    for level in (1, 2):
        deck = state.decks[K.deck_index(level, "green")]
        state.removed += deck
        deck.clear()
    deck = state.decks[K.deck_index(3, "green")]
    state.removed += deck[:2]
    del deck[:2]
    events = market_turn(state, 0)
    assert types(events)[-1] == "game_ended"
    outcome = GAME.outcome(state)
    assert outcome is not None and (outcome.winners, outcome.reason) == ((), "lorenzo_cards")


def test_lorenzo_wins_at_once_when_discards_carry_him_to_24() -> None:
    state = solo(CROSS_TWO)
    state.lorenzo = 23
    set_market(state, "YYBG/WWWR/BGPP", "W")  # row 1 gives resources to throw away
    act(state, 0, type="take_from_market", line="row", index=1)
    events = act(state, 0, type="discard_resource", resource="coin")
    assert types(events)[-1] == "game_ended"
    assert GAME.outcome(state).reason == "lorenzo_faith"  # type: ignore[union-attr]
    assert state.players[0].favours[2] == -1
    rejects(state, 0, "game_over", type="place_resource", resource="coin", depot=1)


def test_the_black_cross_fires_reports_for_the_player() -> None:
    state = solo(CROSS_TWO)
    state.lorenzo = 7
    state.players[0].faith = 5
    market_turn(state, 0)
    assert state.reports[0] and state.players[0].favours[0] == 1


@pytest.mark.parametrize("empties_a_colour", [False, True])
def test_the_seventh_card_wins_at_once_even_if_it_empties_a_colour(
        empties_a_colour: bool) -> None:
    state = solo(CROSS_TWO)
    rig(state, 0, strongbox="20coin 20stone 20shield 20servant",
        slots=("L1-BLUE-1VP L2-BLUE-5VP L3-BLUE-9VP", "L1-BLUE-2VP L2-BLUE-6VP",
               "L1-BLUE-3VP"))
    cid = on_top(state, "L2-GREEN-5VP")
    if empties_a_colour:
        for deck in (state.decks[K.deck_index(lv, "green")] for lv in (1, 2, 3)):
            state.removed += [c for c in deck if c != cid]
            deck[:] = [c for c in deck if c == cid]
    events = act(state, 0, type="buy_card", level=2, color="green", slot=3)
    assert types(events)[-1] == "game_ended"
    outcome = GAME.outcome(state)
    assert outcome is not None and (outcome.winners, outcome.reason) == ((0,), "seventh_card")
    # the seven cards' points, and 80 resources less the 4 shields paid
    assert outcome.detail["scores"] == [1 + 5 + 9 + 2 + 6 + 3 + 5 + (80 - 4) // 5]
    assert card("L2-GREEN-5VP") in state.players[0].slots[2]


def test_a_purchase_that_empties_a_colour_loses_at_once() -> None:
    state = solo(CROSS_TWO)
    rig(state, 0, strongbox="20coin")
    cid = on_top(state, "L1-BLUE-1VP")
    for deck in (state.decks[K.deck_index(lv, "blue")] for lv in (1, 2, 3)):
        state.removed += [c for c in deck if c != cid]
        deck[:] = [c for c in deck if c == cid]
    events = act(state, 0, type="buy_card", level=1, color="blue", slot=1)
    assert types(events)[-1] == "game_ended"
    assert GAME.outcome(state).reason == "lorenzo_cards"  # type: ignore[union-attr]


def test_the_player_reaching_24_wins_at_once() -> None:
    state = solo(CROSS_TWO)
    state.players[0].faith = 23
    act(state, 0, type="discard_leader", leader=state.players[0].leaders[0])
    outcome = GAME.outcome(state)
    assert outcome is not None and (outcome.winners, outcome.reason) == ((0,), "faith_track")
