"""The Santorini game object: the contract of ``service.games.base.Game``."""

from __future__ import annotations

from itertools import combinations
from typing import Any, ClassVar, Literal

from pydantic import TypeAdapter

from service.errors import MalformedAction
from service.games.base import ActionModel, Event, Game, GameOptions, Outcome

from . import describe as words, setup_flow, turn
from .actions import (
    ACTION_ADAPTER,
    STEP_ACTIONS,
    Build,
    Cell,
    ChooseGod,
    Force,
    Move,
    PickGods,
    PlaceWorkers,
    Remove,
    SelectWorker,
    Skip,
)
from .board import CELLS, cell, xy
from .codes import illegal
from .gods import GODS
from .rules import step_cells, step_kind, step_optional
from .state import CHOOSE, OVER, PICK, PLACE, PLAY, SELECT, State
from .views import WORKER_LETTERS, render, view

#: action type -> the phase it belongs to
PHASE_OF: dict[type[ActionModel], str] = {
    PickGods: PICK, ChooseGod: CHOOSE, PlaceWorkers: PLACE,
    SelectWorker: PLAY, Move: PLAY, Build: PLAY, Remove: PLAY, Force: PLAY, Skip: PLAY,
}
KIND_OF: dict[type[ActionModel], str] = {v: k for k, v in STEP_ACTIONS.items()}


class SantoriniOptions(GameOptions):
    #: play with god powers (the challenger flow); False = base game, 2 players only
    gods: bool = True
    #: "full" = every god of the rules file; "original" = the seed-001 deck of 14
    deck: Literal["full", "original"] = "full"
    #: forbid a build when its piece has run out (the box holds 22/18/14/18)
    enforce_supply: bool = False


