from __future__ import annotations

from eriantys_helpers import GAME, act, position, rejects, types

BASE = {"seats": 2, "played": {0: 3, 1: 5}, "clear_islands": True, "mother_nature": 0,
        "entrance": {0: "rrrggbb", 1: "yyyppbb"}, "dining": {0: "", 1: ""}}


def pos(**extra):
    spec = dict(BASE)
    spec.update(extra)
    return position(spec)


def test_move_to_dining_takes_an_unowned_professor() -> None:
    s = pos()
    ev = act(s, 0, type="move_student", color="red", to="dining")
    assert types(ev) == ["student_moved", "professor_taken"]
    assert ev[1] == {"type": "professor_taken", "seat": 0, "color": "red", "from": None}
    assert s.players[0].dining[1] == 1 and s.players[0].entrance[1] == 2 and s.moved == 1


def test_move_to_island_adds_population_only() -> None:
    s = pos()
    ev = act(s, 0, type="move_student", color="green", to=4)
    assert types(ev) == ["student_moved"]
    assert s.groups[4].students == [1, 0, 0, 0, 0] and s.groups[4].team == -1


def test_exactly_three_students_then_mother_nature() -> None:
    s = pos()
    rejects(s, 0, "students_not_moved", type="move_mother_nature", steps=1)
    for _ in range(3):
        act(s, 0, type="move_student", color="red", to=1)
    rejects(s, 0, "students_already_moved", type="move_student", color="green", to=1)
    assert {a.type for a in GAME.legal_actions(s, 0)} == {"move_mother_nature"}


def test_three_player_moves_four() -> None:
    s = position({"seats": 3, "played": {0: 1, 1: 2, 2: 3}})
    for _ in range(4):
        seat_moves = [a for a in GAME.legal_actions(s, 0) if a.type == "move_student"]
        GAME.apply(s, 0, seat_moves[-1])
    assert GAME.legal_actions(s, 0)[0].type == "move_mother_nature"


def test_student_must_be_in_entrance_and_row_must_fit() -> None:
    s = pos(dining={0: "r" * 10, 1: ""})
    rejects(s, 0, "student_not_in_entrance", type="move_student", color="yellow", to="dining")
    rejects(s, 0, "dining_full", type="move_student", color="red", to="dining")
    rejects(s, 0, "no_such_island", type="move_student", color="red", to=12)
    legal = GAME.legal_actions(s, 0)
    assert not any(a.color == "red" and a.to == "dining" for a in legal)
    assert sum(1 for a in legal if a.color == "red") == 12


def test_not_your_turn_in_action_phase() -> None:
    s = pos()
    rejects(s, 1, "not_your_turn", type="move_student", color="yellow", to="dining")
    assert GAME.legal_actions(s, 1) == []


def test_professor_tie_keeps_holder_and_majority_takes() -> None:
    s = pos(dining={0: "", 1: "rr"}, professors={"red": 1})
    act(s, 0, type="move_student", color="red", to="dining")
    ev = act(s, 0, type="move_student", color="red", to="dining")
    assert s.professors[1] == 1 and "professor_taken" not in types(ev)  # 2 vs 2: holder keeps
    ev = act(s, 0, type="move_student", color="red", to="dining")
    assert s.professors[1] == 0
    assert ev[-1] == {"type": "professor_taken", "seat": 0, "color": "red", "from": 1}


def test_four_player_professors_are_individual() -> None:
    s = position({"seats": 4, "played": {0: 1, 1: 2, 2: 3, 3: 4}, "entrance": {0: "rrrgggb"},
                  "dining": {0: "", 1: "r", 2: "rr", 3: ""}, "professors": {"red": 2}})
    act(s, 0, type="move_student", color="red", to="dining")
    act(s, 0, type="move_student", color="red", to="dining")
    assert s.professors[1] == 2  # teammate 2 holds it; 0 only ties and may not add 2's students
    act(s, 0, type="move_student", color="red", to="dining")
    assert s.professors[1] == 0


