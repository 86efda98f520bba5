"""The turn as explicit steps: select a worker, play or skip steps, end, pass on.

Every function here is called only after validation; a RulesError is raised
before the first mutation (see ``game.py``).
"""

from __future__ import annotations

from typing import Any

from .board import DOME, PIECE_NAMES, xy
from .codes import illegal
from .gods import MoveOpt
from .rules import (
    against,
    god,
    move_options,
    build_allowed,
    step_cells,
    step_kind,
    step_optional,
    wire_step,
)
from .state import END, OVER, SELECT, State, Turn

Event = dict[str, Any]


def _xy(c: int) -> list[int]:
    return list(xy(c))


# --- turn start, selection -----------------------------------------------------------


def next_alive(st: State, seat: int) -> int:
    for k in range(1, st.seats + 1):
        s = (seat + k) % st.seats
        if st.alive[s]:
            return s
    return seat


def begin_turn(st: State, seat: int, events: list[Event]) -> None:
    """Start ``seat``'s turn; a player without any legal turn loses and the next one starts."""
    while st.phase != OVER:
        st.current = seat
        st.turn_number += 1
        st.turn = Turn()
        for o in st.alive_seats():
            god(st, o).on_turn_start(st, o, seat)
        for o, p in against(st, seat):
            st.turn.blocked += [w for w in p.blocked_workers(st, o, seat) if w not in st.turn.blocked]
            st.turn.bound += [w for w in p.binds_workers(st, o, seat) if w not in st.turn.bound]
        events.append({"type": "turn_started", "seat": seat, "turn": st.turn_number})
        if any(can_start(st, seat, w) for w in st.workers_of(seat)):
            return
        eliminate(st, seat, "cannot_move", events)
        seat = next_alive(st, seat)


def can_start(st: State, seat: int, w: int) -> bool:
    """Whether worker ``w`` can reach and play a move this turn (optional pre-steps explored),
    or, when its moves are optional (Hermes), reach the mandatory build without moving."""
    assert st.turn is not None
    if step_kind(god(st, seat).first_step(st, seat)) == "move":
        saved = (st.turn.worker, st.turn.start, st.turn.step)
        _set_worker(st, seat, w)
        ok, optional = bool(step_cells(st, seat)), step_optional(st, seat)
        st.turn.worker, st.turn.start, st.turn.step = saved
        if ok or not optional:
            return ok
    trial = st.copy()
    _set_worker(trial, seat, w)
    return _reaches_move(trial, seat, depth=3)


def _reaches_move(st: State, seat: int, depth: int) -> bool:
    """Explore optional pre-move steps on throw-away copies (no settling, no eliminations)."""
    if st.phase == OVER:
        return st.winner == seat
    assert st.turn is not None
    step = st.turn.step
    if step == END:
        return False
    cells, kind, optional = step_cells(st, seat), step_kind(step), step_optional(st, seat)
    if kind == "move" and (cells or not optional):
        return bool(cells)
    if kind == "build" and not optional:
        return bool(cells)  # the mandatory build reached without a move (Hermes moving zero times)
    if depth <= 0:
        return False
    g = god(st, seat)
    if optional:
        trial = st.copy()
        assert trial.turn is not None
        trial.turn.step = g.next_step(trial, seat, step, True)
        if _reaches_move(trial, seat, depth - 1):
            return True
    for c, domes in cells.items():
        trial = st.copy()
        _perform(trial, seat, step_kind(step), c, domes[0], [])
        if trial.turn is not None:
            trial.turn.step = g.next_step(trial, seat, step, False)
        if _reaches_move(trial, seat, depth - 1):
            return True
    return False


def _set_worker(st: State, seat: int, w: int) -> None:
    assert st.turn is not None
    st.turn.worker = w
    st.turn.start = st.pos(w)
    st.turn.step = god(st, seat).first_step(st, seat)


def switch_targets(st: State, seat: int) -> list[int]:
    """Workers that may take over the current step after the turn's worker acted (Hermes):
    those the god allows that have a target at this step."""
    t = st.turn
    assert t is not None
    if not t.acted or t.step in (SELECT, END) or st.phase == OVER:
        return []
    out: list[int] = []
    saved = t.worker
    for w in god(st, seat).switch_workers(st, seat, t.step):
        t.worker = w
        if step_cells(st, seat):
            out.append(w)
    t.worker = saved
    return out


