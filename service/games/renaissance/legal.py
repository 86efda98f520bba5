"""Who may act, and every legal action of a seat (payments: one per order of the sources)."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import Any

from service.games.renaissance import actions as A
from service.games.renaissance import board as B
from service.games.renaissance import catalog as K
from service.games.renaissance.engine import setup_done
from service.games.renaissance.state import Player, State
from service.games.renaissance.workshop import price_of, slot_problem


def to_act(state: State) -> frozenset[int]:
    if state.phase == "setup":
        return frozenset(s for s in range(state.seats) if not setup_done(state, s))
    if state.phase == "play":
        return frozenset((state.current,))
    return frozenset()


def legal_actions(state: State, seat: int) -> list[Any]:
    if seat not in to_act(state):
        return []
    player = state.players[seat]
    if state.phase == "setup":
        return _setup(player)
    if any(state.pending) or state.pending_white:
        return _placement(state, player) + _housekeeping(player)
    out: list[Any] = []
    if not state.main:
        out += [A.TakeFromMarket(line="row", index=i) for i in range(1, K.ROWS + 1)]
        out += [A.TakeFromMarket(line="column", index=i) for i in range(1, K.COLUMNS + 1)]
        out += _buys(state, player)
    if state.main in ("", "production"):
        out += _productions(state, player)
    out += _leaders(player) + _housekeeping(player)
    if state.main:
        out.append(A.EndTurn())
    return out


def _setup(player: Player) -> list[Any]:
    out: list[Any] = [A.ChooseLeaders(leaders=pair) for pair in combinations(player.dealt, 2)]
    if player.bonus_left:
        out += [A.TakeBonusResource(resource=K.RESOURCES[r], depot=d)  # type: ignore[arg-type]
                for r in range(4) for d in (1, 2, 3) if not B.place_problem(player, r, d)]
    return out


def _placement(state: State, player: Player) -> list[Any]:
    out: list[Any] = []
    if state.pending_white:
        out += [A.ConvertWhiteMarble(resource=K.RESOURCES[r])  # type: ignore[arg-type]
                for r in B.powers(player, "white_marble")]
    for r in range(4):
        if not state.pending[r]:
            continue
        name = K.RESOURCES[r]
        out += [A.PlaceResource(resource=name, depot=d)  # type: ignore[arg-type]
                for d in (1, 2, 3, "extra") if not B.place_problem(player, r, d)]
        out.append(A.DiscardResource(resource=name))  # type: ignore[arg-type]
    return out


def _housekeeping(player: Player) -> list[Any]:
    out: list[Any] = [A.SwapDepots(first=a, second=b)  # type: ignore[arg-type]
                      for a, b in ((1, 2), (1, 3), (2, 3)) if not B.swap_problem(player, a, b)]
    for r in B.powers(player, "extra_depot"):
        name = K.RESOURCES[r]
        for d, (kind, n) in enumerate(player.depots, start=1):
            room = K.EXTRA_CAPACITY - player.extra[r]
            if kind == r:
                out += [A.MoveResources(resource=name, source=d, target="extra",  # type: ignore
                                        count=c) for c in range(1, min(n, room) + 1)]
            out += [A.MoveResources(resource=name, source="extra", target=d,  # type: ignore
                                    count=c) for c in range(1, player.extra[r] + 1)
                    if not B.place_problem(player, r, d, c)]
    return out


def _buys(state: State, player: Player) -> list[Any]:
    out: list[Any] = []
    avail = B.spendable(player)
    for level in (1, 2, 3):
        slots = [s for s in (1, 2, 3) if not slot_problem(player, level, s)]
        if not slots:
            continue
        for colour in K.COLOURS:
            deck = state.decks[K.deck_index(level, colour)]
            if not deck:
                continue
            for pay in B.payment_options(avail, price_of(player, K.CARDS[deck[-1]])):
                out += [A.BuyCard(level=level, color=colour, slot=s, pay=pay)  # type: ignore
                        for s in slots]
    return out


def _productions(state: State, player: Player) -> list[Any]:
    out: list[Any] = []
    avail = B.spendable(player)
    if "base" not in state.used:
        for a, b in combinations_with_replacement(range(4), 2):
            price = [0, 0, 0, 0]
            price[a] += 1
            price[b] += 1
            for pay in B.payment_options(avail, price):
                out += [A.ProduceBase(inputs=(K.RESOURCES[a], K.RESOURCES[b]),  # type: ignore
                                      output=o, pay=pay) for o in K.RESOURCES]
    for slot, stack in enumerate(player.slots, start=1):
        if stack and f"slot{slot}" not in state.used:
            pays = B.payment_options(avail, list(K.CARDS[stack[-1]].inputs))
            out += [A.ProduceCard(slot=slot, pay=pay) for pay in pays]
    for leader in B.active_leaders(player, "production"):
        if f"leader{leader.id}" not in state.used:
            price = [0, 0, 0, 0]
            price[leader.resource] = 1
            out += [A.ProduceLeader(leader=leader.id, output=o, pay=pay)  # type: ignore
                    for pay in B.payment_options(avail, price) for o in K.RESOURCES]
    return out


def _leaders(player: Player) -> list[Any]:
    held = B.hand(player)
    out: list[Any] = [A.ActivateLeader(leader=lid) for lid in held
                      if B.meets(player, K.LEADERS[lid])]
    return out + [A.DiscardLeader(leader=lid) for lid in held]
