"""Main actions B (buy a development card) and C (productions)."""

from __future__ import annotations

from typing import Any

from service.games.renaissance import board as B
from service.games.renaissance import catalog as K
from service.games.renaissance.catalog import Counts
from service.games.renaissance.faith import Events, advance
from service.games.renaissance.state import Player, State, fail

SLOT_PROBLEM = {1: "no_more_space", 2: "no_level_1_card", 3: "no_level_2_card"}


def price_of(player: Player, card: K.DevCard) -> Counts:
    """The card's cost less 1 per active discount leader of that resource (never below 0)."""
    price = list(card.cost)
    for r in B.powers(player, "discount"):
        price[r] = max(0, price[r] - 1)
    return price


def slot_problem(player: Player, level: int, slot: int) -> str:
    """A level-N card goes on an empty slot (N = 1) or on a slot topped by a level N-1 card."""
    stack = player.slots[slot - 1]
    top = K.CARDS[stack[-1]].level if stack else 0
    return "" if top == level - 1 else SLOT_PROBLEM[level]


def buyable(state: State, seat: int, level: int, colour: str) -> K.DevCard:
    """The card a purchase would take, once it is known that some slot takes it and that the
    seat can pay for it (the checks the seed's dialogue makes before it asks for payment)."""
    if state.main:
        raise fail("action_done")
    deck = state.decks[K.deck_index(level, colour)]
    if not deck:
        raise fail("deck_empty")
    player = state.players[seat]
    problems = [slot_problem(player, level, s) for s in (1, 2, 3)]
    if all(problems):
        raise fail(problems[0])
    card = K.CARDS[deck[-1]]
    if not B.payment_options(B.spendable(player), price_of(player, card)):
        raise fail("not_enough_resources")
    return card


def buy_card(state: State, seat: int, action: Any, events: Events) -> None:
    card = buyable(state, seat, action.level, action.color)
    player = state.players[seat]
    problem = slot_problem(player, action.level, action.slot)
    if problem:
        raise fail(problem)
    counts = B.payment_counts(player, price_of(player, card), action.pay)
    B.spend(player, counts)
    player.slots[action.slot - 1].append(
        state.decks[K.deck_index(card.level, card.colour)].pop())
    state.main = "buy"
    events.append({"type": "card_bought", "seat": seat, "card": card.id, "level": card.level,
                   "color": card.colour, "slot": action.slot, "paid": B.payment_view(counts)})


def _begin_production(state: State, key: str) -> None:
    if state.main not in ("", "production"):
        raise fail("action_done")
    if key in state.used:
        raise fail("production_used")


def production_input(state: State, seat: int, key: str) -> Counts:
    """What production ``key`` ("base", "slot1".."slot3", "leader<id>") takes, once it is known
    that it may run now; for the base production, any two resources."""
    _begin_production(state, key)
    player = state.players[seat]
    avail = B.spendable(player)
    if key == "base":
        if sum(map(sum, avail.values())) < 2:
            raise fail("not_enough_resources")
        return [0, 0, 0, 0]
    if key.startswith("slot"):
        stack = player.slots[int(key[4:]) - 1]
        if not stack:
            raise fail("empty_slot")
        price = list(K.CARDS[stack[-1]].inputs)
    else:
        leader = next((ld for ld in B.active_leaders(player, "production")
                       if key == f"leader{ld.id}"), None)
        if leader is None:
            raise fail("not_a_production_leader")
        price = [int(r == leader.resource) for r in range(4)]
    if not B.payment_options(avail, price):
        raise fail("not_enough_resources")
    return price


def _produce(state: State, seat: int, key: str, price: Counts, pay: Any,
             output: Counts, faith: int, events: Events) -> None:
    player = state.players[seat]
    counts = B.payment_counts(player, price, pay)
    B.spend(player, counts)
    for r in range(4):
        player.strongbox[r] += output[r]
        player.produced[r] += output[r]
    state.used.append(key)
    state.main = "production"
    events.append({"type": "production_run", "seat": seat, "production": key,
                   "paid": B.payment_view(counts), "gained": K.named(output), "faith": faith})
    advance(state, {seat: faith}, events)


def _one(resource: str) -> Counts:
    out = [0, 0, 0, 0]
    out[K.RES_INDEX[resource]] += 1
    return out


def produce_base(state: State, seat: int, action: Any, events: Events) -> None:
    production_input(state, seat, "base")
    price = [a + b for a, b in zip(_one(action.inputs[0]), _one(action.inputs[1]))]
    _produce(state, seat, "base", price, action.pay, _one(action.output), 0, events)


def produce_card(state: State, seat: int, action: Any, events: Events) -> None:
    key = f"slot{action.slot}"
    price = production_input(state, seat, key)
    card = K.CARDS[state.players[seat].slots[action.slot - 1][-1]]
    _produce(state, seat, key, price, action.pay, list(card.outputs), card.faith, events)


def produce_leader(state: State, seat: int, action: Any, events: Events) -> None:
    key = f"leader{action.leader}"
    price = production_input(state, seat, key)
    _produce(state, seat, key, price, action.pay, _one(action.output), 1, events)
