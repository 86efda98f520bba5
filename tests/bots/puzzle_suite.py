"""The bots' puzzle suite, shared by tests/bots/test_puzzles.py and the benchmark
(``benchmarks/bot_strength.py --mode puzzles``): in every game, a win in one to take and,
where one exists, an opponent's win in one to stop.

Every position is built through the games' own state and rules (setup, apply, the state's
fields as the game tests set them), and ``real`` checks it is a real puzzle: some legal turn
of the seat misses the point. ``solve`` lets a bot play the seat's whole turn, action by
action (in Santorini 2-6 actions, god powers included), with a fixed amount of search, and
says whether the turn did what the puzzle asks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.bots.knowledge import knowledge_of
from service.bots.policies import LEVEL_SPECS, Level, Search, is_idle
from service.bots.tactics import Budget, can_win_now, turn_ends, wins
from service.games.base import Game
from service.games.registry import get_game
from service.games.renaissance import catalog as K
from service.games.santorini.board import cell
from service.games.santorini.setup_flow import new_state
from service.games.santorini.state import PLAY, State
from service.games.santorini.turn import begin_turn

SANTORINI = get_game("santorini")
DOLPHINFOX = get_game("dolphinfox")
ERIANTYS = get_game("eriantys")
RENAISSANCE = get_game("renaissance")

#: a turn that takes more actions than this has not ended
MAX_TURN_ACTIONS = 40


@dataclass(frozen=True)
class Puzzle:
    """One position: the seat to act must win (``kind`` "win") or stop the win in one the
    opponent threatens (``kind`` "stop"); ``done`` judges the position after the seat's turn."""

    group: str  # the game and its seats, as the benchmark prints them
    name: str
    kind: str
    build: Callable[[int], tuple[Any, int]]  # seed -> (state, seat to act)
    done: Callable[[Any, int], bool]  # (position after the turn, seat) -> solved
    #: whether the position is a real puzzle (some legal turn misses the point)
    real: Callable[[Any, int], bool]

    @property
    def game(self) -> Game[Any]:
        return get_game(self.group.split()[0].replace("&", ""))

    @property
    def label(self) -> str:
        return f"{self.group}: {self.name} ({self.kind})"


def play_turn(game: Game[Any], state: Any, seat: int, seed: int, level: Level,
              playouts: int) -> Any:
    """The bot of ``level`` plays ``seat``'s whole turn (every action while it alone may act;
    in Renaissance solo, where Lorenzo plays inside the player's ``end_turn``, up to that),
    told when its previous action was idle, as the server tells it."""
    rng, idle = random.Random(seed), False
    for _ in range(MAX_TURN_ACTIONS):
        search = Search(game, state, seat, rng, level=level, after_idle=idle)
        action = search.run(0.0, playouts=playouts)
        if action not in (game.legal_actions(state, seat) or []):
            raise AssertionError(f"{action!r} is not legal")
        idle = is_idle(game, state, seat, action)
        game.apply(state, seat, action)
        if (game.outcome(state) is not None or game.real_time or game.to_act(state) != {seat}
                or getattr(action, "type", None) == "end_turn"):
            return state
    raise AssertionError("the turn did not end")


def solve(puzzle: Puzzle, level: str | Level, seed: int, playouts: int) -> bool:
    """Whether ``level`` solves ``puzzle`` (its position from ``seed``) with ``playouts``."""
    spec = LEVEL_SPECS[level] if isinstance(level, str) else level
    state, seat = puzzle.build(seed)
    return puzzle.done(play_turn(puzzle.game, state, seat, seed, spec, playouts), seat)


def some_end(game: Game[Any], state: Any, seat: int, test: Callable[[Any], bool],
             positions: int = 200_000) -> bool:
    """Whether some legal turn of ``seat`` ends in a position where ``test`` holds."""
    know = knowledge_of(game.name)
    return any(test(end) for end in turn_ends(game, state, seat, know, Budget(positions)))


def copy_of(game: Game[Any], state: Any) -> Any:
    return game.load_state(game.dump_state(state))