def select(st: State, seat: int, w: int, events: list[Event]) -> None:
    assert st.turn is not None
    if st.turn.acted:  # the acting worker again would change nothing: locked as any other
        if w == st.turn.worker or w not in switch_targets(st, seat):
            illegal("worker_locked", "this turn's worker has already acted")
        st.turn.worker = w
        events.append({"type": "worker_selected", "seat": seat, "worker": w, "at": _xy(st.pos(w))})
        return
    if st.turn.worker == w and st.turn.step != SELECT:  # nothing would change: not an action
        illegal("already_selected", "that worker is already selected")
    if st.owner(w) != seat:
        illegal("not_your_worker", "that worker is not yours")
    if not can_start(st, seat, w):
        illegal("worker_stuck", "that worker has no legal turn")
    _set_worker(st, seat, w)
    events.append({"type": "worker_selected", "seat": seat, "worker": w, "at": _xy(st.pos(w))})
    _settle(st, seat, events)


# --- steps ------------------------------------------------------------------------------


def play(st: State, seat: int, kind: str, c: int, dome: bool, events: list[Event]) -> None:
    """Play the current step on cell ``c`` (validated here, before any change)."""
    assert st.turn is not None
    if st.turn.worker is None or st.turn.step == SELECT:
        illegal("no_worker", "select a worker first")
    step = st.turn.step
    if step_kind(step) != kind:
        illegal("wrong_step", f"the current step is {step}, not a {kind}")
    cells = step_cells(st, seat)
    if kind == "build" and st.blocks[c] == 3:
        dome = True
    if c not in cells or dome not in cells[c]:
        illegal(f"illegal_{kind}", f"cannot {kind} on {_xy(c)} now")
    st.turn.acted = True
    _perform(st, seat, kind, c, dome, events)
    if st.phase != OVER:
        _advance(st, seat, skipped=False, events=events)


def skip(st: State, seat: int, events: list[Event]) -> None:
    assert st.turn is not None
    if st.turn.worker is None or st.turn.step == SELECT:
        illegal("no_worker", "select a worker first")
    if not step_optional(st, seat):
        illegal("cannot_skip", f"the step {st.turn.step} is mandatory")
    events.append({"type": "step_skipped", "seat": seat, "step": wire_step(st.turn.step)})
    st.turn.acted = True
    _advance(st, seat, skipped=True, events=events)


def _advance(st: State, seat: int, skipped: bool, events: list[Event]) -> None:
    assert st.turn is not None
    st.turn.step = god(st, seat).next_step(st, seat, st.turn.step, skipped)
    _settle(st, seat, events)


def _settle(st: State, seat: int, events: list[Event]) -> None:
    """Skip optional steps without options; a mandatory step without options loses."""
    while st.phase != OVER:
        assert st.turn is not None
        step = st.turn.step
        if step == END:
            end_turn(st, seat, events)
            return
        if step_cells(st, seat) or switch_targets(st, seat):
            return
        if not step_optional(st, seat):
            reason = "cannot_move" if step_kind(step) == "move" else "cannot_build"
            eliminate(st, seat, reason, events)
            if st.phase != OVER:
                begin_turn(st, next_alive(st, seat), events)
            return
        st.turn.step = god(st, seat).next_step(st, seat, step, True)


def _perform(st: State, seat: int, kind: str, c: int, dome: bool, events: list[Event]) -> None:
    assert st.turn is not None
    if kind == "move":
        w = st.turn.worker
        assert w is not None
        do_move(st, seat, w, move_options(st, seat, w, st.turn.step)[c], events)
    elif kind == "build":
        st.turn.builds.append(c)
        st.turn.prebuilt = st.turn.prebuilt or st.turn.step == "PRE_BUILD"
        st.turn.extra_builds += st.turn.step == "BUILD_UNMOVED"
        do_build(st, seat, c, dome, events)
    elif kind == "remove":
        st.blocks[c] -= 1
        st.supply[st.blocks[c]] += 1
        events.append({"type": "block_removed", "seat": seat, "at": _xy(c), "height": st.blocks[c]})
    else:
        w = st.turn.worker
        assert w is not None
        dest = god(st, seat).force_options(st, seat, w)[c]
        _force(st, st.worker_at(c), dest, seat, events)


