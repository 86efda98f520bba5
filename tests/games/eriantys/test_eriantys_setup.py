from __future__ import annotations

import pytest

from eriantys_helpers import GAME
from service.errors import MalformedAction
from service.games.eriantys.checks import invariant_errors
from service.games.eriantys.setup import EriantysOptions, setup_state


def make(seats: int, expert: bool = False, seed: int = 7, **extra):
    return GAME.setup(seats, GAME.parse_options({"expert": expert, **extra}), seed)


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", range(5))
def test_island_students_skip_mother_nature_and_opposite(seats: int, seed: int) -> None:
    s = make(seats, seed=seed)
    mn = s.mother_nature
    per_island = [sum(g.students) for g in s.groups]
    assert per_island[mn] == 0 and per_island[(mn + 6) % 12] == 0
    assert sorted(per_island) == [0, 0] + [1] * 10
    totals = [sum(g.students[c] for g in s.groups) for c in range(5)]
    assert totals == [2] * 5


@pytest.mark.parametrize("seats,entrance,bag,towers", [
    (2, 7, 106, [8, 8]), (3, 9, 93, [6, 6, 6]), (4, 7, 92, [8, 8])])
def test_normal_setup_counts(seats: int, entrance: int, bag: int, towers: list[int]) -> None:
    s = make(seats)
    assert all(sum(p.entrance) == entrance for p in s.players)
    per_cloud = s.params.per_cloud
    # the first planning phase already refilled the clouds
    assert [sum(c) for c in s.clouds] == [per_cloud] * seats
    assert sum(s.bag) == bag - per_cloud * seats
    assert s.towers == towers
    assert s.professors == [-1] * 5
    assert all(p.hand == list(range(1, 11)) for p in s.players)
    assert s.phase == "planning" and s.round == 1
    assert s.planning_order == [(s.first_player + i) % seats for i in range(seats)]
    assert not invariant_errors(s)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_expert_setup_coins_and_characters(seats: int) -> None:
    for seed in range(20):
        s = make(seats, expert=True, seed=seed)
        assert all(p.coins == 1 for p in s.players)
        assert s.reserve == 20 - seats
        keys = [c.key for c in s.characters]
        assert len(set(keys)) == 3
        drawn = {"monk": 4, "jester": 6, "spoiled_princess": 4}
        for card in s.characters:
            assert sum(card.students) == drawn.get(card.key, 0)
            assert card.no_entry == (4 if card.key == "grandma_herbs" else 0)
            assert not card.used
        assert not invariant_errors(s)


def test_all_twelve_characters_appear_over_seeds() -> None:
    seen = set()
    for seed in range(60):
        seen |= {c.key for c in make(2, expert=True, seed=seed).characters}
    assert len(seen) == 12


def test_fixed_characters_option() -> None:
    s = make(2, expert=True, characters=["monk", "jester", "spoiled_princess"])
    assert [c.key for c in s.characters] == ["monk", "jester", "spoiled_princess"]
    assert sum(s.bag) == 106 - 6 - 14  # clouds, then 4 + 6 + 4 on the cards


def test_setup_is_a_function_of_seed() -> None:
    assert GAME.dump_state(make(3, True, seed=11)) == GAME.dump_state(make(3, True, seed=11))
    assert GAME.dump_state(make(3, True, seed=11)) != GAME.dump_state(make(3, True, seed=12))


def test_first_player_and_mother_nature_vary() -> None:
    firsts = {make(4, seed=s).first_player for s in range(30)}
    mns = {make(4, seed=s).mother_nature for s in range(60)}
    assert firsts == {0, 1, 2, 3}
    assert len(mns) >= 8


def test_first_player_option_fixes_round_one_only() -> None:
    for seed in range(6):
        drawn = make(3, seed=seed)
        fixed = make(3, seed=seed, first_player=2)
        assert fixed.first_player == 2 and fixed.planning_order == [2, 0, 1]
        assert fixed.mother_nature == drawn.mother_nature and fixed.bag == drawn.bag
        assert fixed.rng == drawn.rng  # the draw still happens: the rest of the game is the same
    with pytest.raises(MalformedAction):
        GAME.setup(2, GAME.parse_options({"first_player": 2}), 1)
    with pytest.raises(MalformedAction):
        GAME.parse_options({"first_player": -1})


def test_wizards_option() -> None:
    s = make(2, wizards=["snow", "desert"])
    assert [p.wizard for p in s.players] == ["snow", "desert"]
    assert [p.wizard for p in make(3).players] == ["nature", "desert", "cloud"]


@pytest.mark.parametrize("raw", [
    {"wizards": ["snow", "snow"]}, {"wizards": ["merlin", "snow"]}, {"expert": "maybe"},
    {"colour": 1}, {"characters": ["monk", "monk", "farmer"]}, {"characters": ["monk"]},
    {"characters": ["monk", "farmer", "wizard"]},
])
def test_bad_options_are_malformed(raw: dict) -> None:
    with pytest.raises(MalformedAction):
        GAME.parse_options(raw)


def test_bad_seat_counts_and_option_combinations() -> None:
    for seats in (1, 5):
        with pytest.raises(MalformedAction):
            GAME.setup(seats, GAME.parse_options({}), 1)
    with pytest.raises(MalformedAction):
        GAME.setup(3, GAME.parse_options({"wizards": ["snow", "cloud"]}), 1)
    with pytest.raises(MalformedAction):
        setup_state(2, EriantysOptions(expert=False, characters=("monk", "farmer", "thief")), 1)


def test_four_player_teams() -> None:
    s = make(4)
    assert [GAME.team_of(s, seat) for seat in range(4)] == [0, 1, 0, 1]
    assert len(s.towers) == 2
    s2 = make(3)
    assert [GAME.team_of(s2, seat) for seat in range(3)] == [0, 1, 2]


def test_game_object_contract() -> None:
    from service.games.registry import get_game

    game = get_game("eriantys")
    assert game is GAME or game.name == "eriantys"
    assert (GAME.name, GAME.min_seats, GAME.max_seats) == ("eriantys", 2, 4)
