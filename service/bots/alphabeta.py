"""Alpha-beta over whole turns, for the two-player games of perfect information (Santorini
with two players, Dolphins & Foxes): what ``hard`` plays there.

A node is the position at the start of a turn of the side to move; its children are the
positions where that side's turns end (Santorini: select a worker, move(s), build(s) and what
the god adds, each end board once however its actions were ordered; Dolphins & Foxes, real
time, is searched as if the sides alternated, one action a turn). Leaves are judged by the
game's ``Knowledge.deep`` evaluator from the side to move. Iterative deepening: depth 1, 2,
3... over the root's turns (best first from the last depth) while a fixed number of
positions lasts; every action applied and every position judged counts one, never time, so
a busy machine plays the same move. The first action of the best turn is played; the rest
of the turn is searched again at its next action.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from service.errors import ServiceError
from service.games.base import ActionModel, Game
from service.bots.knowledge import Knowledge

#: a won position's worth (a win sooner is worth a little more)
WIN = 100_000.0
#: at most this many actions in one turn (Santorini's longest turns have 6)
MAX_TURN = 8
#: depths past this are not tried (Dolphins & Foxes' small boards could go on for ever)
MAX_DEPTH = 12

#: a position's worth for the side to move (state, that seat); a large positive is good
DeepEvaluator = Callable[[Any, int], float]


class OutOfPositions(Exception):
    """The search has used its positions: the depth being searched is abandoned."""


@dataclass
class Tree:
    game: Game[Any]
    know: Knowledge
    evaluate: DeepEvaluator
    positions: int
    spent: int = 0

    def spend(self) -> None:
        self.spent += 1
        if self.spent > self.positions:
            raise OutOfPositions

    def apply(self, state: Any, seat: int, action: ActionModel) -> Any | None:
        self.spend()
        copy = getattr(state, "copy", None)
        child = copy() if callable(copy) else self.game.load_state(self.game.dump_state(state))
        try:
            self.game.apply(child, seat, action)
        except ServiceError:
            return None
        return child

    def actions(self, state: Any, seat: int) -> list[ActionModel]:
        actions = self.game.legal_actions(state, seat) or []
        return self.know.prune(state, actions) if self.know.prune is not None else actions

    def continues(self, state: Any, seat: int) -> bool:
        return (not self.game.real_time and self.game.outcome(state) is None
                and self.game.to_act(state) == frozenset({seat}))

    def turns(self, state: Any, seat: int) -> list[tuple[ActionModel, Any]]:
        """(first action, end position) of each turn of ``seat`` from ``state``, each end
        position once (by the game's ``turn_key``)."""
        return list(self.iter_turns(state, seat))

    def iter_turns(self, state: Any, seat: int) -> Iterator[tuple[ActionModel, Any]]:
        """``turns`` one at a time, depth first: a search that stops early (a cut-off) has
        not paid for the turns after it."""
        seen: set[Hashable] = set()
        key = self.know.turn_key

        def walk(st: Any, first: ActionModel | None,
                 depth: int) -> Iterator[tuple[ActionModel, Any]]:
            for action in self.actions(st, seat):
                child = self.apply(st, seat, action)
                if child is None:
                    continue
                head = action if first is None else first
                going = depth + 1 < MAX_TURN and self.continues(child, seat)
                if key is not None:
                    mark = (going, key(child))
                    if mark in seen:
                        continue
                    seen.add(mark)
                if going:
                    yield from walk(child, head, depth + 1)
                else:
                    yield head, child

        return walk(state, None, 0)

    def next_mover(self, state: Any, mover: int) -> int:
        if self.game.real_time:
            return 1 - mover
        acting = self.game.to_act(state)
        return next(iter(acting)) if len(acting) == 1 else 1 - mover

    def terminal(self, state: Any, mover: int, ply: int) -> float | None:
        outcome = self.game.outcome(state)
        if outcome is None:
            return None
        if outcome.draw or not outcome.winners:
            return 0.0
        return WIN - ply if mover in outcome.winners else -WIN + ply

    def judge(self, state: Any, mover: int, ply: int) -> float:
        done = self.terminal(state, mover, ply)
        if done is not None:
            return done
        self.spend()
        return self.evaluate(state, mover)

    def value(self, state: Any, mover: int, depth: int, alpha: float, beta: float,
              ply: int) -> float:
        """Negamax with alpha-beta: ``state``'s worth for ``mover``, the side to move."""
        if depth <= 0 or self.game.outcome(state) is not None:
            return self.judge(state, mover, ply)
        children: Iterable[tuple[ActionModel, Any]]
        if depth >= 2:  # the most promising first: more cut-offs
            children = sorted(self.turns(state, mover),
                              key=lambda item: -self.quick(item[1], mover, ply + 1))
        else:  # the leaves' parents: listed lazily, so a cut-off stops the listing
            children = self.iter_turns(state, mover)
        best = None
        for _, child in children:
            worth = -self.value(child, self.next_mover(child, mover), depth - 1, -beta,
                                -alpha, ply + 1)
            if best is None or worth > best:
                best = worth
            alpha = max(alpha, worth)
            if alpha >= beta:
                break
        if best is None:  # no turn to play: judged as it stands
            return self.judge(state, mover, ply)
        return best

    def quick(self, child: Any, mover: int, ply: int) -> float:
        """A child's worth for ``mover`` by the evaluator alone (for ordering)."""
        return -self.judge(child, self.next_mover(child, mover), ply)


def best_action(game: Game[Any], state: Any, seat: int, allowed: list[ActionModel],
                know: Knowledge, evaluate: DeepEvaluator, positions: int) -> ActionModel | None:
    """The first action of the best turn of ``seat`` found within ``positions``, among the
    turns that start with one of ``allowed``; None when not even every turn could be judged
    once (the caller then chooses as it would without this search)."""
    tree = Tree(game, know, evaluate, positions)
    try:
        root = [(a, child) for a, child in tree.turns(state, seat) if a in allowed]
        if not root:
            return None
        scores = [tree.quick(child, seat, 1) for _, child in root]
    except OutOfPositions:
        return None
    order = sorted(range(len(root)), key=lambda i: -scores[i])
    for depth in range(2, MAX_DEPTH + 1):
        if scores[order[0]] >= WIN - MAX_DEPTH or scores[order[0]] <= -WIN + MAX_DEPTH:
            break  # a forced result is known: deeper says nothing new
        found = _deepen(tree, root, order, depth, seat)
        if found is None:
            break
        scores, complete = found
        order = sorted(order, key=lambda i: -scores.get(i, -WIN * 2))
        if not complete:
            break
    return root[order[0]][0]


def _deepen(tree: Tree, root: list[tuple[ActionModel, Any]], order: list[int], depth: int,
            seat: int) -> tuple[dict[int, float], bool] | None:
    """The root's turns searched ``depth`` deep, best first: their worths (those searched
    before the positions ran out) and whether all were; None when not even the first was."""
    scores: dict[int, float] = {}
    alpha = -WIN * 2
    try:
        for i in order:
            child = root[i][1]
            worth = -tree.value(child, tree.next_mover(child, seat), depth - 1, -WIN * 2,
                                -alpha, 1)
            scores[i] = worth
            alpha = max(alpha, worth)
    except OutOfPositions:
        return (scores, False) if scores else None
    return scores, True
