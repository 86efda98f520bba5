"""The match state: plain dataclasses of ints, strings and lists, with an exact JSON round trip."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from typing import Any

from service.errors import RulesError
from service.games.renaissance.codes import REASONS


@dataclass(slots=True)
class Player:
    #: the four leaders dealt at set-up, until two are chosen (then empty)
    dealt: list[int]
    #: the two kept leaders, in the order chosen, and each one's status: hand | active | discarded
    leaders: list[int] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    bonus_left: int = 0
    #: warehouse depots 1-3 as [resource index or -1, count]
    depots: list[list[int]] = field(default_factory=lambda: [[-1, 0], [-1, 0], [-1, 0]])
    #: contents of extra depots, by resource (only resources with an active depot leader)
    extra: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    strongbox: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    #: this turn's production output, already in the strongbox but not spendable until next turn
    produced: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    #: development slots 1-3, each a stack of card ids, bottom first
    slots: list[list[int]] = field(default_factory=lambda: [[], [], []])
    faith: int = 0
    #: Pope's favour tiles 1-3: 0 face down, 1 face up (scores), -1 removed
    favours: list[int] = field(default_factory=lambda: [0, 0, 0])


@dataclass(slots=True)
class State:
    seats: int
    seed: int
    players: list[Player]
    #: 12 decks (see catalog.deck_index), each bottom first: the last id is the visible top card
    decks: list[list[int]]
    #: 12 marble colours, row-major (row 1 first), and the spare one on the slide
    market: list[str]
    spare: str
    phase: str = "setup"  # setup | play | over
    current: int = 0
    #: main action done this turn: "" | market | buy | production
    main: str = ""
    #: productions run this turn: "base", "slot1".."slot3", "leader<id>"
    used: list[str] = field(default_factory=list)
    #: market resources still to place or discard, by resource; white marbles still to convert
    pending: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    pending_white: int = 0
    reports: list[bool] = field(default_factory=lambda: [False, False, False])
    final_round: bool = False
    turns: int = 0
    #: solo only: Lorenzo's black cross (-1 in multiplayer), the token pile (top = last),
    #: the last revealed token (0 = none yet), cards Lorenzo removed, reshuffles so far
    lorenzo: int = -1
    tokens: list[int] = field(default_factory=list)
    last_token: int = 0
    removed: list[int] = field(default_factory=list)
    shuffles: int = 0
    end_reason: str = ""
    winners: list[int] = field(default_factory=list)
    draw: bool = False
    scores: list[int] = field(default_factory=list)

    @property
    def solo(self) -> bool:
        return self.seats == 1


def fail(reason: str, message: str | None = None) -> RulesError:
    """A RulesError with one of the documented reasons."""
    assert reason in REASONS, reason
    return RulesError(reason, message or REASONS[reason])


def rng(seed: int, purpose: str) -> random.Random:
    """A generator for one shuffle, a pure function of the match seed and ``purpose``."""
    return random.Random(f"renaissance/{seed}/{purpose}")


_STATE_FIELDS = tuple(f.name for f in fields(State) if f.name != "players")
_PLAYER_FIELDS = tuple(f.name for f in fields(Player))


def dump(state: State) -> dict[str, Any]:
    data = {name: _copy(getattr(state, name)) for name in _STATE_FIELDS}
    data["players"] = [{name: _copy(getattr(p, name)) for name in _PLAYER_FIELDS}
                       for p in state.players]
    return data


def load(data: dict[str, Any]) -> State:
    d = dict(data)
    d["players"] = [Player(**{k: _copy(v) for k, v in p.items()}) for p in d["players"]]
    return State(**{k: _copy(v) for k, v in d.items()})


def _copy(value: Any) -> Any:
    """A copy of nested lists (the leaves are ints, strings and bools)."""
    if type(value) is not list:
        return value
    if value and type(value[0]) is list:
        return [_copy(v) for v in value]
    return list(value)


def copy_state(state: State) -> State:
    return load(dump(state))
