from __future__ import annotations

from eriantys_helpers import GAME, act, position, rejects, types


def _three_groups_spec(**extra):
    # groups of 4, 4, 3, 1 tiles: conquering the lone island merges it away -> 3 groups
    spec = {"seats": 2, "played": {0: 3, 1: 5}, "moved": 3, "clear_islands": True,
            "groups": [4, 4, 3, 1], "mother_nature": 2,
            "islands": {0: {"team": 0}, 1: {"team": 1}, 2: {"team": 1}, 3: "r"},
            "professors": {"red": 0}}
    spec.update(extra)
    return position(spec)


def test_three_groups_ends_at_once_with_the_normal_winner_rule() -> None:
    s = _three_groups_spec()
    assert s.towers == [4, 1]
    ev = act(s, 0, type="move_mother_nature", steps=1)
    assert len(s.groups) == 3
    assert ev[-1] == {"type": "game_ended", "reason": "three_groups", "winners": [1],
                      "draw": False}
    assert s.phase == "over" and GAME.to_act(s) == frozenset()
    out = GAME.outcome(s)
    assert out.winners == (1,) and out.reason == "three_groups"  # 7 towers placed vs 5
    rejects(s, 0, "game_over", type="choose_cloud", cloud=0)
    assert GAME.legal_actions(s, 0) == []


def test_groups_from_four_to_two_in_one_merge() -> None:
    s = position({"seats": 2, "played": {0: 3, 1: 5}, "moved": 3, "clear_islands": True,
                  "groups": [2, 3, 2, 5], "mother_nature": 0,
                  "islands": {0: {"team": 0}, 1: "rrrr", 2: {"team": 0}, 3: {"team": 1}},
                  "professors": {"red": 0}})
    act(s, 0, type="move_mother_nature", steps=1)
    assert len(s.groups) == 2 and s.phase == "over" and s.end_reason == "three_groups"


def _tied(dining: dict, professors: dict):
    # A(3, black) B(1, empty) C(6, white) D(2, black): black takes B and merges with A
    # -> 3 groups, 6 towers placed each
    return position({"seats": 2, "played": {0: 3, 1: 5}, "moved": 3, "clear_islands": True,
                     "groups": [3, 1, 6, 2], "mother_nature": 3,
                     "islands": {0: {"team": 0}, 1: "r", 2: {"team": 1}, 3: {"team": 0}},
                     "professors": professors, "dining": dining})


def test_professors_break_a_tower_tie() -> None:
    s = _tied({0: "r", 1: "gy"}, {"red": 0, "green": 1, "yellow": 1})
    act(s, 0, type="move_mother_nature", steps=2)
    assert s.phase == "over" and s.end_reason == "three_groups" and s.towers == [2, 2]
    out = GAME.outcome(s)
    assert out.winners == (1,) and not out.draw


def test_full_tie_is_a_draw_between_the_tied() -> None:
    s = _tied({0: "r", 1: "g"}, {"red": 0, "green": 1})
    act(s, 0, type="move_mother_nature", steps=2)
    out = GAME.outcome(s)
    assert out.draw and out.winners == (0, 1) and out.reason == "three_groups"


def test_four_player_tie_break_sums_teammates_professors() -> None:
    s = position({"seats": 4, "played": {0: 3, 1: 5, 2: 7, 3: 9}, "moved": 3,
                  "clear_islands": True, "groups": [3, 1, 6, 2], "mother_nature": 3,
                  "islands": {0: {"team": 0}, 1: "r", 2: {"team": 1}, 3: {"team": 0}},
                  "professors": {"red": 0, "green": 1, "yellow": 2},
                  "dining": {0: "r", 1: "g", 2: "y", 3: ""}})
    act(s, 0, type="move_mother_nature", steps=2)
    assert GAME.outcome(s).winners == (0, 2)  # 6 v 6 towers, professors 2 (0 + 2) v 1


def test_last_tower_wins_immediately_for_the_team() -> None:
    s = position({"seats": 4, "played": {0: 5, 1: 6, 2: 7, 3: 8}, "moved": 3,
                  "clear_islands": True, "mother_nature": 0,
                  "islands": {i: {"team": 1} for i in (2, 4, 6, 8, 10, 3, 5)} | {1: "g"},
                  "professors": {"green": 3}, "dining": {3: "g"}})
    assert s.towers[1] == 1
    ev = act(s, 0, type="move_mother_nature", steps=1)  # seat 0 moves, team 1 places its last
    assert ev[-1]["reason"] == "last_tower"
    assert GAME.outcome(s).winners == (1, 3)


def test_bag_running_out_at_refill_makes_the_last_round() -> None:
    s = position({"seats": 2, "first_player": 0})
    # leave 4 students in the bag by piling the rest on island 0
    pile = [n for n in s.bag]
    keep = [1, 1, 1, 1, 0]
    for c in range(5):
        s.groups[0].students[c] += pile[c] - keep[c]
        s.bag[c] = keep[c]
    for seat, card in ((0, 1), (1, 2)):
        act(s, seat, type="play_assistant", card=card)
    ev = []
    while s.phase == "action" or s.round == 1:
        seat = next(iter(GAME.to_act(s)))
        legal = GAME.legal_actions(s, seat)
        ev = GAME.apply(s, seat, legal[0])
    assert s.round == 2 and s.last_round
    assert "last_round_triggered" in types(ev)
    assert sorted(sum(c) for c in s.clouds) == [1, 3]  # filled in order, the second partly
    assert sum(s.bag) == 0
    for seat in s.planning_order:
        GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    taken = []
    while s.phase == "action":
        seat = next(iter(GAME.to_act(s)))
        legal = GAME.legal_actions(s, seat)
        taken.append(legal[0].type)
        ev = GAME.apply(s, seat, legal[0])
    assert "choose_cloud" in taken
    assert ev[-1]["type"] == "game_ended" and ev[-1]["reason"] == "bag_empty"


def test_no_clouds_at_all_means_end_turn() -> None:
    s = position({"seats": 2, "played": {0: 3, 1: 5}, "moved": 3, "mn_moved": True,
                  "clouds": ["", ""], "last_round": True})
    act(s, 0, type="end_turn")
    s.moved, s.mn_moved = 3, True
    ev = act(s, 1, type="end_turn")
    assert ev[-1]["reason"] == "bag_empty"


def test_last_assistant_ends_the_game_at_round_end() -> None:
    s = position({"seats": 2, "first_player": 0, "hand": {0: [7], 1: [2]}, "round": 10})
    act(s, 0, type="play_assistant", card=7)
    act(s, 1, type="play_assistant", card=2)
    ev = []
    while s.phase == "action":
        seat = next(iter(GAME.to_act(s)))
        ev = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    assert ev[-1]["type"] == "game_ended" and ev[-1]["reason"] == "no_assistants"
    assert GAME.outcome(s) is not None
