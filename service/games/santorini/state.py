"""The state of one Santorini match (plain data, JSON round trip)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .board import CELLS, PIECES

#: phases of a match
PICK, CHOOSE, PLACE, PLAY, OVER = "pick_gods", "choose_god", "place_workers", "play", "over"
#: the pseudo-step before the worker of the turn is chosen
SELECT = "SELECT"
END = "END"


@dataclass
class Turn:
    """What happened so far in the current player's turn."""

    step: str = SELECT
    worker: int | None = None  # worker id acting this turn
    acted: bool = False  # a step has been played: the worker is locked
    start: int | None = None  # cell the worker started the turn on
    moves: int = 0
    moved_up: bool = False
    movers: list[int] = field(default_factory=list)  # workers that made an own move (Hermes: both)
    prebuilt: bool = False  # Prometheus built before moving
    builds: list[int] = field(default_factory=list)  # cells built by the turn's worker
    extra_builds: int = 0  # Poseidon's builds with the unmoved worker
    bound: list[int] = field(default_factory=list)  # Aphrodite: workers that started next to her
    blocked: list[int] = field(default_factory=list)  # Hypnus: workers that cannot move


@dataclass
class State:
    seats: int
    gods_enabled: bool = True
    enforce_supply: bool = False
    deck: str = "full"
    phase: str = PICK
    blocks: list[int] = field(default_factory=lambda: [0] * CELLS)
    domes: list[bool] = field(default_factory=lambda: [False] * CELLS)
    #: cell of worker ``seat * 2 + k``; None when not (or no longer) on the board
    workers: list[int | None] = field(default_factory=list)
    supply: list[int] = field(default_factory=lambda: list(PIECES))
    gods: list[str | None] = field(default_factory=list)
    offered: list[str] = field(default_factory=list)
    current: int = 0
    alive: list[bool] = field(default_factory=list)
    placed: list[bool] = field(default_factory=list)
    turn: Turn | None = None
    #: per-seat data of god powers that outlives a turn (Athena's flag)
    flags: list[dict[str, Any]] = field(default_factory=list)
    turn_number: int = 0
    winner: int | None = None
    reason: str = ""
    out_order: list[int] = field(default_factory=list)  # seats eliminated, in order

    # --- small queries --------------------------------------------------------

    def owner(self, worker: int) -> int:
        return worker // 2

    def worker_at(self, c: int) -> int | None:
        for w, pos in enumerate(self.workers):
            if pos == c:
                return w
        return None

    def occupied(self, c: int) -> bool:
        return self.domes[c] or c in self.workers

    def level(self, c: int) -> int:
        return self.blocks[c]

    def workers_of(self, seat: int) -> list[int]:
        return [w for w in (2 * seat, 2 * seat + 1) if self.workers[w] is not None]

    def pos(self, worker: int) -> int:
        c = self.workers[worker]
        assert c is not None, f"worker {worker} is off the board"
        return c

    def alive_seats(self) -> list[int]:
        return [s for s in range(self.seats) if self.alive[s]]

    def opponents(self, seat: int) -> list[int]:
        """Alive seats other than ``seat`` (their powers apply to ``seat``)."""
        return [s for s in self.alive_seats() if s != seat]

    def complete_towers(self) -> int:
        return sum(1 for c in range(CELLS) if self.domes[c] and self.blocks[c] == 3)

    # --- serialisation ----------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out = {k: _copy(getattr(self, k)) for k in _STATE_FIELDS}
        t = self.turn
        out["turn"] = None if t is None else {k: _copy(getattr(t, k)) for k in _TURN_FIELDS}
        return out

    def copy(self) -> State:
        return State.from_dict(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        raw = dict(data)
        turn = raw.pop("turn")
        st = cls(**{k: _copy(v) for k, v in raw.items()})
        st.turn = Turn(**_copy(turn)) if turn is not None else None
        return st


def _copy(value: Any) -> Any:
    """A deep copy of our JSON-like data: scalars, lists of scalars, lists of flat dicts."""
    if type(value) is list:
        if value and type(value[0]) is dict:
            return [dict(v) for v in value]
        return value[:]
    if type(value) is dict:
        return {k: _copy(v) for k, v in value.items()}
    return value


_STATE_FIELDS = tuple(f.name for f in fields(State) if f.name != "turn")
_TURN_FIELDS = tuple(f.name for f in fields(Turn))
