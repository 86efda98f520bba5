"""The seed-003 dialogues without I/O: positions built with the engine, answers fed one by one.

These reach branches a natural game rarely does: two white-marble leaders, every payment refusal.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.errors import RulesError, ServiceError
from service.games.renaissance import GAME
from service.games.renaissance.board import depot_errors
from service.games.renaissance.catalog import LEADERS
from service.games.renaissance.state import State
from service.protocol import renaissance as wire
from service.sessions.dialects.renaissance import dialogues as d
from service.sessions.dialects.renaissance.dialogues import Act, Ask, Dialogue, Say


def started(seed: int = 4) -> State:
    state = GAME.setup(2, GAME.parse_options(None), seed)
    GAME.apply(state, 1, GAME.parse_action({"type": "take_bonus_resource", "resource": "coin",
                                            "depot": 1}))
    for seat in (0, 1):
        dealt = state.players[seat].dealt
        GAME.apply(state, seat, GAME.parse_action({"type": "choose_leaders",
                                                   "leaders": dealt[:2]}))
    return state


def seat_of(state: State, seat: int = 0) -> d.Seat:
    return d.Seat(lambda: state, seat)


def drive(dialogue: Dialogue, state: State, answers: list[str], seat: int = 0) -> list[str]:
    """Everything said and asked, answering each question with the next answer."""
    said: list[str] = []
    feed: Iterator[str] = iter(answers)
    value: Any = None
    error: RulesError | None = None
    while True:
        try:
            step = dialogue.throw(error) if error else dialogue.send(value)
        except StopIteration:
            return said
        value, error = None, None
        if isinstance(step, Say):
            said += step.lines
        elif isinstance(step, Ask):
            said += [step.prompt] if step.prompt else []
            value = next(feed, None)
            if value is None:
                return said
        else:
            assert isinstance(step, Act)
            try:
                GAME.apply(state, seat, GAME.parse_action(step.action))
            except RulesError as exc:
                error = exc


def test_two_white_marble_leaders_ask_per_white_marble() -> None:
    state = started()
    me = state.players[0]
    me.leaders, me.status = [9, 10], ["active", "active"]  # servant and shield
    state.market[0:4] = ["white", "white", "yellow", "red"]
    said = drive(d.market(seat_of(state), "row", 1), state, [
        "maybe", "transform", "gold", "Shield", "discard",
        "warehouse depot", "1",  # the coin
        "warehouse depot", "2",  # the shield
    ])
    assert said == [
        wire.FAITH_INCREASED,
        wire.TRANSFORM_OR_DISCARD, wire.choices("transform", "discard"),
        wire.TRANSFORM_OR_DISCARD, wire.CONVERT_INTO, wire.VALID_RESOURCE, wire.CONVERT_INTO,
        wire.TRANSFORM_OR_DISCARD, wire.WHITE_DISCARDED,
        "Current resource: coin", wire.WHERE_TO_INSERT, wire.SELECT_LINE,
        "Current resource: shield", wire.WHERE_TO_INSERT, wire.SELECT_LINE,
        wire.RESOURCES_BOUGHT]
    assert me.depots[:2] == [[0, 1], [2, 1]] and me.faith == 1
    assert state.players[1].faith == 1  # the declined white marble was a resource thrown away


def test_placement_refusals_and_a_swap_in_the_middle() -> None:
    state = started()
    me = state.players[0]
    me.depots = [[3, 1], [-1, 0], [-1, 0]]  # a stone in line 1
    state.market[0:4] = ["grey", "yellow", "grey", "white"]
    said = drive(d.market(seat_of(state), "row", 1), state, [
        "warehouse depot", "1", "warehouse depot", "2",  # the coin
        "warehouse depot", "1", "warehouse depot", "3", "move resources -1 -3",
        "warehouse depot", "3",  # the first stone
        "discard",  # the second
    ])
    assert said == [
        "Current resource: coin", wire.WHERE_TO_INSERT, wire.SELECT_LINE, wire.LINE_OTHER_RESOURCE,
        wire.WHERE_TO_INSERT, wire.SELECT_LINE,
        "Current resource: stone", wire.WHERE_TO_INSERT, wire.SELECT_LINE, wire.LINE_FULL,
        wire.WHERE_TO_INSERT, wire.SELECT_LINE, wire.RESOURCE_IN_OTHER_LINE,
        wire.WHERE_TO_INSERT, wire.RESOURCE_MOVED, wire.WHERE_TO_INSERT, wire.SELECT_LINE,
        "Current resource: stone", wire.WHERE_TO_INSERT, wire.RESOURCE_DISCARDED,
        wire.RESOURCES_BOUGHT,
    ]
    assert me.depots == [[-1, 0], [0, 1], [3, 2]] and state.players[1].faith == 1


def test_buying_a_card_every_payment_refusal_then_the_slot() -> None:
    state = started()
    me = state.players[0]
    me.depots = [[0, 1], [-1, 0], [2, 3]]  # a coin, three shields
    me.strongbox = [0, 0, 1, 0]
    green = state.decks[0]
    green.remove(1)
    green.append(1)  # the level-1 green card costing 2 shields on top
    said = drive(d.buy_card(seat_of(state), 1, "green"), state, [
        "cellar", "Strongbox", "coin", "Warehouse depot", "coin", "Extra depot", "shield",
        "warehouse depot", "rubies", "shield warehouse depot", "strongbox shield", "4", "1"])
    assert said == [
        wire.CAN_BUY, wire.SELECT_DEPOT, wire.VALID_LOCATION, wire.SELECT_DEPOT,
        wire.SELECT_RESOURCE, wire.NOT_REQUIRED, wire.SELECT_DEPOT, wire.SELECT_RESOURCE,
        wire.NOT_REQUIRED, wire.SELECT_DEPOT, wire.SELECT_RESOURCE, wire.WRONG_RESOURCE,
        wire.SELECT_DEPOT, wire.SELECT_RESOURCE, wire.VALID_RESOURCE_NAMED,
        wire.SELECT_DEPOT, wire.RESOURCE_USED, wire.SELECT_DEPOT, wire.RESOURCE_USED,
        wire.SELECT_POSITION, wire.INDEX_OUT_OF_BOUNDS, wire.SELECT_POSITION, wire.CARD_INSERTED]
    assert me.slots[0] == [1] and me.depots[2] == [2, 2] and me.strongbox == [0, 0, 0, 0]


def test_set_up_of_the_fourth_seat() -> None:
    state = GAME.setup(4, GAME.parse_options(None), 9)
    said = drive(d.setup(seat_of(state, 3)), state, [
        "gold", "coin", "x", "7", "1", "coin", "2", "stone", "2", "5", "2", "2", "3"], seat=3)
    assert said[:12] == [
        wire.SEAT_TEXTS[3], wire.SELECT_SETUP_RESOURCE, wire.choices(*wire.RESOURCES),
        wire.SELECT_SETUP_RESOURCE, wire.SELECT_SETUP_LINE, wire.INSERT_VALID_NUMBER,
        wire.SELECT_SETUP_LINE, wire.INDEX_OUT_OF_BOUNDS, wire.SELECT_SETUP_LINE,
        wire.SELECT_SETUP_RESOURCE, wire.SELECT_SETUP_LINE, wire.RESOURCE_IN_OTHER_LINE]
    assert said[12:] == [
        wire.SELECT_SETUP_RESOURCE, wire.SELECT_SETUP_LINE,
        *[line for line in said[14:18]], wire.SELECT_TWO_LEADERS,
        wire.FIRST_LEADER, wire.INDEX_OUT_OF_BOUNDS, wire.FIRST_LEADER, wire.SECOND_LEADER,
        wire.SECOND_LEADER, wire.SETUP_COMPLETE, wire.WAIT_FOR_SETUP]
    assert all(line.startswith("Leader card ") for line in said[14:18])
    assert state.players[3].faith == 1 and state.players[3].depots[:2] == [[0, 1], [3, 1]]


ANSWERS = st.sampled_from(["1", "2", "3", "4", "0", "x", "", "coin", "Stone", "servant", "shield",
                           "gold", "warehouse depot", "Extra depot", "strongbox", "discard",
                           "transform", "coin warehouse depot", "move resources -1 -2",
                           "move resources -x", "-", "yes"])


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=6), st.lists(ANSWERS, max_size=25),
       st.integers(min_value=0, max_value=50))
def test_any_answers_leave_a_consistent_game(which: int, answers: list[str], seed: int) -> None:
    state = started(seed)
    me = state.players[0]
    me.depots = [[0, 1], [3, 2], [2, 1]]
    me.strongbox = [2, 1, 0, 3]
    me.slots[0] = [1]
    seat = seat_of(state)
    makers = [lambda: d.market(seat, "row", 1 + seed % 3), lambda: d.buy_card(seat, 1, "blue"),
              lambda: d.standard_production(seat), lambda: d.card_production(seat, 1),
              lambda: d.leader_production(seat, 1), lambda: d.swap(("1", "3")),
              lambda: d.placement(seat)]
    try:
        drive(makers[which](), state, answers)
    except ServiceError:
        pass  # a refusal: it reaches the player as its message
    assert GAME.dump_state(GAME.load_state(GAME.dump_state(state))) == GAME.dump_state(state)
    assert not depot_errors(me) and all(n >= 0 for n in me.strongbox + me.extra)


def test_moving_a_line_into_the_extra_depot_and_back() -> None:
    state = started()
    me = state.players[0]
    me.leaders, me.status = [5, 6], ["active", "hand"]  # leader 5: an extra depot
    r = LEADERS[5].resource
    me.depots = [[-1, 0], [-1, 0], [r, 3]]
    assert drive(d.swap(("3", "extra"), seat_of(state)), state, []) == [wire.RESOURCE_MOVED]
    assert me.extra[r] == 2 and me.depots[2] == [r, 1]
    assert drive(d.swap(("3", "extra"), seat_of(state)), state, []) == [wire.CANT_SWITCH]
    assert drive(d.swap(("extra", "1"), seat_of(state)), state, []) == [wire.CANT_SWITCH]
    assert drive(d.swap(("extra", "2"), seat_of(state)), state, []) == [wire.CANT_SWITCH]
    me.depots[2] = [-1, 0]
    assert drive(d.swap(("Extra", "3"), seat_of(state)), state, []) == [wire.RESOURCE_MOVED]
    assert me.extra[r] == 0 and me.depots[2] == [r, 2]