def winning(game: Game[Any]) -> Callable[[Any, int], bool]:
    """``done`` of a win in one: the seat has won."""
    return lambda state, seat: wins(game, state, seat)


def missable_win(game: Game[Any]) -> Callable[[Any, int], bool]:
    """A win in one is real when some legal turn wins and some does not."""
    return lambda state, seat: all(
        some_end(game, copy_of(game, state), seat, lambda end: wins(game, end, seat) == goal)
        for goal in (True, False))


# --- Santorini ------------------------------------------------------------------------------


def santorini(workers: dict[int, tuple[int, int]], blocks: dict[tuple[int, int], int],
              gods: tuple[str | None, ...] = (None, None), seat: int = 0,
              domes: tuple[tuple[int, int], ...] = ()) -> State:
    """A position in play: worker id -> (x, y), cell -> height, the seats' gods."""
    st = new_state(len(gods), any(gods), "full", False)
    st.gods = list(gods)
    for w, (x, y) in workers.items():
        st.workers[w] = cell(x, y)
    for (x, y), height in blocks.items():
        st.blocks[cell(x, y)] = height
    for x, y in domes:
        st.domes[cell(x, y)] = True
    st.placed = [True] * len(gods)
    st.phase = PLAY
    begin_turn(st, seat, [])
    return st


def santorini_safe(state: Any, seat: int) -> bool:
    """No other seat has won, and the one to act next cannot win with its coming turn."""
    know = knowledge_of("santorini")
    if any(wins(SANTORINI, state, s) for s in range(state.seats) if s != seat):
        return False
    if SANTORINI.outcome(state) is not None:
        return True
    return not can_win_now(SANTORINI, state, state.current, know, Budget(200_000))


def santorini_stop_real(state: Any, seat: int) -> bool:
    """The seat cannot win itself, some turn lets the threat through, some turn stops it."""
    game = SANTORINI
    return (not some_end(game, state.copy(), seat, lambda end: wins(game, end, seat))
            and some_end(game, state.copy(), seat, lambda end: not santorini_safe(end, seat))
            and some_end(game, state.copy(), seat, lambda end: santorini_safe(end, seat)))


def _fixed(state: Any) -> Callable[[int], tuple[Any, int]]:
    return lambda seed: (state.copy(), 0)


SANTORINI_WINS: dict[str, tuple[str, State]] = {
    # a worker on level 2 beside a level 3: select it, climb
    "climb": ("santorini 2p", santorini({0: (4, 4), 1: (2, 2), 2: (0, 4), 3: (4, 0)},
                                        {(2, 2): 2, (2, 3): 3, (1, 1): 1})),
    # Artemis: level 2, then level 2 again, then up to 3: two moves in one turn
    "artemis two moves": ("santorini 2p", santorini(
        {0: (0, 0), 1: (4, 4), 2: (0, 4), 3: (4, 0)}, {(0, 0): 2, (1, 1): 2, (2, 2): 3},
        gods=("ARTEMIS", "ATLAS"))),
    # Pan: down two levels wins (no level 3 anywhere)
    "pan drops": ("santorini 2p", santorini(
        {0: (4, 4), 1: (1, 1), 2: (0, 4), 3: (4, 0)},
        {(1, 1): 2, (2, 2): 1, (0, 0): 1, (1, 2): 2}, gods=("PAN", "DEMETER"))),
    # Minotaur pushes a rival off the level 3 and steps up
    "minotaur pushes": ("santorini 2p", santorini(
        {0: (4, 4), 1: (1, 1), 2: (2, 2), 3: (4, 0)}, {(1, 1): 2, (2, 2): 3},
        gods=("MINOTAUR", "HEPHAESTUS"))),
    # Apollo swaps places with the rival standing on the only level 3
    "apollo swaps": ("santorini 2p", santorini(
        {0: (0, 4), 1: (3, 3), 2: (4, 4), 3: (0, 0)}, {(3, 3): 2, (4, 4): 3, (2, 2): 1},
        gods=("APOLLO", "ATLAS"))),
    # three players: climb to the level 3 beside the worker on level 2
    "climb among three": ("santorini 3p", santorini(
        {0: (0, 0), 1: (2, 2), 2: (4, 4), 3: (4, 0), 4: (0, 4), 5: (1, 4)},
        {(2, 2): 2, (3, 2): 3, (1, 1): 1}, gods=("DEMETER", "ATLAS", "HEPHAESTUS"))),
    # three players, Apollo: the level 3 is taken by the third seat's worker; swap onto it
    "apollo among three": ("santorini 3p", santorini(
        {0: (0, 4), 1: (2, 2), 2: (4, 4), 3: (4, 0), 4: (2, 3), 5: (0, 0)},
        {(2, 2): 2, (2, 3): 3, (1, 1): 1},
        gods=("APOLLO", "ATLAS", "HEPHAESTUS"))),
}