def _ready(**extra):
    return pos(moved=3, **extra)


def test_mother_nature_distance_limits() -> None:
    s = _ready()
    rejects(s, 0, "bad_mother_nature_distance", type="move_mother_nature", steps=0)
    rejects(s, 0, "bad_mother_nature_distance", type="move_mother_nature", steps=3)
    assert [a.steps for a in GAME.legal_actions(s, 0)] == [1, 2]  # card 3 -> 2 moves
    ev = act(s, 0, type="move_mother_nature", steps=2)
    assert ev[0] == {"type": "mother_nature_moved", "seat": 0, "steps": 2, "island": 2}
    rejects(s, 0, "mother_nature_already_moved", type="move_mother_nature", steps=1)


def test_a_group_counts_as_one_step() -> None:
    s = _ready(groups=[1, 3, 1, 1, 1, 1, 1, 1, 1, 1], mother_nature=0)
    act(s, 0, type="move_mother_nature", steps=2)
    assert s.mother_nature == 2 and s.groups[2].tiles == [4]


def test_mother_nature_wraps_around() -> None:
    s = _ready(mother_nature=11)
    act(s, 0, type="move_mother_nature", steps=2)
    assert s.mother_nature == 1


def test_unique_highest_influence_places_a_tower() -> None:
    s = _ready(islands={1: "rrg"}, professors={"red": 0, "green": 1})
    ev = act(s, 0, type="move_mother_nature", steps=1)
    assert {"type": "tower_placed", "team": 0, "tower": "black", "island": 1, "count": 1} in ev
    assert s.groups[1].team == 0 and s.towers == [7, 8]


def test_tied_influence_and_zero_influence_place_nothing() -> None:
    s = _ready(islands={1: "rg"}, professors={"red": 0, "green": 1})
    act(s, 0, type="move_mother_nature", steps=1)
    assert s.groups[1].team == -1 and s.towers == [8, 8]
    s = _ready(islands={1: "yy"})
    act(s, 0, type="move_mother_nature", steps=1)
    assert s.groups[1].team == -1


def test_towers_count_for_their_owner() -> None:
    s = _ready(islands={1: {"students": "rg", "team": 1}}, professors={"red": 0, "green": 1})
    act(s, 0, type="move_mother_nature", steps=1)
    assert s.groups[1].team == 1  # 1 vs 1 + tower


def test_conquest_replaces_every_tower_of_the_group() -> None:
    s = _ready(groups=[1, 3, 1, 1, 1, 1, 1, 1, 1, 1],
               islands={1: {"students": "rrrrrg", "team": 1}},
               professors={"red": 0, "green": 1})
    ev = act(s, 0, type="move_mother_nature", steps=1)
    assert {"type": "towers_returned", "team": 1, "island": 1, "count": 3} in ev
    assert s.groups[1].team == 0 and s.groups[1].towers == 3
    assert s.towers == [5, 8]


def test_owner_tie_keeps_towers() -> None:
    s = _ready(islands={1: {"students": "rrg", "team": 1}}, professors={"red": 0, "green": 1})
    act(s, 0, type="move_mother_nature", steps=1)
    assert s.groups[1].team == 1


def test_merge_with_both_neighbours_keeps_mother_nature_on_the_group() -> None:
    s = _ready(islands={0: {"team": 0}, 1: "r", 2: {"team": 0}, 5: "gg"},
               professors={"red": 0}, mother_nature=0)
    ev = act(s, 0, type="move_mother_nature", steps=1)
    assert ev[-1] == {"type": "islands_merged", "island": 0, "tiles": [0, 1, 2], "groups": 10}
    assert len(s.groups) == 10 and s.mother_nature == 0
    assert s.groups[0].towers == 3 and s.groups[0].students[1] == 1
    assert s.groups[3].tiles == [5] and s.groups[3].students[0] == 2  # reindexed


