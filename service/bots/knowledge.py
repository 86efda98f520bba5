"""What the stronger bots know of a game beyond the contract: a position's worth, how far to
look ahead, and which hidden facts to redraw. A game without an entry here is still played,
with neutral defaults (the search then relies on finished playouts alone)."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any

from service.bots.deep_values import dolphinfox_deep, santorini_deep
from service.bots.eriantys_plan import plan_eriantys
from service.bots.renaissance import renaissance_essence, renaissance_redraw, renaissance_value
from service.bots.renaissance_plan import plan_turn

Evaluator = Callable[[Any, int], float]
#: deal the facts hidden from a seat anew (state, seat, generator), so it never plans with them
Redraw = Callable[[Any, int, random.Random], None]
#: the actions worth a bot's search among the legal ones (never empty when these are not)
Prune = Callable[[Any, list[Any]], list[Any]]
#: a position within a turn, as far as the rest of that turn goes (two positions with one
#: key offer the same continuations): the tactical look explores each key once
TurnKey = Callable[[Any], Hashable]
#: what players care about in a position: an action that leaves it as it was is idle (a
#: bot never plays two idle actions in a row)
Essence = Callable[[Any], Hashable]
#: the first action of a planned turn (game, state, seat, the actions allowed, generator), or
#: None where the game does not plan this position (the search then chooses as usual);
#: with ``plan_positions``, also the positions it may visit
Plan = Callable[..., Any]
#: a position's worth for the side to move, for the alpha-beta search (``deep_values.py``)
DeepEvaluator = Callable[[Any, int], float]
#: whether the alpha-beta search fits a position (two players, the play under way)
DeepFits = Callable[[Any], bool]


def _clamp(value: float) -> float:
    return min(1.0, max(0.0, value))


def dolphinfox_value(state: Any, seat: int) -> float:
    """Units kept and the lead towards the opponent's starting row."""
    size = state.size

    def progress(team: int) -> int:
        rows = [r for (r, _), t in state.units.items() if t == team]
        if not rows:
            return 0
        return max(rows) - 1 if team == 0 else size - min(rows)

    units = state.count(seat) - state.count(1 - seat)
    lead = (progress(seat) - progress(1 - seat)) / max(1, size - 1)
    return _clamp(0.5 + 0.12 * units + 0.35 * lead)


