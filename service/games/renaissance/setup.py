"""Set-up from the match seed (§2): decks, market, leaders dealt, seat bonuses, solo tokens."""

from __future__ import annotations

from service.games.base import GameOptions
from service.games.renaissance import catalog as K
from service.games.renaissance.state import Player, State, rng


class RenaissanceOptions(GameOptions):
    """Masters of Renaissance has no options: 1 seat is the solo game against Lorenzo."""


def setup_state(seats: int, seed: int) -> State:
    shuffle = rng(seed, "setup")
    decks = [list(deck) for deck in K.DECKS]
    for deck in decks:
        shuffle.shuffle(deck)
    marbles = list(K.MARBLES)
    shuffle.shuffle(marbles)
    leaders = list(K.LEADERS)
    shuffle.shuffle(leaders)
    players = []
    for seat in range(seats):
        resources, faith = K.SEAT_BONUS[seat]
        dealt = leaders[seat * K.LEADERS_DEALT:(seat + 1) * K.LEADERS_DEALT]
        players.append(Player(dealt=dealt, bonus_left=resources, faith=faith))
    state = State(seats=seats, seed=seed, players=players, decks=decks,
                  market=marbles[:12], spare=marbles[12])
    if state.solo:
        state.lorenzo = 0
        state.tokens = shuffled_tokens(state)
    return state


def shuffled_tokens(state: State) -> list[int]:
    """A fresh pile of all seven solo tokens (top = last)."""
    tokens = list(K.TOKENS)
    rng(state.seed, f"tokens/{state.shuffles}").shuffle(tokens)
    return tokens
