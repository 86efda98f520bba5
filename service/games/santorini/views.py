"""What a seat (or a spectator) sees, and the operators' text picture."""

from __future__ import annotations

from typing import Any

from .board import SIZE, cell, xy
from .rules import acting_worker, mask, step_cells, step_kind, step_optional, wire_step
from .setup_flow import offerable
from .state import OVER, PLAY, SELECT, State
from .turn import can_start, switch_targets

WORKER_LETTERS = "ABCDEF"


def last_block(st: State, c: int) -> str:
    if st.domes[c]:
        return "DOME"
    return "GROUND" if st.blocks[c] == 0 else f"LEVEL_{st.blocks[c]}"


def board_view(st: State) -> list[list[dict[str, Any]]]:
    rows = []
    for x in range(SIZE):
        row = []
        for y in range(SIZE):
            c = cell(x, y)
            w = st.worker_at(c)
            row.append({
                "height": st.blocks[c] + int(st.domes[c]),
                "blocks": st.blocks[c],
                "dome": st.domes[c],
                "last_block": last_block(st, c),
                "worker": w,
                "seat": None if w is None else st.owner(w),
            })
        rows.append(row)
    return rows


def turn_view(st: State) -> dict[str, Any] | None:
    if st.phase != PLAY or st.turn is None:
        return None
    t, seat = st.turn, st.current
    if t.acted:
        selectable = switch_targets(st, seat)
    else:
        selectable = [w for w in st.workers_of(seat) if can_start(st, seat, w)]
    out: dict[str, Any] = {
        "seat": seat,
        "number": st.turn_number,
        "step": t.step,
        "wire_step": wire_step(t.step),
        "action": step_kind(t.step) or "select_worker",
        "worker": t.worker,
        "acting_worker": None,
        "optional": False,
        "mask": mask({}),
        "selectable": selectable,
        "blocked": list(t.blocked),
        "bound": list(t.bound),
    }
    if t.step != SELECT:
        w = acting_worker(st, seat)
        out["acting_worker"] = w
        out["acting_at"] = None if w is None else list(xy(st.pos(w)))
        out["optional"] = step_optional(st, seat)
        out["mask"] = mask(step_cells(st, seat))
    return out


def view(st: State, seat: int | None) -> dict[str, Any]:
    return {
        "phase": st.phase,
        "seats": st.seats,
        "you": seat,
        "current": None if st.phase == OVER else st.current,
        "gods_enabled": st.gods_enabled,
        "gods": list(st.gods),
        "offered": list(st.offered),
        "deck": offerable(st) if st.gods_enabled else [],
        "alive": list(st.alive),
        "eliminated": list(st.out_order),
        "board": board_view(st),
        "workers": [
            {"id": w, "seat": st.owner(w), "x": xy(c)[0], "y": xy(c)[1]}
            for w, c in enumerate(st.workers) if c is not None
        ],
        "supply": {"level1": st.supply[0], "level2": st.supply[1],
                   "level3": st.supply[2], "dome": st.supply[3]},
        "complete_towers": st.complete_towers(),
        "athena_up": [bool(f.get("athena_up")) for f in st.flags],
        "turn": turn_view(st),
        "winner": st.winner,
        "reason": st.reason,
    }


def render(st: State) -> str:
    """Rows x = 0..4 top to bottom; a cell reads <blocks><dome '*'><worker letter>."""
    lines = ["    " + "    ".join(str(y) for y in range(SIZE))]
    for x in range(SIZE):
        cells = []
        for y in range(SIZE):
            c = cell(x, y)
            w = st.worker_at(c)
            tok = f"{st.blocks[c]}{'*' if st.domes[c] else ''}{WORKER_LETTERS[w] if w is not None else ''}"
            cells.append(tok.ljust(4))
        lines.append(f"{x}  " + " ".join(cells))
    for s in range(st.seats):
        letters = WORKER_LETTERS[2 * s:2 * s + 2]
        state = "out" if not st.alive[s] else ("to act" if st.current == s and st.phase != OVER else "")
        lines.append(f"seat {s} [{letters}] {st.gods[s] or '-'} {state}".rstrip())
    lines.append(f"phase {st.phase}" + (f", step {st.turn.step}" if st.turn else ""))
    if st.phase == OVER:
        lines.append(f"winner seat {st.winner} ({st.reason})")
    return "\n".join(lines)
