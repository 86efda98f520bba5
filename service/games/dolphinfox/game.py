"""Dolphins & Foxes rules behind the game contract (rules: docs/rules/dolphinfox.md)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Literal

from pydantic import Field, TypeAdapter, model_validator

from service.errors import RulesError
from service.games.base import ActionModel, Event, Game, GameOptions, Outcome
from service.games.dolphinfox import describe
from service.games.dolphinfox.board import (
    DOLPHINS,
    FOXES,
    HOME,
    TEAM_LETTERS,
    Square,
    adjacent,
    encode_board,
    generate_terrain,
    mirror,
    neighbours,
    on_board,
    terrain_at,
)

TEAM_NAMES = ("dolphins", "foxes")


class DolphinFoxOptions(GameOptions):
    size: int = Field(default=8, ge=4, le=16)
    units: int = Field(default=3, ge=1)
    max_moves: int = Field(default=200, ge=1, le=100_000)

    @model_validator(mode="after")
    def _check(self) -> DolphinFoxOptions:
        if self.size % 2:
            raise ValueError("size must be even")
        if self.units > self.size // 2:
            raise ValueError("units must be at most size/2")
        return self


class Move(ActionModel):
    """Move the unit at (r1, c1) to the orthogonally adjacent square (r2, c2)."""

    type: Literal["move"] = "move"
    r1: int
    c1: int
    r2: int
    c2: int

    @property
    def source(self) -> Square:
        return (self.r1, self.c1)

    @property
    def target(self) -> Square:
        return (self.r2, self.c2)


@lru_cache(maxsize=4096)
def _move(source: Square, target: Square) -> Move:
    """The Move between two squares: one frozen instance each, not one per listing."""
    return Move(r1=source[0], c1=source[1], r2=target[0], c2=target[1])


@dataclass
class DolphinFoxState:
    size: int
    terrain: str
    max_moves: int
    #: square -> team (0 dolphins, 1 foxes)
    units: dict[Square, int]
    moves: int = 0
    winner: int | None = None
    draw: bool = False
    end_reason: str = ""
    start_rows: tuple[int, int] = field(default=(1, 0))

    @property
    def over(self) -> bool:
        return self.winner is not None or self.draw

    def count(self, team: int) -> int:
        return sum(1 for t in self.units.values() if t == team)


class DolphinFox(Game[DolphinFoxState]):
    name: ClassVar[str] = "dolphinfox"
    title: ClassVar[str] = "Dolphins & Foxes"
    goal: ClassVar[str] = (
        "Bring one of your units to the other side's starting row, or take all of the other "
        "side's units; at the move limit the side with more units wins.")
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    options_model = DolphinFoxOptions
    action_adapter: ClassVar[TypeAdapter[Any]] = TypeAdapter(Move)
    real_time: ClassVar[bool] = True
    abandon_grace: ClassVar[float] = 60.0  # docs/rules/dolphinfox.md, "Abandoned seats"
    draws_by_agreement: ClassVar[bool] = True  # its rules know a drawn result
    inactivity_limit: ClassVar[float | None] = 300.0  # the same page

    def setup(self, seats: int, options: GameOptions, seed: int) -> DolphinFoxState:
        self.check_seats(seats)
        assert isinstance(options, DolphinFoxOptions)
        rng = random.Random(seed)
        size, units = options.size, options.units
        terrain = generate_terrain(size, units, rng)
        water_row1 = [(1, c) for c in range(1, size + 1) if terrain_at(terrain, size, (1, c)) == "W"]
        dolphins = sorted(rng.sample(water_row1, units))
        placed = {sq: DOLPHINS for sq in dolphins}
        placed.update({mirror(sq, size): FOXES for sq in dolphins})
        return DolphinFoxState(
            size=size, terrain=terrain, max_moves=options.max_moves, units=placed,
            start_rows=(1, size),
        )

    def to_act(self, state: DolphinFoxState) -> frozenset[int]:
        return frozenset() if state.over else frozenset((DOLPHINS, FOXES))

    def legal_actions(self, state: DolphinFoxState, seat: int) -> list[ActionModel]:
        if state.over:
            return []
        # a neighbour is on the board and adjacent, and the unit is the seat's own: only what
        # stands on the target can still refuse the move
        return [_move(square, target)
                for square, team in sorted(state.units.items()) if team == seat
                for target in neighbours(square, state.size)
                if self._target_refusal(state, seat, target) is None]

    def apply(self, state: DolphinFoxState, seat: int, action: ActionModel) -> list[Event]:
        move = self.parse_action(action)
        assert isinstance(move, Move)
        if state.over:
            raise RulesError("game_over", "the game is over")
        refusal = self._refusal(state, seat, move.source, move.target)
        if refusal is not None:
            raise RulesError(*refusal)
        captured = state.units.pop(move.target, None)
        del state.units[move.source]
        state.units[move.target] = seat
        state.moves += 1
        events: list[Event] = [{
            "type": "unit_moved", "team": TEAM_LETTERS[seat],
            "from": list(move.source), "to": list(move.target), "captured": captured is not None,
        }]
        self._check_end(state, seat, move.target)
        if state.over:
            events.append({"type": "game_ended", **self._outcome_of(state).to_dict()})
        return events

    def _refusal(
        self, state: DolphinFoxState, seat: int, source: Square, target: Square
    ) -> tuple[str, str] | None:
        """Why this move is illegal (reason, message), or None when it is legal."""
        if seat not in (DOLPHINS, FOXES):
            return ("not_a_player", "only the two team players move units")
        if not (on_board(source, state.size) and on_board(target, state.size)):
            return ("off_board", f"squares must be within 1..{state.size}")
        if not adjacent(source, target):
            return ("not_adjacent", "a unit moves one square up, down, left or right")
        if state.units.get(source) != seat:
            return ("no_own_unit", f"no {TEAM_NAMES[seat]} unit stands on {source[0]} {source[1]}")
        return self._target_refusal(state, seat, target)

    def _target_refusal(self, state: DolphinFoxState, seat: int,
                        target: Square) -> tuple[str, str] | None:
        """Why a unit of ``seat`` may not step onto ``target`` (an adjacent square on the board)."""
        occupant = state.units.get(target)
        if occupant == seat:
            return ("own_unit_there", "a unit of your own team stands there")
        if occupant is not None and terrain_at(state.terrain, state.size, target) != HOME[seat]:
            return ("capture_abroad", "you can only capture on your own home terrain")
        return None

    def _check_end(self, state: DolphinFoxState, mover: int, target: Square) -> None:
        other = 1 - mover
        if state.count(other) == 0:
            state.winner, state.end_reason = mover, "eliminated"
        elif target[0] == state.start_rows[other]:
            state.winner, state.end_reason = mover, "crossed"
        elif state.moves >= state.max_moves:
            dolphins, foxes = state.count(DOLPHINS), state.count(FOXES)
            state.end_reason = "move_limit"
            if dolphins == foxes:
                state.draw = True
            else:
                state.winner = DOLPHINS if dolphins > foxes else FOXES

    def _outcome_of(self, state: DolphinFoxState) -> Outcome:
        winners = () if state.winner is None else (state.winner,)
        return Outcome(winners=winners, draw=state.draw, reason=state.end_reason)

    def outcome(self, state: DolphinFoxState) -> Outcome | None:
        return self._outcome_of(state) if state.over else None

    def board(self, state: DolphinFoxState) -> str:
        """The seed's board string (section 1.5)."""
        return encode_board(state.terrain, state.size, state.units)

    def view(self, state: DolphinFoxState, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "size": state.size,
            "board": self.board(state),
            "moves": state.moves,
            "max_moves": state.max_moves,
            "units": {"D": state.count(DOLPHINS), "F": state.count(FOXES)},
            "over": state.over,
        }
        if seat is not None:
            view["team"] = TEAM_LETTERS[seat]
        if state.over:
            view["outcome"] = self._outcome_of(state).to_dict()
        return view

    def render(self, state: DolphinFoxState) -> str:
        board = self.board(state)
        rows = [board[i : i + state.size] for i in range(0, len(board), state.size)]
        head = (f"moves {state.moves}/{state.max_moves}  dolphins {state.count(DOLPHINS)}"
                f"  foxes {state.count(FOXES)}")
        return "\n".join([head, *(f"{i + 1:>2} {row}" for i, row in enumerate(rows))])

    def describe_seen(self, events: list[Event], viewer: int | None, *,
                      action: dict[str, Any] | None, actor: int | None,
                      names: dict[int, str] | None) -> list[str]:
        return describe.describe(events, viewer, names=names)

    def seat_label(self, seat: int) -> str:
        return TEAM_LETTERS[seat]

    def dump_state(self, state: DolphinFoxState) -> dict[str, Any]:
        return {
            "size": state.size,
            "terrain": state.terrain,
            "max_moves": state.max_moves,
            "units": [[r, c, team] for (r, c), team in sorted(state.units.items())],
            "moves": state.moves,
            "winner": state.winner,
            "draw": state.draw,
            "end_reason": state.end_reason,
            "start_rows": list(state.start_rows),
        }

    def load_state(self, data: dict[str, Any]) -> DolphinFoxState:
        return DolphinFoxState(
            size=data["size"],
            terrain=data["terrain"],
            max_moves=data["max_moves"],
            units={(r, c): team for r, c, team in data["units"]},
            moves=data["moves"],
            winner=data["winner"],
            draw=data["draw"],
            end_reason=data["end_reason"],
            start_rows=(data["start_rows"][0], data["start_rows"][1]),
        )


GAME = DolphinFox()
