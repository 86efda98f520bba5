"""Helpers for the games' ``describe`` modules: who did it, in words, for one viewer.

A game's describe module turns the events of one action into sentences for one viewer
(service/games/base.py, ``Game.describe``). The sentences say "You" to the viewer about its own
seat and otherwise use the name the caller gave for a seat (a nickname with the seat label) or
the game's own label. Coordinates are written 1-based, as the boards label them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from service.games.base import Game

Event = dict[str, Any]


class Teller:
    """Names seats for one viewer: ``who(2)`` is "You" for seat 2's own viewer, else its name."""

    def __init__(self, viewer: int | None, names: Mapping[int, str] | None,
                 label: Callable[[int], str]) -> None:
        self.viewer = viewer
        self.names = dict(names or {})
        self.label = label

    def name(self, seat: int) -> str:
        return self.names.get(seat) or self.label(seat)

    def who(self, seat: int | None) -> str:
        """The subject of a sentence: "You" or the seat's name."""
        if seat is None:
            return "Someone"
        return "You" if seat == self.viewer else self.name(seat)

    def them(self, seat: int) -> str:
        """A seat inside a sentence: "you" or its name."""
        return "you" if seat == self.viewer else self.name(seat)

    def whose(self, seat: int | None, start: bool = False) -> str:
        """A possessive: "your" ("Your" to ``start`` a sentence) or "alice's"."""
        if seat is None:
            return "Someone's" if start else "someone's"
        if seat == self.viewer:
            return "Your" if start else "your"
        return f"{self.name(seat)}'s"

    def wins(self, seats: list[int]) -> str:
        """ "You win" / "alice wins" / "alice and bob win"."""
        if not seats:
            return "Nobody wins"
        if len(seats) == 1:
            return "You win" if seats[0] == self.viewer else f"{self.name(seats[0])} wins"
        parts = [("You" if i == 0 else "you") if s == self.viewer else self.name(s)
                 for i, s in enumerate(seats)]
        return f"{and_list(parts)} win"


def and_list(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def words(code: str) -> str:
    """A wire code in words: "move_limit" -> "move limit"."""
    return str(code).replace("_", " ").lower()


def plural(n: int, thing: str, things: str | None = None) -> str:
    return f"{n} {thing if n == 1 else (things or thing + 's')}"


def amounts(counts: Mapping[str, int]) -> str:
    """ {"coin": 2, "stone": 1} -> "2 coins and 1 stone"."""
    return and_list([plural(n, name) for name, n in counts.items() if n]) or "nothing"


def told(lines: Iterable[str | None]) -> list[str]:
    """A describe module's lines as sentences; an event not worth telling gave None."""
    return [sentence(line) for line in lines if line]


def square(row: int, column: int) -> str:
    """A square as the boards label it (both counted from 1): "row 1, column 2"."""
    return f"row {row}, column {column}"


def sentence(text: str) -> str:
    """A full stop at the end. Never changes case: a sentence may start with a nickname."""
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


#: why an aborted match was called off (``detail.by``)
ABORTED_BY = {
    "admin": "an operator stopped the match",
    "idle": "nobody came to play",
    "inactive": "nobody moved for too long",
}


def tell_outcome(game: Game[Any], outcome: Mapping[str, Any] | None, viewer: int | None,
                 names: Mapping[int, str] | None = None) -> list[str]:
    """How a match ended, in words for ``viewer``: "bob wins: alice resigned.", "You win: a
    unit reached the other side's starting row.", "Lorenzo wins: his black cross reached the
    end of the faith track; points: you 3." The ends outside the rules (resigned, abandoned,
    out of time, banned, drawn by agreement, aborted) are told here; the others by the game's describe module, from the events its
    ``Game.outcome_events(outcome)`` makes of the outcome (default: one ``game_ended`` event)."""
    if not outcome:
        return []
    t = Teller(viewer, names, game.seat_label)
    reason, winners = outcome.get("reason", ""), list(outcome.get("winners") or [])
    detail = outcome.get("detail") or {}
    if reason == "resigned" and "seat" in detail:
        return [sentence(f"{t.wins(winners)}: {t.them(detail['seat'])} resigned")]
    if reason == "abandoned" and detail.get("away"):
        gone = and_list([t.them(s) for s in detail["away"]])
        return [sentence(f"{t.wins(winners)}: {gone} left the match")]
    if reason == "time_out" and outcome.get("draw") and detail.get("seats"):
        late = and_list([t.them(s) for s in sorted(detail["seats"], key=lambda s: s != viewer)])  # you first
        return [sentence(f"A draw: {late} ran out of time at once")]
    if reason == "time_out" and "seat" in detail:
        if not winners:  # solo: the game's own opponent wins
            return [sentence(f"{t.whose(detail['seat'], start=True)} time ran out")]
        return [sentence(f"{t.wins(winners)}: {t.them(detail['seat'])} ran out of time")]
    if reason == "banned" and "seat" in detail:
        return [sentence(f"{t.wins(winners)}: {t.them(detail['seat'])} was banned")]
    if reason == "agreed":
        return [sentence("A draw, by agreement")]
    if reason == "aborted":
        why = ABORTED_BY.get(detail.get("by", ""), f"called off ({words(detail.get('by', ''))})")
        return [sentence(f"Nobody wins: {why}")]
    events = game.outcome_events(dict(outcome))
    return game.describe(events, viewer, names=names) or [sentence(
        f"{t.wins(winners)}: {words(reason)}" if reason else t.wins(winners))]
