"""Tactics before search: take a win that one turn reaches, stop an opponent's win in one.

A *turn* is every action a seat plays while it alone may act (Santorini: select a worker,
move, build and whatever the god adds, 2-6 actions; Eriantys: students, mother nature, a
cloud). In a real-time game, where every seat may act at any time, a turn is one action.
The search is depth first over the contract alone (``legal_actions``, ``apply``, ``to_act``,
``outcome``) and bounded by a number of positions, never by time, so the same position
gets the same answer on a quiet machine and on a busy one.

:func:`tactics` answers for the seat's next *action*: an action that starts a winning
turn, or else the actions that start a turn after which no opponent can win at once. The
bot decides action by action, so the rest of a winning (or safe) turn is found again at its
next action.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

from service.errors import ServiceError
from service.games.base import ActionModel, Game
from service.bots.knowledge import Knowledge

#: at most this many actions in one turn (Santorini's longest turns have 6)
MAX_TURN = 8


@dataclass
class Budget:
    """Positions a tactical look may still visit; ``short`` once it ran out."""

    positions: int
    short: bool = False
    #: actions (their repr) on a winning turn found so far: tried first, since the same
    #: threat usually answers every position of one look (a "killer" move)
    killers: set[str] = field(default_factory=set)
    #: the actions from the look's root to the position being explored (their repr is taken
    #: only when they win: most positions of a look are never on a winning turn)
    trail: list[ActionModel] = field(default_factory=list)

    def spend(self) -> bool:
        if self.positions <= 0:
            self.short = True
            return False
        self.positions -= 1
        return True


@dataclass
class Verdict:
    """What the tactical look found for the next action."""

    #: an action that starts a turn which wins the game (None: none was found)
    winning: ActionModel | None = None
    #: the actions starting a turn after which no opponent wins at once; None when nothing
    #: is known (the look ran short, or every action loses anyway)
    safe: list[ActionModel] | None = None


def _copy(game: Game[Any], state: Any) -> Any:
    copy = getattr(state, "copy", None)
    return copy() if callable(copy) else game.load_state(game.dump_state(state))


def _after(game: Game[Any], state: Any, seat: int, action: ActionModel,
           budget: Budget) -> Any | None:
    if not budget.spend():
        return None
    child = _copy(game, state)
    try:
        game.apply(child, seat, action)
    except ServiceError:
        return None
    return child


def _continues(game: Game[Any], state: Any, seat: int) -> bool:
    """Whether ``seat``'s turn goes on: it alone may act and the game is not over."""
    return (not game.real_time and game.outcome(state) is None
            and game.to_act(state) == frozenset({seat}))


def _actions(game: Game[Any], state: Any, seat: int, know: Knowledge) -> list[ActionModel]:
    actions = game.legal_actions(state, seat) or []
    return know.prune(state, actions) if know.prune is not None else actions


def turn_ends(game: Game[Any], state: Any, seat: int, know: Knowledge, budget: Budget,
              depth: int = 0, seen: set[Hashable] | None = None) -> Iterator[Any]:
    """Every position where a turn of ``seat`` from ``state`` ends (or the game does), depth
    first, while the budget lasts. ``state`` is the position before one of its actions.
    With the game's ``turn_key`` a position reached twice within the turn (Hermes moving
    about, Triton along the edge) is explored once."""
    seen = set() if seen is None else seen
    actions = _actions(game, state, seat, know)
    if budget.killers:
        actions = sorted(actions, key=lambda a: repr(a) not in budget.killers)
    for action in actions:
        child = _after(game, state, seat, action, budget)
        if child is None:
            if budget.short:
                return
            continue
        budget.trail.append(action)
        try:
            if depth + 1 < MAX_TURN and _continues(game, child, seat):
                if know.turn_key is not None:
                    key = know.turn_key(child)
                    if key in seen:
                        continue
                    seen.add(key)
                yield from turn_ends(game, child, seat, know, budget, depth + 1, seen)
            else:
                yield child
        finally:
            budget.trail.pop()
        if budget.short:
            return


def wins(game: Game[Any], state: Any, seat: int) -> bool:
    outcome = game.outcome(state)
    return outcome is not None and seat in outcome.winners and not outcome.draw


def loses(game: Game[Any], state: Any, seat: int) -> bool:
    outcome = game.outcome(state)
    if outcome is not None:
        return seat not in outcome.winners
    return seat in game.eliminated(state)


def can_win_now(game: Game[Any], state: Any, seat: int, know: Knowledge,
                budget: Budget) -> bool:
    """Whether ``seat``, to act in ``state``, has a turn that wins (within the budget). The
    winning turn's actions become the budget's killers, tried first from then on."""
    for end in turn_ends(game, state, seat, know, budget):
        if wins(game, end, seat):
            budget.killers.update(map(repr, budget.trail))
            return True
    return False


def threatened(game: Game[Any], state: Any, seat: int, know: Knowledge, budget: Budget) -> bool:
    """Whether, at the end of ``seat``'s turn, the game is lost or one of the seats that may
    act next can win with its coming turn."""
    if loses(game, state, seat):
        return True
    if game.outcome(state) is not None:
        return False
    return any(can_win_now(game, state, other, know, budget)
               for other in sorted(game.to_act(state)) if other != seat)


def safe_start(game: Game[Any], state: Any, seat: int, know: Knowledge, budget: Budget,
               known: dict[Hashable, bool] | None = None) -> bool:
    """Whether some turn of ``seat`` from ``state`` (the position after its first action)
    ends where no opponent wins at once. ``known``: ends already judged, by the game's
    ``turn_key`` (two orders of the same builds end on one board: it is judged once)."""
    known = {} if known is None else known

    def unsafe(end: Any) -> bool:
        key = know.turn_key(end) if know.turn_key is not None else None
        if key is not None and key in known:
            return known[key]
        verdict = threatened(game, end, seat, know, budget)
        if key is not None and not budget.short:
            known[key] = verdict
        return verdict

    if not _continues(game, state, seat):
        return not unsafe(state)
    return any(not unsafe(end) for end in turn_ends(game, state, seat, know, budget, depth=1))


def tactics(game: Game[Any], state: Any, seat: int, know: Knowledge, actions: list[ActionModel],
            positions: int) -> Verdict:
    """The tactical verdict on ``actions`` (the seat's candidates) within ``positions``."""
    budget = Budget(positions)
    verdict = Verdict()
    starts: list[tuple[ActionModel, Any]] = []
    for action in actions:  # a win with this very action first: the cheapest look
        child = _after(game, state, seat, action, budget)
        if child is None:
            continue
        if wins(game, child, seat):
            verdict.winning = action
            return verdict
        starts.append((action, child))
    for action, child in starts:  # then a win later in the same turn
        if _continues(game, child, seat) and any(
                wins(game, end, seat) for end in turn_ends(game, child, seat, know, budget, 1)):
            verdict.winning = action
            return verdict
    known: dict[Hashable, bool] = {}
    safe = [action for action, child in starts
            if safe_start(game, child, seat, know, budget, known)]
    if budget.short:
        return verdict
    verdict.safe = safe or None
    return verdict