SANTORINI_THREATS: dict[str, tuple[str, State]] = {
    # the rival's worker on level 2 beside the only level 3: dome it (or stand on it)
    "dome the three": ("santorini 2p", santorini(
        {0: (2, 1), 1: (4, 4), 2: (1, 3), 3: (4, 0)}, {(1, 3): 2, (2, 3): 3, (0, 0): 1})),
    # the rival is Artemis: a level 3 two moves away over a level 2 is a threat too
    "artemis reaches": ("santorini 2p", santorini(
        {0: (3, 1), 1: (4, 4), 2: (0, 0), 3: (4, 0)}, {(0, 0): 2, (1, 1): 2, (2, 2): 3},
        gods=("ATLAS", "ARTEMIS"))),
    # Pan wins by stepping down two levels: its one way down is to (3, 2), which must be
    # built on or stood on
    "pan steps down": ("santorini 2p", santorini(
        {0: (3, 3), 1: (4, 0), 2: (2, 2), 3: (0, 4)},
        {(2, 2): 2, (1, 1): 1, (1, 2): 1, (1, 3): 1, (2, 1): 1, (2, 3): 1, (3, 1): 1,
         (3, 3): 1}, gods=("HEPHAESTUS", "PAN"))),
    # three players: the next one (seat 1) threatens to climb; seat 2 is far away
    "three players": ("santorini 3p", santorini(
        {0: (2, 1), 1: (4, 4), 2: (1, 3), 3: (4, 0), 4: (0, 0), 5: (0, 1)},
        {(1, 3): 2, (2, 3): 3, (3, 3): 1}, gods=("DEMETER", "HEPHAESTUS", "ATLAS"))),
    # three players, the next seat is Minotaur: it would push our worker off the level 3
    "minotaur among three": ("santorini 3p", santorini(
        {0: (2, 2), 1: (4, 0), 2: (1, 1), 3: (0, 4), 4: (4, 4), 5: (3, 4)},
        {(2, 2): 3, (1, 1): 2, (0, 2): 1}, gods=("ATLAS", "MINOTAUR", "DEMETER"))),
}


def santorini_puzzles() -> list[Puzzle]:
    out = [Puzzle(group, name, "win", _fixed(st), winning(SANTORINI), missable_win(SANTORINI))
           for name, (group, st) in SANTORINI_WINS.items()]
    out += [Puzzle(group, name, "stop", _fixed(st), santorini_safe, santorini_stop_real)
            for name, (group, st) in SANTORINI_THREATS.items()]
    return out


# --- Dolphins & Foxes -----------------------------------------------------------------------

#: 4 x 4, water and land in a checkerboard: W L W L / L W L W / ...
CHECKERS = "".join("WL"[(r + c) % 2] for r in range(4) for c in range(4))


def dolphinfox(units: list[list[int]]) -> Any:
    return DOLPHINFOX.load_state({"size": 4, "terrain": CHECKERS, "max_moves": 200,
                                  "units": units, "moves": 0, "winner": None, "draw": False,
                                  "end_reason": "", "start_rows": [1, 4]})


def dolphinfox_safe(state: Any, seat: int) -> bool:
    know = knowledge_of("dolphinfox")
    return not can_win_now(DOLPHINFOX, copy_of(DOLPHINFOX, state), 1 - seat, know,
                           Budget(10_000))


