"""Main action A (the market tray) and its placement sub-phase, plus warehouse housekeeping."""

from __future__ import annotations

from typing import Any

from service.games.renaissance import board as B
from service.games.renaissance import catalog as K
from service.games.renaissance.faith import LORENZO, Events, advance
from service.games.renaissance.state import State, fail


def line_cells(line: str, index: int) -> list[int]:
    """Market cells of a row (left to right) or column (top to bottom), row-major numbering."""
    if line == "row":
        if not 1 <= index <= K.ROWS:
            raise fail("index_out_of_bounds")
        return [(index - 1) * K.COLUMNS + c for c in range(K.COLUMNS)]
    if not 1 <= index <= K.COLUMNS:
        raise fail("index_out_of_bounds")
    return [r * K.COLUMNS + index - 1 for r in range(K.ROWS)]


def take_from_market(state: State, seat: int, action: Any, events: Events) -> None:
    if state.main:
        raise fail("action_done")
    cells = line_cells(action.line, action.index)
    marbles = [state.market[i] for i in cells]
    # the first marble falls out and becomes the spare; the old spare enters at the far end
    for cell, marble in zip(cells, marbles[1:] + [state.spare]):
        state.market[cell] = marble
    state.spare = marbles[0]
    player = state.players[seat]
    whites = marbles.count("white")
    converts = B.powers(player, "white_marble")
    for marble in marbles:
        if marble in K.MARBLE_RESOURCE:
            state.pending[K.RES_INDEX[K.MARBLE_RESOURCE[marble]]] += 1
    if len(converts) == 1:
        state.pending[converts[0]] += whites
    elif len(converts) == 2:
        state.pending_white = whites
    state.main = "market"
    events.append({"type": "resources_taken", "seat": seat, "line": action.line,
                   "index": action.index, "marbles": marbles,
                   "pending": K.named(state.pending), "pending_white": state.pending_white})
    advance(state, {seat: marbles.count("red")}, events)


def convert_white_marble(state: State, seat: int, action: Any, events: Events) -> None:
    if not state.pending_white:
        raise fail("no_white_marble")
    r = K.RES_INDEX[action.resource]
    if r not in B.powers(state.players[seat], "white_marble"):
        raise fail("not_a_white_marble_resource")
    state.pending_white -= 1
    state.pending[r] += 1
    events.append({"type": "white_marble_converted", "seat": seat, "resource": action.resource})


def _pending(state: State, resource: str) -> int:
    r = K.RES_INDEX[resource]
    if not state.pending[r]:
        raise fail("nothing_pending")
    return r


def place_resource(state: State, seat: int, action: Any, events: Events) -> None:
    r = _pending(state, action.resource)
    B.put(state.players[seat], r, action.depot)
    state.pending[r] -= 1
    events.append({"type": "resource_placed", "seat": seat, "resource": action.resource,
                   "depot": action.depot})


def discard_resource(state: State, seat: int, action: Any, events: Events) -> None:
    r = _pending(state, action.resource)
    state.pending[r] -= 1
    events.append({"type": "resource_discarded", "seat": seat, "resource": action.resource})
    others = {LORENZO: 1} if state.solo else {s: 1 for s in range(state.seats) if s != seat}
    advance(state, others, events)


def swap_depots(state: State, seat: int, action: Any, events: Events) -> None:
    B.swap(state.players[seat], action.first, action.second)
    events.append({"type": "depots_swapped", "seat": seat, "first": action.first,
                   "second": action.second})


def move_resources(state: State, seat: int, action: Any, events: Events) -> None:
    if (action.source == "extra") == (action.target == "extra"):
        raise fail("bad_move")
    player = state.players[seat]
    r = K.RES_INDEX[action.resource]
    if action.source == "extra" and r not in B.powers(player, "extra_depot"):
        raise fail("no_extra_depot")
    problem = B.place_problem(player, r, action.target, action.count)
    if problem:
        raise fail(problem)
    B.take(player, r, action.source, action.count)
    B.put(player, r, action.target, action.count)
    events.append({"type": "resources_moved", "seat": seat, "resource": action.resource,
                   "source": action.source, "target": action.target, "count": action.count})
