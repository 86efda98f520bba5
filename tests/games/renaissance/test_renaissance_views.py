"""Per-seat views (hidden information) and the JSON contract of the state."""

from __future__ import annotations

import json
from typing import Any

from renaissance_helpers import GAME, market_turn, rig, started

from service.games.renaissance import catalog as K


def card_ids(data: Any) -> set[int]:
    """Ids of every development card shown anywhere in a view."""
    found: set[int] = set()
    if isinstance(data, dict):
        if "level" in data and "cost" in data:
            found.add(data["id"])
        for value in data.values():
            found |= card_ids(value)
    elif isinstance(data, list):
        for value in data:
            found |= card_ids(value)
    return found


def test_setup_dealt_leaders_are_seen_only_by_their_owner() -> None:
    state = GAME.setup(3, GAME.parse_options({}), 11)
    mine = GAME.view(state, 1)
    assert [ld["id"] for ld in mine["players"][1]["dealt"]] == state.players[1].dealt
    assert "dealt" not in mine["players"][0] and "leaders" not in mine["players"][2]
    spectator = GAME.view(state, None)
    assert all("dealt" not in p and "leaders" not in p for p in spectator["players"])


def test_hands_stay_hidden_and_active_leaders_are_public() -> None:
    state = rig(started(2), 0, active=(5,), hand=(9,))
    other = GAME.view(state, 1)["players"][0]
    assert [ld["id"] for ld in other["active_leaders"]] == [5]
    assert other["hand_size"] == 1 and "leaders" not in other
    assert "9" not in json.dumps(other["active_leaders"])
    own = GAME.view(state, 0)["players"][0]
    assert [(ld["id"], ld["status"]) for ld in own["leaders"]] == [(5, "active"), (9, "hand")]


def test_only_the_top_card_of_each_deck_is_shown() -> None:
    state = rig(started(2), 0, slots=("L1-GREEN-1VP", "", ""))
    view = GAME.view(state, None)
    tops = {deck[-1] for deck in state.decks if deck}
    assert card_ids(view["grid"]) == tops
    assert card_ids(view) == tops | {state.players[0].slots[0][0]}
    assert [d["count"] for d in view["grid"]] == [len(d) for d in state.decks]
    assert view["market"]["rows"][0] == state.market[:4] and view["market"]["spare"]


def test_solo_shows_lorenzo_and_the_last_token_but_not_the_pile() -> None:
    state = started(1)
    view = GAME.view(state, 0)
    assert view["lorenzo"] == {"black_cross": 0, "tokens_left": 7, "last_token": None,
                               "removed": 0}
    state.tokens[-1] = 5
    state.tokens[0] = 1
    market_turn(state, 0)
    view = GAME.view(state, 0)["lorenzo"]
    assert view["last_token"] == {"id": 5, "kind": "black_cross", "steps": 2, "shuffle": False}
    assert "tokens" not in view and view["tokens_left"] == 6


def test_state_round_trips_through_json_exactly() -> None:
    state = rig(started(4), 2, depots=("coin", "", "3stone"), extra="2stone", active=(5,),
                slots=("L1-GREEN-1VP", "", ""))
    data = json.loads(json.dumps(GAME.dump_state(state)))
    assert GAME.load_state(data) == state
    assert GAME.dump_state(GAME.load_state(data)) == GAME.dump_state(state)
    assert len(K.CARDS) == 48


def test_the_operators_picture_names_everything() -> None:
    state = rig(started(1), 0, depots=("coin", "", "2stone"), strongbox="3shield",
                slots=("L1-GREEN-1VP L2-BLUE-5VP", "", ""), active=(5,), hand=(9,))
    picture = GAME.render(state)
    assert "to act: [0]" in picture and "depots [1coin - 2stone]" in picture
    assert "slots [1g1 2b5 | - | -]" in picture and "5:active 9:hand" in picture
    assert f"tokens {state.tokens}" in picture
