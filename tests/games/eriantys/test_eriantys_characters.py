from __future__ import annotations

from eriantys_helpers import GAME, act, position, rejects, types

from service.games.eriantys.checks import invariant_errors


def pos(chars: list[str], **extra):
    spec = {"seats": 2, "characters": chars, "played": {0: 3, 1: 5}, "clear_islands": True,
            "mother_nature": 0, "entrance": {0: "rrrggbb", 1: "yyyppbb"},
            "dining": {0: "", 1: ""}, "coins": {0: 5, 1: 1}}
    spec.update(extra)
    s = position(spec)
    assert not [e for e in invariant_errors(s) if not e.startswith("professor")]
    return s


TRIO = ["knight", "centaur", "magic_mailman"]


# --- coins and the general rules of characters ---------------------------------------


def test_coin_on_seats_three_six_nine() -> None:
    s = pos(TRIO, entrance={0: "rrrrrrr"}, dining={0: "rr", 1: ""}, coins={0: 0, 1: 0})
    ev = act(s, 0, type="move_student", color="red", to="dining")
    assert "coin_gained" in types(ev) and s.players[0].coins == 1
    ev = act(s, 0, type="move_student", color="red", to="dining")
    assert "coin_gained" not in types(ev)


def test_empty_reserve_pays_nothing() -> None:
    s = pos(TRIO, dining={0: "rr", 1: ""}, coins={0: 10, 1: 10})
    assert s.reserve == 0
    ev = act(s, 0, type="move_student", color="red", to="dining")
    assert "coin_gained" not in types(ev) and s.players[0].coins == 10


def test_normal_mode_has_no_coins_or_characters() -> None:
    s = position({"seats": 2, "played": {0: 3, 1: 5}, "dining": {0: "rr"},
                  "entrance": {0: "rrrggbb"}})
    ev = act(s, 0, type="move_student", color="red", to="dining")
    assert "coin_gained" not in types(ev)
    rejects(s, 0, "not_expert", type="play_character", character="knight")
    assert all(a.type != "play_character" for a in GAME.legal_actions(s, 0))


def test_cost_rises_by_one_once_and_one_coin_stays_on_the_card() -> None:
    s = pos(TRIO, coins={0: 9, 1: 5})
    reserve = s.reserve
    ev = act(s, 0, type="play_character", character="knight")
    assert ev[0] == {"type": "character_played", "seat": 0, "cost": 2, "character": "knight"}
    assert s.players[0].coins == 7 and s.reserve == reserve + 1 and s.characters[0].used
    assert GAME.view(s, None)["characters"][0]["cost"] == 3
    for _ in range(2):  # later uses cost 3, every coin goes to the reserve
        s.character_used = ""
        before = s.reserve
        act(s, 0, type="play_character", character="knight")
        assert s.reserve == before + 3
    assert s.players[0].coins == 1
    assert not invariant_errors(s)


def test_character_errors() -> None:
    s = pos(TRIO, coins={0: 1, 1: 1})
    rejects(s, 0, "character_not_in_play", type="play_character", character="monk",
            color="red", island=0)
    rejects(s, 0, "not_enough_coins", type="play_character", character="centaur")
    rejects(s, 1, "not_your_turn", type="play_character", character="magic_mailman")
    act(s, 0, type="play_character", character="magic_mailman")
    s.players[0].coins = 5
    rejects(s, 0, "character_already_used", type="play_character", character="knight")
    assert all(a.type != "play_character" for a in GAME.legal_actions(s, 0))


def test_character_at_any_moment_of_the_turn_and_reset_next_turn() -> None:
    s = pos(TRIO, moved=3, mn_moved=True)
    act(s, 0, type="play_character", character="knight")  # after Mother Nature: allowed
    act(s, 0, type="choose_cloud", cloud=0)
    assert s.character_used == "" and GAME.to_act(s) == {1}
    assert any(a.type == "play_character" for a in GAME.legal_actions(s, 1))


# --- the twelve ------------------------------------------------------------------------


