"""Dolphins & Foxes's events in words, for one viewer (``Game.describe``).

Squares are 1-based (row, column) as on the board and on the wire. Seat 0 leads the Dolphins,
seat 1 the Foxes; nothing is hidden.
"""

from __future__ import annotations

from collections.abc import Mapping

from service.games.describing import Event, Teller, sentence
from service.games.describing import square as board_square

from .board import TEAM_LETTERS

TEAMS = {"D": "Dolphins", "F": "Foxes"}
UNITS = {"D": ("dolphin", "fox"), "F": ("fox", "dolphin")}
REASONS = {
    "eliminated": "every unit of the other side was captured",
    "crossed": "a unit reached the other side's starting row",
    "move_limit": "the move limit was reached",
}


def square(at: list[int]) -> str:
    return board_square(at[0], at[1])


def side(seat: int, t: Teller) -> str:
    """ "You (Dolphins)" for the viewer, else "alice (Dolphins)" or "The Dolphins"."""
    team = TEAMS[TEAM_LETTERS[seat]]
    if seat == t.viewer:
        return f"You ({team})"
    return f"{t.names[seat]} ({team})" if seat in t.names else f"The {team}"


def describe(events: list[Event], viewer: int | None, *,
             names: Mapping[int, str] | None = None) -> list[str]:
    t = Teller(viewer, names, lambda s: TEAMS[TEAM_LETTERS[s]])
    lines = []
    for e in events:
        if e.get("type") == "unit_moved":
            seat = TEAM_LETTERS.index(e["team"])
            mine, theirs = UNITS[e["team"]]
            took = f", capturing a {theirs}" if e.get("captured") else ""
            lines.append(sentence(f"{side(seat, t)} moved a {mine} from {square(e['from'])} "
                                  f"to {square(e['to'])}{took}"))
        elif e.get("type") == "game_ended":
            why = REASONS.get(e.get("reason", ""), str(e.get("reason", "")).replace("_", " "))
            if e.get("draw"):
                lines.append(sentence(f"Draw: {why}, with as many dolphins as foxes"))
            else:
                winners = e.get("winners") or []
                head = " and ".join(side(s, t) for s in winners) or "Nobody"
                verb = "win" if len(winners) > 1 or winners == [t.viewer] else "wins"
                lines.append(sentence(f"{head} {verb}: {why}"))
    return lines
