"""The game contract that every game package implements.

A game is a module-level object (an instance of a :class:`Game` subclass) that
holds no per-match data. Per-match data lives in a *state* object owned by the
game; the rest of Tavolo only ever handles it through the methods below.

Rules of the contract (see DESIGN.md):

* ``setup`` takes all randomness from ``seed``; the state carries whatever it
  needs afterwards (bag order, shuffled decks, an RNG state), so a state is a
  pure function of ``(seats, options, seed, actions)``.
* ``apply`` either mutates the state and returns events, or raises
  :class:`~service.errors.RulesError` / :class:`~service.errors.MalformedAction`
  and leaves the state exactly as it was.
* ``dump_state`` gives JSON-compatible data (dicts, lists, str, int, bool, None)
  and ``load_state(dump_state(s))`` is equal to ``s``.
* ``view(state, seat)`` is the only picture of a state a client ever sees: no bag
  order, no hidden cards. ``seat=None`` is the spectator view. Actions and events
  reach others only through ``action_seen_by`` and ``events_seen_by``.
* Actions are pydantic models with a snake_case ``type`` tag; events are plain
  dicts with a past-tense snake_case ``type``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from service.errors import MalformedAction

S = TypeVar("S")

Event = dict[str, Any]


class GameOptions(BaseModel):
    """Base for every game's options model: strict about unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ActionModel(BaseModel):
    """Base for every game's action models: strict about unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def to_wire(self) -> dict[str, Any]:
        """The action as JSON data (what ``model_dump(mode="json")`` gives).

        Most actions are flat: ints, strings, booleans. Those are copied from the model's
        values directly, many times cheaper than pydantic's dump, which the server would pay
        for every legal action it lists. Anything else takes pydantic's way."""
        values = self.__dict__
        if _plainly_dumped(type(self)) and _PLAIN.issuperset(map(type, values.values())):
            return dict(values)
        return self.model_dump(mode="json")


#: value types that JSON mode writes unchanged
_PLAIN = frozenset({int, str, bool, type(None)})


@cache
def _plainly_dumped(cls: type[BaseModel]) -> bool:
    """Whether pydantic writes ``cls``'s field values as they are: no serializers, aliases or
    excluded fields (then plain values come out unchanged and in field order)."""
    decorators = cls.__pydantic_decorators__
    return (not decorators.field_serializers and not decorators.model_serializers
            and not cls.model_computed_fields
            and all(f.alias is None and f.serialization_alias is None and not f.exclude
                    for f in cls.model_fields.values()))


@dataclass(frozen=True)
class Outcome:
    """How a finished match ended.

    ``winners`` are seat numbers (a whole team's seats in team games). With
    ``draw=True`` it lists the seats that share first place (all tied seats, which
    may be every seat; Dolphins & Foxes leaves it empty for its two-team draw).
    Seats knocked out while the game goes on (a beaten player in 3-player
    Santorini) are reported by :meth:`Game.eliminated`; this is the final result.
    """

    winners: tuple[int, ...]
    draw: bool = False
    reason: str = ""
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "draw": self.draw,
            "reason": self.reason,
            **({"detail": self.detail} if self.detail else {}),
        }


def event_words(event: Event) -> str:
    """An event named in words when a game says nothing better ("unit moved")."""
    return str(event.get("type", "something happened")).replace("_", " ").capitalize() + "."