def test_monk_puts_a_card_student_on_an_island_and_refills() -> None:
    s = pos(["monk", "knight", "centaur"], cards={"monk": "rrgb"})
    rejects(s, 0, "student_not_on_character", type="play_character", character="monk",
            color="yellow", island=3)
    rejects(s, 0, "no_such_island", type="play_character", character="monk",
            color="red", island=12)
    bag = sum(s.bag)
    ev = act(s, 0, type="play_character", character="monk", color="red", island=3)
    assert s.groups[3].students[1] == 1 and sum(s.characters[0].students) == 4
    assert sum(s.bag) == bag - 1 and "tower_placed" not in types(ev)
    options = [a for a in GAME.legal_actions(pos(["monk", "knight", "centaur"],
                                                 cards={"monk": "rrgb"}), 0)
               if a.type == "play_character"]
    monk = [a for a in options if a.character == "monk"]
    assert len(monk) == 3 * 12


def test_monk_emptying_the_bag_sets_the_last_round() -> None:
    s = pos(["monk", "knight", "centaur"], cards={"monk": "rrgb"})
    s.groups[5].students = [a + b for a, b in zip(s.groups[5].students, s.bag)]
    s.bag = [0, 1, 0, 0, 0]
    s.groups[5].students[1] -= 1
    ev = act(s, 0, type="play_character", character="monk", color="green", island=0)
    assert s.last_round and "last_round_triggered" in types(ev)
    ev = act(s, 0, type="move_student", color="red", to=0)
    s.character_used = ""
    act(s, 0, type="play_character", character="monk", color="red", island=0)
    assert sum(s.characters[0].students) == 3  # empty bag: no refill
    assert not invariant_errors(s)


def test_farmer_takes_tied_professors_now_and_for_the_turn_and_keeps_them() -> None:
    s = pos(["farmer", "knight", "centaur"], dining={0: "rr", 1: "rrgg"},
            professors={"red": 1, "green": 1}, entrance={0: "ggrrbbb"})
    ev = act(s, 0, type="play_character", character="farmer")
    assert s.professors[1] == 0 and s.professors[0] == 1  # red tie taken, green not (0 v 2)
    assert {"type": "professor_taken", "seat": 0, "color": "red", "from": 1} in ev
    act(s, 0, type="move_student", color="green", to="dining")
    assert s.professors[0] == 1
    act(s, 0, type="move_student", color="green", to="dining")
    assert s.professors[0] == 0  # 2 v 2 is enough this turn
    act(s, 0, type="move_student", color="blue", to=1)
    act(s, 0, type="move_mother_nature", steps=1)
    act(s, 0, type="choose_cloud", cloud=0)
    assert s.professors[:2] == [0, 0]  # no return at the end of the turn (rule 10.3)
    assert not invariant_errors(s)


def test_farmer_gives_nothing_at_zero() -> None:
    s = pos(["farmer", "knight", "centaur"])
    act(s, 0, type="play_character", character="farmer")
    assert s.professors == [-1] * 5


def test_herald_resolves_an_island_without_moving_mother_nature() -> None:
    s = pos(["herald", "knight", "centaur"], islands={6: "rr"}, professors={"red": 0},
            dining={0: "r", 1: ""})
    rejects(s, 0, "no_such_island", type="play_character", character="herald", island=12)
    ev = act(s, 0, type="play_character", character="herald", island=6)
    assert s.groups[6].team == 0 and s.mother_nature == 0 and "tower_placed" in types(ev)
    for colour in ("red", "green", "blue"):
        act(s, 0, type="move_student", color=colour, to=1)
    act(s, 0, type="move_mother_nature", steps=1)  # normal resolution afterwards
    assert s.mother_nature == 1


def test_herald_on_a_no_entry_island_uses_the_tile() -> None:
    s = pos(["herald", "grandma_herbs", "centaur"],
            islands={6: {"students": "rr", "no_entry": 1}}, professors={"red": 0},
            dining={0: "r", 1: ""})
    ev = act(s, 0, type="play_character", character="herald", island=6)
    assert "no_entry_returned" in types(ev) and s.groups[6].team == -1
    assert s.groups[6].no_entry == 0 and s.characters[1].no_entry == 4


