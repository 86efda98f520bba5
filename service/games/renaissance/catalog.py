"""The fixed material of the game, read once from ``cards.json`` (see docs/rules/renaissance.md).

Resource and colour names are the wire's (lower case). Inside the engine a resource is also an
index into 4-long count lists, in the order of :data:`RESOURCES`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources as package_files
from typing import Any

RESOURCES: tuple[str, ...] = ("coin", "servant", "shield", "stone")
RES_INDEX: dict[str, int] = {r: i for i, r in enumerate(RESOURCES)}
COLOURS: tuple[str, ...] = ("green", "blue", "yellow", "purple")
MARBLE_RESOURCE: dict[str, str] = {
    "yellow": "coin", "purple": "servant", "blue": "shield", "grey": "stone"}
ROWS, COLUMNS = 3, 4
DEPOT_CAPACITY = (1, 2, 3)
EXTRA_CAPACITY = 2
SLOTS = 3
FAITH_END = 24
CARDS_TO_END = 7
#: (report, first space of the section, Pope space, favour tile VP)
REPORTS: tuple[tuple[int, int, int, int], ...] = ((1, 5, 8, 2), (2, 12, 16, 3), (3, 19, 24, 4))
#: faith-track space -> victory points (only the highest reached scores)
TRACK_VP: tuple[tuple[int, int], ...] = (
    (24, 20), (21, 16), (18, 12), (15, 9), (12, 6), (9, 4), (6, 2), (3, 1))
#: seat -> (bonus resources, bonus faith); seat 0 holds the inkwell
SEAT_BONUS: tuple[tuple[int, int], ...] = ((0, 0), (1, 0), (1, 1), (2, 1))
LEADERS_DEALT, LEADERS_KEPT = 4, 2

Counts = list[int]


@dataclass(frozen=True)
class DevCard:
    id: int
    level: int
    colour: str
    vp: int
    cost: tuple[int, ...]
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]
    faith: int


@dataclass(frozen=True)
class Leader:
    id: int
    kind: str  # discount | extra_depot | white_marble | production
    resource: int
    vp: int
    #: (colour, count, level or 0 for any level)
    cards: tuple[tuple[str, int, int], ...]
    resources: tuple[int, ...]


@dataclass(frozen=True)
class Token:
    id: int
    colour: str  # a colour for "discard two cards", "" for the black cross
    steps: int
    shuffle: bool


def _counts(raw: dict[str, int]) -> tuple[int, ...]:
    out = [0, 0, 0, 0]
    for name, n in raw.items():
        if name in ("COIN", "SERVANT", "SHIELD", "STONE"):
            out[RES_INDEX[name.lower()]] += n
    return tuple(out)


def _dev(raw: dict[str, Any]) -> DevCard:
    prod = raw["production"]
    return DevCard(raw["id"], raw["level"], raw["color"].lower(), raw["victory_points"],
                   _counts(raw["cost"]), _counts(prod["input"]), _counts(prod["output"]),
                   prod["output"].get("FAITH", 0))


def _leader(raw: dict[str, Any]) -> Leader:
    req = raw["requirements"]
    cards = tuple((c["color"].lower(), c["count"], c["level"] or 0) for c in req["dev_cards"])
    return Leader(raw["id"], raw["type"].lower(), RES_INDEX[raw["resource"].lower()],
                  raw["victory_points"], cards, _counts(req["resources"]))


def _token(raw: dict[str, Any]) -> Token:
    if raw["effect"] == "DISCARD_DEV_CARDS":
        return Token(raw["id"], raw["color"].lower(), 0, False)
    return Token(raw["id"], "", raw["steps"], raw["shuffle"])


def _load() -> dict[str, Any]:
    text = package_files.files(__package__).joinpath("cards.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_DATA = _load()
CARDS: dict[int, DevCard] = {c["id"]: _dev(c) for c in _DATA["development_cards"]}
#: a card's data key ("L1-GREEN-1VP") -> its id
CARD_KEYS: dict[str, int] = {c["key"]: c["id"] for c in _DATA["development_cards"]}
LEADERS: dict[int, Leader] = {c["id"]: _leader(c) for c in _DATA["leader_cards"]}
TOKENS: dict[int, Token] = {t["id"]: _token(t) for t in _DATA["solo_action_tokens"]}
MARBLES: tuple[str, ...] = tuple(
    colour.lower() for colour, n in _DATA["market"]["marbles"].items() for _ in range(n))


def deck_index(level: int, colour: str) -> int:
    """Decks are numbered level-major: (level 1, green) = 0 ... (level 3, purple) = 11."""
    return (level - 1) * len(COLOURS) + COLOURS.index(colour)


#: the card ids of each deck, in id order (setup shuffles them)
DECKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c.id for c in CARDS.values() if deck_index(c.level, c.colour) == d) for d in range(12))


def card_view(card: DevCard) -> dict[str, Any]:
    return {"id": card.id, "level": card.level, "color": card.colour, "vp": card.vp,
            "cost": named(card.cost), "input": named(card.inputs),
            "output": named(card.outputs), "faith": card.faith}


def leader_view(leader: Leader) -> dict[str, Any]:
    return {"id": leader.id, "kind": leader.kind, "resource": RESOURCES[leader.resource],
            "vp": leader.vp,
            "requires": {"cards": [{"color": c, "count": n, **({"level": lv} if lv else {})}
                                   for c, n, lv in leader.cards],
                         "resources": named(leader.resources)}}


def named(counts: tuple[int, ...] | Counts) -> dict[str, int]:
    return {RESOURCES[i]: n for i, n in enumerate(counts) if n}
