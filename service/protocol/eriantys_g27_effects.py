"""Seed 004 character effects as the original asks them: CHARACTERCARDEFFECT requests whose
CHARACTERVALUE is a PlayCharacterAction (MONKFIRST, JESTERFIRST, JESTERSECOND, ...), and the
CHOSENFIELDSMAP answers.

The Jester and the Bard take two steps: first how many swaps (``MOVEMENTJESTER``/``MOVEMENTBARD``),
then one request per swap. Tavolo's engine plays a character in one action, so an
:class:`Effect` collects the swaps (showing the lists as they are after each one) and yields the
engine action once it has them all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from service.protocol import eriantys_g27 as wire
from service.protocol import eriantys_g27_model as model
from service.protocol.eriantys_g27 import J, Message
from service.protocol.eriantys_g27_values import DINING_ROW, bad, color, integer, pick

MAX_SWAPS = {"jester": 3, "minstrel": 2}
ISLAND_CARDS = ("monk", "herald", "grandma_herbs")


@dataclass
class Effect:
    """A character being played: its key, its swaps so far and the lists as they stand."""

    key: str
    entrance: list[str]
    card: list[str] = field(default_factory=list)
    dining: dict[str, int] = field(default_factory=dict)
    wanted: int | None = None  # swaps announced (Jester, Bard)
    swaps: list[list[str]] = field(default_factory=list)

    @classmethod
    def start(cls, view: dict[str, Any], seat: int, key: str, entrance: list[str]) -> Effect:
        card = _card(view, key)
        students = model.expand(card.get("students", {}))
        dining = dict(view["players"][seat]["dining"])
        return cls(key, list(entrance), students, dining)

    def request(self, view: dict[str, Any], seat: int) -> Message:
        return wire.request("CHARACTERCARDEFFECT", wire.info_map(self._fields(view, seat)))

    def _fields(self, view: dict[str, Any], seat: int) -> dict[str, Any]:
        name = model.CHARACTER_NAMES[self.key]
        position = J(next(i for i, c in enumerate(view["characters"]) if c["key"] == self.key))
        cards = model.color_array(self.card, len(self.card))
        if self.key == "monk":
            return {"ISLANDARRAY": model.islands(view), "CHARACTERCARDPOSITION": position,
                    "CHARACTERVALUE": "MONKFIRST", "CARDSTUDENTS": cards}
        if self.key == "spoiled_princess":
            return {"CHARACTERCARDPOSITION": position, "CHARACTERVALUE": "PRINCESSFIRST",
                    "CARDSTUDENTS": cards}
        if self.key in ISLAND_CARDS:
            return {"ISLANDARRAY": model.islands(view), "CHARACTERVALUE": name + "FIRST"}
        if self.key in ("mushroom_hunter", "thief"):
            every = model.color_array([c.upper() for c in model.ORIGINAL_COLOURS], 5)
            key = "COLORARRAY" if self.key == "mushroom_hunter" else "REDUCIBLECOLOR"
            return {"CHARACTERVALUE": name + "FIRST", key: every}
        if self.wanted is None:
            limit = "MAXMOVEMENTJESTER" if self.key == "jester" else "MAXMOVEMENTBARD"
            return {"CHARACTERVALUE": name + "FIRST", limit: J(MAX_SWAPS[self.key])}
        entrance = model.color_array(self.entrance, model.entrance_length(view))
        if self.key == "jester":
            return {"CHARACTERCARDPOSITION": position, "CHARACTERVALUE": "JESTERSECOND",
                    "ENTRANCESTUDENTS": entrance, "CARDSTUDENTS": cards}
        swappable = self._bard_swappable()
        return {"CHARACTERVALUE": "BARDSECOND",
                "ENTRANCE": model.entrance_tuple(view, seat, self.entrance),
                "BARDSWAPPABLESTUDENTS": model.color_array(swappable, len(swappable)),
                "BARDSWAPMAP": [{"color": c, "bools": self._bard_tables(c)} for c in swappable]}

    def _bard_tables(self, name: str) -> list[bool]:
        """For an entrance colour: the dining tables it can swap with (RED ... BLUE)."""
        own = name.lower()
        return [self.dining[t] > 0 and t != own and self.dining[own] < DINING_ROW
                for t in model.ORIGINAL_COLOURS]

    def _bard_swappable(self) -> list[str]:
        seen = dict.fromkeys(self.entrance)
        return [c for c in seen if any(self._bard_tables(c))]

    def answer(self, fields: dict[str, Any]) -> dict[str, Any] | None:
        """Read one CHOSENFIELDSMAP; the engine action once complete, else None (ask again)."""
        if self.key in ("jester", "minstrel"):
            return self._swap_step(fields)
        out: dict[str, Any] = {"type": "play_character", "character": self.key}
        if self.key in ("monk", "spoiled_princess"):
            out["color"] = color(pick(self.card, fields.get("STUDENTINDEX"), "STUDENTINDEX"),
                                 "STUDENTINDEX")
        if self.key in ISLAND_CARDS:
            out["island"] = integer(fields.get("ISLANDINDEX"), "ISLANDINDEX")
        if self.key == "mushroom_hunter":
            out["color"] = color(fields.get("MERCHANTCOLOR"), "MERCHANTCOLOR")
        if self.key == "thief":
            out["color"] = color(fields.get("REDUCECOLOR"), "REDUCECOLOR")
        return out

    def _swap_step(self, fields: dict[str, Any]) -> dict[str, Any] | None:
        if self.wanted is None:
            limit = "MOVEMENTJESTER" if self.key == "jester" else "MOVEMENTBARD"
            wanted = integer(fields.get(limit), limit)
            if not 0 <= wanted <= MAX_SWAPS[self.key]:
                raise bad(f"{limit}: 0 to {MAX_SWAPS[self.key]} swaps")
            self.wanted = wanted
        elif self.key == "jester":
            self._jester_swap(fields)
        else:
            self._bard_swap(fields)
        if len(self.swaps) < self.wanted:
            return None
        return {"type": "play_character", "character": self.key, "swaps": net(self.swaps)}

    def _jester_swap(self, fields: dict[str, Any]) -> None:
        given = _take(self.entrance, fields.get("ENTRANCESTUDENTINDEX"), "ENTRANCESTUDENTINDEX")
        taken = _take(self.card, fields.get("CARDSTUDENTINDEX"), "CARDSTUDENTINDEX")
        self.entrance.append(taken)
        self.card.append(given)
        self.swaps.append([taken.lower(), given.lower()])

    def _bard_swap(self, fields: dict[str, Any]) -> None:
        index = fields.get("ENTRANCESTUDENTINDEX")
        given = pick(self.entrance, index, "ENTRANCESTUDENTINDEX")
        table = color(fields.get("DININGROOMTABLECOLOR"), "DININGROOMTABLECOLOR")
        if not self._bard_tables(given)[model.ORIGINAL_COLOURS.index(table)]:
            raise bad(f"DININGROOMTABLECOLOR: {given} cannot swap with the {table.upper()} table")
        _take(self.entrance, index, "ENTRANCESTUDENTINDEX")
        self.entrance.append(table.upper())
        self.dining[table] -= 1
        self.dining[given.lower()] += 1
        self.swaps.append([given.lower(), table])


def net(swaps: list[list[str]]) -> list[list[str]]:
    """One-by-one swaps as one exchange: a student that went one way and came back again cancels
    out (the engine checks the exchange against what the card, entrance and tables held)."""
    there = [a for a, _ in swaps]
    back = [b for _, b in swaps]
    for colour in list(there):
        if colour in back:
            there.remove(colour)
            back.remove(colour)
    return [[a, b] for a, b in zip(there, back)]


def _take(items: list[str], index: Any, what: str) -> str:
    """The student at ``index``, taken out (the list closes up as the original's does)."""
    student = str(pick(items, index, what))
    del items[integer(index, what)]
    return student


def _card(view: dict[str, Any], key: str) -> dict[str, Any]:
    return next((c for c in view["characters"] if c["key"] == key), {})
