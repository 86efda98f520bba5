"""Dolphins & Foxes's events in words: squares 1-based as on the board and the wire, the side
("Dolphins", "Foxes") named, captures and the end of the game told."""

from __future__ import annotations

from service.games.registry import get_game

GAME = get_game("dolphinfox")


def test_a_real_move_in_words_for_each_viewer():
    state = GAME.setup(2, GAME.parse_options({}), 1)
    move = GAME.legal_actions(state, 0)[0]
    events = GAME.apply(state, 0, move)
    where = f"from row {move.r1}, column {move.c1} to row {move.r2}, column {move.c2}"
    assert GAME.describe(events, 0) == [f"You (Dolphins) moved a dolphin {where}."]
    assert GAME.describe(events, 1) == [f"The Dolphins moved a dolphin {where}."]
    assert GAME.describe(events, 1, names={0: "alice"}) == [f"alice (Dolphins) moved a dolphin {where}."]


def test_captures_and_the_end_in_words():
    events = [{"type": "unit_moved", "team": "F", "from": [4, 4], "to": [5, 4], "captured": True},
              {"type": "game_ended", "winners": [1], "draw": False, "reason": "eliminated"}]
    assert GAME.describe(events, 1) == [
        "You (Foxes) moved a fox from row 4, column 4 to row 5, column 4, capturing a dolphin.",
        "You (Foxes) win: every unit of the other side was captured."]
    draw = [{"type": "game_ended", "winners": [], "draw": True, "reason": "move_limit"}]
    assert GAME.describe(draw, None) == ["Draw: the move limit was reached, with as many dolphins as foxes."]


def test_every_end_in_words():
    from service.games.describing import tell_outcome
    names = {0: "ann", 1: "bob"}
    crossed = {"winners": [1], "draw": False, "reason": "crossed"}
    assert tell_outcome(GAME, crossed, 0, names) == [
        "bob (Foxes) wins: a unit reached the other side's starting row."]
    eliminated = {"winners": [0], "draw": False, "reason": "eliminated"}
    assert tell_outcome(GAME, eliminated, 0, names) == [
        "You (Dolphins) win: every unit of the other side was captured."]
    limit = {"winners": [], "draw": True, "reason": "move_limit"}
    assert tell_outcome(GAME, limit, None, names) == [
        "Draw: the move limit was reached, with as many dolphins as foxes."]
