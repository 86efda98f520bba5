"""Invariants of a consistent state (used by the test-suite playouts and debugging tools)."""

from __future__ import annotations

from service.games.eriantys.constants import (
    COINS_TOTAL, NO_ENTRY_TILES, STUDENTS_PER_COLOUR, DINING_ROW,
)
from service.games.eriantys.state import State


def student_totals(state: State) -> list[int]:
    pools = [state.bag, *state.clouds]
    pools += [g.students for g in state.groups]
    pools += [p.entrance for p in state.players] + [p.dining for p in state.players]
    pools += [c.students for c in state.characters]
    return [sum(column) for column in zip(*pools)]


def invariant_errors(state: State) -> list[str]:
    """Every broken invariant, as readable strings (empty when the state is consistent)."""
    errors: list[str] = []
    totals = student_totals(state)
    if totals != [STUDENTS_PER_COLOUR] * 5:
        errors.append(f"students {totals}")
    for team, left in enumerate(state.towers):
        on = sum(g.towers for g in state.groups if g.team == team)
        if on + left != state.params.towers:
            errors.append(f"towers of team {team}: {on} + {left}")
    if sum(len(g.tiles) for g in state.groups) != 12:
        errors.append("tiles")
    if any(g.towers > len(g.tiles) or (g.towers > 0) != (g.team >= 0) for g in state.groups):
        errors.append("tower/tile mismatch")
    if state.expert:
        coins = state.reserve + sum(p.coins for p in state.players)
        coins += sum(1 for c in state.characters if c.used)
        if coins != COINS_TOTAL:
            errors.append(f"coins {coins}")
        herbs = [c.no_entry for c in state.characters if c.key == "grandma_herbs"]
        tiles = sum(g.no_entry for g in state.groups)
        if herbs and herbs[0] + tiles != NO_ENTRY_TILES or not herbs and tiles:
            errors.append("no-entry tiles")
    for colour, counts in enumerate(zip(*(p.dining for p in state.players))):
        holder = state.professors[colour]
        if (holder < 0) != (max(counts) == 0) or holder >= 0 and counts[holder] != max(counts):
            errors.append(f"professor {colour} held by {holder} with counts {counts}")
    for p in state.players:
        if max(p.dining) > DINING_ROW or min(p.entrance) < 0 or min(p.dining) < 0:
            errors.append("row bounds")
    if len(state.groups) < 12 and not 0 <= state.mother_nature < len(state.groups):
        errors.append("mother nature")
    return errors
