"""The simple gods of the 2020 PoliMi list (all in the seed-001 deck)."""

from __future__ import annotations

from ..board import beyond
from ..state import State
from .base import BuildOpt, God, MoveOpt, SecondBuild


def _turn_start(st: State) -> int | None:
    return st.turn.start if st.turn is not None else None


class Apollo(God):
    name = "APOLLO"
    original = True
    text = "Your Move: your worker may move into an opponent worker's space by forcing it into the space yours just vacated."

    def enter_occupied(
        self, st: State, seat: int, w: int, frm: int, to: int, occ: int
    ) -> MoveOpt | None:
        if st.owner(occ) == seat:
            return None
        return MoveOpt(to, occ, frm)


class Artemis(God):
    name = "ARTEMIS"
    original = True
    text = "Your Move: your worker may move one additional time, but not back to its initial space."

    def next_step(self, st: State, seat: int, done: str, skipped: bool) -> str:
        return "MOVE_SPECIAL" if done == "MOVE" else super().next_step(st, seat, done, skipped)

    def move_options(self, st: State, seat: int, w: int, step: str) -> dict[int, MoveOpt]:
        opts = super().move_options(st, seat, w, step)
        if step == "MOVE_SPECIAL":
            opts.pop(_turn_start(st), None)  # type: ignore[arg-type]
        return opts

    def may_continue(self, st: State, seat: int, step: str, to: int) -> bool:
        return step == "MOVE"


class Athena(God):
    name = "ATHENA"
    original = True
    text = "Opponent's Turn: if one of your workers moved up on your last turn, opponent workers cannot move up this turn."

    def after_move(self, st: State, seat: int, frm_level: int, to_level: int) -> None:
        if to_level > frm_level:
            st.flags[seat]["athena_up"] = True

    def on_turn_start(self, st: State, owner: int, current: int) -> None:
        if owner == current:
            st.flags[owner]["athena_up"] = False

    def forbids_move(self, st: State, owner: int, seat: int, frm: int, to: int) -> bool:
        return bool(st.flags[owner].get("athena_up")) and st.blocks[to] > st.blocks[frm]


class Atlas(God):
    name = "ATLAS"
    original = True
    choose_basic = True
    text = "Your Build: your worker may build a dome at any level."

    def build_options(self, st: State, seat: int, w: int, step: str) -> list[BuildOpt]:
        opts = super().build_options(st, seat, w, step)
        return opts + [BuildOpt(o.cell, True) for o in opts if not o.dome]


class Demeter(SecondBuild):
    name = "DEMETER"
    original = True
    text = "Your Build: your worker may build one additional time, but not on the same space."

    def second_build(self, st: State, options: list[BuildOpt]) -> list[BuildOpt]:
        if st.turn is None or not st.turn.builds:
            return options
        return [o for o in options if o.cell != st.turn.builds[-1]]


class Hephaestus(SecondBuild):
    name = "HEPHAESTUS"
    original = True
    text = "Your Build: your worker may build one additional block (not dome) on top of your first block."

    def second_build(self, st: State, options: list[BuildOpt]) -> list[BuildOpt]:
        assert st.turn is not None
        c = st.turn.builds[-1]  # on top of the first build, whatever the ordinary choices
        return [] if st.domes[c] or st.blocks[c] >= 3 else [BuildOpt(c, False)]


class Minotaur(God):
    name = "MINOTAUR"
    original = True
    text = "Your Move: your worker may move into an opponent worker's space if it can be forced one space straight backwards to an unoccupied space at any level."

    def enter_occupied(
        self, st: State, seat: int, w: int, frm: int, to: int, occ: int
    ) -> MoveOpt | None:
        if st.owner(occ) == seat:
            return None
        dest = beyond(frm, to)
        if dest is None or st.occupied(dest):
            return None
        return MoveOpt(to, occ, dest)


class Pan(God):
    name = "PAN"
    original = True
    text = "Win Condition: you also win if your worker moves down two or more levels."

    def move_win(self, st: State, seat: int, frm_level: int, to_level: int) -> str | None:
        if frm_level - to_level >= 2:
            return "pan_drop"
        return super().move_win(st, seat, frm_level, to_level)


class Prometheus(God):
    name = "PROMETHEUS"
    original = True
    choose_basic = True
    text = "Your Turn: if your worker does not move up, it may build both before and after moving."

    def first_step(self, st: State, seat: int) -> str:
        return "PRE_BUILD"

    def move_options(self, st: State, seat: int, w: int, step: str) -> dict[int, MoveOpt]:
        opts = super().move_options(st, seat, w, step)
        if st.turn is not None and st.turn.prebuilt:
            frm = st.blocks[st.pos(w)]
            opts = {c: o for c, o in opts.items() if st.blocks[c] <= frm}
        return opts


class Hermes(God):
    """A turn whose moves stay on their level is a Hermes turn: both workers may move (level only,
    any number of times, alternately), then the build may be next to either worker.

    The first move declares the turn: up or down = a normal turn (that worker builds); level, or
    skipped = a Hermes turn (step MOVE_LEVEL, wire MOVE_UNTIL, until skipped)."""

    name = "HERMES"
    text = "Your Turn: if your workers do not move up or down, they may each move any number of times (even zero), and then either builds."

    def next_step(self, st: State, seat: int, done: str, skipped: bool) -> str:
        if done == "MOVE":
            return "BUILD" if not skipped and st.flags[seat].get("hermes_shift") else "MOVE_LEVEL"
        if done == "MOVE_LEVEL":
            return "BUILD" if skipped else "MOVE_LEVEL"
        return super().next_step(st, seat, done, skipped)

    def optional(self, step: str) -> bool:
        return step != "BUILD"  # even zero moves

    def switch_workers(self, st: State, seat: int, step: str) -> list[int]:
        if step != "MOVE_LEVEL":
            return []
        assert st.turn is not None
        return [w for w in st.workers_of(seat) if w != st.turn.worker]

    def move_options(self, st: State, seat: int, w: int, step: str) -> dict[int, MoveOpt]:
        opts = super().move_options(st, seat, w, step)
        if step == "MOVE_LEVEL":
            here = st.blocks[st.pos(w)]
            opts = {c: o for c, o in opts.items() if st.blocks[c] == here}
        return opts

    def may_continue(self, st: State, seat: int, step: str, to: int) -> bool:
        if step == "MOVE_LEVEL":
            return True
        w = st.turn.worker if st.turn is not None else None
        return step == "MOVE" and w is not None and st.blocks[to] == st.blocks[st.pos(w)]

    def build_options(self, st: State, seat: int, w: int, step: str) -> list[BuildOpt]:
        if step != "BUILD" or st.flags[seat].get("hermes_shift"):
            return super().build_options(st, seat, w, step)
        out: list[BuildOpt] = []
        for v in [w] + [v for v in st.workers_of(seat) if v != w]:
            out += [o for o in super().build_options(st, seat, v, step) if o not in out]
        return out

    def after_move(self, st: State, seat: int, frm_level: int, to_level: int) -> None:
        if frm_level != to_level:
            st.flags[seat]["hermes_shift"] = True

    def on_turn_start(self, st: State, owner: int, current: int) -> None:
        if owner == current:
            st.flags[owner]["hermes_shift"] = False
