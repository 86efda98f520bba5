"""The God base class: the fixed set of hooks every power overrides.

A power never reaches into the engine; the engine (``rules.py``, ``turn.py``)
calls these hooks:

* own turn shape: :meth:`God.first_step`, :meth:`God.next_step`, :meth:`God.optional`,
  :meth:`God.switch_workers` (re-selecting another worker mid-turn: Hermes);
* own options: :meth:`God.move_options` (via :meth:`God.enter_occupied`),
  :meth:`God.build_options`, :meth:`God.remove_options`, :meth:`God.force_options`,
  :meth:`God.may_continue`;
* own wins: :meth:`God.move_win` (after its own moves), :meth:`God.wins_now` (after any build);
* reactions: :meth:`God.on_turn_start` (any player's turn), :meth:`God.after_move`,
  :meth:`God.end_of_turn_captures`;
* restrictions on opponents: :meth:`God.forbids_move`, :meth:`God.forbids_build`,
  :meth:`God.denies_win`, :meth:`God.blocked_workers`, :meth:`God.binds_workers`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..board import neighbours
from ..state import END, State


@dataclass(frozen=True)
class MoveOpt:
    """One move of the turn's worker; ``victim`` is forced from ``to`` to ``victim_to``."""

    to: int
    victim: int | None = None
    victim_to: int | None = None


@dataclass(frozen=True)
class BuildOpt:
    cell: int
    dome: bool


Event = dict[str, Any]

#: the ordinary sequence: after each step (done or skipped) comes the next
BASE_NEXT: dict[str, str] = {
    "PRE_BUILD": "MOVE",
    "FORCE": "MOVE",
    "MOVE": "BUILD",
    "MOVE_SPECIAL": "BUILD",
    "MOVE_UNTIL": "BUILD",
    "MOVE_LEVEL": "BUILD",
    "BUILD": END,
    "BUILD_SPECIAL": END,
    "BUILD_UNMOVED": END,
    "REMOVE": END,
}

MANDATORY = frozenset({"MOVE", "BUILD"})


class God:
    name: ClassVar[str] = "NONE"
    #: player counts the card allows (within our 2-3 player range)
    players: ClassVar[frozenset[int]] = frozenset({2, 3})
    #: Aphrodite-style: binds opponent workers that start next to the owner
    binds: ClassVar[bool] = False
    #: in the seed-001 deck
    original: ClassVar[bool] = False
    #: the seed-001 "chooseBasic" flag (the client offers a plain turn)
    choose_basic: ClassVar[bool] = False
    text: ClassVar[str] = "No power."

    # --- own turn shape ----------------------------------------------------------

    def first_step(self, st: State, seat: int) -> str:
        return "MOVE"

    def next_step(self, st: State, seat: int, done: str, skipped: bool) -> str:
        return BASE_NEXT[done]

    def optional(self, step: str) -> bool:
        return step not in MANDATORY

    def switch_workers(self, st: State, seat: int, step: str) -> list[int]:
        """Own workers that may take over ``step`` after the turn's worker has acted (none by default)."""
        return []

    # --- own options ---------------------------------------------------------------

    def move_options(self, st: State, seat: int, w: int, step: str) -> dict[int, MoveOpt]:
        frm = st.pos(w)
        out: dict[int, MoveOpt] = {}
        for c in neighbours(frm):
            if st.domes[c] or st.blocks[c] - st.blocks[frm] > 1:
                continue
            occ = st.worker_at(c)
            opt = MoveOpt(c) if occ is None else self.enter_occupied(st, seat, w, frm, c, occ)
            if opt is not None:
                out[c] = opt
        return out

    def enter_occupied(
        self, st: State, seat: int, w: int, frm: int, to: int, occ: int
    ) -> MoveOpt | None:
        return None

    def may_continue(self, st: State, seat: int, step: str, to: int) -> bool:
        """Whether another move of this turn may follow a move to ``to`` (Aphrodite's check)."""
        return False

    def build_options(self, st: State, seat: int, w: int, step: str) -> list[BuildOpt]:
        return [
            BuildOpt(c, st.blocks[c] == 3)
            for c in neighbours(st.pos(w))
            if not st.occupied(c)
        ]

    def remove_options(self, st: State, seat: int) -> list[int]:
        return []

    def force_options(self, st: State, seat: int, w: int) -> dict[int, int]:
        """Opponent worker cell -> cell it is forced to (Charon)."""
        return {}

    def acting_worker(self, st: State, seat: int, step: str) -> int | None:
        """The worker that acts at ``step`` (the turn's worker unless overridden)."""
        assert st.turn is not None
        return st.turn.worker

    # --- wins ------------------------------------------------------------------------

    def move_win(self, st: State, seat: int, frm_level: int, to_level: int) -> str | None:
        """Reason of a win by this (own, not forced) move, else None."""
        return "climbed" if frm_level == 2 and to_level == 3 else None

    def wins_now(self, st: State, owner: int) -> str | None:
        """A win condition checked after every build by anyone (Chronus)."""
        return None

    # --- reactions ---------------------------------------------------------------------

    def on_turn_start(self, st: State, owner: int, current: int) -> None:
        """Called for every alive god when any player's turn starts."""

    def after_move(self, st: State, seat: int, frm_level: int, to_level: int) -> None:
        """After each of the owner's own moves."""

    def end_of_turn_captures(self, st: State, seat: int) -> list[int]:
        """Opponent workers removed (and built upon) at the end of the owner's turn (Medusa)."""
        return []

    # --- restrictions on opponents -------------------------------------------------------

    def forbids_move(self, st: State, owner: int, seat: int, frm: int, to: int) -> bool:
        return False

    def forbids_build(self, st: State, owner: int, seat: int, c: int, dome: bool) -> bool:
        return False

    def denies_win(self, st: State, owner: int, seat: int, to: int) -> bool:
        return False

    def blocked_workers(self, st: State, owner: int, seat: int) -> list[int]:
        """Workers of ``seat`` that cannot move this turn (Hypnus), at its turn start."""
        return []

    def binds_workers(self, st: State, owner: int, seat: int) -> list[int]:
        """Workers of ``seat`` whose last move must end next to the owner (Aphrodite)."""
        return []

    def binds_to(self, st: State, owner: int, c: int) -> bool:
        """Whether ``c`` satisfies this owner's binding (next to one of its workers)."""
        return False


class SecondBuild(God):
    """A god whose worker may build once more after its build (the BUILD_SPECIAL step);
    a subclass says which builds that second one may be."""

    def next_step(self, st: State, seat: int, done: str, skipped: bool) -> str:
        return "BUILD_SPECIAL" if done == "BUILD" else super().next_step(st, seat, done, skipped)

    def build_options(self, st: State, seat: int, w: int, step: str) -> list[BuildOpt]:
        options = super().build_options(st, seat, w, step)
        return self.second_build(st, options) if step == "BUILD_SPECIAL" else options

    def second_build(self, st: State, options: list[BuildOpt]) -> list[BuildOpt]:
        """The second build's choices, given the ordinary ones."""
        raise NotImplementedError