def _force(st: State, victim: int | None, dest: int, by: int, events: list[Event]) -> None:
    assert victim is not None
    frm = st.pos(victim)
    st.workers[victim] = dest
    events.append({"type": "worker_forced", "seat": st.owner(victim), "worker": victim,
                   "by": by, "from": _xy(frm), "to": _xy(dest)})


def do_move(st: State, seat: int, w: int, opt: MoveOpt, events: list[Event]) -> None:
    assert st.turn is not None
    frm = st.pos(w)
    fl, tl = st.blocks[frm], st.blocks[opt.to]
    st.workers[w] = None
    if opt.victim is not None and opt.victim_to is not None:
        _force(st, opt.victim, opt.victim_to, seat, events)
    st.workers[w] = opt.to
    st.turn.moves += 1
    if w not in st.turn.movers:
        st.turn.movers.append(w)
    st.turn.moved_up = st.turn.moved_up or tl > fl
    events.append({"type": "worker_moved", "seat": seat, "worker": w,
                   "from": _xy(frm), "to": _xy(opt.to)})
    g = god(st, seat)
    g.after_move(st, seat, fl, tl)
    reason = g.move_win(st, seat, fl, tl)
    if reason and not any(p.denies_win(st, o, seat, opt.to) for o, p in against(st, seat)):
        win(st, seat, reason, events)


def do_build(st: State, seat: int, c: int, dome: bool, events: list[Event]) -> None:
    piece = DOME if dome else st.blocks[c]
    if dome:
        st.domes[c] = True
    else:
        st.blocks[c] += 1
    st.supply[piece] -= 1
    events.append({"type": "piece_built", "seat": seat, "at": _xy(c),
                   "piece": PIECE_NAMES[piece], "height": st.blocks[c] + st.domes[c]})
    for o in st.alive_seats():
        reason = god(st, o).wins_now(st, o)
        if reason and st.phase != OVER:
            win(st, o, reason, events)


# --- end of turn, elimination, wins ------------------------------------------------------


def end_turn(st: State, seat: int, events: list[Event]) -> None:
    _captures(st, seat, events)
    if st.phase == OVER:
        return
    for s in st.alive_seats():
        if s != seat and not st.workers_of(s):
            eliminate(st, s, "petrified", events)
    if st.phase == OVER:
        return
    events.append({"type": "turn_ended", "seat": seat})
    begin_turn(st, next_alive(st, seat), events)


def _captures(st: State, seat: int, events: list[Event]) -> None:
    """Medusa: each victim is removed and a block built where it stood, if that build may be made."""
    for v in god(st, seat).end_of_turn_captures(st, seat):
        c = st.pos(v)
        st.workers[v] = None
        if not build_allowed(st, seat, c, False):
            st.workers[v] = c
            continue
        events.append({"type": "worker_removed", "seat": st.owner(v), "worker": v,
                       "at": _xy(c), "reason": "petrified"})
        do_build(st, seat, c, False, events)
        if st.phase == OVER:
            return


def eliminate(st: State, seat: int, reason: str, events: list[Event]) -> None:
    st.alive[seat] = False
    st.out_order.append(seat)
    for w in st.workers_of(seat):
        events.append({"type": "worker_removed", "seat": seat, "worker": w,
                       "at": _xy(st.pos(w)), "reason": "eliminated"})
        st.workers[w] = None
    events.append({"type": "player_lost", "seat": seat, "reason": reason})
    left = st.alive_seats()
    if len(left) == 1:
        win(st, left[0], "last_standing" if st.seats > 2 else f"opponent_{reason}", events)


def win(st: State, seat: int, reason: str, events: list[Event]) -> None:
    st.phase = OVER
    st.winner = seat
    st.reason = reason
    st.turn = None
    events.append({"type": "game_won", "seat": seat, "reason": reason})
