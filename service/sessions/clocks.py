"""Clocks (time controls), chosen when a match is created and kept by the server.

* ``per_move``: each time a seat comes to act it has ``seconds`` for its move (a whole turn:
  Santorini's select, move and build are one move). ``seconds`` of a day or more is
  turn-based play.
* ``total``: each seat has a bank of ``seconds`` for the whole match, spent while it is to act;
  ``increment`` seconds are added each time it has moved (its turn passed on).

A seat's time runs while it is among the seats to act (several at once where the game is
simultaneous). The reading is saved with every action, in the same commit (``matches.clock``,
and ``matches.clock_deadline``: when the first flag falls if nobody moves), so it survives a
restart: time runs on while the server is down, as it does for a player away from the board.
Pure logic: every method takes the time it is; nothing here sleeps or reads a clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from service.errors import SessionError
from service.games.base import format_validation_error
from service.store.models import utcnow

#: the longest time a control may give (30 days)
MAX_SECONDS = 30 * 24 * 3600


class TimeControl(BaseModel):
    """``{kind: "per_move", seconds}`` or ``{kind: "total", seconds, increment}``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Literal["per_move", "total"]
    seconds: int = Field(ge=1, le=MAX_SECONDS)
    increment: int = Field(default=0, ge=0, le=3600)

    @model_validator(mode="after")
    def _increment_only_with_total(self) -> TimeControl:
        if self.kind == "per_move" and self.increment:
            raise ValueError("an increment goes with a total time only")
        return self

    def words(self) -> str:
        if self.kind == "per_move":
            return f"{_span(self.seconds)} a move"
        return _span(self.seconds) + (f" + {self.increment} s" if self.increment else "")


def _span(seconds: int) -> str:
    for unit, size in (("day", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if unit == 'day' and count > 1 else ''}"
    return f"{seconds} s"


def _iso(moment: datetime) -> str:
    return moment.isoformat()


@dataclass
class Clock:
    """The clocks of one match: each seat's time left (as of when it last stopped running)
    and, for the seats running now, since when."""

    control: TimeControl
    left: dict[int, float] = field(default_factory=dict)
    running: dict[int, datetime] = field(default_factory=dict)
    #: seats whose clock no longer counts (a stand-in plays them, or they are out)
    stopped: set[int] = field(default_factory=set)

    @classmethod
    def new(cls, control: TimeControl, seats: int) -> Clock:
        return cls(control, {seat: float(control.seconds) for seat in range(seats)})

    # --- what the match tells it -----------------------------------------------------------

    def turn(self, to_act: set[int], now: datetime) -> None:
        """The seats to act are now ``to_act``: the others stop (a seat that moved gains the
        increment; a per-move clock starts afresh next time), the newcomers start."""
        for seat in sorted(set(self.running) - to_act):
            spent = (now - self.running.pop(seat)).total_seconds()
            if self.control.kind == "total":
                self.left[seat] = self.left[seat] - spent + self.control.increment
            else:
                self.left[seat] = float(self.control.seconds)
        for seat in sorted(to_act - set(self.running) - self.stopped):
            if seat in self.left:
                self.running[seat] = now

    def stop(self, seat: int) -> None:
        """The seat's clock no longer counts (a stand-in plays it)."""
        self.running.pop(seat, None)
        self.stopped.add(seat)

    def halt(self, now: datetime) -> None:
        """The match ended: nothing runs any more; each running seat keeps what it had left
        (no increment, no fresh move: a seat out of time reads 0)."""
        for seat, since in self.running.items():
            self.left[seat] = max(self.left[seat] - (now - since).total_seconds(), 0.0)
        self.running.clear()

    # --- what it says -----------------------------------------------------------------------

    def remaining(self, seat: int, now: datetime) -> float:
        since = self.running.get(seat)
        spent = 0.0 if since is None else (now - since).total_seconds()
        return self.left.get(seat, 0.0) - spent

    def flagged(self, now: datetime) -> list[int]:
        """The running seats whose time is up."""
        return sorted(seat for seat in self.running if self.remaining(seat, now) <= 0)

    def deadline(self) -> datetime | None:
        """When the first running seat's time is up if nobody moves (None: none runs)."""
        ends = [since + timedelta(seconds=self.left[seat]) for seat, since in self.running.items()]
        return min(ends) if ends else None

    def reading(self, now: datetime) -> dict[str, Any]:
        """For clients: each seat's seconds left as of ``at``, and which run from then."""
        return {"control": self.control.model_dump(), "words": self.control.words(),
                "at": _iso(now), "running": sorted(self.running),
                "remaining": {str(seat): round(max(self.remaining(seat, now), 0.0), 3)
                              for seat in sorted(self.left)}}

    def copy(self) -> Clock:
        return Clock(self.control, dict(self.left), dict(self.running), set(self.stopped))

    # --- saved --------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"control": self.control.model_dump(),
                "left": {str(s): t for s, t in sorted(self.left.items())},
                "running": {str(s): _iso(t) for s, t in sorted(self.running.items())},
                "stopped": sorted(self.stopped)}

    @classmethod
    def from_dict(cls, saved: dict[str, Any]) -> Clock:
        return cls(TimeControl.model_validate(saved["control"]),
                   {int(s): float(t) for s, t in saved.get("left", {}).items()},
                   {int(s): datetime.fromisoformat(t) for s, t in saved.get("running", {}).items()},
                   set(saved.get("stopped", [])))


