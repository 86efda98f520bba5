"""The seed-003 dialogues as generators: each yields what to say, what to ask, and which action
to apply, and gets back the player's next line or the action's events (a rules error is thrown
into it). The conversation drives them; they hold no I/O and no await.

A dialogue applies an engine action only once everything it needs has been asked, so a player
who drops in the middle of one loses nothing that was acknowledged: market placements are
single actions, saved one by one, and the dialogue starts again from the saved state.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from service.errors import RulesError, ServiceError
from service.games.renaissance import GAME
from service.games.renaissance import board as B
from service.games.renaissance import catalog as K
from service.games.renaissance.state import Player, State
from service.games.renaissance.workshop import slot_problem
from service.protocol import renaissance as wire
from service.sessions.dialects.renaissance import text


@dataclass(frozen=True)
class Say:
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Ask:
    """Send ``prompt`` (if any) and wait for the player's next line."""

    prompt: str | None


@dataclass(frozen=True)
class Act:
    action: dict[str, Any]


Step = Say | Ask | Act
Dialogue = Generator[Step, Any, None]


def say(*lines: str) -> Say:
    return Say(tuple(lines))


class Seat:
    """The dialogue's window on the match: the live state and this seat."""

    def __init__(self, state: Callable[[], State], seat: int) -> None:
        self._state, self.seat = state, seat

    @property
    def state(self) -> State:
        return self._state()

    @property
    def me(self) -> Player:
        return self.state.players[self.seat]


def ask_number(prompt: str, low: int, high: int) -> Generator[Step, Any, int]:
    """Ask until the answer is a number in [low, high]."""
    while True:
        line = yield Ask(prompt)
        try:
            return wire.in_range(wire.number(wire.compact(line)), low, high)
        except ServiceError as exc:
            yield say(wire.INSERT_VALID_NUMBER if exc.message == wire.NOT_A_NUMBER else exc.message)


def ask_resource(prompt: str, error: str, allowed: tuple[str, ...] = wire.RESOURCES
                 ) -> Generator[Step, Any, str]:
    while True:
        found = wire.resource((yield Ask(prompt)))
        if found in allowed:
            return found
        yield say(error)


# --- set-up ------------------------------------------------------------------------------


def setup(seat: Seat) -> Dialogue:
    yield say(wire.SEAT_TEXTS[seat.seat])
    while seat.me.bonus_left:
        res = yield from ask_resource(wire.SELECT_SETUP_RESOURCE, wire.choices(*wire.RESOURCES))
        line = yield from ask_number(wire.SELECT_SETUP_LINE, 1, 3)
        try:
            yield Act({"type": "take_bonus_resource", "resource": res, "depot": line})
        except RulesError as exc:
            yield say(exc.message)
    if seat.me.dealt:
        dealt = list(seat.me.dealt)
        yield Say(tuple(text.leader(n, K.LEADERS[lid]) for n, lid in enumerate(dealt, 1)))
        yield say(wire.SELECT_TWO_LEADERS)
        first = yield from ask_number(wire.FIRST_LEADER, 1, len(dealt))
        second = first
        while second == first:
            second = yield from ask_number(wire.SECOND_LEADER, 1, len(dealt))
        yield Act({"type": "choose_leaders", "leaders": [dealt[first - 1], dealt[second - 1]]})
    yield say(wire.SETUP_COMPLETE)
    if seat.state.phase == "setup":
        yield say(wire.WAIT_FOR_SETUP)


# --- the market ---------------------------------------------------------------------------


def market(seat: Seat, line: str, index: int) -> Dialogue:
    cells = ([(index - 1) * K.COLUMNS + c for c in range(K.COLUMNS)] if line == "row"
             else [r * K.COLUMNS + index - 1 for r in range(K.ROWS)])
    reds = [seat.state.market[c] for c in cells].count("red")
    yield Act({"type": "take_from_market", "line": line, "index": index})
    for _ in range(reds):
        yield say(wire.FAITH_INCREASED)
    yield from placement(seat)


def placement(seat: Seat) -> Dialogue:
    """Convert white marbles, then store or discard each taken resource, one at a time."""
    while seat.state.pending_white:
        yield from _white_marble(seat)
    while any(seat.state.pending):
        res = next(r for r in wire.RESOURCES if seat.state.pending[K.RES_INDEX[r]])
        yield say(wire.CURRENT_RESOURCE.format(resource=res))
        yield from _place_one(seat, res)
    yield say(wire.RESOURCES_BOUGHT)


