"""The seed-000 pictures of a game ("General Board", decks, character cards) from a view.

Everything here reads the engine's ``view`` dict (``docs/rules/eriantys.md``), never the
state, so hidden information cannot leak; seats become nicknames, colours the wire names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.games.eriantys.constants import CHARACTER_BY_KEY
from service.protocol.eriantys_g13 import CARDS, FROM_ENGINE_COLOUR

View = dict[str, Any]


def students(counts: dict[str, int]) -> dict[str, int]:
    return {FROM_ENGINE_COLOUR[c]: n for c, n in counts.items()}


def card_name(value: int | None) -> str | None:
    return CARDS[value - 1] if value else None


def _nick(nicknames: Sequence[str | None], seat: int | None) -> str | None:
    return nicknames[seat] if seat is not None and 0 <= seat < len(nicknames) else None


def general_board(view: View, nicknames: Sequence[str | None]) -> dict[str, Any]:
    """The whole table: islands, clouds, professors, school boards, bag, reserve."""
    board: dict[str, Any] = {
        "round": view["round"], "phase": view["phase"], "lastRound": view["last_round"],
        "toAct": [_nick(nicknames, s) for s in view["to_act"]],
        "planningOrder": [_nick(nicknames, s) for s in view["planning_order"]],
        "actionOrder": [_nick(nicknames, s) for s in view["action_order"]],
        "motherNature": view["mother_nature"], "bag": view["bag"]["count"],
        "islands": [_island(i) for i in view["islands"]],
        "clouds": clouds(view),
        "professors": {FROM_ENGINE_COLOUR[c]: _nick(nicknames, s)
                       for c, s in view["professors"].items()},
        "schoolBoards": [_school(view, p, nicknames) for p in view["players"]],
    }
    if view["expert"]:
        board["reserve"] = view["reserve"]
    if "turn" in view:
        board["turn"] = _turn(view["turn"], nicknames)
    return board


def _island(island: dict[str, Any]) -> dict[str, Any]:
    return {"island": island["index"], "tiles": island["tiles"],
            "students": students(island["students"]), "towers": island["towers"],
            "towerColour": island["tower"], "noEntry": island["no_entry"],
            "motherNature": island["mother_nature"]}


def clouds(view: View) -> list[dict[str, Any]]:
    return [{"cloud": i, "students": students(c["students"]), "taken": c["taken"]}
            for i, c in enumerate(view["clouds"])]


def _school(view: View, player: dict[str, Any], nicknames: Sequence[str | None]) -> dict[str, Any]:
    team = view["teams"][player["team"]]
    out = {"name": _nick(nicknames, player["seat"]), "team": player["team"],
           "towerColour": team["tower"], "towersLeft": team["towers_left"],
           "wizard": player["wizard"], "entrance": students(player["entrance"]),
           "diningRoom": students(player["dining"]), "cardsLeft": len(player["hand"]),
           "lastCard": card_name(player["discard"]), "playedCard": card_name(player["played"])}
    if view["expert"]:
        out["coins"] = player["coins"]
    return out


def _turn(turn: dict[str, Any], nicknames: Sequence[str | None]) -> dict[str, Any]:
    ignored = turn["ignored_color"]
    return {"name": _nick(nicknames, turn["seat"]), "studentsMoved": turn["students_moved"],
            "studentsToMove": turn["students_to_move"],
            "motherNatureMoved": turn["mother_nature_moved"], "maxSteps": turn["max_steps"],
            "characterUsed": _card_number(turn["character_used"]),
            "ignoredColour": FROM_ENGINE_COLOUR[ignored] if ignored else None}


def _card_number(key: str | None) -> int | None:
    return CHARACTER_BY_KEY[key].id + 1 if key else None


def character_card(card: dict[str, Any]) -> dict[str, Any]:
    """One character card; ``number`` is the seed's CC number (engine id + 1)."""
    out = {"number": card["id"] + 1, "name": card["name"], "cost": card["cost"],
           "used": card["used"]}
    if "students" in card:
        out["students"] = students(card["students"])
    if "no_entry" in card:
        out["noEntry"] = card["no_entry"]
    return out


def character_cards(view: View) -> list[dict[str, Any]]:
    return [character_card(c) for c in view.get("characters", [])]


def find_character(view: View, number: int) -> dict[str, Any] | None:
    return next((character_card(c) for c in view.get("characters", [])
                 if c["id"] + 1 == number), None)


def deck(view: View, seat: int) -> list[str]:
    """The assistants still in ``seat``'s hand ("DeckCardAssistant")."""
    return [CARDS[v - 1] for v in view["players"][seat]["hand"]]


def played_cards(view: View) -> list[str]:
    """This round's assistants so far, in the order they were played."""
    players = view["players"]
    return [CARDS[players[s]["played"] - 1] for s in view["planning_order"]
            if players[s]["played"]]


def order_of_play(view: View, nicknames: Sequence[str | None]) -> list[str | None]:
    """The action order once known, else this round's planning order."""
    order = view["action_order"] or view["planning_order"]
    return [_nick(nicknames, s) for s in order]
