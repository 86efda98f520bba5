"""Applying actions: the turn guard, set-up choices, leader actions, the end of a turn and
Lorenzo's tokens. Every handler checks everything before it changes anything."""

from __future__ import annotations

from typing import Any, Callable

from service.errors import MalformedAction
from service.games.renaissance import board as B
from service.games.renaissance import catalog as K
from service.games.renaissance import market, workshop
from service.games.renaissance.faith import LORENZO, Events, advance, check_end, finish
from service.games.renaissance.setup import shuffled_tokens
from service.games.renaissance.state import State, fail

Handler = Callable[[State, int, Any, Events], None]


def apply(state: State, seat: int, action: Any) -> Events:
    if state.phase == "over":
        raise fail("game_over")
    if not 0 <= seat < state.seats:
        raise MalformedAction(f"no seat {seat} in this match")
    kind = getattr(action, "type", None)
    events: Events = []
    if kind in SETUP_HANDLERS:
        if state.phase != "setup":
            raise fail("setup_done")
        SETUP_HANDLERS[kind](state, seat, action, events)
    elif kind in TURN_HANDLERS:
        check_turn(state, seat, kind)
        TURN_HANDLERS[kind](state, seat, action, events)
        check_end(state, events)
    else:
        raise MalformedAction(f"not a renaissance action: {action!r}")
    return events


def check_turn(state: State, seat: int, kind: str) -> None:
    """May ``seat`` play an action of type ``kind`` at this point of the game?"""
    if state.phase == "over":
        raise fail("game_over")
    if state.phase == "setup":
        raise fail("setup_pending")
    if state.current != seat:
        raise fail("not_your_turn")
    placing = any(state.pending) or state.pending_white
    if placing and kind not in PLACEMENT_KINDS:
        raise fail("placement_pending")


# --- set-up ----------------------------------------------------------------------------------


def _choose_leaders(state: State, seat: int, action: Any, events: Events) -> None:
    player = state.players[seat]
    if not player.dealt:
        raise fail("leaders_already_chosen")
    first, second = action.leaders
    if first == second:
        raise fail("same_leader_twice")
    if first not in player.dealt or second not in player.dealt:
        raise fail("leader_not_dealt")
    player.leaders = [first, second]
    player.status = ["hand", "hand"]
    player.dealt = []
    events.append({"type": "leaders_chosen", "seat": seat})
    _maybe_start(state, events)


def _take_bonus_resource(state: State, seat: int, action: Any, events: Events) -> None:
    player = state.players[seat]
    if not player.bonus_left:
        raise fail("no_bonus_left")
    B.put(player, K.RES_INDEX[action.resource], action.depot)
    player.bonus_left -= 1
    events.append({"type": "bonus_resource_taken", "seat": seat, "resource": action.resource,
                   "depot": action.depot})
    _maybe_start(state, events)


def setup_done(state: State, seat: int) -> bool:
    player = state.players[seat]
    return not player.dealt and not player.bonus_left


def _maybe_start(state: State, events: Events) -> None:
    if all(setup_done(state, s) for s in range(state.seats)):
        state.phase = "play"
        state.current = 0
        events.append({"type": "game_started", "first": 0})


# --- leaders and the end of a turn ----------------------------------------------------------


def _in_hand(state: State, seat: int, leader: int) -> int:
    player = state.players[seat]
    if leader not in B.hand(player):
        raise fail("leader_not_in_hand")
    return player.leaders.index(leader)


def _activate_leader(state: State, seat: int, action: Any, events: Events) -> None:
    index = _in_hand(state, seat, action.leader)
    player = state.players[seat]
    if not B.meets(player, K.LEADERS[action.leader]):
        raise fail("requirements_not_met")
    player.status[index] = "active"
    events.append({"type": "leader_activated", "seat": seat, "leader": action.leader})


def _discard_leader(state: State, seat: int, action: Any, events: Events) -> None:
    index = _in_hand(state, seat, action.leader)
    state.players[seat].status[index] = "discarded"
    events.append({"type": "leader_discarded", "seat": seat, "leader": action.leader})
    advance(state, {seat: 1}, events)


def _end_turn(state: State, seat: int, action: Any, events: Events) -> None:
    if not state.main:
        raise fail("no_main_action")
    state.players[seat].produced = [0, 0, 0, 0]
    state.main = ""
    state.used = []
    state.turns += 1
    events.append({"type": "turn_ended", "seat": seat})
    if state.solo:
        _reveal_token(state, events)
    elif state.final_round and seat == state.seats - 1:
        finish(state, None, state.end_reason, events)
    else:
        state.current = (seat + 1) % state.seats
        events.append({"type": "turn_started", "seat": state.current})


def _reveal_token(state: State, events: Events) -> None:
    token = K.TOKENS[state.tokens.pop()]
    state.last_token = token.id
    if token.colour:
        removed = discard_from_grid(state, token.colour, 2)
        events.append({"type": "token_revealed", "token": token.id, "color": token.colour,
                       "removed": removed})
        return
    events.append({"type": "token_revealed", "token": token.id, "steps": token.steps,
                   "shuffle": token.shuffle})
    advance(state, {LORENZO: token.steps}, events)
    if token.shuffle:
        state.shuffles += 1
        state.tokens = shuffled_tokens(state)


def discard_from_grid(state: State, colour: str, count: int) -> list[int]:
    """Lorenzo removes ``count`` cards of a colour, lowest level first."""
    removed = []
    for level in (1, 2, 3):
        deck = state.decks[K.deck_index(level, colour)]
        while deck and len(removed) < count:
            removed.append(deck.pop())
    state.removed.extend(removed)
    return removed


SETUP_HANDLERS: dict[str, Handler] = {
    "choose_leaders": _choose_leaders, "take_bonus_resource": _take_bonus_resource}
TURN_HANDLERS: dict[str, Handler] = {
    "take_from_market": market.take_from_market,
    "convert_white_marble": market.convert_white_marble,
    "place_resource": market.place_resource, "discard_resource": market.discard_resource,
    "swap_depots": market.swap_depots, "move_resources": market.move_resources,
    "buy_card": workshop.buy_card, "produce_base": workshop.produce_base,
    "produce_card": workshop.produce_card, "produce_leader": workshop.produce_leader,
    "activate_leader": _activate_leader, "discard_leader": _discard_leader,
    "end_turn": _end_turn,
}
#: what may be done while market resources wait to be placed
PLACEMENT_KINDS = frozenset({"convert_white_marble", "place_resource", "discard_resource",
                             "swap_depots", "move_resources"})
