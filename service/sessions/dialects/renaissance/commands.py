"""Game-phase commands of seed 003: each typed line becomes a direct action or a dialogue.

Names are compared without spaces and case (``Buy production card -1 -3``); the seed's
spellings, the original's (HEAD) and the plain-text commits' are all accepted.
"""

from __future__ import annotations

from collections.abc import Callable

from service.errors import ProtocolError, RulesError
from service.games.renaissance import catalog as K
from service.protocol import renaissance as wire
from service.protocol.renaissance import Command
from service.sessions.dialects.renaissance import dialogues as d
from service.sessions.dialects.renaissance import text
from service.sessions.dialects.renaissance.dialogues import Act, Dialogue, Seat

#: accepted spellings -> command
ALIASES: dict[str, str] = {
    "moveresources": "move", "moveresource": "move",
    "buyresources": "market", "buyresource": "market",
    "buyproductioncard": "buy", "buycard": "buy",
    "activateleadercard": "activate", "activatedleadercard": "activate",
    "discardleadercard": "discard",
    "activatecardproduction": "card_production", "cardproduction": "card_production",
    "activateproduction": "card_production",
    "leaderproduction": "leader_production", "activateleaderproduction": "leader_production",
    "standardproduction": "standard_production", "activatestandardproduction": "standard_production",
    "endturn": "end", "view": "view",
}


def kind(command: Command) -> str | None:
    return ALIASES.get(command.name)


def dialogue(seat: Seat, command: Command) -> Dialogue:
    """The dialogue a game command opens (many are one action and one answer)."""
    makers: dict[str, Callable[[Seat, tuple[str, ...]], Dialogue]] = {
        "move": lambda s, p: d.swap(p, s),
        "market": _market,
        "buy": _buy,
        "activate": _activate,
        "discard": _discard,
        "card_production": lambda s, p: d.card_production(s, _one(p, 3)),
        "leader_production": lambda s, p: d.leader_production(s, _one(p, 2)),
        "standard_production": lambda s, p: d.standard_production(s),
        "end": _end,
    }
    name = kind(command)
    if name is None or name not in makers:
        raise ProtocolError(wire.WRONG_COMMAND, code="protocol/wrong_command")
    return makers[name](seat, command.params)


def _one(params: tuple[str, ...], high: int) -> int:
    return wire.in_range(wire.numbers(params, 1)[0], 1, high)


def _market(seat: Seat, params: tuple[str, ...]) -> Dialogue:
    line, index = wire.market_line(params)
    return d.market(seat, line, index)


def _buy(seat: Seat, params: tuple[str, ...]) -> Dialogue:
    row, column = wire.numbers(params, 2)
    wire.in_range(row, 1, 3)
    wire.in_range(column, 1, 4)
    return d.buy_card(seat, row, K.COLOURS[column - 1])


def _leader_id(seat: Seat, number: int) -> int:
    leaders = seat.me.leaders
    if number > len(leaders):
        raise ProtocolError(wire.INDEX_OUT_OF_BOUNDS, code="protocol/out_of_bounds")
    return leaders[number - 1]


def _activate(seat: Seat, params: tuple[str, ...]) -> Dialogue:
    number = _one(params, 2)
    leader = _leader_id(seat, number)
    if seat.me.status[number - 1] == "active":
        raise RulesError("leader_not_in_hand", wire.CARD_ALREADY_ACTIVE)
    try:
        yield Act({"type": "activate_leader", "leader": leader})
    except RulesError as exc:
        if exc.reason in ("requirements_not_met", "leader_not_in_hand"):
            raise RulesError(exc.reason, wire.UNABLE_TO_ACTIVATE) from None
        raise
    yield d.say(wire.CARD_ACTIVATED)


def _discard(seat: Seat, params: tuple[str, ...]) -> Dialogue:
    number = _one(params, 2)
    leader = _leader_id(seat, number)
    try:
        yield Act({"type": "discard_leader", "leader": leader})
    except RulesError as exc:
        if exc.reason == "leader_not_in_hand":
            raise RulesError(exc.reason, wire.CANT_DISCARD) from None
        raise
    yield d.say(wire.CARD_DISCARDED.format(n=number))


def _end(seat: Seat, params: tuple[str, ...]) -> Dialogue:
    try:
        yield Act({"type": "end_turn"})
    except RulesError as exc:
        if exc.reason == "no_main_action":
            raise RulesError(exc.reason, wire.ACTION_NEEDED) from None
        raise
    yield d.say(wire.END)
    if seat.state.solo and seat.state.last_token:
        yield d.say(text.token(seat.state))
