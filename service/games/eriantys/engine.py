"""Applying actions (check everything first, then change) and listing the legal ones."""

from __future__ import annotations

from typing import Any

from service.errors import MalformedAction
from service.games.eriantys import catalog as K
from service.games.eriantys import characters as C
from service.games.eriantys.constants import COLOUR_INDEX, COLOURS, DINING_ROW
from service.games.eriantys.rules import (
    Events, begin_actions, cloud_available, finish_turn, max_steps, resolve, seat_student,
    students_to_move,
)
from service.games.eriantys.state import Character, State, fail


def apply(state: State, seat: int, action: Any) -> Events:
    if state.phase == "over":
        raise fail("game_over")
    if not 0 <= seat < state.seats:
        raise MalformedAction(f"no seat {seat} in this match")
    handler = HANDLERS.get(getattr(action, "type", None))
    if handler is None:
        raise MalformedAction(f"not an eriantys action: {action!r}")
    was_last = state.last_round
    events: Events = []
    handler(state, seat, action, events)
    if state.last_round and not was_last:
        events.append({"type": "last_round_triggered", "round": state.round})
    return events


def _my_action_turn(state: State, seat: int) -> None:
    if state.phase != "action":
        raise fail("wrong_phase")
    if state.action_order[state.turn] != seat:
        raise fail("not_your_turn")


def _play_assistant(state: State, seat: int, action: Any, events: Events) -> None:
    if state.phase != "planning":
        raise fail("wrong_phase")
    if state.current() != seat:
        raise fail("not_your_turn")
    player = state.players[seat]
    if action.card not in player.hand:
        raise fail("card_not_in_hand")
    if action.card not in playable_cards(state, seat):
        raise fail("card_already_played")
    player.hand.remove(action.card)
    player.discard = action.card
    state.played[seat] = action.card
    events.append({"type": "assistant_played", "seat": seat, "card": action.card})
    if all(state.played):
        begin_actions(state)
        events.append({"type": "action_phase_started", "order": list(state.action_order)})


def playable_cards(state: State, seat: int) -> list[int]:
    """The no-duplicate rule and its forced exception (rule 10.9)."""
    hand = state.players[seat].hand
    taken = {v for s, v in enumerate(state.played) if v and s != seat}
    fresh = [v for v in hand if v not in taken]
    return fresh or list(hand)


def _move_student(state: State, seat: int, action: Any, events: Events) -> None:
    _my_action_turn(state, seat)
    if students_to_move(state, seat) == 0:
        raise fail("students_already_moved")
    colour = COLOUR_INDEX[action.color]
    player = state.players[seat]
    if player.entrance[colour] == 0:
        raise fail("student_not_in_entrance")
    if action.to == "dining":
        if player.dining[colour] >= DINING_ROW:
            raise fail("dining_full")
    elif action.to >= len(state.groups):
        raise fail("no_such_island")
    player.entrance[colour] -= 1
    state.moved += 1
    events.append({"type": "student_moved", "seat": seat, "color": action.color,
                   "from": "entrance", "to": action.to})
    if action.to == "dining":
        seat_student(state, seat, colour, events)
    else:
        state.groups[action.to].students[colour] += 1


def _move_mother_nature(state: State, seat: int, action: Any, events: Events) -> None:
    _my_action_turn(state, seat)
    if state.mn_moved:
        raise fail("mother_nature_already_moved")
    if students_to_move(state, seat) > 0:
        raise fail("students_not_moved")
    if not 1 <= action.steps <= max_steps(state, seat):
        raise fail("bad_mother_nature_distance")
    state.mother_nature = (state.mother_nature + action.steps) % len(state.groups)
    state.mn_moved = True
    events.append({"type": "mother_nature_moved", "seat": seat, "steps": action.steps,
                   "island": state.mother_nature})
    resolve(state, state.mother_nature, seat, events)


def _after_mother_nature(state: State, seat: int) -> None:
    _my_action_turn(state, seat)
    if not state.mn_moved:
        raise fail("mother_nature_not_moved")


def _choose_cloud(state: State, seat: int, action: Any, events: Events) -> None:
    _after_mother_nature(state, seat)
    if action.cloud >= len(state.clouds):
        raise fail("no_such_cloud")
    if state.clouds_taken[action.cloud]:
        raise fail("cloud_already_taken")
    cloud = state.clouds[action.cloud]
    if sum(cloud) == 0:
        raise fail("empty_cloud")
    entrance = state.players[seat].entrance
    events.append({"type": "cloud_taken", "seat": seat, "cloud": action.cloud,
                   "students": {COLOURS[c]: n for c, n in enumerate(cloud) if n}})
    for c in range(5):
        entrance[c] += cloud[c]
        cloud[c] = 0
    state.clouds_taken[action.cloud] = True
    finish_turn(state, events)


def _end_turn(state: State, seat: int, action: Any, events: Events) -> None:
    _after_mother_nature(state, seat)
    if cloud_available(state):
        raise fail("cloud_available")
    finish_turn(state, events)


def check_character(state: State, seat: int, key: str) -> Character:
    """Whether ``seat`` may play character ``key`` now, before its own inputs are known
    (the seed protocols ask this before they ask for the card's arguments)."""
    _my_action_turn(state, seat)
    if not state.expert:
        raise fail("not_expert")
    card = C.find_card(state, key)
    if card is None:
        raise fail("character_not_in_play")
    if state.character_used:
        raise fail("character_already_used")
    if state.players[seat].coins < C.cost(card):
        raise fail("not_enough_coins")
    return card


def _play_character(state: State, seat: int, action: Any, events: Events) -> None:
    card = check_character(state, seat, action.character)
    C.check(state, seat, card, action)
    C.pay_and_play(state, seat, card, action, events)


HANDLERS = {
    "play_assistant": _play_assistant, "move_student": _move_student,
    "move_mother_nature": _move_mother_nature, "choose_cloud": _choose_cloud,
    "end_turn": _end_turn, "play_character": _play_character,
}


# --- enumeration -------------------------------------------------------------------------


def to_act(state: State) -> frozenset[int]:
    seat = state.current()
    return frozenset() if seat < 0 else frozenset((seat,))


def legal_actions(state: State, seat: int) -> list[Any]:
    if state.current() != seat:
        return []
    if state.phase == "planning":
        return [K.ASSISTANTS[v] for v in playable_cards(state, seat)]
    out: list[Any] = _step_actions(state, seat)
    if state.expert and not state.character_used:
        coins = state.players[seat].coins
        for card in state.characters:
            if C.cost(card) <= coins:
                out.extend(C.options(state, seat, card))
    return out


def _step_actions(state: State, seat: int) -> list[Any]:
    player = state.players[seat]
    if students_to_move(state, seat) > 0:
        out: list[Any] = []
        moves = K.MOVES
        targets = range(len(state.groups))
        for c in range(5):
            if player.entrance[c]:
                if player.dining[c] < DINING_ROW:
                    out.append(moves[(c, "dining")])
                out.extend(moves[(c, i)] for i in targets)
        return out
    if not state.mn_moved:
        return [K.STEPS[s] for s in range(1, max_steps(state, seat) + 1)]
    clouds = [i for i, cloud in enumerate(state.clouds)
              if not state.clouds_taken[i] and sum(cloud) > 0]
    if clouds:
        return [K.CLOUDS[i] for i in clouds]
    return [K.END_TURN]