def _white_marble(seat: Seat) -> Dialogue:
    choice = wire.answer((yield Ask(wire.TRANSFORM_OR_DISCARD)))
    options = tuple(K.RESOURCES[r] for r in B.powers(seat.me, "white_marble"))
    if choice == "transform":
        res = yield from ask_resource(wire.CONVERT_INTO, wire.VALID_RESOURCE, options)
        yield Act({"type": "convert_white_marble", "resource": res})
    elif choice == "discard":
        # with two white-marble leaders a white marble is a resource: declining it discards one
        yield Act({"type": "convert_white_marble", "resource": options[0]})
        yield Act({"type": "discard_resource", "resource": options[0]})
        yield say(wire.WHITE_DISCARDED)
    else:
        yield say(wire.choices("transform", "discard"))


def _place_one(seat: Seat, res: str) -> Dialogue:
    while True:
        line = yield Ask(wire.WHERE_TO_INSERT)
        command = wire.parse_command(line)
        where = wire.answer(line)
        try:
            if command.name == "moveresources":
                yield from swap(command.params, seat)
            elif where == "warehousedepot":
                depot = yield from ask_number(wire.SELECT_LINE, 1, 3)
                yield Act({"type": "place_resource", "resource": res, "depot": depot})
                return
            elif where == "extradepot":
                yield Act({"type": "place_resource", "resource": res, "depot": "extra"})
                return
            elif where in ("discard", "discardresource"):
                yield Act({"type": "discard_resource", "resource": res})
                yield say(wire.RESOURCE_DISCARDED)
                return
            else:
                yield say(wire.choices("warehousedepot", "extradepot", "discard"))
        except RulesError as exc:
            yield say(wire.NO_DEPOT_LEADER if exc.reason == "no_extra_depot" else exc.message)


def swap(params: tuple[str, ...], seat: Seat | None = None) -> Dialogue:
    """``-L1 -L2`` swaps two warehouse lines; ``-L -extra`` / ``-extra -L`` (Tavolo) moves a
    line's resource into its leader's extra depot, or back, as much as fits."""
    if seat is not None and "extra" in (p.casefold() for p in params[:2]):
        yield from _to_or_from_extra(seat, params)
        return
    first, second = wire.numbers(params, 2)
    if not (1 <= first <= 3 and 1 <= second <= 3) or first == second:
        yield say(wire.CHOOSE_VALID_LINES)
        return
    try:
        yield Act({"type": "swap_depots", "first": first, "second": second})
    except RulesError:
        yield say(wire.CANT_SWITCH)
        return
    yield say(wire.RESOURCE_MOVED)


def _to_or_from_extra(seat: Seat, params: tuple[str, ...]) -> Dialogue:
    to_extra = params[1].casefold() == "extra"
    line = wire.in_range(wire.numbers(params[:1] if to_extra else params[1:2], 1)[0], 1, 3)
    me = seat.me
    if to_extra:
        r, count = me.depots[line - 1]
        count = min(count, K.EXTRA_CAPACITY - me.extra[r]) if r >= 0 else 0
    else:
        r = next((k for k in B.powers(me, "extra_depot") if me.extra[k]), -1)
        count = me.extra[r] if r >= 0 else 0
    if count <= 0:
        yield say(wire.CANT_SWITCH)
        return
    source, target = (line, "extra") if to_extra else ("extra", line)
    try:
        yield Act({"type": "move_resources", "resource": K.RESOURCES[r], "source": source,
                   "target": target, "count": count})
    except RulesError:
        yield say(wire.CANT_SWITCH)
        return
    yield say(wire.RESOURCE_MOVED)


# --- paying ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PayTexts:
    done: str
    bad_location: str
    bad_resource: str


BUYING = PayTexts(wire.RESOURCE_USED, wire.VALID_LOCATION, wire.VALID_RESOURCE_NAMED)
PRODUCING = PayTexts(wire.RESOURCE_TAKEN, wire.VALID_PRODUCTION_LOCATION, wire.VALID_RESOURCE)