class SantoriniGame(Game[State]):
    name: ClassVar[str] = "santorini"
    title: ClassVar[str] = "Santorini"
    goal: ClassVar[str] = (
        'Move one of your workers up onto the third level of a tower, or leave your opponent no'
        ' move.')
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 3
    abandon_grace: ClassVar[float] = 180.0  # docs/rules/santorini.md, "Abandoned seats"
    options_model: ClassVar[type[GameOptions]] = SantoriniOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER

    def setup(self, seats: int, options: GameOptions, seed: int) -> State:
        """No randomness in Santorini: ``seed`` is not used (colours are the dialect's business)."""
        self.check_seats(seats)
        assert isinstance(options, SantoriniOptions)
        if not options.gods and seats != 2:
            raise MalformedAction("the base game without gods is for 2 players",
                                  code="options/invalid")
        return setup_flow.new_state(seats, options.gods, options.deck, options.enforce_supply)

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset({state.current})

    def apply(self, state: State, seat: int, action: ActionModel) -> list[Event]:
        action = self.parse_action(action)
        if state.phase == OVER:
            illegal("game_over", "the match is over")
        if seat not in self.to_act(state):
            illegal("not_your_turn", f"seat {state.current} is to act")
        if PHASE_OF[type(action)] != state.phase:
            illegal("wrong_phase", f"{action.type} does not belong to phase {state.phase}")
        events: list[Event] = []
        self._dispatch(state, seat, action, events)
        return events

    def _dispatch(self, st: State, seat: int, action: ActionModel, events: list[Event]) -> None:
        if isinstance(action, PickGods):
            setup_flow.pick_gods(st, seat, action.gods, events)
        elif isinstance(action, ChooseGod):
            setup_flow.choose_god(st, seat, action.god, events)
        elif isinstance(action, PlaceWorkers):
            setup_flow.place_workers(st, seat, action.positions, events)
        elif isinstance(action, SelectWorker):
            w = st.worker_at(cell(action.x, action.y))
            if w is None or st.owner(w) != seat:
                illegal("not_your_worker", f"no worker of yours on ({action.x},{action.y})")
            turn.select(st, seat, w, events)
        elif isinstance(action, Skip):
            turn.skip(st, seat, events)
        else:
            dome = bool(getattr(action, "dome", False))
            c = cell(action.x, action.y)  # type: ignore[attr-defined]
            turn.play(st, seat, KIND_OF[type(action)], c, dome, events)

    # --- legal actions -------------------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[ActionModel] | None:
        if seat not in self.to_act(state):
            return []
        if state.phase == PICK:
            pool = setup_flow.offerable(state)
            return [PickGods(gods=g) for g in combinations(pool, state.seats)]
        if state.phase == CHOOSE:
            return [ChooseGod(god=g) for g in state.offered]
        if state.phase == PLACE:
            free = [c for c in range(CELLS) if not state.occupied(c)]
            cells = {c: _cell(c) for c in free}
            return [PlaceWorkers.model_construct(type="place_workers", positions=(cells[a], cells[b]))
                    for a, b in combinations(free, 2)]
        return self._play_actions(state, seat)

    def _play_actions(self, st: State, seat: int) -> list[ActionModel]:
        t = st.turn
        assert t is not None
        out: list[ActionModel] = []
        for w in _selectable(st, seat):
            x, y = xy(st.pos(w))
            out.append(SelectWorker(x=x, y=y))
        if t.step == SELECT:
            return out
        kind = step_kind(t.step)
        for c, domes in step_cells(st, seat).items():
            x, y = xy(c)
            if kind == "build":
                variants = [False, True] if st.blocks[c] == 3 else domes  # level 3 takes a dome anyway
                out += [Build(x=x, y=y, dome=d) for d in variants]
            else:
                out.append(STEP_ACTIONS[kind](x=x, y=y))  # type: ignore[call-arg]
        if step_optional(st, seat):
            out.append(Skip())
        return out

    # --- views, outcome, persistence ----------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def view_beside(self, state: State, seat: int | None,
                    seen: dict[int | None, dict[str, Any]]) -> dict[str, Any]:
        """Nothing is hidden: the views differ only in ``you`` (the rest, the board's 25
        cells, the turn's masks and the god deck, is shared, read-only)."""
        return {**next(iter(seen.values())), "you": seat}

    def render(self, state: State) -> str:
        return render(state)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER or state.winner is None:
            return None
        return Outcome(winners=(state.winner,), reason=state.reason,
                       detail={"eliminated": list(state.out_order)})

    def catalog(self) -> dict[str, Any]:
        """Every god card with its effect text (the browser shows them beside the board)."""
        return {"gods": {name: {"text": god.text, "players": sorted(god.players)}
                         for name, god in GODS.items()}}

    def eliminated(self, state: State) -> frozenset[int]:
        return frozenset(state.out_order)

    def describe_seen(self, events: list[Event], viewer: int | None, *,
                      action: dict[str, Any] | None, actor: int | None,
                      names: dict[int, str] | None) -> list[str]:
        return words.describe(events, viewer, names=names, label=self.seat_label)

    def outcome_events(self, outcome: dict[str, Any]) -> list[Event]:
        return words.outcome_events(outcome)

    def seat_label(self, seat: int) -> str:
        return f"seat {seat} ({WORKER_LETTERS[2 * seat:2 * seat + 2]})"

    def dump_state(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def load_state(self, data: dict[str, Any]) -> State:
        return State.from_dict(data)


def _selectable(st: State, seat: int) -> list[int]:
    """Workers a select_worker may name now: any able one before acting, else a switch (Hermes);
    never the one already selected (selecting it again changes nothing)."""
    assert st.turn is not None
    if st.turn.acted:
        found = turn.switch_targets(st, seat)
    else:
        found = [w for w in st.workers_of(seat) if turn.can_start(st, seat, w)]
    return [w for w in found if w != st.turn.worker or st.turn.step == SELECT]


def _cell(c: int) -> Cell:
    x, y = xy(c)
    return Cell.model_construct(x=x, y=y)
