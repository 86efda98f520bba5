"""Santorini's events in words: 1-based squares as the board labels them, worker letters,
gods by name, "You" for the viewer's own seat, the caller's names for the others."""

from __future__ import annotations

from service.games.registry import get_game

GAME = get_game("santorini")


def _play(state, seat, action):
    return GAME.apply(state, seat, GAME.parse_action(action))


def test_base_game_moves_and_builds_in_words_with_one_based_squares():
    state = GAME.setup(2, GAME.parse_options({"gods": False}), 7)
    placed = _play(state, 0, {"type": "place_workers", "positions": [{"x": 0, "y": 0}, {"x": 4, "y": 4}]})
    assert GAME.describe(placed, 0) == [
        "You placed worker A on row 1, column 1 and worker B on row 5, column 5."]
    assert GAME.describe(placed, 1, names={0: "alice"}) == [
        "alice placed worker A on row 1, column 1 and worker B on row 5, column 5."]
    _play(state, 1, {"type": "place_workers", "positions": [{"x": 2, "y": 2}, {"x": 3, "y": 3}]})
    _play(state, 0, {"type": "select_worker", "x": 0, "y": 0})
    moved = _play(state, 0, {"type": "move", "x": 1, "y": 0})
    assert GAME.describe(moved, None) == ["seat 0 (AB) moved worker A from row 1, column 1 to row 2, column 1."]
    built = _play(state, 0, {"type": "build", "x": 0, "y": 0})
    assert GAME.describe(built, 1, names={0: "alice (seat 0 (AB))"}) == [
        "alice (seat 0 (AB)) built level 1 on row 1, column 1."]


def test_gods_are_named_in_words():
    state = GAME.setup(2, GAME.parse_options({}), 3)
    picked = _play(state, 0, {"type": "pick_gods", "gods": ["APOLLO", "HERMES"]})
    assert GAME.describe(picked, 1, names={0: "alice"}) == ["alice picked the gods Apollo and Hermes."]
    chosen = _play(state, 1, {"type": "choose_god", "god": "HERMES"})
    assert GAME.describe(chosen, 1)[0] == "You chose Hermes."


def test_the_end_of_the_game_says_who_won_and_why():
    events = [{"type": "worker_moved", "seat": 1, "worker": 2, "from": [2, 2], "to": [2, 3]},
              {"type": "game_won", "seat": 1, "reason": "climbed"}]
    assert GAME.describe(events, 1)[-1] == "You win: moved up to level 3."
    assert GAME.describe(events, 0, names={1: "bob"})[-1] == "bob wins: moved up to level 3."


def test_bookkeeping_events_say_nothing_and_unknown_ones_are_not_lost():
    assert GAME.describe([{"type": "turn_started", "seat": 0, "turn": 3}], 0) == []
    assert GAME.describe([{"type": "turn_ended", "seat": 0}], 0) == []


def test_every_end_in_words():
    from service.games.describing import tell_outcome
    names = {0: "ann", 1: "bob"}
    climbed = {"winners": [0], "draw": False, "reason": "climbed", "detail": {"eliminated": []}}
    assert tell_outcome(GAME, climbed, 1, names) == ["ann wins: moved up to level 3."]
    assert tell_outcome(GAME, climbed, 0, names) == ["You win: moved up to level 3."]
    stuck = {"winners": [1], "draw": False, "reason": "opponent_cannot_move"}
    assert tell_outcome(GAME, stuck, None, names) == ["bob wins: the opponent could not move."]
    resigned = {"winners": [1], "draw": False, "reason": "resigned", "detail": {"seat": 0}}
    assert tell_outcome(GAME, resigned, 0, names) == ["bob wins: you resigned."]
    assert tell_outcome(GAME, resigned, None, names) == ["bob wins: ann resigned."]
    gone = {"winners": [0], "draw": False, "reason": "abandoned", "detail": {"away": [1]}}
    assert tell_outcome(GAME, gone, 0, names) == ["You win: bob left the match."]
    aborted = {"winners": [], "draw": False, "reason": "aborted", "detail": {"by": "idle"}}
    assert tell_outcome(GAME, aborted, 0, names) == ["Nobody wins: nobody came to play."]
    assert tell_outcome(GAME, None, 0, names) == []
