"""A compact text notation for positions (tests, operators).

Five lines of five tokens, row x = 0 first. A token is ``<blocks 0-3>`` (may be left out before a letter: 0), then ``*``
for a dome, then an optional worker letter: A B = seat 0, C D = seat 1, E F = seat 2
(worker ids 0..5). Example::

    0 0 1  2A 0
    0 3* 0  0 0
    ...
"""

from __future__ import annotations

import re
from typing import Any

from .board import CELLS, PIECES, SIZE, cell
from .setup_flow import new_state
from .state import PLAY, State
from .turn import begin_turn
from .views import WORKER_LETTERS

TOKEN = re.compile(r"^([0-3]?)(\*?)([A-Fa-f]?)$")


def parse_board(text: str) -> tuple[list[int], list[bool], dict[int, int]]:
    """(blocks, domes, worker id -> cell) of a board text."""
    rows = [r.split() for r in text.strip().splitlines() if r.strip()]
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ValueError("a board is 5 lines of 5 tokens")
    blocks, domes, workers = [0] * CELLS, [False] * CELLS, {}
    for x, row in enumerate(rows):
        for y, tok in enumerate(row):
            m = TOKEN.match(tok)
            if m is None or not tok:
                raise ValueError(f"bad token {tok!r} at ({x},{y})")
            c = cell(x, y)
            blocks[c], domes[c] = int(m.group(1) or 0), bool(m.group(2))
            if m.group(3):
                workers[WORKER_LETTERS.index(m.group(3).upper())] = c
    return blocks, domes, workers


def position(
    board: str,
    gods: list[str | None] | None = None,
    *,
    current: int = 0,
    seats: int | None = None,
    flags: list[dict[str, Any]] | None = None,
    enforce_supply: bool = False,
) -> State:
    """A state in play, at the start of ``current``'s turn (gods None: base game)."""
    blocks, domes, workers = parse_board(board)
    n = seats or (len(gods) if gods else max(workers) // 2 + 1)
    st = new_state(n, gods is not None, "full", enforce_supply)
    st.blocks, st.domes = blocks, domes
    for w, c in workers.items():
        st.workers[w] = c
    st.gods = list(gods) if gods else [None] * n
    st.placed = [True] * n
    st.flags = flags or [{} for _ in range(n)]
    st.supply = supply_left(st)
    st.phase = PLAY
    begin_turn(st, current, [])
    return st


def supply_left(st: State) -> list[int]:
    """Pieces left in the box = box contents minus the pieces on the board."""
    used = [sum(1 for c in range(CELLS) if st.blocks[c] > k) for k in range(3)]
    used.append(sum(st.domes))
    return [PIECES[k] - used[k] for k in range(4)]


def board_text(st: State) -> str:
    """The inverse of :func:`parse_board` for a state's board."""
    lines = []
    for x in range(SIZE):
        toks = []
        for y in range(SIZE):
            c = cell(x, y)
            w = st.worker_at(c)
            toks.append(f"{st.blocks[c]}{'*' if st.domes[c] else ''}"
                        f"{WORKER_LETTERS[w] if w is not None else ''}")
        lines.append(" ".join(toks))
    return "\n".join(lines)