def format_validation_error(exc: ValidationError) -> str:
    """A short, human reading of a pydantic error (first problem only)."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ())) or "input"
    return f"{where}: {err.get('msg', 'invalid')}"


class Game(ABC, Generic[S]):
    """One game's rules. Subclasses set the class attributes and implement the methods."""

    name: ClassVar[str]
    title: ClassVar[str]
    #: how to win, in one sentence (the browser shows it on the game's pages)
    goal: ClassVar[str] = ""
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options_model: ClassVar[type[GameOptions]]
    #: a pydantic TypeAdapter over the discriminated union of this game's actions
    action_adapter: ClassVar[TypeAdapter[Any]]
    #: True when several seats may act at once in real time (no turns)
    real_time: ClassVar[bool] = False
    #: seconds a seat may be away from an active match before the players present may claim
    #: the win (two sides) or go on without it (more); each game's rules page gives its value
    abandon_grace: ClassVar[float] = 300.0
    #: whether the players may agree to a draw (sessions/draws.py): only where the rules know
    #: a drawn result
    draws_by_agreement: ClassVar[bool] = False
    #: real-time games: seconds without any action after which an active match is aborted
    #: (None: never; turn-based games wait for their players)
    inactivity_limit: ClassVar[float | None] = None

    # --- options and actions -------------------------------------------------

    def parse_options(self, raw: dict[str, Any] | None) -> GameOptions:
        try:
            return self.options_model.model_validate(raw or {})
        except ValidationError as exc:
            raise MalformedAction(
                f"bad options for {self.name}: {format_validation_error(exc)}",
                code="options/invalid",
            ) from None

    def parse_action(self, raw: Any) -> ActionModel:
        """Validate wire data into an action model; raises MalformedAction."""
        if isinstance(raw, ActionModel):
            return raw
        try:
            return self.action_adapter.validate_python(raw)
        except ValidationError as exc:
            raise MalformedAction(
                f"not a {self.name} action: {format_validation_error(exc)}"
            ) from None

    def dump_action(self, action: ActionModel) -> dict[str, Any]:
        return action.to_wire()

    def check_seats(self, seats: int) -> None:
        if not self.min_seats <= seats <= self.max_seats:
            raise MalformedAction(
                f"{self.name} takes {self.min_seats}-{self.max_seats} players, not {seats}",
                code="options/invalid",
            )

    # --- the rules -----------------------------------------------------------

    @abstractmethod
    def setup(self, seats: int, options: GameOptions, seed: int) -> S:
        """A new match for ``seats`` players, all randomness drawn from ``seed``."""

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """Seats that may act now (empty when the game is over)."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[ActionModel] | None:
        """Every legal action of ``seat`` now, or None when the space is too large to list."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: ActionModel) -> list[Event]:
        """Apply ``action`` for ``seat``; on error raise and change nothing."""

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator); JSON-compatible."""

    def view_beside(self, state: S, seat: int | None,
                    seen: dict[int | None, dict[str, Any]]) -> dict[str, Any]:
        """The same as :meth:`view`, given the views of this same state already worked out
        for other viewers (``seen``, not empty; read-only: they are shared). A game whose
        views differ between viewers only in a field or two derives this one from them
        instead of working it all out again (the server asks once per version and viewer);
        by default it is worked out afresh. A test holds every game to ``view``."""
        return self.view(state, seat)

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def dump_state(self, state: S) -> dict[str, Any]:
        """JSON-compatible data that :meth:`load_state` turns back into an equal state."""

    @abstractmethod
    def load_state(self, data: dict[str, Any]) -> S:
        """Inverse of :meth:`dump_state`."""

    # --- what others may learn of an action (hidden information) ---------------

    def action_seen_by(self, action: dict[str, Any], actor: int,
                       viewer: int | None) -> dict[str, Any]:
        """What ``viewer`` (a seat; ``None``: a spectator) may learn of the ``action`` that
        ``actor`` played, in its wire form: what the physical game shows at the table (that
        leaders were chosen, not which). Every channel that shows an action to someone goes
        through here; only operators' views do not. By default all of it: nothing a player
        chooses is hidden."""
        return action

    def events_seen_by(self, events: list[Event], viewer: int | None) -> list[Event]:
        """What ``viewer`` may learn of the events of one action (see :meth:`action_seen_by`)."""
        return events

    # --- what happened, in words ------------------------------------------------

    def describe(self, events: list[Event], viewer: int | None, *,
                 action: dict[str, Any] | None = None, actor: int | None = None,
                 names: dict[int, str] | None = None) -> list[str]:
        """The events of one action (and the action, when given, with its ``actor``) as
        sentences for ``viewer`` (a seat; ``None``: a spectator): "You moved worker A from
        row 1, column 2 to row 2, column 3." Coordinates are 1-based as the boards label
        them; ``names`` maps seats to the names to use (default: :meth:`seat_label`).
        Only what ``viewer`` may learn is described: the events and the action go through
        :meth:`events_seen_by` and :meth:`action_seen_by` first (doing so again on what is
        already filtered changes nothing)."""
        seen = self.events_seen_by(events, viewer)
        shown = None if action is None or actor is None \
            else self.action_seen_by(action, actor, viewer)
        return self.describe_seen(seen, viewer, action=shown, actor=actor, names=names)

    def describe_seen(self, events: list[Event], viewer: int | None, *,
                      action: dict[str, Any] | None, actor: int | None,
                      names: dict[int, str] | None) -> list[str]:
        """:meth:`describe` on events and an action already filtered for ``viewer``. Each
        game writes its own (``<game>/describe.py``); this default names the event types."""
        return [event_words(e) for e in events]

    def outcome_events(self, outcome: dict[str, Any]) -> list[Event]:
        """The outcome of a match ended by the rules as the events that tell it in words
        (``describing.tell_outcome``); by default one ``game_ended`` event."""
        return [{"type": "game_ended", "reason": outcome.get("reason", ""),
                 "winners": list(outcome.get("winners") or []),
                 "draw": bool(outcome.get("draw"))}]

    # --- presentation (defaults are fine for most games) -----------------------

    def seat_label(self, seat: int) -> str:
        """A short human label of a seat ("D", "F", "white"...)."""
        return f"seat {seat}"

    def team_of(self, state: S, seat: int) -> int:
        """The team a seat plays for (its own seat when the game has no teams)."""
        return seat

    def render(self, state: S) -> str:
        """A readable text picture of the position, for operators (CLI, logs)."""
        import json

        return json.dumps(self.view(state, None), indent=2, sort_keys=True)

    def catalog(self) -> dict[str, Any]:
        """Fixed facts a client shows beside the board (card texts...); none by default."""
        return {}

    def eliminated(self, state: S) -> frozenset[int]:
        """Seats that are out while the game goes on (e.g. beaten in 3-player Santorini)."""
        return frozenset()