def test_herald_can_end_the_game() -> None:
    s = pos(["herald", "knight", "centaur"], groups=[4, 4, 3, 1],
            islands={0: {"team": 0}, 1: {"team": 1}, 2: {"team": 1}, 3: "r"},
            professors={"red": 0}, dining={0: "r", 1: ""})
    ev = act(s, 0, type="play_character", character="herald", island=3)
    assert ev[-1]["type"] == "game_ended" and s.phase == "over"


def test_magic_mailman_adds_two_steps() -> None:
    s = pos(TRIO, moved=3)
    act(s, 0, type="play_character", character="magic_mailman")
    assert [a.steps for a in GAME.legal_actions(s, 0) if a.type == "move_mother_nature"] == [
        1, 2, 3, 4]
    rejects(s, 0, "bad_mother_nature_distance", type="move_mother_nature", steps=5)
    act(s, 0, type="move_mother_nature", steps=4)
    assert s.mother_nature == 4


def test_grandma_herbs_blocks_one_resolution_and_tiles_stack() -> None:
    s = pos(["grandma_herbs", "knight", "centaur"], moved=3, islands={1: "rr"},
            professors={"red": 0}, dining={0: "r", 1: ""})
    act(s, 0, type="play_character", character="grandma_herbs", island=1)
    assert s.groups[1].no_entry == 1 and s.characters[0].no_entry == 3
    s.character_used = ""
    act(s, 0, type="play_character", character="grandma_herbs", island=1)  # stacking
    assert s.groups[1].no_entry == 2
    ev = act(s, 0, type="move_mother_nature", steps=1)
    assert "no_entry_returned" in types(ev) and s.groups[1].team == -1
    assert s.groups[1].no_entry == 1 and s.characters[0].no_entry == 3


def test_grandma_herbs_without_tiles_and_tiles_add_up_on_merge() -> None:
    s = pos(["grandma_herbs", "knight", "centaur"], moved=3,
            islands={1: {"students": "r", "no_entry": 2}, 0: {"team": 0},
                     2: {"team": 0, "no_entry": 1}, 3: {"students": "rr", "no_entry": 1}},
            professors={"red": 0}, dining={0: "r", 1: ""})
    assert s.characters[0].no_entry == 0
    rejects(s, 0, "no_entry_tiles_exhausted", type="play_character",
            character="grandma_herbs", island=4)
    assert not any(getattr(a, "character", "") == "grandma_herbs"
                   for a in GAME.legal_actions(s, 0))
    ev = act(s, 0, type="move_mother_nature", steps=1)
    assert "no_entry_returned" in types(ev) and s.groups[1].team == -1
    assert s.groups[1].no_entry == 1 and s.characters[0].no_entry == 1
    s = pos(["grandma_herbs", "herald", "centaur"],
            islands={1: {"students": "rrr", "no_entry": 0}, 0: {"team": 0, "no_entry": 1},
                     2: {"team": 0, "no_entry": 2}}, professors={"red": 0},
            dining={0: "r", 1: ""})
    act(s, 0, type="play_character", character="herald", island=1)
    assert s.groups[0].tiles == [0, 1, 2] and s.groups[0].no_entry == 3
    act(s, 0, type="move_student", color="red", to=0)  # moving onto a blocked group is fine


def test_centaur_ignores_towers() -> None:
    s = pos(TRIO, moved=3, islands={1: {"students": "rrgg", "team": 1}},
            professors={"red": 0, "green": 1})
    act(s, 0, type="play_character", character="centaur")
    act(s, 0, type="move_mother_nature", steps=1)
    assert s.groups[1].team == 1  # 2 v 2 without the tower: nobody strictly ahead
    s = pos(TRIO, moved=3, islands={1: {"students": "rrrgg", "team": 1}},
            professors={"red": 0, "green": 1})
    act(s, 0, type="play_character", character="centaur")
    act(s, 0, type="move_mother_nature", steps=1)
    assert s.groups[1].team == 0  # 3 v 2 (the tower would have made it 3 v 3)