def test_merge_across_the_end_of_the_circle() -> None:
    s = _ready(islands={11: {"team": 0}, 0: "r", 1: {"team": 1}}, professors={"red": 0},
               mother_nature=11)
    act(s, 0, type="move_mother_nature", steps=1)
    assert len(s.groups) == 11
    merged = s.groups[s.mother_nature]
    assert merged.tiles == [11, 0] and merged.towers == 2
    assert all(len(g.tiles) == 1 for g in s.groups if g is not merged)


def test_four_player_team_influence_and_tower_holder() -> None:
    s = position({"seats": 4, "played": {0: 5, 1: 6, 2: 7, 3: 8}, "moved": 3,
                  "clear_islands": True, "mother_nature": 0,
                  "islands": {1: "rgggy"}, "professors": {"red": 0, "yellow": 2, "green": 1}})
    # team 0 (seats 0, 2): red + yellow = 2, team 1: green 3 -> team 1 places
    act(s, 0, type="move_mother_nature", steps=1)
    assert s.groups[1].team == 1 and s.towers == [8, 7]
    s = position({"seats": 4, "played": {0: 5, 1: 6, 2: 7, 3: 8}, "moved": 3,
                  "clear_islands": True, "mother_nature": 0,
                  "islands": {1: "rggyy"}, "professors": {"red": 0, "yellow": 2, "green": 1}})
    act(s, 0, type="move_mother_nature", steps=1)
    assert s.groups[1].team == 0 and s.towers == [7, 8]


def test_clouds_and_end_of_turn() -> None:
    s = _ready()
    rejects(s, 0, "mother_nature_not_moved", type="choose_cloud", cloud=0)
    rejects(s, 0, "mother_nature_not_moved", type="end_turn")
    act(s, 0, type="move_mother_nature", steps=1)
    rejects(s, 0, "no_such_cloud", type="choose_cloud", cloud=2)
    rejects(s, 0, "cloud_available", type="end_turn")
    before = sum(s.players[0].entrance)
    ev = act(s, 0, type="choose_cloud", cloud=1)
    assert types(ev) == ["cloud_taken", "turn_ended"]
    assert sum(s.players[0].entrance) == before + 3 and GAME.to_act(s) == {1}
    s.moved, s.mn_moved = 3, True
    rejects(s, 1, "cloud_already_taken", type="choose_cloud", cloud=1)


def test_empty_cloud_cannot_be_taken() -> None:
    s = _ready(clouds=["rgb", ""], mn_moved=True)
    rejects(s, 0, "empty_cloud", type="choose_cloud", cloud=1)
    assert [a.cloud for a in GAME.legal_actions(s, 0)] == [0]


def test_end_turn_when_no_cloud_holds_students() -> None:
    s = _ready(clouds=["", ""], mn_moved=True)
    assert [a.type for a in GAME.legal_actions(s, 0)] == ["end_turn"]
    ev = act(s, 0, type="end_turn")
    assert types(ev) == ["turn_ended"] and GAME.to_act(s) == {1}


def test_conquest_with_too_few_towers_places_what_it_has_and_wins() -> None:
    s = _ready(groups=[1, 3, 1, 1, 1, 1, 1, 1, 1, 1],
               islands={1: {"students": "rrrrr", "team": 1}, 5: {"team": 0}, 6: {"team": 0},
                        7: {"team": 0}, 8: {"team": 0}, 9: {"team": 0}, 3: {"team": 0}},
               professors={"red": 0})
    assert s.towers == [2, 5]
    ev = act(s, 0, type="move_mother_nature", steps=1)
    assert s.groups[1].towers == 2 and s.towers[0] == 0
    assert ev[-1]["type"] == "game_ended" and ev[-1]["reason"] == "last_tower"
    assert GAME.outcome(s).winners == (0,)
