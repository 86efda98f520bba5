from __future__ import annotations

import json
from pathlib import Path

import pytest

from eriantys_helpers import GAME, act, position, students

from service.errors import MalformedAction
from service.games.eriantys.constants import CHARACTERS, REASONS


def _keys(data) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _keys(v)}
    return set()


@pytest.mark.parametrize("seat", [None, 0, 1, 2])
def test_view_hides_the_generator_and_shows_bag_counts_only(seat) -> None:
    s = GAME.setup(3, GAME.parse_options({"expert": True}), 5)
    view = GAME.view(s, seat)
    json.dumps(view)
    assert "rng" not in _keys(view)
    assert view["bag"]["count"] == sum(s.bag) and set(view["bag"]) == {"count", "by_color"}
    assert view["you"] == seat and view["to_act"] == [s.first_player]
    assert len(view["islands"]) == 12 and len(view["characters"]) == 3
    assert view["players"][0]["coins"] == 1 and view["reserve"] == 17


def test_view_in_action_phase_and_at_the_end() -> None:
    s = position({"seats": 2, "played": {0: 3, 1: 5}})
    view = GAME.view(s, None)
    assert view["turn"]["seat"] == 0 and view["turn"]["max_steps"] == 2
    assert view["action_order"] == [0, 1] and "characters" not in view
    s.phase, s.end_reason, s.winners = "over", "bag_empty", [1]
    assert GAME.view(s, 0)["result"] == {"reason": "bag_empty", "winners": [1], "draw": False}


def test_render_is_a_readable_picture() -> None:
    s = GAME.setup(4, GAME.parse_options({"expert": True}), 3)
    text = GAME.render(s)
    assert "island" in text and "cloud 3" in text and "seat 3" in text
    assert text.count("\n") > 20


@pytest.mark.parametrize("raw", [
    {"type": "fly"}, {"type": "play_assistant", "card": 11},
    {"type": "play_assistant", "card": 3, "extra": 1},
    {"type": "move_student", "color": "purple", "to": "dining"},
    {"type": "move_student", "color": "red", "to": -1},
    {"type": "move_student", "color": "red", "to": "hall"},
    {"type": "play_character", "character": "monk", "color": "red"},
    {"type": "play_character", "character": "knight", "color": "red"},
    {"type": "play_character", "character": "jester", "swaps": [["red", "blue"]] * 4},
    {"type": "play_character", "character": "minstrel", "swaps": [["red", "blue"]] * 3},
    {"type": "play_character", "character": "wizard"}, "play_assistant", None,
])
def test_malformed_actions(raw) -> None:
    s = GAME.setup(2, GAME.parse_options({}), 1)
    before = GAME.dump_state(s)
    with pytest.raises(MalformedAction):
        GAME.apply(s, s.first_player, raw)
    assert GAME.dump_state(s) == before


def test_unknown_seat_is_malformed() -> None:
    s = GAME.setup(2, GAME.parse_options({}), 1)
    with pytest.raises(MalformedAction):
        GAME.apply(s, 5, {"type": "play_assistant", "card": 1})


def test_actions_round_trip_through_the_wire_form() -> None:
    s = position({"seats": 2, "characters": ["jester", "minstrel", "monk"], "played": {0: 3, 1: 5},
                  "coins": {0: 4}, "dining": {0: "rrgg"}})
    for action in GAME.legal_actions(s, 0):
        wire = json.loads(json.dumps(GAME.dump_action(action)))
        assert GAME.parse_action(wire) == action


def test_dump_load_is_exact_and_json() -> None:
    s = GAME.setup(4, GAME.parse_options({"expert": True}), 99)
    data = json.loads(json.dumps(GAME.dump_state(s)))
    assert GAME.load_state(data) == s and GAME.dump_state(GAME.load_state(data)) == data


def test_outcome_none_while_playing() -> None:
    assert GAME.outcome(GAME.setup(2, GAME.parse_options({}), 1)) is None


def test_notation_balances_bag_coins_and_towers() -> None:
    s = position({"seats": 3, "characters": ["grandma_herbs", "knight", "monk"],
                  "islands": {2: {"students": "rr", "team": 1, "no_entry": 1}},
                  "coins": {0: 3}, "dining": {1: {"blue": 4}}})
    assert students("rrg") == [1, 2, 0, 0, 0] and students({"pink": 2}) == [0, 0, 0, 2, 0]
    assert s.towers == [6, 5, 6] and s.reserve == 20 - 3 - 1 - 1
    assert s.characters[0].no_entry == 3
    from service.games.eriantys.checks import student_totals

    assert student_totals(s) == [26] * 5


def test_character_ids_follow_the_standard_order() -> None:
    assert [c.id for c in CHARACTERS] == list(range(12))
    assert CHARACTERS[0].key == "monk" and CHARACTERS[11].key == "thief"
    assert [c.cost for c in CHARACTERS] == [1, 2, 3] * 4


def test_every_reason_code_is_documented_and_tested() -> None:
    root = Path(__file__).resolve().parents[3]
    doc = (root / "docs" / "rules" / "eriantys.md").read_text()
    tests = "".join(p.read_text() for p in Path(__file__).parent.glob("test_*.py"))
    for reason in REASONS:
        assert f"`{reason}`" in doc, reason
        assert f'"{reason}"' in tests, reason


def test_legal_action_in_wrong_seat_view() -> None:
    s = position({"seats": 2, "played": {0: 3, 1: 5}})
    act(s, 0, type="move_student", color=next(
        c for c, n in GAME.view(s, 0)["players"][0]["entrance"].items() if n), to=0)
    assert GAME.view(s, 1)["turn"]["students_moved"] == 1
