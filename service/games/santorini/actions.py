"""Santorini actions (pydantic models, ``type``-tagged) and their adapter.

Play maps one to one onto the seed-001 flow: ``select_worker`` = selectWorker,
``move`` / ``build`` / ``remove`` / ``force`` = playStep on a step of that kind
(the view says which), ``skip`` = skipStep.
"""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from service.games.base import ActionModel

Coord = Annotated[int, Field(ge=0, le=4)]


class Cell(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    x: Coord
    y: Coord


class PickGods(ActionModel):
    """The challenger offers as many distinct gods as there are players."""

    type: Literal["pick_gods"] = "pick_gods"
    gods: tuple[str, ...]

    @field_validator("gods")
    @classmethod
    def _upper(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(g.upper() for g in v)


class ChooseGod(ActionModel):
    type: Literal["choose_god"] = "choose_god"
    god: str

    @field_validator("god")
    @classmethod
    def _upper(cls, v: str) -> str:
        return v.upper()


class PlaceWorkers(ActionModel):
    """Both workers of the seat at once (seed 001: setWorkersPosition)."""

    type: Literal["place_workers"] = "place_workers"
    positions: tuple[Cell, Cell]


class SelectWorker(ActionModel):
    type: Literal["select_worker"] = "select_worker"
    x: Coord
    y: Coord


class Move(ActionModel):
    type: Literal["move"] = "move"
    x: Coord
    y: Coord


class Build(ActionModel):
    """Build on (x, y); ``dome`` asks for a dome below level 3 (Atlas). Level 3 always takes a dome."""

    type: Literal["build"] = "build"
    x: Coord
    y: Coord
    dome: bool = False


class Remove(ActionModel):
    """Ares: remove the top block of (x, y)."""

    type: Literal["remove"] = "remove"
    x: Coord
    y: Coord


class Force(ActionModel):
    """Charon: force the opponent worker on (x, y) across the turn's worker."""

    type: Literal["force"] = "force"
    x: Coord
    y: Coord


class Skip(ActionModel):
    """End the current optional step without playing it."""

    type: Literal["skip"] = "skip"


Action = Union[PickGods, ChooseGod, PlaceWorkers, SelectWorker, Move, Build, Remove, Force, Skip]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(
    Annotated[Action, Field(discriminator="type")]
)

#: step kind -> the action type playing it
STEP_ACTIONS: dict[str, type[ActionModel]] = {
    "move": Move,
    "build": Build,
    "remove": Remove,
    "force": Force,
}
