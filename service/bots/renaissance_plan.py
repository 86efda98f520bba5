"""Masters of Renaissance solo, the ``hard`` level: plan the whole turn, judge where it ends.

Random playouts say little in this game (a random player loses to Lorenzo with 2 VP), so the
``hard`` bot plans its own turn instead: depth first over the seat's actions while it is its
turn (a market line and where each resource goes, a purchase, productions one after another,
leaders), at most ``PLAN_POSITIONS`` positions, the most promising continuations first. Each
position where the turn could end (the main action done, nothing left to place) is judged by
:func:`solo_value`, which knows what wins a solo game: development cards, the seventh first,
before Lorenzo's cross or a colour's last card. The first action of the best turn is played;
the rest is planned again at the next action (on a fresh deal of what the seat cannot see).
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any

from service.errors import ServiceError
from service.games.base import ActionModel, Game
from service.games.renaissance import catalog as K
from service.games.renaissance.board import held, meets
from service.games.renaissance.faith import cards_bought, score
from service.games.renaissance.workshop import price_of, slot_problem

#: positions one plan may visit (a position is an action applied to a copy)
PLAN_POSITIONS = 5000
#: continuations searched further from each position, best first by their own value
BRANCH = 6
#: the most actions one planned turn may have
DEPTH = 10
WON, LOST = 1000.0, -1000.0


def next_card_gap(state: Any, p: Any) -> tuple[float, int]:
    """Resources still missing for the nearest card the player could place (visible tops;
    resources produced this turn count, they are spendable next turn), and its level."""
    have = held(p)
    best, level_of_best = math.inf, 0
    for level in (1, 2, 3):
        if all(slot_problem(p, level, s) for s in (1, 2, 3)):
            continue
        for colour in K.COLOURS:
            deck = state.decks[K.deck_index(level, colour)]
            if not deck:
                continue
            price = price_of(p, K.CARDS[deck[-1]])
            missing = sum(max(0, need - got) for need, got in zip(price, have))
            # a higher card costs more and is needed as much (7 cards: stacks must climb)
            gap = missing + 0.15 * sum(price)
            if gap < best:
                best, level_of_best = gap, level
    return best, level_of_best


def engine_worth(p: Any) -> float:
    """What the cards on top of the slots produce a turn beyond what they take."""
    worth = 0.0
    for stack in p.slots:
        if stack:
            card = K.CARDS[stack[-1]]
            worth += sum(card.outputs) + 1.2 * card.faith - 0.8 * sum(card.inputs)
    return worth


def solo_value(state: Any, seat: int) -> float:
    """A solo position for ``seat``: cards above all (the seventh wins), then the way to the
    next one, resources (with diminishing worth), what the slots produce, faith and Lorenzo's
    cross (discarding a resource moves it), victory points last."""
    if state.phase == "over":
        return WON if seat in state.winners else LOST
    p = state.players[seat]
    cards = cards_bought(p)
    stock = sum(held(p))
    gap, _ = next_card_gap(state, p)
    gap = 12.0 if math.isinf(gap) else min(gap, 12.0)
    levels = sum(K.CARDS[c].level for stack in p.slots for c in stack)
    hand = sum(3.0 if meets(p, K.LEADERS[lid]) else 1.2
               for lid, st in zip(p.leaders, p.status) if st == "hand")
    active = sum(2.0 + K.LEADERS[lid].vp * 0.3
                 for lid, st in zip(p.leaders, p.status) if st == "active")
    thinnest = min(sum(len(state.decks[K.deck_index(level, colour)]) for level in (1, 2, 3))
                   for colour in K.COLOURS)
    return (14.0 * cards + 1.5 * levels
            - 2.6 * gap
            + 2.2 * math.sqrt(stock) + 0.15 * stock
            + 0.6 * engine_worth(p)
            + 0.5 * p.faith - 0.9 * max(0, state.lorenzo)
            + 0.25 * thinnest
            + hand + active
            + 0.1 * score(p))


def _key(state: Any) -> Hashable:
    """The position as far as the rest of the turn goes, depots included (so that a swap
    which makes room is seen, and swapping back is not explored twice)."""
    players = tuple((tuple(map(tuple, p.depots)), tuple(p.extra), tuple(p.strongbox),
                     tuple(p.produced), tuple(map(tuple, p.slots)), p.faith, tuple(p.status),
                     tuple(p.favours)) for p in state.players)
    return (state.phase, state.main, tuple(state.used), tuple(state.pending),
            state.pending_white, state.lorenzo, tuple(map(len, state.decks)), tuple(state.market),
            state.spare, players)


def _ends_here(state: Any) -> bool:
    """Whether the turn may end in this position (main action done, nothing to place)."""
    return state.phase == "over" or (bool(state.main) and not any(state.pending)
                                     and not state.pending_white)


def plan_turn(game: Game[Any], state: Any, seat: int, allowed: list[ActionModel],
              rng: random.Random, positions: int = PLAN_POSITIONS) -> ActionModel | None:
    """The first action of the best turn found from ``state`` (one of ``allowed``); None
    when this is not a turn to plan (set-up, or another seat's turn)."""
    if state.phase != "play" or state.current != seat:
        return None
    left = [positions]
    seen: set[Hashable] = {_key(state)}
    best: list[Any] = [-math.inf, None]
    end_turn = next((a for a in allowed if a.type == "end_turn"), None)
    if end_turn is not None and _ends_here(state):
        best[:] = [solo_value(state, seat), end_turn]

    def children(node: Any, actions: list[ActionModel]) -> list[tuple[float, float, ActionModel, Any]]:
        out = []
        snapshot = game.dump_state(node)  # one copy of the node; each child loads its own
        for action in actions:
            if action.type == "end_turn" or left[0] <= 0:
                continue
            left[0] -= 1
            child = game.load_state(snapshot)
            try:
                game.apply(child, seat, action)
            except ServiceError:
                continue
            key = _key(child)
            if key in seen:
                continue
            seen.add(key)
            out.append((solo_value(child, seat), rng.random(), action, child))
        out.sort(key=lambda item: item[:2], reverse=True)
        return out

    def explore(node: Any, first: ActionModel, depth: int) -> None:
        if depth >= DEPTH or node.phase != "play" or node.current != seat:
            return
        for value, _, action, child in children(node, game.legal_actions(node, seat) or [])[:BRANCH]:
            if _ends_here(child) and value > best[0]:
                best[:] = [value, first]
            explore(child, first, depth + 1)
            if left[0] <= 0:
                return

    # every allowed first action gets its share of the positions: the most promising at once
    # (a market line, with its resources still to place) need not hide a slower one (a
    # production into the strongbox)
    starts = children(state, allowed)
    for index, (value, _, action, child) in enumerate(starts):
        if _ends_here(child) and value > best[0]:
            best[:] = [value, action]
        share = left[0] // (len(starts) - index)
        rest, left[0] = left[0] - share, share
        explore(child, action, 1)
        left[0] += rest
    return best[1]
