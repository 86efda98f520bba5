"""Shared helpers of the Renaissance tests (imported as a plain module from this directory).

Positions are built compactly: ``rig(state, seat, depots=("coin", "2stone", ""),
strongbox="3coin shield", slots=("L1-GREEN-1VP", "", ""), active=(13,))``; cards are named by
their ``cards.json`` key, resources as ``"<n><resource>"`` words.
"""

from __future__ import annotations

from typing import Any, Sequence

from rules_helpers import refused, types

from service.games.renaissance import GAME
from service.games.renaissance import catalog as K
from service.games.renaissance.checks import invariant_errors
from service.games.renaissance.state import State

__all__ = ["GAME", "act", "rejects", "types", "started", "rig", "res", "card", "set_market",
           "on_top", "drain", "market_turn"]

MARBLE_LETTERS = {"W": "white", "B": "blue", "G": "grey", "Y": "yellow", "P": "purple",
                  "R": "red"}


def act(state: State, seat: int, **raw: Any) -> list[dict[str, Any]]:
    events = GAME.apply(state, seat, raw)
    assert not invariant_errors(state), invariant_errors(state)
    return events


def rejects(state: State, seat: int, reason: str, **raw: Any) -> None:
    """The action is refused with ``rules/<reason>`` and the state is untouched."""
    refused(GAME, state, seat, reason, raw)


def res(text: str) -> list[int]:
    """``"3coin shield"`` -> counts [3, 0, 1, 0]."""
    out = [0, 0, 0, 0]
    for word in text.split():
        digits = word.rstrip("abcdefghijklmnopqrstuvwxyz")
        out[K.RES_INDEX[word[len(digits):]]] += int(digits or 1)
    return out


def card(key: str) -> int:
    return K.CARD_KEYS[key]


def started(seats: int, seed: int = 1) -> State:
    """A game past set-up: every seat keeps its first two dealt leaders, bonus resources are
    emptied again, and all depots are empty."""
    state = GAME.setup(seats, GAME.parse_options({}), seed)
    for seat, player in enumerate(state.players):
        GAME.apply(state, seat, {"type": "choose_leaders", "leaders": player.dealt[:2]})
        for _ in range(player.bonus_left):
            GAME.apply(state, seat, {"type": "take_bonus_resource", "resource": "coin",
                                     "depot": 3})
        player.depots = [[-1, 0], [-1, 0], [-1, 0]]
    assert state.phase == "play"
    return state


def rig(state: State, seat: int, *, depots: Sequence[str] = ("", "", ""), extra: str = "",
        strongbox: str = "", slots: Sequence[str] = ("", "", ""), active: Sequence[int] = (),
        hand: Sequence[int] = (), faith: int | None = None) -> State:
    """Set a player's board: depots as ``"2stone"``, slots as space-separated card keys (bottom
    first), leaders by id (``active`` ones first, then ``hand``)."""
    p = state.players[seat]
    p.depots = [[_kind(d), sum(res(d))] if d else [-1, 0] for d in depots]
    p.extra = res(extra)
    p.strongbox = res(strongbox)
    p.slots = [[card(k) for k in s.split()] for s in slots]
    taken = {c for s in p.slots for c in s}
    for deck in state.decks:
        deck[:] = [c for c in deck if c not in taken]
    if active or hand:
        p.leaders = list(active) + list(hand)
        p.status = ["active"] * len(active) + ["hand"] * len(hand)
        for other in state.players:
            if other is not p:
                kept = [(x, st) for x, st in zip(other.leaders, other.status)
                        if x not in p.leaders]
                other.leaders = [x for x, _ in kept]
                other.status = [st for _, st in kept]
    if faith is not None:
        p.faith = faith
    return state


def _kind(depot: str) -> int:
    return next(r for r, n in enumerate(res(depot)) if n)


def set_market(state: State, rows: str, spare: str) -> None:
    """``"WWWB/GGYY/PPRB"`` plus the spare letter."""
    state.market = [MARBLE_LETTERS[ch] for ch in rows.replace("/", "")]
    state.spare = MARBLE_LETTERS[spare]


def on_top(state: State, key: str) -> int:
    """Put card ``key`` on top of its deck (it must still be there); returns its id."""
    cid = card(key)
    c = K.CARDS[cid]
    deck = state.decks[K.deck_index(c.level, c.colour)]
    deck.remove(cid)
    deck.append(cid)
    return cid


def drain(state: State, seat: int) -> None:
    """Discard every resource still waiting to be placed."""
    for r, name in enumerate(K.RESOURCES):
        for _ in range(state.pending[r]):
            act(state, seat, type="discard_resource", resource=name)


def market_turn(state: State, seat: int) -> list[dict[str, Any]]:
    """A whole turn that takes row 1 and throws everything away."""
    events = act(state, seat, type="take_from_market", line="row", index=1)
    drain(state, seat)
    return events + act(state, seat, type="end_turn")
