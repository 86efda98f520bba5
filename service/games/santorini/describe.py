"""Santorini's events in words, for one viewer (``Game.describe``).

Squares are written as the board labels them: "row 1, column 1" is (x=0, y=0). Workers are
named by their letter (seat 0 has A and B, seat 1 C and D, seat 2 E and F); gods by name.
Santorini hides nothing a player chooses, so every viewer gets the same sentences (but "You").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from service.games.describing import Event, Teller, and_list, told, words
from service.games.describing import square as board_square

from .views import WORKER_LETTERS

PIECES = {"level1": "level 1", "level2": "level 2", "level3": "level 3", "dome": "a dome"}
STEPS = {"MOVE": "move", "MOVE_SPECIAL": "extra move", "MOVE_UNTIL": "further move",
         "BUILD": "build", "BUILD_SPECIAL": "extra build", "REMOVE": "block removal",
         "FORCE": "forcing move"}
WIN_REASONS = {
    "climbed": "moved up to level 3",
    "opponent_cannot_move": "the opponent could not move",
    "opponent_cannot_build": "the opponent could not build",
    "last_standing": "the last player standing",
    "pan_drop": "Pan moved down two or more levels",
    "chronus_towers": "Chronus: five complete towers stand",
}
LOSS_REASONS = {"cannot_move": "could not move", "cannot_build": "could not build"}


def square(at: Any) -> str:
    x, y = at
    return board_square(x + 1, y + 1)


def worker(index: int) -> str:
    return f"worker {WORKER_LETTERS[index]}"


def god(name: str) -> str:
    return str(name).replace("_", " ").title()


def describe(events: list[Event], viewer: int | None, *, names: Mapping[int, str] | None,
             label: Callable[[int], str]) -> list[str]:
    """One sentence per event a person would want to read; bookkeeping events say nothing."""
    t = Teller(viewer, names, label)
    return told(_line(t, e) for e in events)


def _line(t: Teller, e: Event) -> str | None:  # noqa: C901 - one branch per event type
    kind, seat = e.get("type"), e.get("seat")
    who = t.who(seat)
    if kind == "gods_picked":
        return f"{who} picked the gods {and_list([god(g) for g in e['gods']])}"
    if kind == "god_chosen":
        return f"{who} chose {god(e['god'])}"
    if kind == "workers_placed":
        placed = [f"{worker(w)} on {square(p)}" for w, p in zip(e["workers"], e["positions"])]
        return f"{who} placed {and_list(placed)}"
    if kind == "worker_selected":
        return f"{who} selected {worker(e['worker'])} on {square(e['at'])}"
    if kind == "worker_moved":
        return f"{who} moved {worker(e['worker'])} from {square(e['from'])} to {square(e['to'])}"
    if kind == "worker_forced":
        whose = f"{t.whose(seat, start=True)} {worker(e['worker'])}"
        return f"{whose} was forced from {square(e['from'])} to {square(e['to'])}"
    if kind == "piece_built":
        return f"{who} built {PIECES.get(e['piece'], words(e['piece']))} on {square(e['at'])}"
    if kind == "block_removed":
        return f"{who} removed a block from {square(e['at'])} (now level {e['height']})"
    if kind == "step_skipped":
        return f"{who} skipped the optional {STEPS.get(e['step'], words(e['step']))}"
    if kind == "worker_removed":
        why = "petrified" if e.get("reason") == "petrified" else "out of the game"
        whose = f"{t.whose(seat, start=True)} {worker(e['worker'])}"
        return f"{whose} on {square(e['at'])} was removed ({why})"
    if kind == "player_lost":
        they = "you" if seat == t.viewer else "they"
        return f"{who} lost: {they} {LOSS_REASONS.get(e['reason'], words(e['reason']))}"
    if kind == "game_won":
        return f"{t.wins([seat])}: {WIN_REASONS.get(e['reason'], words(e['reason']))}"
    return None  # turn_started, turn_ended: the status line says whose turn it is


def outcome_events(outcome: dict[str, Any]) -> list[Event]:
    """The outcome as the event that told it (``Game.outcome_events``)."""
    winners = outcome.get("winners") or []
    return [{"type": "game_won", "seat": winners[0], "reason": outcome.get("reason", "")}] \
        if winners else []
