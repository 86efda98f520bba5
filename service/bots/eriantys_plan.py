"""Eriantys, the ``hard`` level: whole turns searched on determinized positions.

What a seat cannot see in Eriantys is the order of the bag (the generator the draws come
from; the bag's counts by colour, every hand, cloud and card are on the table). Every
position this planner plays from is a copy of the seat's own position with a generator of
its own (``Search.fresh`` has already replaced the real one, and each sample here replaces
it again from the bot's seeded generator), so it never plans with the real draws: the same
seed gives the same move whatever the bag's hidden order.

In the action phase it searches whole turns: the student moves of the turn are sampled (three
or four moves among up to 65 each are far too many to list), and from each sample every
mother nature move is tried, then the clouds after the two best of them; a completed turn is
judged by :func:`value`. Each action that may start the rest of the turn gets an equal share
of the samples, then the best eight share the rest (a turn's worth is the best completion
found for it). In the planning phase each assistant card is tried on several deals: the
other seats' cards at random among theirs, then the round's action turns played by a quick
version of the same turn search for every seat, and the position where the round ends is
judged. Both are bounded by a number of positions (copies of the state played on), never
by time.

:func:`value` judges a position for a seat against the best rival team: towers placed above
all, professors held, what every team could take where it already has the most influence
(and what it stands to lose), students in the dining room and the entrance, coins; and the
best island the seat that acts next can take with its own mother nature move this turn.
"""

from __future__ import annotations

import math
import random
from typing import Any

from service.errors import ServiceError
from service.games.eriantys import catalog as K
from service.games.eriantys import engine
from service.games.eriantys.constants import ASSISTANT_MOVES, DINING_ROW
from service.games.eriantys.rules import max_steps, students_to_move
from service.games.eriantys.state import State, copy_state

WON, LOST = 1000.0, -1000.0
#: worth of one tower placed, one professor held, one tile a team could take (it has the
#: strictly greatest influence there and does not own it yet), a dining student, an
#: entrance student, a coin
TOWER, PROFESSOR, REACH, DINING, ENTRANCE, COIN = 10.0, 3.0, 3.0, 0.3, 0.25, 0.6
#: share of the best capture the next seat can make with its own move that counts now
NEXT_TURN = 0.8
#: character options tried as the first action of a turn (the cards offer hundreds)
CHARACTERS = 10
#: first actions kept for the second round of samples
KEEP = 8
#: samples of one seat's turn when a round is played out to judge an assistant card
QUICK = 4


def _influence(state: State, group: Any) -> list[int]:
    scores = [0] * state.params.teams
    for colour in range(5):
        holder = state.professors[colour]
        if holder >= 0:
            scores[state.team(holder)] += group.students[colour]
    if group.team >= 0:
        scores[group.team] += group.towers
    return scores


def _capture(state: State, group: Any, scores: list[int], team: int, extra: int) -> bool:
    """Whether ``team`` would hold ``group`` if mother nature stopped there, with ``extra``
    influence more."""
    if group.team == team:
        return False
    mine = scores[team] + extra
    return all(mine > s for t, s in enumerate(scores) if t != team)


def _next_capture(state: State, seat: int, groups_inf: list[list[int]]) -> float:
    """The best the seat about to act can take with its mother nature move this turn: its
    towers placed and the owner's removed (as a worth for its team)."""
    if state.phase != "action" or state.moved or state.mn_moved:
        return 0.0
    team = state.team(seat)
    reach = ASSISTANT_MOVES.get(state.played[seat], 1)
    entrance = state.players[seat].entrance
    extra = min(state.params.moves,
                sum(entrance[c] for c in range(5) if state.professors[c] >= 0
                    and state.team(state.professors[c]) == team))
    n = len(state.groups)
    best = 0.0
    for step in range(1, min(reach, n) + 1):
        index = (state.mother_nature + step) % n
        group = state.groups[index]
        if group.no_entry:
            continue
        if _capture(state, group, groups_inf[index], team, extra):
            tiles = min(len(group.tiles), state.towers[team])
            best = max(best, TOWER * tiles * (2 if group.team >= 0 else 1))
    return best


def value(state: State, seat: int) -> float:
    """The position's worth for ``seat``'s team against the best rival team."""
    team = state.team(seat)
    if state.phase == "over":
        if seat not in state.winners:
            return LOST
        return 0.0 if state.draw else WON
    teams = state.params.teams
    start = state.params.towers
    worth = [TOWER * (start - state.towers[t]) for t in range(teams)]
    for colour, holder in enumerate(state.professors):
        if holder >= 0:
            worth[state.team(holder)] += PROFESSOR
    groups_inf = [_influence(state, g) for g in state.groups]
    for group, scores in zip(state.groups, groups_inf):
        top = max(scores)
        if scores.count(top) != 1:
            continue
        winner = scores.index(top)
        if winner != group.team:
            worth[winner] += REACH * len(group.tiles)
            if group.team >= 0:
                worth[group.team] -= REACH * len(group.tiles)
    for s, player in enumerate(state.players):
        t = state.team(s)
        worth[t] += DINING * sum(player.dining) + ENTRANCE * sum(player.entrance)
        if state.expert:
            worth[t] += COIN * player.coins
    rivals = [worth[t] for t in range(teams) if t != team]
    result = worth[team] - max(rivals)
    nxt = state.current()
    if nxt >= 0 and state.phase == "action":
        gain = NEXT_TURN * _next_capture(state, nxt, groups_inf)
        result += gain if state.team(nxt) == team else -gain
    return result


