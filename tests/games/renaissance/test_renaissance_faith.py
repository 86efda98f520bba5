"""The faith track (§9), the end of a multiplayer game (§10) and scoring (§11)."""

from __future__ import annotations

from renaissance_helpers import (
    GAME, act, market_turn, rejects, rig, set_market, started, types,
)

from service.games.renaissance.faith import finish, score


def test_a_report_flips_the_tiles_inside_its_section_and_removes_the_others() -> None:
    state = started(3)
    rig(state, 0, depots=("coin", "", ""), slots=("L1-GREEN-1VP", "", ""), faith=7)
    rig(state, 1, faith=5)
    rig(state, 2, faith=4)
    events = act(state, 0, type="produce_card", slot=1)  # coin -> 1 faith
    report = next(e for e in events if e["type"] == "vatican_report")
    assert report == {"type": "vatican_report", "report": 1, "flipped": [0, 1]}
    assert [p.favours for p in state.players] == [[1, 0, 0], [1, 0, 0], [-1, 0, 0]]
    act(state, 0, type="end_turn")
    state.players[1].faith = 9
    market_turn(state, 1)
    assert state.reports == [True, False, False]


def test_one_gain_passing_two_pope_spaces_resolves_both_in_order() -> None:
    state = started(2)
    rig(state, 0, depots=("servant", "", ""), slots=("L1-GREEN-2VP L2-GREEN-5VP L3-GREEN-11VP",
                                                     "", ""), faith=14)
    rig(state, 1, faith=6)
    events = act(state, 0, type="produce_card", slot=1)  # servant -> coin + 3 faith
    reports = [e["report"] for e in events if e["type"] == "vatican_report"]
    assert reports == [1, 2]
    assert [p.favours for p in state.players] == [[1, 1, 0], [1, -1, 0]]


def test_discards_move_everyone_before_the_report_is_resolved() -> None:
    state = started(3)
    rig(state, 1, faith=7)
    rig(state, 2, faith=4)
    set_market(state, "YYBG/WWWR/BGPP", "W")
    act(state, 0, type="take_from_market", line="row", index=1)
    events = act(state, 0, type="discard_resource", resource="coin")
    assert types(events) == ["resource_discarded", "faith_moved", "faith_moved",
                             "vatican_report"]
    assert [p.favours[0] for p in state.players] == [-1, 1, 1]


def test_the_marker_stops_at_24_and_the_round_is_completed() -> None:
    state = started(3)
    market_turn(state, 0)
    rig(state, 1, depots=("coin", "", ""), slots=("L1-GREEN-1VP", "", ""), faith=23)
    events = act(state, 1, type="produce_card", slot=1)
    assert state.players[1].faith == 24 and state.reports == [True, True, True]
    assert "last_round_triggered" in types(events)
    state.players[1].depots[0] = [0, 1]
    state.players[1].produced = [0, 0, 0, 0]
    act(state, 1, type="end_turn")
    assert GAME.outcome(state) is None
    set_market(state, "YYBG/WWWR/BGPP", "W")
    act(state, 2, type="take_from_market", line="row", index=1)
    act(state, 2, type="discard_resource", resource="coin")
    assert state.players[1].faith == 24  # extra faith is lost
    act(state, 2, type="discard_resource", resource="coin")
    act(state, 2, type="discard_resource", resource="shield")
    act(state, 2, type="discard_resource", resource="stone")
    events = act(state, 2, type="end_turn")
    assert types(events)[-1] == "game_ended"
    assert GAME.outcome(state).reason == "faith_track"  # type: ignore[union-attr]


def test_a_trigger_on_the_last_seat_ends_the_game_with_that_turn() -> None:
    state = started(2)
    market_turn(state, 0)
    rig(state, 1, faith=23)
    act(state, 1, type="discard_leader", leader=state.players[1].leaders[0])
    assert state.final_round
    events = market_turn(state, 1)
    assert types(events)[-1] == "game_ended"
    rejects(state, 0, "game_over", type="take_from_market", line="row", index=1)


def test_score_adds_cards_track_tiles_active_leaders_and_resources() -> None:
    state = started(2)
    rig(state, 0, depots=("coin", "2stone", ""), extra="", strongbox="4shield 2servant",
        slots=("L1-GREEN-1VP L2-GREEN-6VP", "L1-BLUE-4VP", ""), active=(5,), hand=(1,),
        faith=13)
    state.players[0].favours = [1, -1, 0]
    # cards 1 + 6 + 4, track (12) 6, tile 2, leader 3, resources 9 // 5 = 1
    assert score(state.players[0]) == 11 + 6 + 2 + 3 + 1


def test_ties_go_to_the_most_resources_then_are_shared() -> None:
    state = started(3)
    rig(state, 0, strongbox="5coin", slots=("L1-GREEN-1VP", "", ""))
    rig(state, 1, strongbox="9coin", slots=("L1-GREEN-2VP", "", ""))
    rig(state, 2, strongbox="5coin", slots=("L1-GREEN-3VP", "", ""))
    events: list[dict[str, object]] = []
    finish(state, None, "seventh_card", events)
    assert (state.scores, state.winners, state.draw) == ([2, 3, 4], [2], False)
    state.players[2].slots = [[], [], []]
    state.players[2].strongbox = [10, 0, 0, 0]
    state.players[0].strongbox = [15, 0, 0, 0]
    state.players[1].strongbox = [14, 0, 0, 0]
    state.phase = "play"
    finish(state, None, "seventh_card", events)
    assert (state.scores, state.winners, state.draw) == ([4, 4, 2], [0], False)
    rig(state, 1, strongbox="15coin", slots=("", "", "L1-BLUE-1VP"))
    state.phase = "play"
    finish(state, None, "seventh_card", events)
    outcome = GAME.outcome(state)
    assert outcome is not None and (outcome.winners, outcome.draw) == ((0, 1), True)
