"""Evaluators for the alpha-beta search (``alphabeta.py``): a position's worth for the side
to move, as a score (hundreds for a strong edge, ``alphabeta.WIN`` for a won game).

Santorini (two players): the heights the workers stand on, where they may go (mobility),
the levels they could climb to next, and threats of climbing to level 3: the side to move
with a worker on level 2 beside a free level 3 all but wins; the other side's threats it
must answer, and two on different cells it mostly cannot. Dolphins & Foxes: units kept (as
``knowledge.dolphinfox_value`` counts them), how close each unit is to the far row, the side
to move's crossing next, units that stand where the rival may capture them, and mobility.
"""

from __future__ import annotations

from typing import Any

from service.games.dolphinfox.board import HOME, neighbours as df_neighbours, terrain_at
from service.games.santorini.board import neighbours

#: worth of a worker standing on level 0, 1, 2 (level 3 is a win)
HEIGHT = (0.0, 30.0, 90.0, 0.0)
#: worth of each cell a worker may step to, and of each cell it may climb to next
MOBILITY, CLIMB = 3.0, 12.0
#: the side to move can climb to level 3: it wins (unless a god forbids it: not quite WIN)
READY = 5_000.0
#: an unanswered threat of the side that is not to move (it must be blocked), and two
THREAT, DOUBLE_THREAT = 60.0, 1_500.0


def _side(st: Any, seat: int) -> tuple[float, set[int]]:
    """A seat's positional worth and the cells of level 3 it could climb onto."""
    worth, threats = 0.0, set()
    taken = {c for c in st.workers if c is not None}
    for w in (2 * seat, 2 * seat + 1):
        c = st.workers[w] if w < len(st.workers) else None
        if c is None:
            continue
        h = st.blocks[c]
        worth += HEIGHT[min(h, 3)]
        for n in neighbours(c):
            if st.domes[n] or n in taken:
                continue
            nh = st.blocks[n]
            if nh > h + 1:
                continue
            worth += MOBILITY
            if nh == h + 1:
                worth += CLIMB * nh
            if h == 2 and nh == 3:
                threats.add(n)
    return worth, threats


def santorini_deep(st: Any, mover: int) -> float:
    """The two-player position's worth for ``mover``, whose turn it is."""
    other = 1 - mover
    mine, my_threats = _side(st, mover)
    theirs, their_threats = _side(st, other)
    worth = mine - theirs
    if my_threats:
        return READY + worth
    if len(their_threats) >= 2:
        worth -= DOUBLE_THREAT
    elif their_threats:
        worth -= THREAT
    return worth


#: worth of a unit, of each row nearer the far row, of the last row before it
UNIT, ROW, CLOSE = 400.0, 12.0, 60.0
#: a unit of the side not to move that the side to move can capture at once
HANGING = 300.0
DF_MOBILITY = 2.0
#: the race to the far row: the side to move wins it when its nearest unit is no farther
#: than the rival's (it moves first), unless it is stopped on the way
RACE, RACE_STEP = 300.0, 25.0


def _goal(st: Any, team: int) -> int:
    return st.start_rows[1 - team]


def _enterable(st: Any, team: int, square: tuple[int, int]) -> bool:
    occupant = st.units.get(square)
    return occupant is None or (occupant != team
                                and terrain_at(st.terrain, st.size, square) == HOME[team])


def dolphinfox_deep(st: Any, mover: int) -> float:
    """The position's worth for ``mover``, the side to move (the search alternates them)."""
    worth, nearest = 0.0, [st.size, st.size]
    for square, team in st.units.items():
        sign = 1.0 if team == mover else -1.0
        goal = _goal(st, team)
        distance = abs(goal - square[0])
        nearest[team] = min(nearest[team], distance)
        worth += sign * (UNIT + ROW * (st.size - 1 - distance) + (CLOSE if distance == 1 else 0))
        steps = [n for n in df_neighbours(square, st.size) if _enterable(st, team, n)]
        worth += sign * DF_MOBILITY * len(steps)
        if team == mover and distance == 1 and any(n[0] == goal for n in steps):
            worth += READY  # it crosses next
        if team != mover and terrain_at(st.terrain, st.size, square) == HOME[mover] and any(
                st.units.get(n) == mover for n in df_neighbours(square, st.size)):
            worth += HANGING  # the side to move takes it
    return worth + race(nearest[mover], nearest[1 - mover])


def race(mine: int, theirs: int) -> float:
    """The race term for the side to move, its nearest unit ``mine`` rows from the far row."""
    if mine <= theirs:
        return RACE + RACE_STEP * (theirs - mine)
    return -RACE - RACE_STEP * (mine - theirs - 1)
