"""Setting up a match from (seats, options, seed), in the rulebook's order."""

from __future__ import annotations


from pydantic import Field, field_validator

from service.errors import MalformedAction
from service.games.base import GameOptions
from service.games.eriantys.constants import (
    CHARACTER_BY_KEY, CHARACTER_KEYS, COINS_TOTAL, ISLANDS, NO_ENTRY_TILES, PARAMS,
    STUDENTS_PER_COLOUR, WIZARDS, CharacterKey,
)
from service.games.eriantys.rules import start_round
from service.games.eriantys.state import MASK64, Character, Group, Player, State, draw, next_random


class EriantysOptions(GameOptions):
    """``expert``: coins and characters. ``wizards``: one distinct wizard per seat (cosmetic).
    ``characters``: fix the three characters instead of drawing them (expert only).
    ``first_player``: the seat that plays the first assistant of round 1 (default: drawn)."""

    expert: bool = True
    wizards: tuple[str, ...] | None = None
    characters: tuple[CharacterKey, ...] | None = Field(default=None, min_length=3, max_length=3)
    first_player: int | None = Field(default=None, ge=0, le=3)

    @field_validator("wizards")
    @classmethod
    def _wizards(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if value is not None:
            if any(w not in WIZARDS for w in value) or len(set(value)) != len(value):
                raise ValueError(f"wizards must be distinct names from {list(WIZARDS)}")
        return value

    @field_validator("characters")
    @classmethod
    def _characters(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if value is not None and len(set(value)) != 3:
            raise ValueError("three distinct characters")
        return value


def _bad(message: str) -> MalformedAction:
    return MalformedAction(message, code="options/invalid")


def setup_state(seats: int, options: EriantysOptions, seed: int) -> State:
    if seats not in PARAMS:
        raise _bad(f"eriantys takes 2-4 players, not {seats}")
    wizards = options.wizards or WIZARDS[:seats]
    if len(wizards) != seats:
        raise _bad(f"wizards: need one per seat ({seats})")
    if options.characters and not options.expert:
        raise _bad("characters: only in expert mode")
    if options.first_player is not None and options.first_player >= seats:
        raise _bad(f"first_player: a seat below {seats}")
    params = PARAMS[seats]
    state = State(
        seats=seats, expert=options.expert, rng=seed & MASK64, bag=[2] * 5,
        groups=[Group([t], [0] * 5) for t in range(ISLANDS)], mother_nature=0,
        clouds=[[0] * 5 for _ in range(params.clouds)], clouds_taken=[False] * params.clouds,
        professors=[-1] * 5, towers=[params.towers] * params.teams,
        players=[Player([0] * 5, [0] * 5, list(range(1, 11)), w) for w in wizards],
        reserve=0, characters=[],
    )
    _place_island_students(state)
    state.bag = [STUDENTS_PER_COLOUR - 2] * 5
    state.last_round = False  # emptying the 10-student set-up bag is not the game's bag
    for player in state.players:
        for _ in range(params.entrance):
            player.entrance[draw(state)] += 1
    if options.expert:
        _expert_setup(state, options.characters)
    drawn = next_random(state, seats)  # drawn even when fixed: the rest of the game is unchanged
    state.first_player = drawn if options.first_player is None else options.first_player
    start_round(state, [])
    return state


def _place_island_students(state: State) -> None:
    """Mother Nature on a random island; 2 of each colour on the others but her opposite."""
    mn = next_random(state, ISLANDS)
    state.mother_nature = mn
    for step in range(1, ISLANDS):
        island = (mn + step) % ISLANDS
        if island != (mn + 6) % ISLANDS:
            state.groups[island].students[draw(state)] += 1


def _expert_setup(state: State, fixed: tuple[str, ...] | None) -> None:
    if fixed:
        keys = list(fixed)
    else:
        pool = list(CHARACTER_KEYS)
        keys = [pool.pop(next_random(state, len(pool))) for _ in range(3)]
    for player in state.players:
        player.coins = 1
    state.reserve = COINS_TOTAL - state.seats
    for key in keys:
        info = CHARACTER_BY_KEY[key]
        card = Character(key, no_entry=NO_ENTRY_TILES if info.no_entry else 0)
        for _ in range(info.students):
            card.students[draw(state)] += 1
        state.characters.append(card)

