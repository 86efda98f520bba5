"""Eriantys's events in words: islands and clouds numbered from 1 as the board labels them,
characters by name, and never what came out of the bag."""

from __future__ import annotations

import random

from service.games.eriantys.constants import COLOURS
from service.games.registry import get_game

GAME = get_game("eriantys")


def test_islands_and_clouds_are_numbered_from_one():
    events = [{"type": "student_moved", "seat": 0, "color": "pink", "from": "entrance", "to": 3},
              {"type": "mother_nature_moved", "seat": 1, "steps": 2, "island": 0},
              {"type": "cloud_taken", "seat": 1, "cloud": 0, "students": {"green": 2, "blue": 1}}]
    assert GAME.describe(events, 0, names={1: "bob"}) == [
        "You moved a pink student from the entrance to island 4.",
        "bob moved Mother Nature 2 steps to island 1.",
        "bob took cloud 1: 2 green and 1 blue."]


def test_characters_and_assistants_in_words():
    events = [{"type": "assistant_played", "seat": 1, "card": 7},
              {"type": "character_played", "seat": 1, "cost": 2, "character": "magic_mailman"},
              {"type": "character_played", "seat": 0, "cost": 1, "character": "monk", "color": "yellow",
               "island": 10},
              {"type": "student_moved", "seat": 0, "color": "yellow", "from": "monk", "to": 10}]
    assert GAME.describe(events, 0) == [
        "seat 1 played assistant 7 (Mother Nature up to 4 steps).",
        "seat 1 played the Magic Mailman for 2 coins.",
        "You played the Monk for 1 coin: colour yellow, island 11.",
        "You moved a yellow student from the Monk to island 11."]


def _round_of_play(seed: int):
    """Every (events, state after) of a seeded random game of expert Eriantys."""
    options = {"expert": True, "characters": ["monk", "spoiled_princess", "farmer"]}
    state = GAME.setup(2, GAME.parse_options(options), seed)
    rng = random.Random(seed)
    while GAME.to_act(state):
        seat = rng.choice(sorted(GAME.to_act(state)))
        events = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        yield events, state


def test_bag_draws_are_never_told():
    """The clouds refilled at a round's start and the students drawn onto a character card
    come from the bag: their colours are in the views but never in the sentences."""
    refills = draws = 0
    for seed in range(6):
        for events, _state in _round_of_play(seed):
            for event in events:
                if event["type"] not in ("round_started", "character_refilled"):
                    continue
                for viewer in (0, 1, None):
                    (line,) = GAME.describe([event], viewer)
                    assert not any(colour in line for colour in COLOURS), line
                refills += event["type"] == "round_started"
                draws += event["type"] == "character_refilled" and event["drawn"]
    assert refills and draws  # both kinds of draw were met and checked


def test_a_whole_game_is_told_without_codes():
    for events, _state in _round_of_play(11):
        for line in GAME.describe(events, 0):
            assert "_" not in line and line.endswith(".")


def test_every_end_in_words():
    from service.games.describing import tell_outcome
    names = {0: "ann", 1: "bob"}
    tower = {"winners": [0], "draw": False, "reason": "last_tower", "detail": {"towers_left": [0, 2]}}
    assert tell_outcome(GAME, tower, 1, names) == ["ann wins: placed their last tower."]
    for reason, why in (("three_groups", "only three groups of islands are left"),
                        ("bag_empty", "the bag is empty"), ("no_assistants", "the assistants are spent")):
        outcome = {"winners": [1], "draw": False, "reason": reason}
        assert tell_outcome(GAME, outcome, 1, names) == [f"You win: {why}."]
    draw = {"winners": [0, 1], "draw": True, "reason": "bag_empty"}
    assert tell_outcome(GAME, draw, None, names) == ["Draw: the bag is empty."]
