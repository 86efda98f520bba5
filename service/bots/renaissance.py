"""What the bots know of Masters of Renaissance: a position's worth, what a player cares
about (so that shuffling depots about is seen as doing nothing), and the hidden facts a bot
redraws before planning (deck order below the visible tops, Lorenzo's token pile and the
seed of its reshuffles, the leaders in other players' hands)."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from service.games.renaissance import catalog as K
from service.games.renaissance.board import held, meets
from service.games.renaissance.faith import cards_bought, score

#: cards of one colour at set-up (4 per level, 3 levels): Lorenzo wins when one runs out
COLOUR_CARDS = 12
#: weight of the solo race (the player to the seventh card or the track's end, Lorenzo to his)
RACE = 0.5


def _clamp(value: float) -> float:
    return min(1.0, max(0.0, value))


def favours_to_come(state: Any, p: Any) -> float:
    """Favour tiles still to be decided, weighed by how close the player is to their section."""
    expected = 0.0
    for (report, start, _pope, vp), done in zip(K.REPORTS, state.reports):
        if done or p.favours[report - 1] != 0:
            continue
        gap = start - p.faith
        expected += vp if gap <= 0 else vp * max(0.0, 1.0 - gap / 6) * 0.6
    return expected


def engine(p: Any) -> float:
    """The means to score later: resources held, development cards (each one also a step to
    the seventh), the levels on top of the slots, leaders worth activating."""
    stock = sum(held(p))
    cards = cards_bought(p)
    tops = sum(K.CARDS[stack[-1]].level for stack in p.slots if stack)
    hand = sum((0.6 if meets(p, K.LEADERS[lid]) else 0.25) * K.LEADERS[lid].vp
               for lid, st in zip(p.leaders, p.status) if st == "hand")
    return 0.25 * stock + 1.2 * cards + 0.5 * tops + hand


def worth(state: Any, p: Any) -> float:
    """Victory points now (cards, track, tiles, active leaders, resources), favours to come,
    faith towards the next scoring space, and the engine."""
    return score(p) + favours_to_come(state, p) + 0.25 * p.faith + engine(p)


def lorenzo_threat(state: Any) -> float:
    """How close Lorenzo is to winning (0 to 1): his black cross, or the thinnest colour."""
    thinnest = min(sum(len(state.decks[K.deck_index(level, colour)]) for level in (1, 2, 3))
                   for colour in K.COLOURS)
    return max(state.lorenzo / K.FAITH_END, 1 - thinnest / COLOUR_CARDS)


def race(p: Any) -> float:
    """How close the player is to ending a solo game (seventh card or the track's end)."""
    return max(cards_bought(p) / K.CARDS_TO_END, p.faith / K.FAITH_END)


def renaissance_value(state: Any, seat: int) -> float:
    p = state.players[seat]
    if state.solo:
        mine = worth(state, p) + 0.15 * sum(state.pending)  # taken, still to be placed
        return _clamp(0.3 + 0.012 * mine + RACE * (race(p) - lorenzo_threat(state)))
    rivals = [worth(state, q) for s, q in enumerate(state.players) if s != seat]
    return _clamp(0.5 + 0.025 * (worth(state, p) - max(rivals)))


def renaissance_essence(state: Any) -> Hashable:
    """Everything a player cares about: the same but for where resources sit in a warehouse
    (swapping depots, moving resources to an extra depot and back change nothing here)."""
    players = tuple((tuple(held(p)), tuple(map(tuple, p.slots)), p.faith, tuple(p.favours),
                     tuple(p.leaders), tuple(p.status), p.bonus_left, tuple(p.dealt),
                     tuple(p.produced)) for p in state.players)
    return (state.phase, state.current, state.main, tuple(state.used), tuple(state.pending),
            state.pending_white, state.turns, state.lorenzo, tuple(map(len, state.decks)),
            tuple(state.market), state.spare, tuple(state.reports), players)


def renaissance_redraw(state: Any, seat: int, rng: random.Random) -> None:
    """Deal the hidden facts anew: the order of every deck below its top card, Lorenzo's
    pile and the seed of its later reshuffles, and the other players' hidden leaders (drawn
    from the leaders this seat has not seen)."""
    for deck in state.decks:
        if len(deck) > 2:
            below = deck[:-1]
            rng.shuffle(below)
            deck[:-1] = below
    rng.shuffle(state.tokens)
    state.seed = rng.getrandbits(32)
    me = state.players[seat]
    seen = set(me.dealt) | set(me.leaders)
    for other, p in enumerate(state.players):
        if other != seat:
            seen |= {lid for lid, st in zip(p.leaders, p.status) if st == "active"}
    unseen = [lid for lid in K.LEADERS if lid not in seen]
    rng.shuffle(unseen)
    for other, p in enumerate(state.players):
        if other == seat:
            continue
        p.dealt = [unseen.pop() if unseen else lid for lid in p.dealt]
        p.leaders = [lid if st == "active" or not unseen else unseen.pop()
                     for lid, st in zip(p.leaders, p.status)]