def test_jester_swaps_up_to_three() -> None:
    s = pos(["jester", "knight", "centaur"], cards={"jester": "yyyppp"})
    rejects(s, 0, "bad_swap", type="play_character", character="jester",
            swaps=[["green", "red"]])
    rejects(s, 0, "bad_swap", type="play_character", character="jester",
            swaps=[["yellow", "green"]] * 3)
    act(s, 0, type="play_character", character="jester",
        swaps=[["yellow", "red"], ["pink", "green"], ["yellow", "green"]])
    assert s.players[0].entrance == [0, 2, 2, 1, 2] and s.characters[0].students == [2, 1, 1, 2, 0]
    assert not invariant_errors(s)


def test_jester_zero_swaps_and_enumeration() -> None:
    s = pos(["jester", "knight", "centaur"], cards={"jester": "yyyppp"}, entrance={0: "rrrrrrr"})
    options = [a for a in GAME.legal_actions(s, 0) if getattr(a, "character", "") == "jester"]
    # sizes 0..3: card multisets 1, 2, 3, 4 times one entrance multiset each
    assert len(options) == 1 + 2 + 3 + 4
    act(s, 0, type="play_character", character="jester", swaps=[])
    assert s.players[0].coins == 4


def test_knight_adds_two_even_with_nothing_there() -> None:
    s = pos(TRIO, moved=3, islands={1: ""})
    act(s, 0, type="play_character", character="knight")
    act(s, 0, type="move_mother_nature", steps=1)
    assert s.groups[1].team == 0


def test_knight_breaks_a_tie_for_the_team_in_four_players() -> None:
    s = position({"seats": 4, "characters": TRIO, "played": {0: 5, 1: 6, 2: 7, 3: 8},
                  "moved": 3, "clear_islands": True, "mother_nature": 0, "coins": {0: 3},
                  "islands": {1: "yyyg"}, "professors": {"yellow": 1, "green": 2}})
    act(s, 0, type="play_character", character="knight")
    act(s, 0, type="move_mother_nature", steps=1)
    assert s.groups[1].team == -1  # team 0: green 1 + knight 2 = 3 v team 1: yellow 3


def test_mushroom_hunter_silences_a_colour() -> None:
    s = pos(["mushroom_hunter", "knight", "centaur"], moved=3, islands={1: "rrg"},
            professors={"red": 0, "green": 1})
    act(s, 0, type="play_character", character="mushroom_hunter", color="red")
    assert GAME.view(s, 0)["turn"]["ignored_color"] == "red"
    act(s, 0, type="move_mother_nature", steps=1)
    assert s.groups[1].team == 1  # red ignored: 0 v 1
    options = [a for a in GAME.legal_actions(s, 0) if a.type == "play_character"]
    assert options == []  # one character per turn


def test_minstrel_swaps_with_the_dining_room() -> None:
    s = pos(["minstrel", "knight", "centaur"], dining={0: "yy", 1: "r"},
            professors={"yellow": 0, "red": 1}, entrance={0: "rrrggbb"})
    ev = act(s, 0, type="play_character", character="minstrel",
             swaps=[["red", "yellow"], ["red", "yellow"]])
    assert s.players[0].dining == [0, 2, 0, 0, 0] and s.players[0].entrance == [2, 1, 2, 0, 2]
    assert s.professors[1] == 0 and s.professors[2] == -1  # red taken, yellow to the supply
    assert {"type": "professor_returned", "color": "yellow", "from": 0} in ev
    assert not invariant_errors(s)


def test_minstrel_errors_and_repeat_coin() -> None:
    s = pos(["minstrel", "knight", "centaur"], dining={0: "rrr" + "g" * 10, 1: ""},
            professors={"red": 0, "green": 0})
    rejects(s, 0, "bad_swap", type="play_character", character="minstrel",
            swaps=[["yellow", "red"]])
    rejects(s, 0, "bad_swap", type="play_character", character="minstrel",
            swaps=[["red", "pink"]])
    rejects(s, 0, "dining_full", type="play_character", character="minstrel",
            swaps=[["green", "red"]])
    # a colour swapped with itself changes nothing on the board: refused (issue 21), so no
    # coin is paid twice for one student
    rejects(s, 0, "bad_swap", type="play_character", character="minstrel",
            swaps=[["red", "red"]])
    coins = s.players[0].coins
    act(s, 0, type="play_character", character="minstrel", swaps=[["blue", "red"]])
    ev = act(s, 0, type="move_student", color="red", to="dining")
    assert "coin_gained" in types(ev)  # left seat 3 and sat there again (rule 10.6)
    assert s.players[0].coins == coins - 1 + 1


