"""Board geometry: cells are ints 0..24, ``cell = x * 5 + y`` (x = row, y = column).

The original (seed 001) sends ``x`` and ``y`` in 0..4 with ``x`` the row; we keep
that reading everywhere.
"""

from __future__ import annotations

SIZE = 5
CELLS = SIZE * SIZE

#: pieces in the box: level-1 blocks, level-2 blocks, level-3 blocks, domes
PIECES: tuple[int, int, int, int] = (22, 18, 14, 18)
PIECE_NAMES: tuple[str, str, str, str] = ("level1", "level2", "level3", "dome")
DOME = 3  # index of the dome in PIECES


def cell(x: int, y: int) -> int:
    return x * SIZE + y


def xy(c: int) -> tuple[int, int]:
    return divmod(c, SIZE)


def on_board(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def _neighbours(c: int) -> tuple[int, ...]:
    x, y = xy(c)
    out = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if (dx or dy) and on_board(x + dx, y + dy):
                out.append(cell(x + dx, y + dy))
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(c) for c in range(CELLS))


def neighbours(c: int) -> tuple[int, ...]:
    """The up to 8 cells around ``c``."""
    return NEIGHBOURS[c]


def adjacent(a: int, b: int) -> bool:
    return b in NEIGHBOURS[a]


def perimeter(c: int) -> bool:
    x, y = xy(c)
    return x in (0, SIZE - 1) or y in (0, SIZE - 1)


def beyond(frm: int, to: int) -> int | None:
    """The cell one step past ``to`` in the direction ``frm -> to`` (None: off the board)."""
    (fx, fy), (tx, ty) = xy(frm), xy(to)
    nx, ny = 2 * tx - fx, 2 * ty - fy
    return cell(nx, ny) if on_board(nx, ny) else None


def mirror(victim: int, centre: int) -> int | None:
    """The cell opposite ``victim`` through ``centre`` (Charon); None when off the board."""
    return beyond(victim, centre)


def name(c: int) -> str:
    x, y = xy(c)
    return f"({x},{y})"