def parse_control(raw: dict[str, Any] | None, *, real_time: bool) -> TimeControl | None:
    """A client's ``clock`` as a TimeControl; ``options/invalid`` when it is not one (or the
    game is real time: it keeps its own inactivity rule)."""
    if raw is None:
        return None
    if real_time:
        raise SessionError("a real-time game has no clock: it keeps its own inactivity rule",
                           code="options/invalid")
    try:
        return TimeControl.model_validate(raw)
    except ValidationError as exc:
        raise SessionError(f"clock: {format_validation_error(exc)}",
                           code="options/invalid") from None


class Timing:
    """A match's clocks as its runtime keeps them: the saved reading, what the next commit
    saves with its action, and (where the match is owned) a timer for the first flag."""

    def __init__(self, saved: dict[str, Any] | None,
                 now: Callable[[], datetime] = utcnow) -> None:
        self.now = now
        #: called (on the event loop) when a running seat's time may be up
        self.on_flag: Callable[[], None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self.clock: Clock | None = None
        self.load(saved)

    def load(self, saved: dict[str, Any] | None) -> None:
        self.clock = Clock.from_dict(saved) if saved else None

    def check(self, seat: int) -> None:
        """Refuse the move of a seat whose time is up (the flag is dealt with at once)."""
        if self.clock is not None and seat in self.clock.flagged(self.now()):
            if self.on_flag is not None:
                asyncio.get_running_loop().call_soon(self.on_flag)
            raise SessionError("your time is up", code="session/time_out")

    def after(self, to_act: set[int], over: bool) -> Clock | None:
        """The clocks once the seats to act are ``to_act`` (all stopped if ``over``): what
        the next commit saves. This reading is untouched until :meth:`take`."""
        if self.clock is None:
            return None
        clock = self.clock.copy()
        if over:
            clock.halt(self.now())
        else:
            clock.turn(to_act, self.now())
        return clock

    def take(self, clock: Clock | None, *, owned: bool) -> None:
        """``clock`` was saved: it is the reading now (the timer set again where owned)."""
        self.clock = clock
        self.arm(owned=owned)

    def arm(self, *, owned: bool) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.clock.deadline() if self.clock is not None else None
        if deadline is None or not owned or self.on_flag is None:
            return
        delay = max((deadline - self.now()).total_seconds(), 0.0)
        self._timer = asyncio.get_running_loop().call_later(delay, self.on_flag)

    def reading(self) -> dict[str, Any] | None:
        return None if self.clock is None else self.clock.reading(self.now())
