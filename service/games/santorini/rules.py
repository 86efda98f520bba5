"""Options of the current step: the god's own hooks plus every opponent's restrictions."""

from __future__ import annotations

from .board import DOME, xy
from .gods import NO_GOD, BuildOpt, God, MoveOpt, god_of
from .state import SELECT, State

#: internal step -> (kind, seed-001 step name)
STEPS: dict[str, tuple[str, str]] = {
    "MOVE": ("move", "MOVE"),
    "MOVE_SPECIAL": ("move", "MOVE_SPECIAL"),
    "MOVE_UNTIL": ("move", "MOVE_UNTIL"),
    "MOVE_LEVEL": ("move", "MOVE_UNTIL"),
    "PRE_BUILD": ("build", "BUILD"),
    "BUILD": ("build", "BUILD"),
    "BUILD_SPECIAL": ("build", "BUILD_SPECIAL"),
    "BUILD_UNMOVED": ("build", "BUILD_SPECIAL"),
    "REMOVE": ("remove", "REMOVE"),
    "FORCE": ("force", "FORCE"),
}


def step_kind(step: str) -> str:
    return STEPS[step][0] if step in STEPS else ""


def wire_step(step: str) -> str:
    """The seed-001 name of a step (SELECT reads as MOVE, the first step of a plain turn)."""
    if step == SELECT:
        return "MOVE"
    return STEPS[step][1] if step in STEPS else step


def god(st: State, seat: int) -> God:
    return god_of(st.gods[seat]) if st.gods_enabled else NO_GOD


def against(st: State, seat: int) -> list[tuple[int, God]]:
    """(owner, power) of every alive opponent of ``seat``: the powers that restrict it."""
    return [(o, god(st, o)) for o in st.opponents(seat)]


# --- moves -------------------------------------------------------------------------


def binding_ok(st: State, seat: int, c: int, victim: int | None = None) -> bool:
    """Whether a move ending on ``c`` satisfies every Aphrodite-like opponent."""
    for o, p in against(st, seat):
        if not p.binds:
            continue
        if victim is not None and st.owner(victim) == o:
            continue  # the binder's worker was displaced next to the mover
        if not p.binds_to(st, o, c):
            return False
    return True


def move_options(st: State, seat: int, w: int, step: str) -> dict[int, MoveOpt]:
    assert st.turn is not None
    if w in st.turn.blocked:
        return {}
    g = god(st, seat)
    frm = st.pos(w)
    powers = against(st, seat)
    out: dict[int, MoveOpt] = {}
    for c, opt in g.move_options(st, seat, w, step).items():
        if any(p.forbids_move(st, o, seat, frm, c) for o, p in powers):
            continue
        if w in st.turn.bound and not (
            g.may_continue(st, seat, step, c) or binding_ok(st, seat, c, opt.victim)
        ):
            continue
        out[c] = opt
    return out


# --- builds --------------------------------------------------------------------------


def piece_for(st: State, c: int, dome: bool) -> int:
    return DOME if dome else st.blocks[c]


def build_allowed(st: State, seat: int, c: int, dome: bool) -> bool:
    """Supply (when enforced) and opponents' restrictions (Limus)."""
    if st.enforce_supply and st.supply[piece_for(st, c, dome)] <= 0:
        return False
    return not any(p.forbids_build(st, o, seat, c, dome) for o, p in against(st, seat))


def build_options(st: State, seat: int, w: int, step: str) -> list[BuildOpt]:
    opts = god(st, seat).build_options(st, seat, w, step)
    return [o for o in opts if build_allowed(st, seat, o.cell, o.dome)]


# --- the current step ------------------------------------------------------------------


def acting_worker(st: State, seat: int) -> int | None:
    assert st.turn is not None
    if st.turn.step == SELECT:
        return st.turn.worker
    return god(st, seat).acting_worker(st, seat, st.turn.step)


def step_cells(st: State, seat: int) -> dict[int, list[bool]]:
    """Target cell -> the dome flags allowed there, for the current step (empty: no option)."""
    assert st.turn is not None
    step, w = st.turn.step, acting_worker(st, seat)
    kind = step_kind(step)
    if w is None or not kind:
        return {}
    if kind == "move":
        return {c: [False] for c in move_options(st, seat, w, step)}
    if kind == "build":
        out: dict[int, list[bool]] = {}
        for o in build_options(st, seat, w, step):
            out.setdefault(o.cell, []).append(o.dome)
        return out
    if kind == "remove":
        return {c: [False] for c in god(st, seat).remove_options(st, seat)}
    return {c: [False] for c in god(st, seat).force_options(st, seat, w)}


def step_optional(st: State, seat: int) -> bool:
    """Whether the current step may be skipped (Aphrodite can make a further move mandatory)."""
    assert st.turn is not None
    step, w = st.turn.step, st.turn.worker
    if not god(st, seat).optional(step):
        return False
    if step_kind(step) != "move" or w is None:
        return True
    movers = {w, *st.turn.movers}  # the turn's worker and any that moved (Hermes moves both)
    return all(binding_ok(st, seat, st.pos(v)) for v in movers
               if v in st.turn.bound and st.workers[v] is not None)


def mask(cells: dict[int, list[bool]]) -> list[list[bool]]:
    grid = [[False] * 5 for _ in range(5)]
    for c in cells:
        x, y = xy(c)
        grid[x][y] = True
    return grid