def santorini_value(state: Any, seat: int) -> float:
    """Height of one's own workers against the rivals' still in the game."""
    def mean_height(seats: set[int]) -> float:
        cells = [c for w, c in enumerate(state.workers) if c is not None and w // 2 in seats]
        return sum(state.blocks[c] for c in cells) / len(cells) if cells else 0.0

    if not state.workers:
        return 0.5
    rivals = {s for s in range(state.seats) if s != seat and state.alive[s]}
    return _clamp(0.5 + 0.2 * (mean_height({seat}) - mean_height(rivals)))


#: a worker that may go on moving (Hermes on one level, Triton along the edge) stops after
#: this many moves of one turn when anything else is left
SANTORINI_MOVES = 3


def santorini_prune(state: Any, actions: list[Any]) -> list[Any]:
    """Choosing the other worker once one is chosen leads nowhere new, nor does walking on
    for ever: a bot that did either could go back and forth for ever. It keeps them only
    when nothing else is left."""
    if state.turn is None or state.turn.step == "SELECT":
        return actions
    onward = [a for a in actions if a.type != "select_worker"]
    if state.turn.moves >= SANTORINI_MOVES:
        onward = [a for a in onward if a.type != "move"] or onward
    return onward or actions


def santorini_turn_key(state: Any) -> Hashable:
    """The board and what the turn has done, with the count of moves capped where the bot
    stops walking (Hermes and Triton, who may go on moving, then have the same choices)."""
    t = state.turn
    turn = None if t is None else (
        t.step, t.worker, t.acted, t.start, min(t.moves, SANTORINI_MOVES), t.moved_up,
        tuple(sorted(set(t.movers))), t.prebuilt, tuple(t.builds), t.extra_builds)
    return (state.current, state.phase, tuple(state.blocks), tuple(state.domes),
            tuple(state.workers), tuple(state.alive), turn,
            tuple(tuple(sorted(f.items())) for f in state.flags))


def eriantys_value(state: Any, seat: int) -> float:
    """Towers placed (what wins) first, then professors held, against the best rival team."""
    team = state.team(seat)
    start = state.params.towers

    def worth(t: int) -> float:
        profs = sum(1 for h in state.professors if h >= 0 and state.team(h) == t)
        return (start - state.towers[t]) + 0.3 * profs

    rivals = [worth(t) for t in range(state.params.teams) if t != team]
    return _clamp(0.5 + 0.06 * (worth(team) - max(rivals, default=0.0)))


def eriantys_redraw(state: Any, seat: int, rng: random.Random) -> None:
    """The bag's future draws are hidden: the bot plans with a generator of its own."""
    state.rng = rng.getrandbits(64)


@dataclass(frozen=True)
class Knowledge:
    evaluate: Evaluator | None = None
    #: how many actions a playout looks ahead before the evaluator judges the position
    horizon: int = 400
    redraw: Redraw | None = None
    prune: Prune | None = None
    turn_key: TurnKey | None = None
    #: the most positions a tactical look may visit in this game (Eriantys' turns, three or
    #: four student moves before mother nature, are far too many to list: the look there
    #: mostly finds what mother nature's move and the cloud decide)
    look: int = 1_000_000
    essence: Essence | None = None
    #: playouts one core plays in a second here (measured, rounded down): a budget of B
    #: seconds is B x rate playouts, the same search on a quiet machine and on a busy one
    rate: int = 500
    #: weight of the evaluator's reading one action ahead beside the playouts' mean, when
    #: the move is chosen: where random playouts say little (Renaissance's long games), the
    #: evaluator leads and the playouts break ties
    prior: float = 0.0
    #: a planner that replaces the playouts (the ``hard`` level's, ``STRONG``)
    plan: Plan | None = None
    #: the alpha-beta search's evaluator (``alphabeta.py``), which then replaces the playouts
    #: where ``deep_fits`` says it fits (the ``hard`` level's, ``STRONG``)
    deep: DeepEvaluator | None = None
    deep_fits: DeepFits | None = None
    #: positions the alpha-beta search visits for each playout the budget buys (about what
    #: one core visits in the time of a playout), so that it costs what the playouts did
    deep_positions: int = 0
    #: where not 0, ``plan`` takes a sixth argument, the positions it may visit: this many
    #: for each playout the budget buys (``eriantys_plan``), so that it costs what they did
    plan_positions: int = 0


def renaissance_solo_plan(game: Any, state: Any, seat: int, allowed: list[Any],
                          rng: random.Random) -> Any:
    """In a solo game, the first action of the best whole turn (``renaissance_plan``)."""
    return plan_turn(game, state, seat, allowed, rng) if state.solo else None


KNOWLEDGE: dict[str, Knowledge] = {
    "dolphinfox": Knowledge(dolphinfox_value, horizon=24, rate=3000),
    "santorini": Knowledge(santorini_value, horizon=45, prune=santorini_prune,
                           turn_key=santorini_turn_key, rate=400),
    "eriantys": Knowledge(eriantys_value, horizon=40, redraw=eriantys_redraw, look=1500,
                          rate=2500),
    "renaissance": Knowledge(renaissance_value, horizon=30, redraw=renaissance_redraw,
                             look=600, essence=renaissance_essence, rate=1000,
                             prior=2.0),
}


#: positions of the alpha-beta search per playout of the budget: what one core visits in
#: the time of one playout (measured on mid-game positions: Santorini with gods 34-51,
#: Dolphins & Foxes 23-27)
DEEP_POSITIONS = {"santorini": 40, "dolphinfox": 25}

#: positions (copies of the state played on) of Eriantys' turn planner per playout of the
#: budget: about what one core copies in the time of one playout
ERIANTYS_PLAN_POSITIONS = 10

#: what the ``hard`` level knows beyond ``KNOWLEDGE``, in the games where it knows more
STRONG: dict[str, Knowledge] = {
    "eriantys": replace(KNOWLEDGE["eriantys"], plan=plan_eriantys,
                        plan_positions=ERIANTYS_PLAN_POSITIONS),
    "renaissance": replace(KNOWLEDGE["renaissance"], plan=renaissance_solo_plan),
    "santorini": replace(KNOWLEDGE["santorini"], deep=santorini_deep,
                         deep_fits=lambda st: st.seats == 2 and st.phase == "play",
                         deep_positions=DEEP_POSITIONS["santorini"]),
    "dolphinfox": replace(KNOWLEDGE["dolphinfox"], deep=dolphinfox_deep,
                          deep_fits=lambda st: True,
                          deep_positions=DEEP_POSITIONS["dolphinfox"]),
}


def knowledge_of(game_name: str, *, strong: bool = False) -> Knowledge:
    """What a bot knows of ``game_name``; with ``strong``, the ``hard`` level's knowledge
    where the game has more of it."""
    if strong and game_name in STRONG:
        return STRONG[game_name]
    return KNOWLEDGE.get(game_name, Knowledge())
