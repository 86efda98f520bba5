"""Action models: one pydantic model per rulebook verb; characters are a nested union."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, TypeAdapter

from service.games.base import ActionModel
from service.games.eriantys.constants import Colour


class PlayAssistant(ActionModel):
    type: Literal["play_assistant"] = "play_assistant"
    card: int = Field(ge=1, le=10)


class MoveStudent(ActionModel):
    type: Literal["move_student"] = "move_student"
    color: Colour
    #: "dining" (your own dining room) or an island group index
    to: Union[Literal["dining"], Annotated[int, Field(ge=0)]]


class MoveMotherNature(ActionModel):
    type: Literal["move_mother_nature"] = "move_mother_nature"
    steps: int


class ChooseCloud(ActionModel):
    type: Literal["choose_cloud"] = "choose_cloud"
    cloud: int = Field(ge=0)


class EndTurn(ActionModel):
    """Only when Mother Nature has moved and no cloud with students is left to take."""

    type: Literal["end_turn"] = "end_turn"


class _Character(ActionModel):
    type: Literal["play_character"] = "play_character"


class PlayMonk(_Character):
    character: Literal["monk"] = "monk"
    color: Colour
    island: int = Field(ge=0)


class PlayFarmer(_Character):
    character: Literal["farmer"] = "farmer"


class PlayHerald(_Character):
    character: Literal["herald"] = "herald"
    island: int = Field(ge=0)


class PlayMagicMailman(_Character):
    character: Literal["magic_mailman"] = "magic_mailman"


class PlayGrandmaHerbs(_Character):
    character: Literal["grandma_herbs"] = "grandma_herbs"
    island: int = Field(ge=0)


class PlayCentaur(_Character):
    character: Literal["centaur"] = "centaur"


Swap = tuple[Colour, Colour]


class PlayJester(_Character):
    """Each pair is (colour taken from the card, colour given from the entrance)."""

    character: Literal["jester"] = "jester"
    swaps: tuple[Swap, ...] = Field(default=(), max_length=3)


class PlayKnight(_Character):
    character: Literal["knight"] = "knight"


class PlayMushroomHunter(_Character):
    character: Literal["mushroom_hunter"] = "mushroom_hunter"
    color: Colour


class PlayMinstrel(_Character):
    """Each pair is (colour from the entrance to the dining room, colour from the dining room)."""

    character: Literal["minstrel"] = "minstrel"
    swaps: tuple[Swap, ...] = Field(default=(), max_length=2)


class PlaySpoiledPrincess(_Character):
    character: Literal["spoiled_princess"] = "spoiled_princess"
    color: Colour


class PlayThief(_Character):
    character: Literal["thief"] = "thief"
    color: Colour


CHARACTER_ACTIONS: dict[str, type[_Character]] = {
    "monk": PlayMonk, "farmer": PlayFarmer, "herald": PlayHerald,
    "magic_mailman": PlayMagicMailman, "grandma_herbs": PlayGrandmaHerbs,
    "centaur": PlayCentaur, "jester": PlayJester, "knight": PlayKnight,
    "mushroom_hunter": PlayMushroomHunter, "minstrel": PlayMinstrel,
    "spoiled_princess": PlaySpoiledPrincess, "thief": PlayThief,
}

PlayCharacter = Annotated[
    Union[PlayMonk, PlayFarmer, PlayHerald, PlayMagicMailman, PlayGrandmaHerbs, PlayCentaur,
          PlayJester, PlayKnight, PlayMushroomHunter, PlayMinstrel, PlaySpoiledPrincess,
          PlayThief],
    Field(discriminator="character"),
]

Action = Annotated[
    Union[PlayAssistant, MoveStudent, MoveMotherNature, ChooseCloud, EndTurn, PlayCharacter],
    Field(discriminator="type"),
]

ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
