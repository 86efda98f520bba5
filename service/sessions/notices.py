"""What a match tells its listeners. Dialects turn these into their own wire messages."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from service.games.base import Event, Game, Outcome

if TYPE_CHECKING:
    from service.sessions.match import MatchRuntime


@dataclass(frozen=True)
class Started:
    """Every seat is taken; the game begins."""


@dataclass(frozen=True)
class Applied:
    """One action is durable. ``version`` is the match version after it."""

    version: int
    seat: int
    action: dict[str, Any]
    events: list[Event]
    outcome: Outcome | None

    def seen_by(self, game: Game[Any], viewer: int | None) -> Applied:
        """This notice as ``viewer`` (a seat, None: a spectator) may know it: the game hides
        what the rules hide (service/games/base.py, ``action_seen_by``)."""
        action = game.action_seen_by(self.action, self.seat, viewer)
        events = game.events_seen_by(self.events, viewer)
        if action is self.action and events is self.events:
            return self
        return replace(self, action=action, events=events)


@dataclass(frozen=True)
class PresenceChanged:
    seat: int
    present: bool


@dataclass(frozen=True)
class RematchChanged:
    agreed: tuple[int, ...]
    new_match_id: int | None


@dataclass(frozen=True)
class Ended:
    """The match ended outside the game: a resignation, a claim on an abandoned seat, or an
    abort (idle, or by an operator). ``status`` is finished or aborted; ``result`` as saved."""

    status: str
    result: dict[str, Any]


@dataclass(frozen=True)
class StandIn:
    """A server-side bot of ``level`` now plays the away ``seat`` (None: its player is back)."""

    seat: int
    level: str | None


@dataclass(frozen=True)
class DrawOffers:
    """The seats that offer a draw now (none: the offers lapsed or were declined)."""

    seats: tuple[int, ...]


@dataclass(frozen=True)
class DialectNotice:
    """A dialect-specific note to the other listeners of a match (e.g. a failed move)."""

    dialect: str
    kind: str
    seat: int | None
    data: dict[str, Any] = field(default_factory=dict)


Notice = (Started | Applied | PresenceChanged | RematchChanged | Ended | StandIn | DrawOffers
          | DialectNotice)


class Listener(Protocol):
    """Anything attached to a match. ``notify`` must not block: it only queues frames."""

    def notify(self, match: MatchRuntime, notice: Notice) -> None: ...
