"""What clients see (no bag order, no generator state) and a text picture for operators."""

from __future__ import annotations

from typing import Any

from service.games.eriantys.characters import cost
from service.games.eriantys.constants import CHARACTER_BY_KEY, COLOUR_LETTERS, COLOURS, TEAM_COLOURS
from service.games.eriantys.rules import max_steps, students_to_move, team_seats
from service.games.eriantys.state import State


def by_colour(counts: list[int]) -> dict[str, int]:
    return {COLOURS[c]: counts[c] for c in range(5)}


def letters(counts: list[int]) -> str:
    return "".join(COLOUR_LETTERS[c] * counts[c] for c in range(5)) or "-"


def view(state: State, seat: int | None) -> dict[str, Any]:
    current = state.current()
    out: dict[str, Any] = {
        "game": "eriantys", "seats": state.seats, "expert": state.expert, "you": seat,
        "round": state.round, "phase": state.phase,
        "to_act": [] if current < 0 else [current],
        "first_player": state.first_player, "planning_order": list(state.planning_order),
        "action_order": list(state.action_order) if state.phase == "action" else [],
        "bag": {"count": sum(state.bag), "by_color": by_colour(state.bag)},
        "mother_nature": state.mother_nature,
        "islands": [_island(state, i) for i in range(len(state.groups))],
        "clouds": [{"students": by_colour(c), "taken": t}
                   for c, t in zip(state.clouds, state.clouds_taken)],
        "professors": {COLOURS[c]: (h if h >= 0 else None)
                       for c, h in enumerate(state.professors)},
        "teams": [{"team": t, "tower": TEAM_COLOURS[t], "seats": team_seats(state, t),
                   "towers_left": state.towers[t]} for t in range(len(state.towers))],
        "players": [_player(state, s) for s in range(state.seats)],
        "last_round": state.last_round,
    }
    if state.expert:
        out["reserve"] = state.reserve
        out["characters"] = [_character(card) for card in state.characters]
    if state.phase == "action":
        out["turn"] = _turn(state, current)
    if state.phase == "over":
        out["result"] = {"reason": state.end_reason, "winners": list(state.winners),
                         "draw": state.draw}
    return out


def _island(state: State, index: int) -> dict[str, Any]:
    g = state.groups[index]
    return {"index": index, "tiles": list(g.tiles), "students": by_colour(g.students),
            "towers": g.towers, "tower": TEAM_COLOURS[g.team] if g.team >= 0 else None,
            "no_entry": g.no_entry, "mother_nature": index == state.mother_nature}


def _player(state: State, seat: int) -> dict[str, Any]:
    p = state.players[seat]
    return {"seat": seat, "team": state.team(seat), "wizard": p.wizard,
            "entrance": by_colour(p.entrance), "dining": by_colour(p.dining),
            "hand": list(p.hand), "discard": p.discard or None,
            "played": (state.played[seat] or None) if state.played else None,
            **({"coins": p.coins} if state.expert else {})}


def _character(card: Any) -> dict[str, Any]:
    info = CHARACTER_BY_KEY[card.key]
    out = {"id": info.id, "key": card.key, "name": info.name, "cost": cost(card),
           "used": card.used}
    if info.students:
        out["students"] = by_colour(card.students)
    if info.no_entry:
        out["no_entry"] = card.no_entry
    return out


def _turn(state: State, seat: int) -> dict[str, Any]:
    return {"seat": seat, "students_moved": state.moved,
            "students_to_move": students_to_move(state, seat),
            "mother_nature_moved": state.mn_moved, "max_steps": max_steps(state, seat),
            "character_used": state.character_used or None,
            "ignored_color": COLOURS[state.mushroom] if state.mushroom >= 0 else None}


def render(state: State) -> str:
    lines = [f"Eriantys {state.seats}p {'expert' if state.expert else 'normal'}"
             f" - round {state.round}, {state.phase}, to act: {state.current()}"
             f"{', LAST ROUND' if state.last_round else ''}",
             f"bag {sum(state.bag)}   professors "
             + " ".join(f"{COLOUR_LETTERS[c]}:{h if h >= 0 else '-'}"
                        for c, h in enumerate(state.professors))]
    for i, g in enumerate(state.groups):
        tower = f"{g.towers}x{TEAM_COLOURS[g.team]}" if g.team >= 0 else ""
        lines.append(f"{'M' if i == state.mother_nature else ' '} island {i:2d} "
                     f"tiles {g.tiles} {letters(g.students)} {tower}"
                     f"{' no-entry x' + str(g.no_entry) if g.no_entry else ''}")
    for i, (c, t) in enumerate(zip(state.clouds, state.clouds_taken)):
        lines.append(f"  cloud {i}: {letters(c)}{' (taken)' if t else ''}")
    for s, p in enumerate(state.players):
        coins = f" coins {p.coins}" if state.expert else ""
        lines.append(f"  seat {s} team {TEAM_COLOURS[state.team(s)]} entrance "
                     f"{letters(p.entrance)} dining {letters(p.dining)} hand {p.hand}{coins}")
    lines.append("  towers left: " + ", ".join(
        f"{TEAM_COLOURS[t]} {n}" for t, n in enumerate(state.towers)))
    for card in state.characters:
        lines.append(f"  character {card.key} cost {cost(card)} {letters(card.students)}"
                     f"{' no-entry ' + str(card.no_entry) if card.no_entry else ''}")
    if state.phase == "over":
        lines.append(f"  OVER: {state.end_reason}, winners {state.winners}"
                     f"{' (draw)' if state.draw else ''}")
    return "\n".join(lines)