def dolphinfox_stop_real(state: Any, seat: int) -> bool:
    return (not dolphinfox_safe(state, seat)
            and some_end(DOLPHINFOX, copy_of(DOLPHINFOX, state), seat,
                         lambda end: dolphinfox_safe(end, seat))
            and some_end(DOLPHINFOX, copy_of(DOLPHINFOX, state), seat,
                         lambda end: not dolphinfox_safe(end, seat)))


def dolphinfox_puzzles() -> list[Puzzle]:
    def at(units: list[list[int]]) -> Callable[[int], tuple[Any, int]]:
        return lambda seed: (dolphinfox(units), 0)

    real = missable_win(DOLPHINFOX)
    return [
        # a dolphin on row 3 steps onto the foxes' row; the other moves do not win
        Puzzle("dolphinfox", "cross", "win", at([[3, 1, 0], [1, 3, 0], [2, 4, 1], [1, 1, 1]]),
               winning(DOLPHINFOX), real),
        # the last fox stands on water, the dolphins' home, beside a dolphin: capture it
        Puzzle("dolphinfox", "take the last fox", "win", at([[2, 1, 0], [1, 4, 0], [2, 2, 1]]),
               winning(DOLPHINFOX), real),
        # the fox on (2, 2), on water, steps onto row 1 next: the dolphin beside it captures
        # it there (water is the dolphins' home); the fox on (4, 4) keeps the game going
        Puzzle("dolphinfox", "stop the crossing", "stop", at([[2, 1, 0], [2, 2, 1], [4, 4, 1]]),
               dolphinfox_safe, dolphinfox_stop_real),
    ]


# --- Eriantys -------------------------------------------------------------------------------


def eriantys_last_tower(seats: int) -> Callable[[int], tuple[Any, int]]:
    """A game of ``seats`` at the mother nature step of a seat with one tower left: one island
    within reach gives it the influence (its students, its professors), the others nothing."""
    def build(seed: int) -> tuple[Any, int]:
        rng = random.Random(seed)
        state = ERIANTYS.setup(seats, ERIANTYS.parse_options({}), seed)
        while True:  # on to a mother nature step that may go two steps or more
            seat = state.current()
            legal = ERIANTYS.legal_actions(state, seat) or []
            steps = max((a.steps for a in legal if a.type == "move_mother_nature"), default=0)
            if steps >= 2 and state.moved >= 3:
                break
            ERIANTYS.apply(state, seat, rng.choice(legal))
        target = (state.mother_nature + steps) % len(state.groups)
        team, rival = state.team(seat), state.team((seat + 1) % seats)
        for group in state.groups:
            group.students = [0] * 5
            if group.team == team:  # no towers of the seat's own on the board
                group.team, group.towers = -1, 0
        state.groups[target].students = [2, 1, 0, 0, 0]
        state.professors = [seat, seat] + [(seat + 1) % seats] * 3
        state.towers[team] = 1
        assert rival != team
        return state, seat
    return build


def eriantys_won(state: Any, seat: int) -> bool:
    outcome = ERIANTYS.outcome(state)
    return outcome is not None and outcome.reason == "last_tower" and outcome.winners == (seat,)


def eriantys_puzzles() -> list[Puzzle]:
    return [Puzzle(f"eriantys {n}p", "the last tower", "win", eriantys_last_tower(n),
                   eriantys_won, missable_win(ERIANTYS)) for n in (2, 3)]


# --- Masters of Renaissance (solo: the win in one exists there, against Lorenzo) --------------

MARBLES = {"W": "white", "B": "blue", "G": "grey", "Y": "yellow", "P": "purple", "R": "red"}
#: Lorenzo's token that takes two blue cards
BLUE_TOKEN = 2


