"""The match state: plain dataclasses of ints and lists, with an exact JSON round trip."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from service.errors import RulesError
from service.games.eriantys.constants import PARAMS, REASONS, Params

MASK64 = (1 << 64) - 1


@dataclass(slots=True)
class Group:
    """An island group (a lone island is a group of one tile)."""

    tiles: list[int]
    students: list[int]
    towers: int = 0
    team: int = -1
    no_entry: int = 0


@dataclass(slots=True)
class Player:
    entrance: list[int]
    dining: list[int]
    hand: list[int]
    wizard: str
    discard: int = 0
    coins: int = 0


@dataclass(slots=True)
class Character:
    key: str
    used: bool = False
    students: list[int] = field(default_factory=lambda: [0] * 5)
    no_entry: int = 0


@dataclass(slots=True)
class State:
    seats: int
    expert: bool
    rng: int
    bag: list[int]
    groups: list[Group]
    mother_nature: int
    clouds: list[list[int]]
    clouds_taken: list[bool]
    professors: list[int]
    towers: list[int]
    players: list[Player]
    reserve: int
    characters: list[Character]
    round: int = 1
    phase: str = "planning"
    first_player: int = 0
    planning_order: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    action_order: list[int] = field(default_factory=list)
    turn: int = 0
    moved: int = 0
    mn_moved: bool = False
    character_used: str = ""
    mushroom: int = -1
    last_round: bool = False
    end_reason: str = ""
    winners: list[int] = field(default_factory=list)
    draw: bool = False

    @property
    def params(self) -> Params:
        return PARAMS[self.seats]

    def team(self, seat: int) -> int:
        return seat % 2 if self.seats == 4 else seat

    def current(self) -> int:
        """The seat whose planning play or action turn it is (-1 when over)."""
        if self.phase == "planning":
            return self.planning_order[sum(1 for v in self.played if v)]
        if self.phase == "action":
            return self.action_order[self.turn]
        return -1


def fail(reason: str, message: str | None = None) -> RulesError:
    """A RulesError with one of the documented reasons."""
    assert reason in REASONS, reason
    return RulesError(reason, message or REASONS[reason])


def next_random(state: State, bound: int) -> int:
    """A number in [0, bound) from the state's splitmix64 generator."""
    state.rng = (state.rng + 0x9E3779B97F4A7C15) & MASK64
    z = state.rng
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return (z ^ (z >> 31)) % bound


def draw(state: State) -> int:
    """Draw one student from the bag; -1 when it is empty. Emptying it sets the last round."""
    bag = state.bag
    total = bag[0] + bag[1] + bag[2] + bag[3] + bag[4]
    if total == 0:
        return -1
    r = next_random(state, total)
    for colour in range(5):
        r -= bag[colour]
        if r < 0:
            bag[colour] -= 1
            if total == 1:
                state.last_round = True
            return colour
    raise AssertionError("unreachable")


# --- JSON round trip ---------------------------------------------------------------


def dump(state: State) -> dict[str, Any]:
    return {
        "seats": state.seats, "expert": state.expert, "rng": format(state.rng, "x"),
        "bag": list(state.bag),
        "groups": [[list(g.tiles), list(g.students), g.towers, g.team, g.no_entry]
                   for g in state.groups],
        "mother_nature": state.mother_nature,
        "clouds": [list(c) for c in state.clouds], "clouds_taken": list(state.clouds_taken),
        "professors": list(state.professors), "towers": list(state.towers),
        "players": [[list(p.entrance), list(p.dining), list(p.hand), p.wizard, p.discard, p.coins]
                    for p in state.players],
        "reserve": state.reserve,
        "characters": [[c.key, c.used, list(c.students), c.no_entry] for c in state.characters],
        "round": state.round, "phase": state.phase, "first_player": state.first_player,
        "planning_order": list(state.planning_order), "played": list(state.played),
        "action_order": list(state.action_order), "turn": state.turn, "moved": state.moved,
        "mn_moved": state.mn_moved, "character_used": state.character_used,
        "mushroom": state.mushroom, "last_round": state.last_round,
        "end_reason": state.end_reason, "winners": list(state.winners), "draw": state.draw,
    }


def load(data: dict[str, Any]) -> State:
    d = dict(data)
    d["rng"] = int(d["rng"], 16)
    d["bag"] = list(d["bag"])
    d["groups"] = [Group(list(t), list(s), tw, tm, ne) for t, s, tw, tm, ne in d["groups"]]
    d["clouds"] = [list(c) for c in d["clouds"]]
    d["players"] = [Player(list(e), list(dn), list(h), w, ds, co)
                    for e, dn, h, w, ds, co in d["players"]]
    d["characters"] = [Character(k, u, list(s), n) for k, u, s, n in d["characters"]]
    for key in ("clouds_taken", "professors", "towers", "planning_order", "played",
                "action_order", "winners"):
        d[key] = list(d[key])
    return State(**d)


def copy_state(state: State) -> State:
    return load(dump(state))
