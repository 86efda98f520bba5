"""Board geometry and terrain generation for Dolphins & Foxes.

Coordinates are (row, column), 1-based, row 1 first in the board string.
Seat 0 is the dolphin team, seat 1 the fox team.
"""

from __future__ import annotations

import random

WATER = "W"
LAND = "L"
DOLPHINS = 0
FOXES = 1
TEAM_LETTERS = ("D", "F")
#: home terrain of each team: a unit is safe there and captures there
HOME = (WATER, LAND)
#: board character of a unit of team t standing on (water, land)
UNIT_CHARS = {(DOLPHINS, WATER): "D", (DOLPHINS, LAND): "E", (FOXES, LAND): "F", (FOXES, WATER): "G"}

Square = tuple[int, int]


def mirror(square: Square, size: int) -> Square:
    """The half-turn image of a square; it always has the other terrain."""
    r, c = square
    return (size + 1 - r, size + 1 - c)


def generate_terrain(size: int, units: int, rng: random.Random) -> str:
    """A fair terrain string: (r,c) is water exactly when its half-turn image is land.

    Row 1 gets at least ``units`` water tiles so that the dolphins can start there.
    """
    grid = [[LAND] * size for _ in range(size)]
    for r in range(1, size // 2 + 1):
        for c in range(1, size + 1):
            water_here = rng.random() < 0.5
            mr, mc = mirror((r, c), size)
            grid[r - 1][c - 1] = WATER if water_here else LAND
            grid[mr - 1][mc - 1] = LAND if water_here else WATER
    land_in_row1 = [c for c in range(1, size + 1) if grid[0][c - 1] == LAND]
    missing = units - (size - len(land_in_row1))
    for c in rng.sample(land_in_row1, max(missing, 0)):
        grid[0][c - 1] = WATER
        mr, mc = mirror((1, c), size)
        grid[mr - 1][mc - 1] = LAND
    return "".join("".join(row) for row in grid)


def terrain_at(terrain: str, size: int, square: Square) -> str:
    r, c = square
    return terrain[(r - 1) * size + (c - 1)]


def on_board(square: Square, size: int) -> bool:
    r, c = square
    return 1 <= r <= size and 1 <= c <= size


def adjacent(a: Square, b: Square) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def neighbours(square: Square, size: int) -> list[Square]:
    r, c = square
    around = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
    return [sq for sq in around if on_board(sq, size)]


def encode_board(terrain: str, size: int, units: dict[Square, int]) -> str:
    """The seed's board string: n*n characters W, L, D, E, F, G."""
    chars = list(terrain)
    for (r, c), team in units.items():
        index = (r - 1) * size + (c - 1)
        chars[index] = UNIT_CHARS[(team, terrain[index])]
    return "".join(chars)


def decode_board(board: str, size: int) -> tuple[str, dict[Square, int]]:
    """Inverse of :func:`encode_board` (used by tests and notation)."""
    if len(board) != size * size:
        raise ValueError(f"a {size}x{size} board has {size * size} characters, not {len(board)}")
    terrain: list[str] = []
    units: dict[Square, int] = {}
    inverse = {char: key for key, char in UNIT_CHARS.items()}
    for index, char in enumerate(board):
        square = (index // size + 1, index % size + 1)
        if char in (WATER, LAND):
            terrain.append(char)
        elif char in inverse:
            team, tile = inverse[char]
            terrain.append(tile)
            units[square] = team
        else:
            raise ValueError(f"unknown board character {char!r}")
    return "".join(terrain), units
