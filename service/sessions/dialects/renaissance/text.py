"""What the seed-003 dialect shows as text: boards, the market, cards, leaders, Lorenzo, scores.

The original drew boxes over many lines (HEAD); Tavolo writes one plain line per item instead,
numbered as the commands number them (docs/protocols/renaissance.md shows each).
"""

from __future__ import annotations

from service.games.renaissance import catalog as K
from service.games.renaissance.state import Player, State
from service.protocol import renaissance as wire

KINDS = {"discount": "Discount", "extra_depot": "Extra depot", "white_marble": "White marble",
         "production": "Production"}


def amounts(counts: tuple[int, ...] | list[int]) -> str:
    parts = [f"{n} {K.RESOURCES[r]}" for r, n in enumerate(counts) if n]
    return ", ".join(parts) or "nothing"


def leader(number: int, card: K.Leader, status: str = "") -> str:
    needs = [f"{n} {colour}{f' level {lv}' if lv else ''} card{'s' if n > 1 else ''}"
             for colour, n, lv in card.cards]
    if any(card.resources):
        needs.append(amounts(card.resources))
    state = f" ({status})" if status else ""
    return (f"Leader card {number}: {KINDS[card.kind]} {K.RESOURCES[card.resource]}, "
            f"Win Points: {card.vp}, requires {' + '.join(needs)}{state}")


def dev_card(card: K.DevCard) -> str:
    out = amounts(card.outputs)
    if card.faith:
        out = f"{out} + {card.faith} faith" if any(card.outputs) else f"{card.faith} faith"
    return (f"level {card.level} {card.colour}, Win Points: {card.vp}, cost {amounts(card.cost)}, "
            f"production {amounts(card.inputs)} -> {out}")


def market(state: State) -> list[str]:
    lines = [f"Market (rows 1-3, columns 1-4), spare marble: {state.spare}"]
    for row in range(K.ROWS):
        cells = state.market[row * K.COLUMNS:(row + 1) * K.COLUMNS]
        lines.append(f"Row {row + 1}: {' '.join(cells)}")
    return lines


def card_market(state: State) -> list[str]:
    lines = ["Card market (row = level 1-3, column 1-4 = green, blue, yellow, purple)"]
    for level in (1, 2, 3):
        for column, colour in enumerate(K.COLOURS, 1):
            deck = state.decks[K.deck_index(level, colour)]
            top = dev_card(K.CARDS[deck[-1]]) if deck else "no cards left"
            lines.append(f"Row {level} column {column}: {top} ({len(deck)} left)")
    return lines


def personal_board(state: State, seat: int, nickname: str) -> list[str]:
    p = state.players[seat]
    lines = [f"Personal board of {nickname}"]
    for n, (r, count) in enumerate(p.depots, 1):
        content = f"{count} {K.RESOURCES[r]}" if count else "empty"
        lines.append(f"Warehouse depot line {n}: {content}")
    if any(p.extra):
        lines.append(f"Extra depot: {amounts(p.extra)}")
    lines.append(f"Strongbox: {amounts(p.strongbox)}")
    for n, stack in enumerate(p.slots, 1):
        top = dev_card(K.CARDS[stack[-1]]) if stack else "empty"
        lines.append(f"Slot {n}: {top}{f' ({len(stack)} cards)' if len(stack) > 1 else ''}")
    lines.append(faith(state, p))
    return lines


def faith(state: State, p: Player) -> str:
    tiles = ", ".join({1: "face up", 0: "face down", -1: "removed"}[f] for f in p.favours)
    line = f"Faith track: {p.faith} of 24, Pope's favour tiles: {tiles}"
    return line + (f"; Lorenzo's black cross: {state.lorenzo}" if state.solo else "")


def leaders(p: Player) -> list[str]:
    if not p.leaders:
        return [leader(n, K.LEADERS[lid]) for n, lid in enumerate(p.dealt, 1)]
    return [leader(n, K.LEADERS[lid], status)
            for n, (lid, status) in enumerate(zip(p.leaders, p.status), 1)]


def token(state: State) -> str:
    drawn = K.TOKENS.get(state.last_token)
    if drawn is None:
        return ""
    if drawn.colour:
        what = f"discard 2 {drawn.colour} cards"
    else:
        what = f"black cross +{drawn.steps}{', tokens shuffled' if drawn.shuffle else ''}"
    return f"Lorenzo's token: {what}; black cross on {state.lorenzo}"


def results(state: State, seat: int, nicknames: list[str]) -> list[str]:
    scores = state.scores or [0] * state.seats
    if state.solo:
        text = wire.YOU_WIN if seat in state.winners else wire.YOU_LOSE
        return [text.format(points=scores[seat])]
    order = sorted(range(state.seats), key=lambda s: (s not in state.winners, -scores[s], s))
    return [wire.LEADERBOARD.format(place=wire.PLACES[i], nickname=nicknames[s], points=scores[s])
            for i, s in enumerate(order)]
