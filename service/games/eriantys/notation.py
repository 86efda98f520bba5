"""A compact dict notation to build positions in tests and tools.

``position(spec)`` starts from ``setup(seats, options, seed)`` and overrides what ``spec`` names;
the bag then receives exactly the students not placed anywhere else (130 in all), the reserve the
coins not held (20 in all) and each team's board the towers not on islands. Students are written
as colour letters (``g r y p b``), e.g. ``"rrgb"``, or as a ``{colour: count}`` dict. Keys:

- ``seats`` (2), ``expert`` (False), ``characters`` (list of keys), ``seed`` (0)
- ``groups``: tile count of each island group in circle order (sums to 12), e.g. ``[3, 1, ...]``
- ``clear_islands``: True to empty every island first; ``islands``: ``{index: students}`` or
  ``{index: {"students": .., "team": t, "towers": n, "no_entry": n}}``; ``mother_nature``: index
- ``entrance`` / ``dining``: ``{seat: students}``; ``professors``: ``{colour: seat}``
- ``coins``: ``{seat: n}``; ``hand``: ``{seat: [values]}``; ``clouds``: ``[students, ...]``
- ``cards``: ``{key: students | {"students": .., "no_entry": n, "used": bool}}``
- ``first_player``: the planning phase's first seat
- ``played``: ``{seat: card}`` for every seat: moves to the action phase; ``turn``: the seat
  whose turn it is; ``moved``, ``mn_moved``, ``character_used``, ``last_round``, ``round``
"""

from __future__ import annotations

from typing import Any

from service.games.eriantys.constants import (
    COINS_TOTAL, COLOUR_INDEX, COLOUR_LETTERS, NO_ENTRY_TILES, STUDENTS_PER_COLOUR,
)
from service.games.eriantys.rules import begin_actions
from service.games.eriantys.setup import EriantysOptions, setup_state
from service.games.eriantys.state import Group, State


def students(spec: str | dict[str, int] | list[int]) -> list[int]:
    """``"rrg"`` or ``{"red": 2, "green": 1}`` -> counts in colour order."""
    if isinstance(spec, list):
        return list(spec)
    out = [0] * 5
    if isinstance(spec, dict):
        for colour, n in spec.items():
            out[COLOUR_INDEX[colour]] += n
        return out
    for letter in spec.replace(" ", "").replace("-", ""):
        out[COLOUR_LETTERS.index(letter)] += 1
    return out


def position(spec: dict[str, Any]) -> State:
    chars = spec.get("characters")
    options = EriantysOptions(expert=spec.get("expert", bool(chars)),
                              characters=tuple(chars) if chars else None)
    state = setup_state(spec.get("seats", 2), options, spec.get("seed", 0))
    _islands(state, spec)
    _players(state, spec)
    _cards(state, spec)
    if "clouds" in spec:
        state.clouds = [students(c) for c in spec["clouds"]]
        state.clouds_taken = [False] * len(state.clouds)
    for key in ("round", "last_round"):
        if key in spec:
            setattr(state, key, spec[key])
    _phase(state, spec)
    _balance(state)
    return state


def _islands(state: State, spec: dict[str, Any]) -> None:
    if "groups" in spec:
        groups, tile = [], 0
        for size in spec["groups"]:
            merged = Group(list(range(tile, tile + size)), [0] * 5)
            for t in range(tile, tile + size):
                for c in range(5):
                    merged.students[c] += state.groups[t].students[c]
            groups.append(merged)
            tile += size
        state.groups = groups
        state.mother_nature = 0
    if spec.get("clear_islands"):
        for g in state.groups:
            g.students = [0] * 5
    for index, item in spec.get("islands", {}).items():
        g = state.groups[int(index)]
        if isinstance(item, dict) and ({"students", "team", "no_entry"} & set(item)):
            g.students = students(item.get("students", ""))
            g.team = item.get("team", -1)
            g.towers = item.get("towers", len(g.tiles) if g.team >= 0 else 0)
            g.no_entry = item.get("no_entry", 0)
        else:
            g.students = students(item)
    if "mother_nature" in spec:
        state.mother_nature = spec["mother_nature"]


def _players(state: State, spec: dict[str, Any]) -> None:
    for seat, item in spec.get("entrance", {}).items():
        state.players[int(seat)].entrance = students(item)
    for seat, item in spec.get("dining", {}).items():
        state.players[int(seat)].dining = students(item)
    for seat, n in spec.get("coins", {}).items():
        state.players[int(seat)].coins = n
    for seat, hand in spec.get("hand", {}).items():
        state.players[int(seat)].hand = list(hand)
    if "professors" in spec:
        state.professors = [-1] * 5
        for colour, seat in spec["professors"].items():
            state.professors[COLOUR_INDEX[colour]] = -1 if seat is None else seat


def _cards(state: State, spec: dict[str, Any]) -> None:
    for key, item in spec.get("cards", {}).items():
        card = next(c for c in state.characters if c.key == key)
        if isinstance(item, dict) and ({"students", "no_entry", "used"} & set(item)):
            if "students" in item:
                card.students = students(item["students"])
            card.no_entry = item.get("no_entry", card.no_entry)
            card.used = item.get("used", card.used)
        else:
            card.students = students(item)


def _phase(state: State, spec: dict[str, Any]) -> None:
    if "first_player" in spec:
        state.first_player = spec["first_player"]
        state.planning_order = [(state.first_player + i) % state.seats for i in range(state.seats)]
    if "played" in spec:
        for seat, card in spec["played"].items():
            seat = int(seat)
            state.played[seat] = card
            state.players[seat].discard = card
            if card in state.players[seat].hand:
                state.players[seat].hand.remove(card)
        if all(state.played):
            begin_actions(state)
    if "turn" in spec:
        state.turn = state.action_order.index(spec["turn"])
    for key in ("moved", "mn_moved", "character_used"):
        if key in spec:
            setattr(state, key, spec[key])
    if "mushroom" in spec:
        state.mushroom = COLOUR_INDEX[spec["mushroom"]]


def _balance(state: State) -> None:
    """Bag, reserve and tower boards take whatever is not placed elsewhere."""
    placed = [0] * 5
    pools = [g.students for g in state.groups] + state.clouds
    pools += [p.entrance for p in state.players] + [p.dining for p in state.players]
    pools += [c.students for c in state.characters]
    for pool in pools:
        for c in range(5):
            placed[c] += pool[c]
    state.bag = [STUDENTS_PER_COLOUR - n for n in placed]
    if min(state.bag) < 0:
        raise ValueError(f"more than 26 students of a colour: {placed}")
    if state.expert:
        used = sum(1 for c in state.characters if c.used)
        state.reserve = COINS_TOTAL - used - sum(p.coins for p in state.players)
        herbs = [c for c in state.characters if c.key == "grandma_herbs"]
        if herbs:
            herbs[0].no_entry = NO_ENTRY_TILES - sum(g.no_entry for g in state.groups)
    for team in range(len(state.towers)):
        on_islands = sum(g.towers for g in state.groups if g.team == team)
        state.towers[team] = state.params.towers - on_islands
