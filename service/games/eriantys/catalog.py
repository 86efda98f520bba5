"""Every action instance the engine can list, built once at import.

Actions are frozen value objects, so ``legal_actions`` hands out these shared instances instead
of constructing thousands of pydantic models per call (the benchmark's first hot spot). The
tables are read-only mappings.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from types import MappingProxyType
from typing import Any

from service.games.eriantys import actions as A
from service.games.eriantys.constants import COLOURS, ISLANDS

MAX_STEPS = 7  # assistant 10 (5 moves) + Magic Mailman (2)


def _multisets(size: int) -> list[tuple[int, ...]]:
    return list(combinations_with_replacement(range(5), size))


def _swap_table(key: str, most: int) -> MappingProxyType[Any, Any]:
    cls = A.CHARACTER_ACTIONS[key]
    table = {}
    for size in range(most + 1):
        for a in _multisets(size):
            for b in _multisets(size):
                swaps = tuple((COLOURS[x], COLOURS[y]) for x, y in zip(a, b))
                table[(a, b)] = cls(swaps=swaps)
    return MappingProxyType(table)


ASSISTANTS = MappingProxyType({v: A.PlayAssistant(card=v) for v in range(1, 11)})
MOVES = MappingProxyType({(c, to): A.MoveStudent(color=COLOURS[c], to=to)
                          for c in range(5) for to in ["dining", *range(ISLANDS)]})
STEPS = MappingProxyType({s: A.MoveMotherNature(steps=s) for s in range(1, MAX_STEPS + 1)})
CLOUDS = MappingProxyType({i: A.ChooseCloud(cloud=i) for i in range(4)})
END_TURN = A.EndTurn()
PLAIN = MappingProxyType({k: A.CHARACTER_ACTIONS[k]()
                          for k in ("farmer", "magic_mailman", "centaur", "knight")})
ISLAND_CARDS = MappingProxyType({(k, i): A.CHARACTER_ACTIONS[k](island=i)
                                 for k in ("herald", "grandma_herbs") for i in range(ISLANDS)})
COLOUR_CARDS = MappingProxyType({(k, c): A.CHARACTER_ACTIONS[k](color=COLOURS[c])
                                 for k in ("mushroom_hunter", "thief", "spoiled_princess")
                                 for c in range(5)})
MONK = MappingProxyType({(c, i): A.PlayMonk(color=COLOURS[c], island=i)
                         for c in range(5) for i in range(ISLANDS)})
SWAPS = MappingProxyType({"jester": _swap_table("jester", 3),
                          "minstrel": _swap_table("minstrel", 2)})
