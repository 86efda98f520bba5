from __future__ import annotations

from eriantys_helpers import GAME, act, position, rejects, types


def test_planning_goes_clockwise_from_the_first_player() -> None:
    s = position({"seats": 3, "first_player": 1})
    assert GAME.to_act(s) == {1}
    rejects(s, 0, "not_your_turn", type="play_assistant", card=5)
    act(s, 1, type="play_assistant", card=5)
    assert GAME.to_act(s) == {2}
    act(s, 2, type="play_assistant", card=3)
    assert GAME.to_act(s) == {0}


def test_duplicate_value_is_refused_while_other_cards_remain() -> None:
    s = position({"seats": 2, "first_player": 0})
    act(s, 0, type="play_assistant", card=4)
    rejects(s, 1, "card_already_played", type="play_assistant", card=4)
    legal = {a.card for a in GAME.legal_actions(s, 1)}
    assert legal == set(range(1, 11)) - {4}


def test_spent_card_is_not_in_hand() -> None:
    s = position({"seats": 2, "first_player": 0, "hand": {0: [2, 9]}})
    rejects(s, 0, "card_not_in_hand", type="play_assistant", card=5)


def test_forced_duplicate_goes_after_the_first_player_of_that_value() -> None:
    s = position({"seats": 3, "first_player": 0, "hand": {2: [4]}})
    act(s, 0, type="play_assistant", card=4)
    act(s, 1, type="play_assistant", card=7)
    assert [a.card for a in GAME.legal_actions(s, 2)] == [4]
    events = act(s, 2, type="play_assistant", card=4)
    assert types(events)[-1] == "action_phase_started"
    assert s.action_order == [0, 2, 1]


def test_forced_duplicate_when_all_cards_in_hand_are_taken() -> None:
    s = position({"seats": 3, "first_player": 1, "hand": {0: [3, 8]}})
    act(s, 1, type="play_assistant", card=8)
    act(s, 2, type="play_assistant", card=3)
    assert sorted(a.card for a in GAME.legal_actions(s, 0)) == [3, 8]
    act(s, 0, type="play_assistant", card=3)
    assert s.action_order == [2, 0, 1]  # 3 (seat 2 first), 3 (seat 0), 8


def test_action_order_is_ascending_and_next_round_starts_with_lowest() -> None:
    s = position({"seats": 4, "first_player": 2})
    for seat, card in ((2, 9), (3, 1), (0, 5), (1, 6)):
        act(s, seat, type="play_assistant", card=card)
    assert s.phase == "action" and s.action_order == [3, 0, 1, 2]
    assert GAME.to_act(s) == {3}
    _play_turns(s)
    assert s.phase == "planning" and s.round == 2 and s.first_player == 3
    assert s.planning_order == [3, 0, 1, 2]
    assert all(sum(c) == 3 for c in s.clouds) and not any(s.clouds_taken)


def _play_turns(s) -> None:
    while s.phase == "action":
        seat = next(iter(GAME.to_act(s)))
        legal = GAME.legal_actions(s, seat)
        move = next((a for a in legal if a.type == "move_student" and a.to == 0), legal[0])
        GAME.apply(s, seat, move)


def test_planning_rejects_action_phase_verbs() -> None:
    s = position({"seats": 2, "first_player": 0, "expert": True})
    seat = 0
    rejects(s, seat, "wrong_phase", type="move_student", color="red", to="dining")
    rejects(s, seat, "wrong_phase", type="move_mother_nature", steps=1)
    rejects(s, seat, "wrong_phase", type="choose_cloud", cloud=0)
    rejects(s, seat, "wrong_phase", type="end_turn")
    rejects(s, seat, "wrong_phase", type="play_character", character=s.characters[0].key,
            **_params(s.characters[0].key))
    assert GAME.legal_actions(s, 1) == []


def _params(key: str) -> dict:
    return {"monk": {"color": "red", "island": 0}, "herald": {"island": 0},
            "grandma_herbs": {"island": 0}, "mushroom_hunter": {"color": "red"},
            "spoiled_princess": {"color": "red"}, "thief": {"color": "red"}}.get(key, {})


def test_action_phase_rejects_assistants() -> None:
    s = position({"seats": 2, "played": {0: 3, 1: 4}})
    rejects(s, 0, "wrong_phase", type="play_assistant", card=5)


def test_events_of_planning() -> None:
    s = position({"seats": 2, "first_player": 1})
    ev = act(s, 1, type="play_assistant", card=10)
    assert ev == [{"type": "assistant_played", "seat": 1, "card": 10}]
    assert s.players[1].discard == 10 and 10 not in s.players[1].hand


def test_teammates_may_not_duplicate_either() -> None:
    s = position({"seats": 4, "first_player": 0})
    act(s, 0, type="play_assistant", card=6)
    act(s, 1, type="play_assistant", card=7)
    rejects(s, 2, "card_already_played", type="play_assistant", card=6)