def test_minstrel_loss_passes_the_professor_to_the_first_leader() -> None:
    s = position({"seats": 3, "characters": ["minstrel", "knight", "centaur"],
                  "played": {0: 1, 1: 2, 2: 3}, "coins": {0: 3},
                  "entrance": {0: "ggggbbbbb"}, "dining": {0: "rrr", 1: "rr", 2: "rr"},
                  "professors": {"red": 0}})
    act(s, 0, type="play_character", character="minstrel",
        swaps=[["green", "red"], ["blue", "red"]])
    assert s.professors[1] == 1  # 1 v 2 v 2: the first seat of the tied leaders (rule 10.4)


def test_minstrel_holder_keeps_on_a_tie() -> None:
    s = pos(["minstrel", "knight", "centaur"], dining={0: "rrr", 1: "rr"},
            professors={"red": 0})
    act(s, 0, type="play_character", character="minstrel", swaps=[["green", "red"]])
    assert s.professors[1] == 0


def test_spoiled_princess_seats_a_card_student() -> None:
    s = pos(["spoiled_princess", "knight", "centaur"], cards={"spoiled_princess": "rrgb"},
            dining={0: "rr", 1: "r" * 10}, professors={"red": 1}, coins={0: 3, 1: 3})
    rejects(s, 0, "student_not_on_character", type="play_character",
            character="spoiled_princess", color="pink")
    ev = act(s, 0, type="play_character", character="spoiled_princess", color="red")
    assert s.players[0].dining[1] == 3 and "coin_gained" in types(ev)
    assert sum(s.characters[0].students) == 4 and s.professors[1] == 1
    s.turn, s.character_used = 1, ""
    rejects(s, 1, "dining_full", type="play_character", character="spoiled_princess",
            color="red")
    colours = {a.color for a in GAME.legal_actions(s, 1) if a.type == "play_character"
               and a.character == "spoiled_princess"}
    assert "red" not in colours and colours


def test_thief_returns_up_to_three_from_everyone() -> None:
    s = pos(["thief", "knight", "centaur"], dining={0: "rr", 1: "rrrrr"},
            professors={"red": 1})
    bag = s.bag[1]
    ev = act(s, 0, type="play_character", character="thief", color="red")
    assert [p.dining[1] for p in s.players] == [0, 2] and s.bag[1] == bag + 5
    assert s.professors[1] == 1
    assert [e["count"] for e in ev if e["type"] == "students_returned"] == [2, 3]


def test_thief_empties_the_holder_and_the_professor_returns() -> None:
    s = pos(["thief", "knight", "centaur"], dining={0: "rr", 1: "rrr"},
            professors={"red": 1})
    ev = act(s, 0, type="play_character", character="thief", color="red")
    assert s.professors[1] == -1 and "professor_returned" in types(ev)
    assert not invariant_errors(s)


def test_thief_does_not_cancel_the_last_round() -> None:
    s = pos(["thief", "knight", "centaur"], dining={0: "rrr", 1: ""}, last_round=True,
            professors={"red": 0})
    act(s, 0, type="play_character", character="thief", color="red")
    assert s.last_round and sum(s.bag) > 0


def test_every_listed_character_option_is_accepted() -> None:
    from service.games.eriantys.constants import CHARACTER_KEYS

    for i in range(0, 12, 3):
        chars = list(CHARACTER_KEYS[i:i + 3])
        s = pos(chars, dining={0: "rrggg", 1: "bb"}, professors={"red": 0, "green": 0,
                                                                 "blue": 1})
        options = [a for a in GAME.legal_actions(s, 0) if a.type == "play_character"]
        assert {a.character for a in options} == set(chars)
        for action in options:
            copy = GAME.load_state(GAME.dump_state(s))
            GAME.apply(copy, 0, GAME.dump_action(action))
            assert not invariant_errors(copy)
