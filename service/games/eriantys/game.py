"""The Eriantys game object behind Tavolo's game contract."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import TypeAdapter

from service.games.base import ActionModel, Event, Game, GameOptions, Outcome
from service.games.eriantys import describe, engine, views
from service.games.eriantys.actions import ACTION_ADAPTER
from service.games.eriantys.setup import EriantysOptions, setup_state
from service.games.eriantys.state import State, dump, load


class Eriantys(Game[State]):
    name: ClassVar[str] = "eriantys"
    title: ClassVar[str] = "Eriantys"
    goal: ClassVar[str] = (
        'Build all your towers on the islands (or have the most when the islands, the bag or '
        "the assistants run out) by controlling the professors of the students' colours.")
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    abandon_grace: ClassVar[float] = 300.0  # docs/rules/eriantys.md, "Abandoned seats"
    draws_by_agreement: ClassVar[bool] = True  # its rules know a drawn result
    options_model: ClassVar[type[GameOptions]] = EriantysOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER

    def setup(self, seats: int, options: GameOptions, seed: int) -> State:
        self.check_seats(seats)
        if not isinstance(options, EriantysOptions):
            options = self.parse_options(options.model_dump() if options else None)
        assert isinstance(options, EriantysOptions)
        return setup_state(seats, options, seed)

    def to_act(self, state: State) -> frozenset[int]:
        return engine.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[ActionModel]:
        return engine.legal_actions(state, seat)

    def apply(
        self, state: State, seat: int, action: ActionModel | dict[str, Any]
    ) -> list[dict[str, Any]]:
        return engine.apply(state, seat, self.parse_action(action))

    def check_character(self, state: State, seat: int, character: str) -> None:
        """Raise the rules error that playing ``character`` now would raise, before the
        card's own inputs are known; change nothing."""
        engine.check_character(state, seat, character)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def view_beside(self, state: State, seat: int | None,
                    seen: dict[int | None, dict[str, Any]]) -> dict[str, Any]:
        """Every seat's hand, entrance and coins are public: the views differ only in
        ``you`` (the rest is shared, read-only)."""
        return {**next(iter(seen.values())), "you": seat}

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(winners=tuple(state.winners), draw=state.draw, reason=state.end_reason,
                       detail={"towers_left": list(state.towers)})

    def dump_state(self, state: State) -> dict[str, Any]:
        return dump(state)

    def load_state(self, data: dict[str, Any]) -> State:
        return load(data)

    def describe_seen(self, events: list[Event], viewer: int | None, *,
                      action: dict[str, Any] | None, actor: int | None,
                      names: dict[int, str] | None) -> list[str]:
        return describe.describe(events, viewer, names=names, label=self.seat_label)

    def team_of(self, state: State, seat: int) -> int:
        return state.team(seat)

    def render(self, state: State) -> str:
        return views.render(state)