class Planner:
    """One decision: a generator, a count of positions left."""

    def __init__(self, state: State, seat: int, rng: random.Random, positions: int) -> None:
        self.root, self.seat, self.rng = state, seat, rng
        self.left = positions

    def copy(self, state: State) -> State:
        self.left -= 1
        return copy_state(state)

    def deal(self) -> State:
        """A copy of the root with a generator of the bot's own (the bag's order is hidden)."""
        state = self.copy(self.root)
        state.rng = self.rng.getrandbits(64)
        return state

    # --- one seat's turn -------------------------------------------------------------

    def random_students(self, state: State, seat: int) -> None:
        """The turn's remaining student moves at random: half to the dining room (when it
        has room), the rest to an island."""
        rng = self.rng
        while (state.phase == "action" and state.current() == seat
               and students_to_move(state, seat) > 0):
            player = state.players[seat]
            colours = [c for c in range(5) for _ in range(player.entrance[c])]
            colour = rng.choice(colours)
            if player.dining[colour] < DINING_ROW and rng.random() < 0.5:
                to: Any = "dining"
            else:
                to = rng.randrange(len(state.groups))
            engine.apply(state, seat, K.MOVES[(colour, to)])

    def finish(self, state: State, seat: int, judge: int) -> tuple[float, State]:
        """The best end of ``seat``'s turn from ``state`` (students moved): each mother
        nature move, then the clouds after the two best; judged for ``judge``."""
        if state.phase != "action" or state.current() != seat:
            return value(state, judge), state
        if not state.mn_moved:
            steps: list[tuple[float, State]] = []
            for step in range(1, max_steps(state, seat) + 1):
                after = self.copy(state)
                engine.apply(after, seat, K.STEPS[step])
                steps.append((value(after, judge), after))
            steps.sort(key=lambda item: item[0], reverse=True)
            best: tuple[float, State] | None = None
            for _, after in steps[:2]:
                found = self.clouds(after, seat, judge)
                if best is None or found[0] > best[0]:
                    best = found
            assert best is not None
            return best
        return self.clouds(state, seat, judge)

    def clouds(self, state: State, seat: int, judge: int) -> tuple[float, State]:
        if state.phase != "action" or state.current() != seat:
            return value(state, judge), state
        choices = [K.CLOUDS[i] for i, cloud in enumerate(state.clouds)
                   if not state.clouds_taken[i] and sum(cloud) > 0] or [K.END_TURN]
        best: tuple[float, State] | None = None
        for action in choices:
            after = self.copy(state)
            engine.apply(after, seat, action)
            found = (value(after, judge), after)
            if best is None or found[0] > best[0]:
                best = found
        assert best is not None
        return best

    def complete(self, state: State, seat: int, judge: int) -> tuple[float, State]:
        """A sampled completion of ``seat``'s turn from ``state`` (changed), judged."""
        self.random_students(state, seat)
        return self.finish(state, seat, judge)

    # --- the decision ------------------------------------------------------------------

    def firsts(self, allowed: list[Any]) -> list[Any]:
        plain = [a for a in allowed if a.type != "play_character"]
        cards = [a for a in allowed if a.type == "play_character"]
        if len(cards) > CHARACTERS:
            cards = self.rng.sample(cards, CHARACTERS)
        return plain + cards

    def sample(self, first: Any) -> float:
        state = self.deal()
        try:
            engine.apply(state, self.seat, first)
        except ServiceError:
            return -math.inf
        return self.complete(state, self.seat, self.seat)[0]

    def turn(self, allowed: list[Any]) -> Any:
        """The first action of the best turn found (action phase, the seat's turn)."""
        firsts = self.firsts(allowed)
        best = [-math.inf] * len(firsts)
        cost = 8  # about the copies one sample takes
        rounds = max(1, self.left // (2 * cost * len(firsts)))
        for i, first in enumerate(firsts):
            for _ in range(rounds):
                best[i] = max(best[i], self.sample(first))
        kept = sorted(range(len(firsts)), key=lambda i: best[i], reverse=True)[:KEEP]
        while self.left > 0:
            for i in kept:
                best[i] = max(best[i], self.sample(firsts[i]))
        return firsts[max(range(len(firsts)), key=lambda i: (best[i], -i))]

    def quick_turn(self, state: State, seat: int) -> State:
        """A seat's turn played by a small version of the same search (for it)."""
        best: tuple[float, State] | None = None
        for _ in range(QUICK):
            trial = self.copy(state)
            found = self.complete(trial, seat, seat)
            if best is None or found[0] > best[0]:
                best = found
        assert best is not None
        return best[1]

    def round_value(self, card: Any) -> float:
        """One deal: ``card`` played, the other assistants at random, the round's turns
        played by the quick search; the position where the round ends, judged."""
        state = self.deal()
        engine.apply(state, self.seat, card)
        start = state.round
        rng = self.rng
        while state.phase != "over" and state.round == start:
            seat = state.current()
            if state.phase == "planning":
                engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            else:
                state = self.quick_turn(state, seat)
        return value(state, self.seat)

    def assistant(self, allowed: list[Any]) -> Any:
        cards = list(allowed)
        totals = [0.0] * len(cards)
        deals = 0
        per = QUICK * 8 * self.root.seats + 1  # about the copies one deal takes
        while True:
            for i, card in enumerate(cards):
                totals[i] += self.round_value(card)
            deals += 1
            if self.left < per * len(cards):
                break
        return cards[max(range(len(cards)), key=lambda i: (totals[i], -cards[i].card))]


def plan_eriantys(game: Any, state: State, seat: int, allowed: list[Any],
                  rng: random.Random, positions: int = 25_000) -> Any:
    """The first action of the best whole turn (action phase), or the best assistant card
    (planning); None where this planner does not choose (the search then does)."""
    if state.phase not in ("planning", "action") or state.current() != seat or not allowed:
        return None
    planner = Planner(state, seat, rng, positions)
    if state.phase == "planning":
        return planner.assistant(allowed)
    return planner.turn(allowed)
