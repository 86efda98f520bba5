"""Before play: the challenger's pick, the god choices, worker placement."""

from __future__ import annotations

from typing import Any

from .actions import Cell
from .board import cell
from .codes import illegal
from .gods import GODS, deck
from .state import CHOOSE, PICK, PLACE, PLAY, State
from .turn import begin_turn

Event = dict[str, Any]


def new_state(seats: int, gods: bool, deck_kind: str, enforce_supply: bool) -> State:
    return State(
        seats=seats,
        gods_enabled=gods,
        enforce_supply=enforce_supply,
        deck=deck_kind,
        phase=PICK if gods else PLACE,
        workers=[None] * (2 * seats),
        gods=[None] * seats,
        alive=[True] * seats,
        placed=[False] * seats,
        flags=[{} for _ in range(seats)],
    )


def offerable(st: State) -> list[str]:
    """The gods the challenger may offer in this match."""
    return deck(st.deck, st.seats)


def pick_gods(st: State, seat: int, gods: tuple[str, ...], events: list[Event]) -> None:
    allowed = offerable(st)
    for g in gods:
        if g not in allowed:
            why = "unknown" if g not in GODS else f"not allowed with {st.seats} players here"
            illegal("god_not_allowed", f"{g}: {why}")
    if len(gods) != st.seats or len(set(gods)) != len(gods):
        illegal("wrong_god_count", f"offer exactly {st.seats} distinct gods")
    st.offered = list(gods)
    st.phase = CHOOSE
    st.current = 1
    events.append({"type": "gods_picked", "seat": seat, "gods": list(gods)})


def choose_god(st: State, seat: int, name: str, events: list[Event]) -> None:
    if name not in st.offered:
        illegal("god_not_offered", f"{name} is not on offer (left: {', '.join(st.offered)})")
    st.offered.remove(name)
    st.gods[seat] = name
    events.append({"type": "god_chosen", "seat": seat, "god": name})
    if seat + 1 < st.seats:
        st.current = seat + 1
        return
    last = st.offered.pop()
    st.gods[0] = last
    events.append({"type": "god_chosen", "seat": 0, "god": last})
    st.phase = PLACE
    st.current = 0


def place_workers(st: State, seat: int, positions: tuple[Cell, Cell], events: list[Event]) -> None:
    cells = [cell(p.x, p.y) for p in positions]
    if cells[0] == cells[1] or any(st.occupied(c) for c in cells):
        illegal("illegal_placement", "place both workers on two distinct free cells")
    st.workers[2 * seat], st.workers[2 * seat + 1] = cells
    st.placed[seat] = True
    events.append({"type": "workers_placed", "seat": seat,
                   "workers": [2 * seat, 2 * seat + 1],
                   "positions": [[p.x, p.y] for p in positions]})
    if seat + 1 < st.seats:
        st.current = seat + 1
        return
    st.phase = PLAY
    begin_turn(st, 0, events)