def renaissance_solo(seed: int) -> Any:
    """A solo game past set-up (the first two leaders kept, depots empty), a known market
    (``"WWWR/YPBG/BGYP"``: the one red marble in row 1 and column 4) and its token pile
    without the blue token, which could end a game short of blue cards whatever the player
    did."""
    state = RENAISSANCE.setup(1, RENAISSANCE.parse_options({}), seed)
    player = state.players[0]
    RENAISSANCE.apply(state, 0, {"type": "choose_leaders", "leaders": player.dealt[:2]})
    player.depots = [[-1, 0], [-1, 0], [-1, 0]]
    state.market = [MARBLES[ch] for ch in "WWWRYPBGBGYP"]
    state.spare = "W"
    state.tokens = [t for t in state.tokens if t != BLUE_TOKEN]
    return state


def renaissance_slots(state: Any, slots: tuple[str, ...]) -> None:
    """Development cards (``cards.json`` keys, bottom first) into the player's slots."""
    player = state.players[0]
    player.slots = [[K.CARD_KEYS[k] for k in s.split()] for s in slots]
    taken = {c for s in player.slots for c in s}
    for deck in state.decks:
        deck[:] = [c for c in deck if c not in taken]


def seventh_card(seed: int) -> tuple[Any, int]:
    """Six cards in the slots and a strongbox that pays for any card: the seventh wins."""
    state = renaissance_solo(seed)
    renaissance_slots(state, ("L1-BLUE-1VP L2-BLUE-5VP L3-BLUE-9VP", "L1-BLUE-2VP L2-BLUE-6VP",
                              "L1-BLUE-3VP"))
    state.players[0].strongbox = [9, 9, 9, 9]
    return state, 0


def last_faith_space(seed: int) -> tuple[Any, int]:
    """On space 23 of the faith track, nothing to pay for a card: a line with the red marble
    (or a leader thrown away) reaches 24 and wins."""
    state = renaissance_solo(seed)
    state.players[0].faith = 23
    state.players[0].strongbox = [0, 0, 0, 0]
    return state, 0


def last_blue_card(seed: int) -> tuple[Any, int]:
    """Lorenzo wins when a colour is gone: buying the last blue card hands him the game,
    while other cards (any colour but blue) are for sale."""
    state = renaissance_solo(seed)
    state.players[0].strongbox = [9, 9, 9, 9]
    blue = [state.decks[K.deck_index(level, "blue")] for level in (1, 2, 3)]
    for deck in blue:
        state.removed += deck[:-1] if deck is blue[0] else list(deck)
        deck[:] = deck[-1:] if deck is blue[0] else []
    return state, 0


def renaissance_safe(state: Any, seat: int) -> bool:
    outcome = RENAISSANCE.outcome(state)
    return outcome is None or seat in outcome.winners


def renaissance_first_actions(test: Callable[[Any, int], bool]) -> Callable[[Any, int], bool]:
    """Real when some first action leads to a position where ``test`` holds (a Renaissance
    turn is too long to list whole; the first action decides these puzzles)."""
    def real(state: Any, seat: int) -> bool:
        for action in RENAISSANCE.legal_actions(state, seat) or []:
            after = copy_of(RENAISSANCE, state)
            RENAISSANCE.apply(after, seat, action)
            if test(after, seat):
                return True
        return False
    return real


def both(*tests: Callable[[Any, int], bool]) -> Callable[[Any, int], bool]:
    return lambda state, seat: all(test(state, seat) for test in tests)


def renaissance_puzzles() -> list[Puzzle]:
    group = "renaissance solo"
    won = winning(RENAISSANCE)
    not_won = renaissance_first_actions(lambda st, seat: not won(st, seat))
    wins_now = renaissance_first_actions(won)
    lost = renaissance_first_actions(lambda st, seat: not renaissance_safe(st, seat))
    kept = renaissance_first_actions(
        lambda st, seat: renaissance_safe(st, seat) and st.main == "buy")
    return [
        Puzzle(group, "the seventh card", "win", seventh_card, won, both(wins_now, not_won)),
        Puzzle(group, "the last faith space", "win", last_faith_space, won,
               both(wins_now, not_won)),
        Puzzle(group, "not the last blue card", "stop", last_blue_card, renaissance_safe,
               both(lost, kept)),
    ]


def all_puzzles() -> list[Puzzle]:
    return santorini_puzzles() + dolphinfox_puzzles() + eriantys_puzzles() + renaissance_puzzles()
