"""How a bot chooses its action: pure functions over the game contract, no I/O.

``decide`` is what a worker process runs. Levels (``LEVEL_SPECS``; what a person picks):

* ``easy``: tactics on a small look (a win in one is taken), then a little search (5 % of
  the budget's playouts), and one move in four a random one of the actions the look kept:
  beatable.
* ``medium``: the whole tactical look, then a quarter of the budget's playouts.
* ``hard``: the whole tactical look, then the whole budget's playouts (in Santorini with two
  players and in Dolphins & Foxes, an alpha-beta search of whole turns instead, with the
  positions those playouts would cost: ``alphabeta.py``; in Masters of Renaissance solo, a
  planner of whole turns: ``renaissance_plan.py``).
* ``random``: any legal action, uniformly (the floor; kept as it was, for saved seats and
  stand-ins). ``mcts`` is an alias of ``hard`` (``ALIASES``), so saved ``mcts`` seats play on.

Every search is a fixed amount of work: a budget of B seconds is a fixed number of playouts
(B times what one core plays in a second in that game), never a deadline, and the tactical
look is bounded by positions. Every level above ``random`` looks at tactics first
(``tactics.py``): a turn that wins is played, and when an opponent could win with its next
turn, only the actions that start a turn preventing it are searched.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.errors import ServiceError
from service.games.base import ActionModel, Game
from service.games.registry import get_game
from service.bots.alphabeta import best_action
from service.bots.knowledge import Knowledge, knowledge_of
from service.bots.tactics import tactics

#: at most this many root actions are searched; the rest are cut by a one-step look
SHORTLIST = 16
#: at most this many root actions get the one-step look
SCREENED = 160
EXPLORATION = 1.0
#: positions the tactical look of one decision may visit (a game's ``look`` may lower it)
TACTICS_POSITIONS = 6000
#: with more legal actions than this (Santorini's god pick, Eriantys' characters), the
#: tactical look is left out: the one-step look of the shortlist still takes a win at once
TACTICS_ACTIONS = 300


class NoLegalAction(ServiceError):
    code = "bots/no_legal_action"


@dataclass(frozen=True)
class Request:
    """One move to choose: everything a worker process needs, all of it picklable."""

    game: str
    snapshot: dict[str, Any]
    seat: int
    level: str
    budget: float
    seed: int
    #: the seat's previous action was idle (changed nothing players care about): this one
    #: may not be, when anything else is legal
    after_idle: bool = False


@dataclass(frozen=True)
class Level:
    """A level a person picks: a fixed amount of search, the same on a busy machine."""

    name: str
    #: the share of the budget whose playouts this level plays: ``playouts_for(game,
    #: budget * share)`` (the budget is ``--bot-budget``, in seconds of one core)
    share: float
    #: positions its tactical look may visit (a game's ``look`` may lower it)
    positions: int = TACTICS_POSITIONS
    #: the chance of playing a random one of the actions the tactical look kept (a win in
    #: one is always taken) instead of the searched one: a person can beat it
    noise: float = 0.0
    #: the game's stronger knowledge where it has one (``knowledge.STRONG``: Renaissance
    #: solo's turn planner, ``Knowledge.plan``)
    strong: bool = False

    def playouts(self, game: Game[Any], budget: float) -> int:
        return playouts_for(game, budget * self.share)


def decide(request: Request) -> dict[str, Any]:
    """The chosen action of ``request.seat``, as wire data."""
    game = get_game(request.game)
    state = game.load_state(request.snapshot)
    rng = random.Random(request.seed)
    action = choose(game, state, request.seat, request.level, request.budget, rng,
                    after_idle=request.after_idle)
    return game.dump_action(action)


def choose(game: Game[Any], state: Any, seat: int, level: str, budget: float,
           rng: random.Random, *, after_idle: bool = False) -> ActionModel:
    """The action ``level`` (a level's name or an alias) plays for ``seat``; ``after_idle``:
    its previous action changed nothing players care about (``Request.after_idle``)."""
    spec = LEVEL_SPECS.get(canonical_level(level))
    if spec is None:
        return choose_random(game, state, seat, budget, rng)
    search = Search(game, state, seat, rng, after_idle=after_idle, level=spec)
    return search.run(budget, playouts=spec.playouts(game, budget))


def is_idle(game: Game[Any], state: Any, seat: int, action: ActionModel | dict[str, Any]) -> bool:
    """Whether ``action`` changes nothing players care about (the game's ``essence``; False
    in a game without one). ``state`` is left as it was."""
    essence = knowledge_of(game.name).essence
    if essence is None:
        return False
    after = game.load_state(game.dump_state(state))
    try:
        game.apply(after, seat, game.parse_action(action))
    except ServiceError:
        return False
    return essence(after) == essence(state)


def legal(game: Game[Any], state: Any, seat: int) -> list[ActionModel]:
    actions = game.legal_actions(state, seat)
    if not actions:
        raise NoLegalAction(f"{game.name}: seat {seat} has no listed legal action")
    return actions


def choose_random(game: Game[Any], state: Any, seat: int, budget: float,
                  rng: random.Random) -> ActionModel:
    return rng.choice(legal(game, state, seat))


def value_for(game: Game[Any], state: Any, seat: int, know: Knowledge) -> float | None:
    """1 won, 0 lost or knocked out, 0.5 drawn; the evaluator's reading otherwise
    (None when the game is not over and there is no evaluator)."""
    outcome = game.outcome(state)
    if outcome is not None:
        if seat not in outcome.winners:
            return 0.5 if outcome.draw and not outcome.winners else 0.0
        return 0.5 if outcome.draw else 1.0
    if seat in game.eliminated(state):
        return 0.0
    return know.evaluate(state, seat) if know.evaluate else None


def random_step(game: Game[Any], state: Any, rng: random.Random) -> bool:
    """One random action by a seat that may act; False when nobody can (or it failed)."""
    acting = sorted(game.to_act(state))
    if not acting:
        return False
    seat = rng.choice(acting)
    actions = game.legal_actions(state, seat)
    if not actions:
        return False
    try:
        game.apply(state, seat, rng.choice(actions))
    except ServiceError:
        return False
    return True


def playout(game: Game[Any], state: Any, seat: int, know: Knowledge, rng: random.Random) -> float:
    """Play at random from ``state`` (a copy the caller gives away) up to the horizon."""
    for _ in range(know.horizon):
        if game.outcome(state) is not None or seat in game.eliminated(state):
            break
        if not random_step(game, state, rng):
            break
    value = value_for(game, state, seat, know)
    return 0.5 if value is None else value


class Search:
    """Flat UCB1 over the root actions of one position."""

    def __init__(self, game: Game[Any], state: Any, seat: int, rng: random.Random, *,
                 after_idle: bool = False, level: Level | None = None) -> None:
        self.game, self.seat, self.rng = game, seat, rng
        self.level = level or LEVEL_SPECS["hard"]
        self.know = knowledge_of(game.name, strong=self.level.strong)
        self.snapshot = game.dump_state(state)
        self.positions = min(self.level.positions, self.know.look)
        self.after_idle = after_idle
        #: the evaluator's reading one action ahead, by candidate (``Knowledge.prior``)
        self.first_look: dict[int, float] = {}

    def purposeful(self, state: Any, actions: list[ActionModel]) -> list[ActionModel]:
        """After an idle action, the actions that are not idle (all, when every one is)."""
        essence = self.know.essence
        if not self.after_idle or essence is None:
            return actions
        now = essence(state)
        moving = []
        for action in actions:
            after = self.game.load_state(self.game.dump_state(state))
            try:
                self.game.apply(after, self.seat, action)
            except ServiceError:
                continue
            if essence(after) != now:
                moving.append(action)
        return moving or actions

    def tactical(self, state: Any, actions: list[ActionModel]) -> list[ActionModel]:
        """A winning action alone; else the actions that stop an opponent's win in one
        (all of them when none is known to, or when every one loses anyway)."""
        if len(actions) > TACTICS_ACTIONS or self.positions <= 0:
            return actions
        verdict = tactics(self.game, state, self.seat, self.know, actions, self.positions)
        if verdict.winning is not None:
            return [verdict.winning]
        return verdict.safe or actions

    def fresh(self) -> Any:
        state = self.game.load_state(self.snapshot)
        if self.know.redraw is not None:
            self.know.redraw(state, self.seat, self.rng)
        return state

    def after(self, action: ActionModel) -> Any | None:
        state = self.fresh()
        try:
            self.game.apply(state, self.seat, action)
        except ServiceError:
            return None
        return state

    def shortlist(self, actions: list[ActionModel], deadline: float) -> tuple[list[ActionModel], ActionModel | None]:
        """Up to SHORTLIST actions worth searching, and an action that wins now if one does."""
        screened = actions if len(actions) <= SCREENED else self.rng.sample(actions, SCREENED)
        scored: list[tuple[float, float, ActionModel]] = []
        for action in screened:
            if time.perf_counter() > deadline and scored:
                break
            state = self.after(action)
            if state is None:
                continue
            value = value_for(self.game, state, self.seat, self.know)
            if value == 1.0 and self.game.outcome(state) is not None:
                return [action], action
            scored.append((0.5 if value is None else value, self.rng.random(), action))
        scored.sort(key=lambda item: item[:2], reverse=True)
        self.first_look = {id(action): value for value, _, action in scored}
        return [action for _, _, action in scored[:SHORTLIST]] or actions[:1], None

    def run(self, budget: float, playouts: int | None = None) -> ActionModel:
        """The action to play: searched for ``budget`` seconds, or, with ``playouts``, for
        exactly that many playouts whatever the time it takes (the same choice on a quiet
        machine and on a busy one)."""
        state = self.fresh()
        actions = legal(self.game, state, self.seat)
        if self.know.prune is not None:
            actions = self.know.prune(state, actions)
        actions = self.purposeful(state, actions)
        if len(actions) > 1:
            actions = self.tactical(state, actions)
        if len(actions) == 1:
            return actions[0]
        if self.level.noise and self.rng.random() < self.level.noise:
            return self.rng.choice(actions)
        deep = self.deep(state, actions, playouts)
        if deep is not None:
            return deep
        if self.know.plan is not None:  # the hard level's planner, where the game has one
            if self.know.plan_positions and playouts is not None:
                planned = self.know.plan(self.game, state, self.seat, actions, self.rng,
                                         playouts * self.know.plan_positions)
            else:
                planned = self.know.plan(self.game, state, self.seat, actions, self.rng)
            if planned is not None:
                return planned
        timed = playouts is None
        deadline = time.perf_counter() + budget if timed else math.inf
        candidates, winning = self.shortlist(actions, deadline - budget / 2 if timed else math.inf)
        if winning is not None or len(candidates) == 1:
            return candidates[0]
        visits, totals = [0] * len(candidates), [0.0] * len(candidates)
        spent = 0
        while (time.perf_counter() < deadline) if playouts is None else (spent < playouts):
            spent += 1
            i = self._pick(visits, totals)
            state = self.after(candidates[i])
            value = 0.0 if state is None else playout(self.game, state, self.seat, self.know, self.rng)
            visits[i] += 1
            totals[i] += value
        tried = [i for i in range(len(candidates)) if visits[i]] or [0]  # 0: the best first look
        prior = self.know.prior

        def merit(i: int) -> tuple[float, int]:
            look = self.first_look.get(id(candidates[i]), 0.5)
            return totals[i] / max(1, visits[i]) + prior * look, visits[i]

        return candidates[max(tried, key=merit)]

    def deep(self, state: Any, actions: list[ActionModel],
             playouts: int | None) -> ActionModel | None:
        """The alpha-beta search's choice, where the game has one for this level and the
        position (``Knowledge.deep``): as many positions as the playouts would have cost."""
        know = self.know
        if know.deep is None or playouts is None or not (know.deep_fits and know.deep_fits(state)):
            return None
        return best_action(self.game, state, self.seat, actions, know, know.deep,
                           playouts * know.deep_positions)

    @staticmethod
    def _pick(visits: list[int], totals: list[float]) -> int:
        for i, n in enumerate(visits):
            if n == 0:
                return i
        log_all = math.log(sum(visits))
        return max(range(len(visits)),
                   key=lambda i: totals[i] / visits[i] + EXPLORATION * math.sqrt(log_all / visits[i]))


#: the fewest playouts a search gets, however small its budget
MIN_PLAYOUTS = 8


def playouts_for(game: Game[Any], budget: float) -> int:
    """The playouts a budget of ``budget`` seconds buys in this game: a fixed amount of search
    (the game's measured ``rate``), not a deadline, so a busy server does not weaken a bot."""
    return max(MIN_PLAYOUTS, round(budget * knowledge_of(game.name).rate))


Policy = Callable[[Game[Any], Any, int, float, random.Random], ActionModel]

#: the levels of search, weakest first; a budget B (``--bot-budget``, default 1 s of one
#: core) gives ``hard`` B's playouts, ``medium`` a quarter of them, ``easy`` a twentieth
LEVEL_SPECS: dict[str, Level] = {
    "easy": Level("easy", share=0.05, positions=1000, noise=0.25),
    "medium": Level("medium", share=0.25),
    "hard": Level("hard", share=1.0, strong=True),
}
#: names kept for saved bot seats (``players.bot_level``) and old clients: alias -> level
ALIASES: dict[str, str] = {"mcts": "hard"}


def _searching(name: str) -> Policy:
    """The policy of a searching level or an alias (``choose`` resolves the alias)."""
    def policy(game: Game[Any], state: Any, seat: int, budget: float,
               rng: random.Random) -> ActionModel:
        return choose(game, state, seat, name, budget, rng)
    policy.__name__ = f"choose_{name}"
    return policy


#: level name -> policy; the names are what clients ask for (the server offers every one,
#: the aliases included, and the hub refuses any other)
LEVELS: dict[str, Policy] = {
    "random": choose_random,
    **{name: _searching(name) for name in (*LEVEL_SPECS, *ALIASES)},
}


def canonical_level(level: str) -> str:
    """The level an alias stands for (``mcts`` -> ``hard``); a level's own name otherwise."""
    return ALIASES.get(level, level)
