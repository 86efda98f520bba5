"""Masters of Renaissance's events in words, and its hidden choices kept hidden: the leaders a
player keeps or discards are named to that player only."""

from __future__ import annotations

import random

from service.games.registry import get_game

GAME = get_game("renaissance")


def _dealt(state, seat):
    return [leader["id"] for leader in GAME.view(state, seat)["players"][seat]["dealt"]]


def test_kept_leaders_are_named_to_their_player_only():
    state = GAME.setup(2, GAME.parse_options({}), 5)
    kept = _dealt(state, 1)[:2]
    action = {"type": "choose_leaders", "leaders": kept}
    events = GAME.apply(state, 1, GAME.parse_action(action))
    mine = GAME.describe(events, 1, action=action, actor=1)
    assert mine[0].startswith(f"You kept leader {kept[0]} (") and f"leader {kept[1]} (" in mine[0]
    for viewer in (0, None):
        theirs = GAME.describe(events, viewer, action=action, actor=1, names={1: "bob"})
        assert theirs[0] == "bob kept two leaders."
        assert not any(f"leader {n}" in line for line in theirs for n in kept)


def test_a_discarded_leader_is_named_to_its_player_only():
    state = GAME.setup(2, GAME.parse_options({}), 9)
    rng = random.Random(9)
    while True:  # play until seat 0 may discard a leader
        seat = min(GAME.to_act(state))
        discards = [a for a in GAME.legal_actions(state, seat) if a.type == "discard_leader"]
        if discards:
            break
        GAME.apply(state, seat, rng.choice([a for a in GAME.legal_actions(state, seat)
                                            if a.type != "discard_leader"]))
    action = discards[0].to_wire()
    events = GAME.apply(state, seat, discards[0])
    own = GAME.describe(events, seat, action=action, actor=seat)
    assert own[0].startswith(f"You discarded leader {action['leader']} (")
    other = GAME.describe(events, 1 - seat, action=action, actor=seat, names={seat: "ann"})
    assert other[0] == "ann discarded a leader and gained 1 faith."
    assert not any(f"leader {action['leader']}" in line for line in other)


def test_market_cards_and_lorenzo_in_words():
    events = [{"type": "resources_taken", "seat": 0, "line": "column", "index": 2,
               "marbles": ["blue", "grey", "white"], "pending": {"shield": 1, "stone": 1}, "pending_white": 0},
              {"type": "resource_placed", "seat": 0, "resource": "shield", "depot": 2},
              {"type": "card_bought", "seat": 0, "card": 13, "level": 1, "color": "purple", "slot": 3,
               "paid": {"strongbox": {"servant": 2}}},
              {"type": "token_revealed", "token": 4, "color": "purple", "removed": [13, 14]},
              {"type": "game_ended", "reason": "lorenzo_faith", "winners": [], "draw": False, "scores": [1]}]
    assert GAME.describe(events, 0) == [
        "You took market column 2: blue, grey and white marbles (1 shield and 1 stone to place).",
        "You put a shield in depot 2.",
        "You bought a level 1 purple card (card 13) into slot 3, paying 2 servants.",
        "Lorenzo's token: he discarded 2 purple cards from the grid.",
        "Lorenzo wins: his black cross reached the end of the faith track; points: you 1."]


def test_a_whole_game_is_told_without_codes():
    state = GAME.setup(3, GAME.parse_options({}), 4)
    rng = random.Random(4)
    while GAME.to_act(state):
        seat = rng.choice(sorted(GAME.to_act(state)))
        action = rng.choice(GAME.legal_actions(state, seat))
        for line in GAME.describe(GAME.apply(state, seat, action), 0, action=action.to_wire(), actor=seat):
            assert "_" not in line and line.endswith("."), line


def test_every_end_in_words_and_a_solo_loss_is_lorenzos_win():
    from service.games.describing import tell_outcome
    lost = {"winners": [], "draw": False, "reason": "lorenzo_faith", "detail": {"scores": [3]}}
    assert tell_outcome(GAME, lost, 0, {0: "ann"}) == [
        "Lorenzo wins: his black cross reached the end of the faith track; points: you 3."]
    cards = {"winners": [], "draw": False, "reason": "lorenzo_cards", "detail": {"scores": [5]}}
    assert tell_outcome(GAME, cards, None, {0: "ann"}) == [
        "Lorenzo wins: every development card of one colour is gone from the grid; points: ann 5."]
    won = {"winners": [1], "draw": False, "reason": "seventh_card", "detail": {"scores": [20, 31]}}
    assert tell_outcome(GAME, won, 0, {0: "ann", 1: "bob"}) == [
        "bob wins: a seventh development card was bought; points: you 20, bob 31."]
    track = {"winners": [0], "draw": False, "reason": "faith_track", "detail": {"scores": [40]}}
    assert tell_outcome(GAME, track, 0, {0: "ann"}) == [
        "You win: a faith marker reached the end of the track; points: you 40."]
