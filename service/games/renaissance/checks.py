"""Invariants of a Masters of Renaissance state (used by the tests and the playout checks)."""

from __future__ import annotations

from collections import Counter

from service.games.renaissance import board as B
from service.games.renaissance import catalog as K
from service.games.renaissance.state import State


def invariant_errors(state: State) -> list[str]:
    errors = _material(state)
    for seat, p in enumerate(state.players):
        errors += [f"seat {seat}: {e}" for e in B.depot_errors(p)]
        counts = p.extra + p.strongbox + p.produced + state.pending
        if min(counts) < 0 or state.pending_white < 0:
            errors.append(f"seat {seat}: negative count")
        if any(p.produced[r] > p.strongbox[r] for r in range(4)):
            errors.append(f"seat {seat}: produced more than the strongbox holds")
        if not 0 <= p.faith <= K.FAITH_END:
            errors.append(f"seat {seat}: faith {p.faith}")
        for report, fired in enumerate(state.reports):
            if fired != (p.favours[report] != 0):
                errors.append(f"seat {seat}: favour tile {report + 1} out of step")
        for stack in p.slots:
            if [K.CARDS[c].level for c in stack] != list(range(1, len(stack) + 1)):
                errors.append(f"seat {seat}: slot levels {stack}")
    if state.solo != (0 <= state.lorenzo <= K.FAITH_END):
        errors.append(f"black cross at {state.lorenzo}")
    return errors


def _material(state: State) -> list[str]:
    errors = []
    if Counter(state.market + [state.spare]) != Counter(K.MARBLES):
        errors.append("marbles not conserved")
    cards = [c for deck in state.decks for c in deck] + state.removed
    cards += [c for p in state.players for stack in p.slots for c in stack]
    if sorted(cards) != sorted(K.CARDS):
        errors.append("development cards not conserved")
    for d, deck in enumerate(state.decks):
        if any(K.deck_index(K.CARDS[c].level, K.CARDS[c].colour) != d for c in deck):
            errors.append(f"deck {d} holds a foreign card")
    leaders = [lid for p in state.players for lid in p.dealt + p.leaders]
    if len(leaders) != len(set(leaders)) or not set(leaders) <= set(K.LEADERS):
        errors.append("leaders duplicated")
    return errors
