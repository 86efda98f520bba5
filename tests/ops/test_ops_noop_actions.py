"""Actions that change nothing are refused, so they never enter a match's log (issue 21: one
Santorini game took 187 versions of re-selections): re-selecting the selected worker in
Santorini; a Minstrel swap of a colour with itself in Eriantys (which also paid a coin twice
for one student). Neither is offered by ``legal_actions``, so bots never play them."""

from __future__ import annotations

from typing import Any

from rules_helpers import refused, types

from service.games.eriantys import GAME as ERIANTYS
from service.games.eriantys.notation import position as eriantys_position
from service.games.santorini import GAME as SANTORINI
from service.games.santorini.notation import position as santorini_position

BOARD = """
0 0 0 0 0
0 A 0 0 0
0 0 0 0 0
0 0 0 B 0
0 0 0 C D
"""


def selections(state: Any, seat: int) -> set[tuple[int, int]]:
    return {(a.x, a.y) for a in SANTORINI.legal_actions(state, seat) if a.type == "select_worker"}


def test_santorini_reselecting_the_selected_worker_is_refused() -> None:
    st = santorini_position(BOARD, None)
    assert selections(st, 0) == {(1, 1), (3, 3)}
    SANTORINI.apply(st, 0, {"type": "select_worker", "x": 1, "y": 1})
    refused(SANTORINI, st, 0, "already_selected", {"type": "select_worker", "x": 1, "y": 1})
    assert selections(st, 0) == {(3, 3)}  # the other worker may still be chosen instead
    events = SANTORINI.apply(st, 0, {"type": "select_worker", "x": 3, "y": 3})
    assert types(events)[0] == "worker_selected" and st.turn is not None
    refused(SANTORINI, st, 0, "already_selected", {"type": "select_worker", "x": 3, "y": 3})
    SANTORINI.apply(st, 0, {"type": "move", "x": 2, "y": 2})
    refused(SANTORINI, st, 0, "worker_locked", {"type": "select_worker", "x": 2, "y": 2})


def test_santorini_random_playouts_never_reselect() -> None:
    """Seeded playouts over legal actions: no two selections of one worker in a row."""
    import random

    for seed in range(3):
        rng, st = random.Random(seed), SANTORINI.setup(2, SANTORINI.parse_options(None), seed)
        for _ in range(400):
            if SANTORINI.outcome(st):
                break
            seat = min(SANTORINI.to_act(st))
            action = rng.choice(SANTORINI.legal_actions(st, seat))
            before = SANTORINI.dump_state(st)
            SANTORINI.apply(st, seat, action)
            assert SANTORINI.dump_state(st) != before, action  # every action changes something


def minstrel_position() -> Any:
    return eriantys_position({
        "seats": 2, "characters": ["minstrel", "knight", "centaur"], "played": {0: 3, 1: 5},
        "clear_islands": True, "mother_nature": 0, "entrance": {0: "rrrggbb", 1: "yyyppbb"},
        "dining": {0: "rrrg", 1: ""}, "coins": {0: 5, 1: 1}, "professors": {"red": 0, "green": 0}})


def minstrel(*swaps: tuple[str, str]) -> dict[str, Any]:
    return {"type": "play_character", "character": "minstrel", "swaps": [list(s) for s in swaps]}


def test_eriantys_minstrel_swap_of_a_colour_with_itself_is_refused() -> None:
    state = minstrel_position()
    refused(ERIANTYS, state, 0, "bad_swap", minstrel(("red", "red")))  # was a second coin
    refused(ERIANTYS, state, 0, "bad_swap", minstrel(("red", "green"), ("green", "red")))
    refused(ERIANTYS, state, 0, "bad_swap", minstrel(("red", "red"), ("blue", "green")))
    offered = [a.swaps for a in ERIANTYS.legal_actions(state, 0)
               if a.type == "play_character" and a.character == "minstrel"]
    assert offered and ("blue", "red") in {s for swaps in offered for s in swaps}
    assert not [swaps for swaps in offered if {a for a, _ in swaps} & {b for _, b in swaps}]
    ERIANTYS.apply(state, 0, minstrel(("blue", "red")))  # a real swap still goes
    assert state.players[0].dining == [1, 2, 0, 0, 1]  # green, red, yellow, pink, blue
