"""The original's bytes where they harm nobody: Gson's escaping and its left-out nulls, one
battlefieldUpdate per worker that moved, the players in card-choice order, the original's
card types."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from service.games.santorini import GAME
from service.games.santorini.notation import position
from service.protocol import santorini as wire
from service.sessions.dialects import santorini_views as views
from service.sessions.dialects.santorini import BOARD_EVENTS

BOARD = """
0 0 0 0 0
0 A C 0 0
0 0 0 0 0
0 0 0 B D
0 0 0 0 0
"""
BOARD3 = """
E 0 0 0 0
0 A C 0 0
0 0 0 0 0
0 0 0 B D
0 0 0 0 F
"""


def play(gods: list[str | None], *steps: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of the last of ``steps`` played by seat 0 on BOARD."""
    st = position(BOARD, gods)
    events: list[dict[str, Any]] = []
    for raw in steps:
        events = GAME.apply(st, 0, GAME.parse_action(raw))
    return events


def updates(events: list[dict[str, Any]]) -> int:
    return views.board_updates(events, BOARD_EVENTS)


def test_apollo_swap_and_minotaur_push_make_one_update_per_moved_worker() -> None:
    select = {"type": "select_worker", "x": 1, "y": 1}
    assert updates(play(["APOLLO", "PAN"], select)) == 0
    assert updates(play(["APOLLO", "PAN"], select, {"type": "move", "x": 1, "y": 2})) == 2
    assert updates(play(["MINOTAUR", "PAN"], select, {"type": "move", "x": 1, "y": 2})) == 2
    assert updates(play(["APOLLO", "PAN"], select, {"type": "move", "x": 0, "y": 0})) == 1
    built = play(["APOLLO", "PAN"], select, {"type": "move", "x": 0, "y": 0},
                 {"type": "build", "x": 0, "y": 1})
    assert updates(built) == 1


def test_lines_escape_like_gson_and_stay_json() -> None:
    line = wire.ServerError(error="it's <you> & x=1").line()
    assert line == '{"action":"serverError","data":{"error":"it\\u0027s \\u003cyou\\u003e \\u0026 x\\u003d1"}}'
    assert json.loads(line)["data"]["error"] == "it's <you> & x=1"
    assert "é" in wire.ServerError(error="é").line()  # like Gson: no escaping beyond HTML's


def test_nulls_are_left_out_like_gson() -> None:
    empty = wire.Cell(height=0, lastBlock="GROUND")
    assert json.loads(wire.BattlefieldUpdate(cellMatrix=[[empty]]).line())["data"] == {
        "cellMatrix": [[{"height": 0, "lastBlock": "GROUND"}]]}
    waiting = wire.PlayersResponse(players=[wire.PlayerInfo(playerNickname="bill", color="BLUE")])
    assert json.loads(waiting.line())["data"] == {"players": [{"playerNickname": "bill", "color": "BLUE"}]}
    assert wire.parse_server(waiting.line()) == waiting


@dataclass
class _Seat:
    nickname: str


@dataclass
class _Runtime:
    """What santorini_views reads of a match runtime."""

    state: Any
    seats: list[_Seat]
    seed: int = 7


def test_players_come_in_card_choice_order_with_the_god_player_last() -> None:
    st = position(BOARD3, ["APOLLO", "PAN", "ZEUS"])
    runtime = _Runtime(st, [_Seat("ann"), _Seat("bob"), _Seat("cid")])
    listed = views.players(runtime).players  # type: ignore[arg-type]
    assert [(p.playerNickname, p.card) for p in listed] == [("bob", "PAN"), ("cid", "ZEUS"), ("ann", "APOLLO")]
    assert len({p.color for p in listed}) == 3


@pytest.mark.parametrize("name,kind,basic,players", [
    ("APOLLO", "MOVEMENT", False, 3), ("ATLAS", "BUILD", True, 3), ("PROMETHEUS", "MOVEMENT", True, 3),
    ("ARES", "BUILDING", False, 3), ("CHRONUS", "WIN", False, 2), ("HESTIA", "BUILDING", False, 3),
    ("ZEUS", "BUILDING", False, 3)])
def test_cards_carry_the_original_types(name: str, kind: str, basic: bool, players: int) -> None:
    card = views.card(name)
    assert (card.cardType, card.chooseBasic, card.numberOfPlayersAllowed) == (kind, basic, players)
    assert card.cardEffect


def test_the_deck_escapes_apostrophes_like_gson() -> None:
    line = wire.DeckResponse(deck=wire.Deck(listOfCards=[views.card("ATHENA")])).line()
    assert "Opponent\\u0027s" in line and "'" not in line
