"""Masters of Renaissance solo, the hard level: it plans whole turns and judges where they
end by what wins a solo game (cards first), instead of random playouts."""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.bots import policies
from service.bots.policies import LEVELS, Search
from service.bots.renaissance_plan import plan_turn, solo_value
from service.games.registry import get_game

RENAISSANCE = get_game("renaissance")


def solo_in_play(seed: int) -> Any:
    """A solo game just past set-up (the first two leaders kept)."""
    state = RENAISSANCE.setup(1, RENAISSANCE.parse_options({}), seed)
    RENAISSANCE.apply(state, 0, RENAISSANCE.legal_actions(state, 0)[0])
    assert state.phase == "play"
    return state


def random_positions(seats: int, count: int, seed: int) -> list[Any]:
    """Positions of a game played at random, at the start of a turn of seat 0."""
    rng, found = random.Random(seed), []
    state = RENAISSANCE.setup(seats, RENAISSANCE.parse_options({}), seed)
    while len(found) < count and RENAISSANCE.outcome(state) is None:
        seat = min(RENAISSANCE.to_act(state))
        if state.phase == "play" and seat == 0 and not state.main and rng.random() < 0.5:
            found.append(RENAISSANCE.load_state(RENAISSANCE.dump_state(state)))
        RENAISSANCE.apply(state, seat, rng.choice(RENAISSANCE.legal_actions(state, seat)))
    return found


def test_a_card_bought_is_worth_more_than_the_resources_it_cost() -> None:
    checked = 0
    for state in random_positions(1, 40, 3):
        before = solo_value(state, 0)
        for buy in [a for a in RENAISSANCE.legal_actions(state, 0) if a.type == "buy_card"][:3]:
            after = RENAISSANCE.load_state(RENAISSANCE.dump_state(state))
            RENAISSANCE.apply(after, 0, buy)
            assert solo_value(after, 0) > before
            checked += 1
    assert checked >= 3


def test_throwing_resources_away_is_worth_less_than_keeping_them() -> None:
    """In solo every discarded resource moves Lorenzo's cross: placing beats discarding."""
    checked = 0
    for seed in range(8):
        state = solo_in_play(seed)
        take = next(a for a in RENAISSANCE.legal_actions(state, 0) if a.type == "take_from_market")
        RENAISSANCE.apply(state, 0, take)
        actions = RENAISSANCE.legal_actions(state, 0)
        for discard in [a for a in actions if a.type == "discard_resource"]:
            place = next((a for a in actions if a.type == "place_resource"
                          and a.resource == discard.resource), None)
            if place is None:
                continue
            values = []
            for action in (place, discard):
                after = RENAISSANCE.load_state(RENAISSANCE.dump_state(state))
                RENAISSANCE.apply(after, 0, action)
                values.append(solo_value(after, 0))
            assert values[0] > values[1]
            checked += 1
    assert checked >= 3


def test_with_a_full_warehouse_it_produces_or_buys_rather_than_throw_a_market_line_away() -> None:
    for seed in range(4):
        state = solo_in_play(seed)
        p = state.players[0]
        p.depots = [[0, 1], [1, 2], [2, 3]]  # 1 coin, 2 servants, 3 shields: full
        p.slots[0] = [3]  # green level 1: 2 servants -> coin, shield, stone
        p.strongbox = [0, 2, 0, 2]
        allowed = RENAISSANCE.legal_actions(state, 0)
        chosen = plan_turn(RENAISSANCE, state, 0, allowed, random.Random(seed))
        assert chosen in allowed
        assert chosen.type in ("produce_card", "produce_base", "produce_leader", "buy_card"), chosen


def test_the_plan_keeps_to_the_actions_it_is_allowed() -> None:
    for index, state in enumerate(random_positions(1, 6, 9)):
        allowed = [a for a in RENAISSANCE.legal_actions(state, 0) if a.type == "take_from_market"]
        chosen = plan_turn(RENAISSANCE, state, 0, allowed, random.Random(index))
        assert chosen in allowed


def test_the_plan_leaves_set_up_to_the_search() -> None:
    state = RENAISSANCE.setup(1, RENAISSANCE.parse_options({}), 1)
    assert plan_turn(RENAISSANCE, state, 0, RENAISSANCE.legal_actions(state, 0),
                     random.Random(1)) is None


@pytest.mark.parametrize(("seats", "level", "plays_out"), [
    (1, "hard", False), (1, "mcts", False), (1, "medium", True), (2, "hard", True)])
def test_hard_plans_solo_turns_instead_of_playing_out(
        seats: int, level: str, plays_out: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The planner is the hard level's, in solo; elsewhere the playouts choose."""
    played = [0]
    real = policies.playout

    def counting(*args: Any) -> float:
        played[0] += 1
        return real(*args)

    monkeypatch.setattr(policies, "playout", counting)
    for index, state in enumerate(random_positions(seats, 3, 20 + seats)):
        chosen = LEVELS[level](RENAISSANCE, state, 0, 0.02, random.Random(index))
        assert chosen in RENAISSANCE.legal_actions(state, 0)
    assert (played[0] > 0) is plays_out


def test_after_an_idle_action_the_planned_one_is_not_idle() -> None:
    for index, state in enumerate(random_positions(1, 12, 31)):
        take = next(a for a in RENAISSANCE.legal_actions(state, 0) if a.type == "take_from_market")
        RENAISSANCE.apply(state, 0, take)
        actions = RENAISSANCE.legal_actions(state, 0)
        if not any(policies.is_idle(RENAISSANCE, state, 0, a) for a in actions):
            continue
        chosen = Search(RENAISSANCE, state, 0, random.Random(index), after_idle=True,
                        level=policies.LEVEL_SPECS["hard"]).run(0.0, playouts=8)
        assert not policies.is_idle(RENAISSANCE, state, 0, chosen), chosen
