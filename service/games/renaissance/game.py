"""The Masters of Renaissance game object behind Tavolo's game contract."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import TypeAdapter

from service.games.base import ActionModel, Event, Game, GameOptions, Outcome
from service.games.renaissance import catalog as K
from service.games.renaissance import describe, engine, legal, views, workshop
from service.games.renaissance.render import render
from service.games.renaissance.actions import ACTION_ADAPTER
from service.games.renaissance.setup import RenaissanceOptions, setup_state
from service.games.renaissance.state import State, dump, load


#: what an opponent or a spectator may not learn of an action, by its type: which leaders a
#: player kept, and which one it discarded (a discarded leader leaves the hand face down; the
#: views show only how many leaders each hand holds)
HIDDEN_ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "choose_leaders": ("leaders",), "discard_leader": ("leader",)}
#: the same for events
HIDDEN_EVENT_FIELDS: dict[str, tuple[str, ...]] = {"leader_discarded": ("leader",)}


def _without(data: dict[str, Any], hidden: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    """``data`` less the fields its type hides, which ``hidden`` names (unchanged if none)."""
    fields = hidden.get(data.get("type", ""), ())
    if not fields:
        return data
    return {key: value for key, value in data.items() if key not in fields}


class Renaissance(Game[State]):
    name: ClassVar[str] = "renaissance"
    title: ClassVar[str] = "Masters of Renaissance"
    goal: ClassVar[str] = (
        'Score the most victory points with development cards, leaders, the faith track and '
        'resources; alone, buy your seventh card or reach the end of the faith track before '
        'Lorenzo does.')
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 4
    abandon_grace: ClassVar[float] = 300.0  # docs/rules/renaissance.md, "Abandoned seats"
    draws_by_agreement: ClassVar[bool] = True  # its rules know a drawn result
    options_model: ClassVar[type[GameOptions]] = RenaissanceOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = ACTION_ADAPTER

    def setup(self, seats: int, options: GameOptions, seed: int) -> State:
        self.check_seats(seats)
        return setup_state(seats, seed)

    def to_act(self, state: State) -> frozenset[int]:
        return legal.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[ActionModel]:
        return legal.legal_actions(state, seat)

    def apply(
        self, state: State, seat: int, action: ActionModel | dict[str, Any]
    ) -> list[dict[str, Any]]:
        return engine.apply(state, seat, self.parse_action(action))

    def check_buy(self, state: State, seat: int, level: int, color: str) -> dict[str, int]:
        """Raise the rules error that buying the top card of (level, color) now would raise
        whatever the slot and payment; else return its price after discounts. Changes nothing."""
        engine.check_turn(state, seat, "buy_card")
        card = workshop.buyable(state, seat, level, color)
        return K.named(workshop.price_of(state.players[seat], card))

    def check_production(self, state: State, seat: int, production: str) -> dict[str, int]:
        """The same for a production ("base", "slot1".."slot3", "leader<id>"): returns its
        input (empty for the base production, whose two inputs are the player's choice)."""
        engine.check_turn(state, seat, "produce_base")
        return K.named(workshop.production_input(state, seat, production))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def view_beside(self, state: State, seat: int | None,
                    seen: dict[int | None, dict[str, Any]]) -> dict[str, Any]:
        return views.view_beside(state, seat, seen)

    def action_seen_by(self, action: dict[str, Any], actor: int,
                       viewer: int | None) -> dict[str, Any]:
        return action if viewer == actor else _without(action, HIDDEN_ACTION_FIELDS)

    def events_seen_by(self, events: list[Event], viewer: int | None) -> list[Event]:
        if not any(event.get("type") in HIDDEN_EVENT_FIELDS for event in events):
            return events  # the same list: the runtime then tells every seat the same notice
        return [event if viewer is not None and event.get("seat") == viewer
                else _without(event, HIDDEN_EVENT_FIELDS) for event in events]

    def describe_seen(self, events: list[Event], viewer: int | None, *,
                      action: dict[str, Any] | None, actor: int | None,
                      names: dict[int, str] | None) -> list[str]:
        return describe.describe(events, viewer, action=action, actor=actor, names=names,
                                 label=self.seat_label)

    def outcome_events(self, outcome: dict[str, Any]) -> list[Event]:
        return describe.outcome_events(outcome)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(winners=tuple(state.winners), draw=state.draw, reason=state.end_reason,
                       detail={"scores": list(state.scores)})

    def dump_state(self, state: State) -> dict[str, Any]:
        return dump(state)

    def load_state(self, data: dict[str, Any]) -> State:
        return load(data)

    def render(self, state: State) -> str:
        return render(state)
