"""Eriantys's events in words, for one viewer (``Game.describe``).

Islands and clouds are numbered from 1 as the board labels them (the wire counts from 0);
characters by their names. What comes out of the bag is never said: a character card's refill
says only that a student was drawn, and the clouds refilled at a round's start are not listed
(the events carry no colour of a bag draw, and the sentences add none).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from service.games.describing import Event, Teller, and_list, plural, told, words

from .constants import ASSISTANT_MOVES, CHARACTER_BY_KEY

REASONS = {
    "last_tower": "placed their last tower",
    "three_groups": "only three groups of islands are left",
    "bag_empty": "the bag is empty",
    "no_assistants": "the assistants are spent",
}


def island(index: Any) -> str:
    return f"island {int(index) + 1}"


def character(key: str) -> str:
    info = CHARACTER_BY_KEY.get(key)
    return f"the {info.name}" if info else f"the {words(key)}"


def place(where: Any) -> str:
    """Where a student went or came from: the dining room, an island, a character card."""
    if isinstance(where, int):
        return island(where)
    if where == "dining":
        return "the dining room"
    if where == "entrance":
        return "the entrance"
    return character(str(where))


def students(counts: Mapping[str, int]) -> str:
    return and_list([f"{n} {c}" for c, n in counts.items() if n]) or "no students"


def describe(events: list[Event], viewer: int | None, *, names: Mapping[int, str] | None,
             label: Callable[[int], str]) -> list[str]:
    t = Teller(viewer, names, label)
    return told(_line(t, e) for e in events)


def _character_play(t: Teller, e: Event) -> str:
    who, what = t.who(e.get("seat")), character(e["character"])
    detail = []
    if "color" in e:
        detail.append(f"colour {e['color']}")
    if "island" in e:
        detail.append(island(e["island"]))
    swaps = e.get("swaps")
    if swaps:
        detail.append("swapping " + and_list([f"{a} for {b}" for a, b in swaps]))
    cost = f" for {plural(e['cost'], 'coin')}" if e.get("cost") else ""
    return f"{who} played {what}{cost}{': ' + ', '.join(detail) if detail else ''}"


def _line(t: Teller, e: Event) -> str | None:  # noqa: C901 - one branch per event type
    kind, seat = e.get("type"), e.get("seat")
    who = t.who(seat)
    if kind == "assistant_played":
        card = e["card"]
        return (f"{who} played assistant {card} (Mother Nature up to "
                f"{plural(ASSISTANT_MOVES.get(card, 0), 'step')})")
    if kind == "action_phase_started":
        order = [t.them(s) for s in e["order"]]
        return f"Action phase: {and_list(order)}, in that order"
    if kind == "character_played":
        return _character_play(t, e)
    if kind == "student_moved":
        return f"{who} moved a {e['color']} student from {place(e['from'])} to {place(e['to'])}"
    if kind == "mother_nature_moved":
        return f"{who} moved Mother Nature {plural(e['steps'], 'step')} to {island(e['island'])}"
    if kind == "cloud_taken":
        return f"{who} took cloud {e['cloud'] + 1}: {students(e.get('students', {}))}"
    if kind == "round_started":
        last = " (the last round)" if e.get("last_round") else ""
        first = e["first_player"]
        who_first = "you play" if first == t.viewer else f"{t.name(first)} plays"
        return f"Round {e['round']}{last}: the clouds were refilled; {who_first} an assistant first"
    if kind == "professor_taken":
        frm = f" from {t.them(e['from'])}" if e.get("from") is not None else ""
        return f"{who} took the {e['color']} professor{frm}"
    if kind == "professor_returned":
        return f"The {e['color']} professor went back to the supply"
    if kind == "tower_placed":
        return f"{plural(e['count'], e['tower'] + ' tower')} placed on {island(e['island'])}"
    if kind == "towers_returned":
        return f"{plural(e['count'], 'tower')} went back from {island(e['island'])}"
    if kind == "islands_merged":
        return f"Islands merged into {island(e['island'])} ({plural(e['groups'], 'island')} left)"
    if kind == "coin_gained":
        return f"{who} gained a coin"
    if kind == "last_round_triggered":
        return f"This is the last round (round {e['round']})"
    if kind == "no_entry_placed":
        return f"A no-entry tile was put on {island(e['island'])}"
    if kind == "no_entry_returned":
        return f"The no-entry tile on {island(e['island'])} went back: nothing was resolved there"
    if kind == "students_returned":
        return f"{who} returned {plural(e['count'], e['color'] + ' student')} to the bag"
    if kind == "character_refilled":
        if not e.get("drawn"):
            return None
        return f"A student was drawn from the bag onto {character(e['character'])}"
    if kind == "game_ended":
        why = REASONS.get(e.get("reason", ""), words(e.get("reason", "")))
        if e.get("draw"):
            return f"Draw: {why}"
        return f"{t.wins(list(e.get('winners') or []))}: {why}"
    return None  # turn_ended: the status line says whose turn it is
