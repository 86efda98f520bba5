"""Eriantys, the hard level: whole turns searched on positions dealt from what the seat sees.

It never peeks (the bag's order, the only thing a seat cannot see, does not change its move),
it plays only legal actions, it finishes games, and its judgement of a position prefers what
wins the game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.bots.eriantys_plan import LOST, WON, plan_eriantys, value
from service.bots.policies import LEVEL_SPECS, Search, legal
from service.games.eriantys.state import draw
from service.games.registry import get_game

ERIANTYS = get_game("eriantys")
HARD = LEVEL_SPECS["hard"]
#: playouts a move in these tests: the planner gets this many times ``plan_positions``
PLAYOUTS = 40


def copy(state: Any) -> Any:
    return ERIANTYS.load_state(ERIANTYS.dump_state(state))


def positions(seats: int, seed: int, phase: str, count: int) -> list[Any]:
    """Positions of a game played at random (expert rules) where a seat is to act in
    ``phase``, some of them part way through a turn."""
    rng, found = random.Random(seed), []
    state = ERIANTYS.setup(seats, ERIANTYS.parse_options({"expert": True}), seed)
    while len(found) < count and ERIANTYS.outcome(state) is None:
        seat = next(iter(ERIANTYS.to_act(state)))
        if state.phase == phase and rng.random() < 0.3:
            found.append(copy(state))
        ERIANTYS.apply(state, seat, rng.choice(ERIANTYS.legal_actions(state, seat)))
    assert len(found) == count
    return found


def hard_choice(state: Any, seed: int) -> Any:
    seat = next(iter(ERIANTYS.to_act(state)))
    search = Search(ERIANTYS, state, seat, random.Random(seed), level=HARD)
    return search.run(1.0, playouts=PLAYOUTS)


@pytest.mark.parametrize("seats", [2, 3])
@pytest.mark.parametrize("phase", ["planning", "action"])
def test_hard_never_peeks_at_the_bag(seats: int, phase: str) -> None:
    """Two positions that differ only in the bag's hidden order (the generator its draws come
    from) get the same move from the same seed, though their next draws differ."""
    for i, state in enumerate(positions(seats, 7 + seats, phase, 3)):
        other = copy(state)
        other.rng = (state.rng * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        a, b = copy(state), copy(other)
        assert [draw(a) for _ in range(8)] != [draw(b) for _ in range(8)]
        assert ERIANTYS.view(state, 0) == ERIANTYS.view(other, 0)
        for seed in (i, 100 + i):
            assert hard_choice(state, seed) == hard_choice(other, seed)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_planner_keeps_to_the_allowed_actions(seats: int) -> None:
    for phase in ("planning", "action"):
        for i, state in enumerate(positions(seats, 20 + seats, phase, 4)):
            seat = next(iter(ERIANTYS.to_act(state)))
            allowed = legal(ERIANTYS, state, seat)
            before = ERIANTYS.dump_state(state)
            chosen = plan_eriantys(ERIANTYS, state, seat, allowed, random.Random(i), 300)
            assert chosen in allowed
            assert ERIANTYS.dump_state(state) == before  # it planned on copies


@pytest.mark.parametrize("seats", [2, 3])
def test_hard_finishes_games_with_legal_actions(seats: int) -> None:
    """A whole game: hard in seat 0, random elsewhere; every move it plays is legal."""
    state = ERIANTYS.setup(seats, ERIANTYS.parse_options({"expert": True}), 40 + seats)
    rng, moves = random.Random(seats), 0
    while ERIANTYS.outcome(state) is None:
        assert moves < 3000
        seat = next(iter(ERIANTYS.to_act(state)))
        actions = ERIANTYS.legal_actions(state, seat)
        if seat == 0:
            action = Search(ERIANTYS, state, seat, rng, level=HARD).run(1.0, playouts=8)
            assert action in actions
        else:
            action = rng.choice(actions)
        ERIANTYS.apply(state, seat, action)
        moves += 1
    outcome = ERIANTYS.outcome(state)
    assert outcome is not None and outcome.reason


def test_value_prefers_towers_and_reads_the_end() -> None:
    state = positions(2, 31, "action", 1)[0]
    seat = next(iter(ERIANTYS.to_act(state)))
    rival = 1 - seat
    more = copy(state)
    more.towers[seat] -= 1
    assert value(more, seat) > value(state, seat)
    assert value(more, rival) < value(state, rival)
    over = copy(state)
    over.phase, over.winners, over.draw = "over", [seat], False
    assert value(over, seat) == WON and value(over, rival) == LOST


def test_the_turn_search_takes_an_island_within_reach() -> None:
    """A 2-player position at mother nature's move: one step reaches an island where the
    seat has the most influence (it holds the professor of the students there), the others
    do not; the planner moves there."""
    state = ERIANTYS.setup(2, ERIANTYS.parse_options({"expert": False}), 3)
    while not (state.phase == "action"):
        seat = next(iter(ERIANTYS.to_act(state)))
        ERIANTYS.apply(state, seat, ERIANTYS.legal_actions(state, seat)[-1])
    seat = state.current()
    n = len(state.groups)
    for group in state.groups:
        group.students = [0] * 5
    state.professors = [seat, -1, -1, -1, -1]
    state.moved = state.params.moves
    target = (state.mother_nature + 1) % n
    state.groups[target].students[0] = 3
    actions = ERIANTYS.legal_actions(state, seat)
    assert [a.type for a in actions][0] == "move_mother_nature" and len(actions) > 1
    chosen = plan_eriantys(ERIANTYS, state, seat, actions, random.Random(0), 200)
    assert chosen.type == "move_mother_nature" and chosen.steps == 1


def test_the_planner_is_handed_a_bag_of_the_bots_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the planner plans from has a generator dealt from the bot's seed, never the
    match's: the same for two positions that differ only there, and neither of theirs."""
    import dataclasses

    from service.bots import knowledge

    seen: list[int] = []
    strong = knowledge.STRONG["eriantys"]

    def spy(game: Any, state: Any, seat: int, allowed: list[Any], rng: random.Random,
            positions: int) -> Any:
        seen.append(state.rng)
        return strong.plan(game, state, seat, allowed, rng, positions)

    monkeypatch.setitem(knowledge.STRONG, "eriantys", dataclasses.replace(strong, plan=spy))
    for phase in ("planning", "action"):
        state = positions(2, 5, phase, 1)[0]
        other = copy(state)
        other.rng = state.rng ^ 0x5DEECE66D
        seen.clear()
        assert hard_choice(state, 3) == hard_choice(other, 3)
        assert len(seen) == 2 and seen[0] == seen[1]
        assert seen[0] not in (state.rng, other.rng)
