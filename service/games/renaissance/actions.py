"""Action models of Masters of Renaissance: one pydantic model per rulebook verb.

Numbering on the wire is the board's own: warehouse depots 1-3 (depot N holds N), development
slots 1-3, market rows 1-3 and columns 1-4, card levels 1-3. Leaders are named by their card id
(1-16, see ``cards.json``), which never changes while the card moves from hand to table.
The full list with one example each is at the top of docs/rules/renaissance.md.
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import Field, TypeAdapter

from service.games.base import ActionModel

Resource = Literal["coin", "servant", "shield", "stone"]
Colour = Literal["green", "blue", "yellow", "purple"]
#: a warehouse depot by its capacity
WarehouseDepot = Literal[1, 2, 3]
#: where a resource can be stored: a warehouse depot, or the extra depot of an active
#: Extra-depot leader (the one for the resource in question)
Depot = Literal[1, 2, 3, "extra"]
Count = Annotated[int, Field(ge=1, le=99)]
Amounts = dict[Resource, Count]


class Payment(ActionModel):
    """Where each paid resource comes from; totals must equal the price exactly."""

    warehouse: Amounts = Field(default_factory=dict)
    extra: Amounts = Field(default_factory=dict)
    strongbox: Amounts = Field(default_factory=dict)


#: ``None`` pays automatically: warehouse first, then extra depots, then the strongbox
Pay = Optional[Payment]


# --- set-up (simultaneous: every seat does its own, in any order) ---------------------------


class ChooseLeaders(ActionModel):
    """Keep two of the four leaders you were dealt (the other two are set aside, no faith)."""

    type: Literal["choose_leaders"] = "choose_leaders"
    leaders: tuple[int, int]


class TakeBonusResource(ActionModel):
    """Seats 2-4: take one starting resource of your choice into a warehouse depot."""

    type: Literal["take_bonus_resource"] = "take_bonus_resource"
    resource: Resource
    depot: WarehouseDepot


# --- main action A: the market, then a placement sub-phase --------------------------------


class TakeFromMarket(ActionModel):
    """Take a row (1-3, 4 marbles) or a column (1-4, 3 marbles) of the market tray."""

    type: Literal["take_from_market"] = "take_from_market"
    line: Literal["row", "column"]
    index: int = Field(ge=1, le=4)


class ConvertWhiteMarble(ActionModel):
    """With two active white-marble leaders: turn one taken white marble into one of theirs."""

    type: Literal["convert_white_marble"] = "convert_white_marble"
    resource: Resource


class PlaceResource(ActionModel):
    """Store one taken resource in a warehouse depot or a leader's extra depot."""

    type: Literal["place_resource"] = "place_resource"
    resource: Resource
    depot: Depot


class DiscardResource(ActionModel):
    """Throw one taken resource away: every other player (solo: Lorenzo) gains 1 faith."""

    type: Literal["discard_resource"] = "discard_resource"
    resource: Resource


# --- warehouse housekeeping (any time in your turn) ----------------------------------------


class SwapDepots(ActionModel):
    """Exchange the contents of two warehouse depots (seed 003's "Move resources")."""

    type: Literal["swap_depots"] = "swap_depots"
    first: WarehouseDepot
    second: WarehouseDepot


class MoveResources(ActionModel):
    """Move resources between a warehouse depot and a leader's extra depot (either way)."""

    type: Literal["move_resources"] = "move_resources"
    resource: Resource
    source: Depot
    target: Depot
    count: Count = 1


# --- main action B: buy a development card --------------------------------------------------


class BuyCard(ActionModel):
    """Buy the top card of the deck (level, colour) and put it on slot 1-3."""

    type: Literal["buy_card"] = "buy_card"
    level: int = Field(ge=1, le=3)
    color: Colour
    slot: int = Field(ge=1, le=3)
    pay: Pay = None


# --- main action C: productions, one per action, each at most once per turn --------------


class ProduceBase(ActionModel):
    """The board's production: two resources in, one resource of your choice out."""

    type: Literal["produce_base"] = "produce_base"
    inputs: tuple[Resource, Resource]
    output: Resource
    pay: Pay = None


class ProduceCard(ActionModel):
    """The production of the top card of slot 1-3."""

    type: Literal["produce_card"] = "produce_card"
    slot: int = Field(ge=1, le=3)
    pay: Pay = None


class ProduceLeader(ActionModel):
    """An active production leader: its resource in, one resource of your choice + 1 faith out."""

    type: Literal["produce_leader"] = "produce_leader"
    leader: int = Field(ge=1, le=16)
    output: Resource
    pay: Pay = None


# --- leader actions (before or after the main action) ---------------------------------------


class ActivateLeader(ActionModel):
    type: Literal["activate_leader"] = "activate_leader"
    leader: int = Field(ge=1, le=16)


class DiscardLeader(ActionModel):
    """Discard a leader from your hand for 1 faith."""

    type: Literal["discard_leader"] = "discard_leader"
    leader: int = Field(ge=1, le=16)


class EndTurn(ActionModel):
    """After the main action (and any placement); solo: Lorenzo's token follows."""

    type: Literal["end_turn"] = "end_turn"


Action = Annotated[
    Union[ChooseLeaders, TakeBonusResource, TakeFromMarket, ConvertWhiteMarble, PlaceResource,
          DiscardResource, SwapDepots, MoveResources, BuyCard, ProduceBase, ProduceCard,
          ProduceLeader, ActivateLeader, DiscardLeader, EndTurn],
    Field(discriminator="type"),
]

ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