def pay(seat: Seat, price: list[int] | None, total: int, texts: PayTexts
        ) -> Generator[Step, Any, tuple[dict[str, dict[str, int]], list[str]]]:
    """Ask where each resource comes from until ``total`` are chosen. ``price`` (by engine
    resource index) limits which resources are required; None accepts any."""
    avail = B.spendable(seat.me)
    chosen: dict[str, list[int]] = {s: [0, 0, 0, 0] for s in B.SOURCES}
    taken: list[str] = []
    while len(taken) < total:
        location, res = wire.split_payment((yield Ask(wire.SELECT_DEPOT)))
        if location is None:
            yield say(texts.bad_location)
            continue
        if res is None:
            res = wire.resource((yield Ask(wire.SELECT_RESOURCE)))
            if res is None:
                yield say(texts.bad_resource)
                continue
        r = K.RES_INDEX[res]
        used = sum(chosen[s][r] for s in B.SOURCES)
        if price is not None and used >= price[r]:
            yield say(wire.NOT_REQUIRED)
        elif chosen[location][r] >= avail[location][r]:
            yield say(_missing(seat.me, location, r))
        else:
            chosen[location][r] += 1
            taken.append(res)
            yield say(texts.done)
    return {s: K.named(c) for s, c in chosen.items() if any(c)}, taken


def _missing(p: Player, location: str, r: int) -> str:
    if location == "warehouse":
        return wire.NOT_IN_WAREHOUSE
    if location == "strongbox":
        return wire.NOT_IN_STRONGBOX
    return wire.ALREADY_EMPTY if r in B.powers(p, "extra_depot") else wire.WRONG_RESOURCE


# --- development cards -------------------------------------------------------------------


def buy_card(seat: Seat, level: int, colour: str) -> Dialogue:
    price = _counts(GAME.check_buy(seat.state, seat.seat, level, colour))
    yield say(wire.CAN_BUY)
    payment, _ = yield from pay(seat, price, sum(price), BUYING)
    while True:
        slot = yield from ask_number(wire.SELECT_POSITION, 1, 3)
        if not slot_problem(seat.me, level, slot):
            break
        yield say(wire.CANT_INSERT_HERE)
    yield Act({"type": "buy_card", "level": level, "color": colour, "slot": slot, "pay": payment})
    yield say(wire.CARD_INSERTED)


def _counts(named: dict[str, int]) -> list[int]:
    return [named.get(r, 0) for r in K.RESOURCES]


# --- productions ---------------------------------------------------------------------------


def _production_input(seat: Seat, key: str) -> list[int]:
    """What production ``key`` takes, or the refusal in the seed's words."""
    try:
        return _counts(GAME.check_production(seat.state, seat.seat, key))
    except RulesError as exc:
        if exc.reason == "not_enough_resources" and key != "base":
            raise RulesError(exc.reason, wire.NOT_ENOUGH_FOR_PRODUCTION) from None
        raise


def card_production(seat: Seat, slot: int) -> Dialogue:
    price = _production_input(seat, f"slot{slot}")
    yield say(wire.CARD_PRODUCTION_START)
    payment, _ = yield from pay(seat, price, sum(price), PRODUCING)
    yield Act({"type": "produce_card", "slot": slot, "pay": payment})
    yield say(wire.PRODUCTION_DONE)


def standard_production(seat: Seat) -> Dialogue:
    _production_input(seat, "base")
    yield say(wire.STANDARD_START)
    payment, inputs = yield from pay(seat, None, 2, PRODUCING)
    output = yield from ask_resource(wire.CHOOSE_OUTPUT, wire.VALID_RESOURCE)
    yield Act({"type": "produce_base", "inputs": inputs, "output": output, "pay": payment})
    yield say(wire.STANDARD_DONE)


def leader_production(seat: Seat, number: int) -> Dialogue:
    me = seat.me
    leader = K.LEADERS[me.leaders[number - 1]] if number <= len(me.leaders) else None
    if leader is None or leader.kind != "production" or me.status[number - 1] != "active":
        raise RulesError("not_a_production_leader", wire.NOT_A_PRODUCTION_LEADER)
    price = _production_input(seat, f"leader{leader.id}")
    yield say(wire.LEADER_PRODUCTION_START)
    payment, _ = yield from pay(seat, price, 1, BUYING)
    output = yield from ask_resource(wire.CHOOSE_OUTPUT, wire.VALID_RESOURCE)
    yield Act({"type": "produce_leader", "leader": leader.id, "output": output, "pay": payment})
    yield say(wire.LEADER_PRODUCTION_DONE)
