"""Seed 004 values: Eriantys views as InfoMaps, the in-game requests, and answers as actions.

Everything here works on the public view (``GAME.view(state, seat)``) and the players'
usernames, so it is a pure function of what the match shows.
"""

from __future__ import annotations

from typing import Any

from service.errors import ProtocolError
from service.games.eriantys.constants import CHARACTERS, COLOURS
from service.protocol import eriantys_g27 as wire
from service.protocol.eriantys_g27 import Message, Typed

COLOR_NAMES: dict[str, str] = {c: c.upper() for c in COLOURS}
COLOR_BY_NAME: dict[str, str] = {v: k for k, v in COLOR_NAMES.items()}
WIZARDS = ("NATURE", "DESERT", "CLOUD", "SNOW")
#: the original's Character enum, ids 0..11 in the standard order
CHARACTER_NAMES: dict[str, str] = dict(zip(
    (c.key for c in CHARACTERS),
    ("MONK", "FARMER", "STANDARD_BEARER", "MAGICIAN", "HERBALIST", "CENTAUR", "JESTER",
     "CAVALIER", "MERCHANT", "BARD", "PRINCESS", "THIEF")))
CHARACTER_BY_NAME: dict[str, str] = {v: k for k, v in CHARACTER_NAMES.items()}
#: characters that need no further input
NO_INPUT = frozenset({"farmer", "magic_mailman", "centaur", "knight"})


def bad(message: str) -> ProtocolError:
    return ProtocolError(message, code="protocol/bad_value")


def expand(counts: dict[str, int]) -> list[str]:
    """Counts by colour as a Color[] in colour order (an index into it picks a student)."""
    return [COLOR_NAMES[c] for c in COLOURS for _ in range(counts.get(c, 0))]


def by_name(counts: dict[str, int]) -> dict[str, int]:
    return {COLOR_NAMES[c]: counts[c] for c in COLOURS}


def assistant(value: int) -> dict[str, int]:
    return {"cardValue": value, "movementPoints": (value + 1) // 2}


# --- SENDINFO -------------------------------------------------------------------------------

def info_fields(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Every field a client keeps, by GameValues name (plus a few of ours, see the docs)."""
    fields: dict[str, Any] = {
        "MOTHERNATURE": view["mother_nature"],
        "ISLANDARRAY": [_island(i) for i in view["islands"]],
        "CLOUDARRAY": [{"index": n, "students": expand(c["students"]), "taken": c["taken"]}
                       for n, c in enumerate(view["clouds"])],
        "PLAYERARRAY": [_player(p, names) for p in view["players"]],
        "GLOBALPROFESSORTABLE": {COLOR_NAMES[c]: (names[h] if h is not None else None)
                                 for c, h in view["professors"].items()},
        "TOWERS": [{"team": t["team"], "towerColor": t["tower"].upper(),
                    "players": [names[s] for s in t["seats"]], "towersLeft": t["towers_left"]}
                   for t in view["teams"]],
        "ROUND": view["round"], "PHASE": view["phase"].upper(),
        "CURRENTPLAYER": names[view["to_act"][0]] if view["to_act"] else None,
        "TURNORDER": [names[s] for s in (view["action_order"] or view["planning_order"])],
        "BAG": view["bag"]["count"], "LASTROUND": view["last_round"],
    }
    if view["expert"]:
        fields["COINPOOL"] = view["reserve"]
        fields["CHARACTERCARDARRAY"] = [_character(c) for c in view["characters"]]
    return fields


def _island(island: dict[str, Any]) -> dict[str, Any]:
    return {"index": island["index"], "tiles": island["tiles"],
            "studentCounters": by_name(island["students"]), "towerCount": island["towers"],
            "towerColor": island["tower"].upper() if island["tower"] else None,
            "noEntryTileCount": island["no_entry"]}


def _player(player: dict[str, Any], names: list[str]) -> dict[str, Any]:
    out = {"playerID": player["seat"], "username": names[player["seat"]],
           "wizard": player["wizard"].upper(), "team": player["team"],
           "entrance": expand(player["entrance"]), "diningRoom": by_name(player["dining"]),
           "assistantDeck": [assistant(v) for v in player["hand"]],
           "lastPlayedCard": assistant(player["played"]) if player["played"] else None}
    if "coins" in player:
        out["coinCount"] = player["coins"]
    return out


def _character(card: dict[str, Any]) -> dict[str, Any]:
    out = {"id": card["id"], "character": CHARACTER_NAMES[card["key"]], "cost": card["cost"],
           "hasCoin": card["used"]}
    if "students" in card:
        out["students"] = expand(card["students"])
    if "no_entry" in card:
        out["noEntryCount"] = card["no_entry"]
    return out


# --- requests -------------------------------------------------------------------------------

def playable_characters(view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The characters the acting player may use now (expert, none used yet, affordable)."""
    turn = view.get("turn")
    if not view["expert"] or turn is None or turn["seat"] != seat or turn["character_used"]:
        return []
    coins = view["players"][seat]["coins"]
    return [_character(c) for c in view["characters"] if c["cost"] <= coins]


def turn_request(view: dict[str, Any], seat: int, cloud_chosen: bool) -> Message:
    """The decision the acting seat faces now."""
    if view["phase"] == "planning":
        hand = [assistant(a["card"]) for a in _legal_assistants(view, seat)]
        return wire.request("PLAYASSISTANTCARD", Typed(wire.ASSISTANT_ARRAY, hand))
    turn, me = view["turn"], view["players"][seat]
    cards = playable_characters(view, seat)
    extra = {"CHARACTERCARDARRAY": cards} if cards else {}
    suffix = "ORPLAYCARD" if cards else ""
    if turn["students_to_move"] > 0:
        fields = {"ENTRANCE": expand(me["entrance"]), "DININGROOM": by_name(me["dining"]),
                  "ISLANDCOUNT": len(view["islands"])}
        return wire.request("MOVESTUDENT" + suffix, wire.info_map({**fields, **extra}))
    if not turn["mother_nature_moved"]:
        fields = {"MAXMOTHERNATUREMOVEMENT": turn["max_steps"]}
        return wire.request("MOVEMOTHERNATURE" + suffix, wire.info_map({**fields, **extra}))
    free = free_clouds(view)
    if free and not cloud_chosen:
        fields = {"CLOUDARRAY": [{"index": n, "students": expand(view["clouds"][n]["students"])}
                                 for n in free]}
        return wire.request("CHOOSECLOUD" + suffix, wire.info_map({**fields, **extra}))
    return wire.request("ENDTURN", wire.info_map(extra) if cards else None)


def free_clouds(view: dict[str, Any]) -> list[int]:
    return [n for n, c in enumerate(view["clouds"])
            if not c["taken"] and sum(c["students"].values()) > 0]


def _legal_assistants(view: dict[str, Any], seat: int) -> list[dict[str, int]]:
    hand = view["players"][seat]["hand"]
    taken = {p["played"] for p in view["players"] if p["played"] and p["seat"] != seat}
    fresh = [v for v in hand if v not in taken]
    return [{"card": v} for v in (fresh or hand)]


def character_request(view: dict[str, Any], seat: int, key: str) -> Message:
    """CHARACTERCARDEFFECT: what the card's effect needs from the player."""
    me = view["players"][seat]
    card = next(c for c in view["characters"] if c["key"] == key)
    fields: dict[str, Any] = {"CHARACTERVALUE": CHARACTER_NAMES[key]}
    if key in ("monk", "spoiled_princess", "jester"):
        fields["CARDSTUDENTS"] = expand(card["students"])
    if key in ("monk", "herald", "grandma_herbs"):
        fields["ISLANDCOUNT"] = len(view["islands"])
    if key == "jester":
        fields.update(MAXMOVEMENTJESTER=3, ENTRANCESTUDENTS=expand(me["entrance"]))
    if key == "minstrel":
        fields.update(MAXMOVEMENTBARD=2, ENTRANCESTUDENTS=expand(me["entrance"]),
                      DININGROOM=by_name(me["dining"]))
    if key == "mushroom_hunter":
        fields["COLORARRAY"] = [COLOR_NAMES[c] for c in COLOURS]
    if key == "thief":
        fields["REDUCIBLECOLOR"] = [COLOR_NAMES[c] for c in COLOURS]
    return wire.request("CHARACTERCARDEFFECT", wire.info_map(fields))


# --- answers as actions -----------------------------------------------------------------------

def integer(typed: Typed | None, what: str) -> int:
    if typed is None:
        raise bad(f"{what}: an Integer is needed")
    value = typed.value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(f"{what}: an Integer is needed")
    return value


def boolean(typed: Typed | None, what: str) -> bool:
    value = None if typed is None else typed.value
    if isinstance(value, str) and value in ("true", "false"):
        value = value == "true"
    if not isinstance(value, bool):
        raise bad(f"{what}: a Boolean is needed")
    return value


def record(typed: Typed | None, cls: str, keys: tuple[str, ...]) -> dict[str, Any]:
    if typed is None or typed.cls != cls or not isinstance(typed.value, dict):
        raise bad(f"expected {cls.rsplit('.', 1)[-1]} {{{', '.join(keys)}}}")
    missing = [k for k in keys if k not in typed.value]
    if missing:
        raise bad(f"{cls.rsplit('.', 1)[-1]} lacks {', '.join(missing)}")
    return typed.value


def pick(items: list[str], index: Any, what: str) -> str:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(items):
        raise bad(f"{what}: index {index!r} is not in 0..{len(items) - 1}")
    return items[index]


def color(name: Any, what: str) -> str:
    if name not in COLOR_BY_NAME:
        raise bad(f"{what}: a Color is one of {', '.join(COLOR_BY_NAME)}")
    return COLOR_BY_NAME[name]


def assistant_action(typed: Typed | None) -> dict[str, Any]:
    card = record(typed, wire.ASSISTANT_CARD, ("cardValue",))
    return {"type": "play_assistant", "card": card["cardValue"]}


def move_action(view: dict[str, Any], seat: int, typed: Typed | None) -> dict[str, Any]:
    info = record(typed, wire.MOVE_STUDENT_INFO, ("toDiningRoom", "studentIndex"))
    student = pick(expand(view["players"][seat]["entrance"]), info["studentIndex"], "studentIndex")
    if info["toDiningRoom"] is True:
        return {"type": "move_student", "color": COLOR_BY_NAME[student], "to": "dining"}
    return {"type": "move_student", "color": COLOR_BY_NAME[student], "to": info.get("islandNum")}


def chosen_character(typed: Typed | None) -> str:
    card = record(typed, wire.CHARACTER, ("character",))
    if card["character"] not in CHARACTER_BY_NAME:
        raise bad(f"no character {card['character']!r}")
    return CHARACTER_BY_NAME[card["character"]]


def character_action(view: dict[str, Any], seat: int, key: str,
                     fields: dict[str, Any]) -> dict[str, Any]:
    """A CHOSENFIELDSMAP (already read as a dict) for character ``key`` as an engine action."""
    me = view["players"][seat]
    card = next((c for c in view["characters"] if c["key"] == key), {})
    out: dict[str, Any] = {"type": "play_character", "character": key}
    if key in ("monk", "spoiled_princess"):
        student = pick(expand(card.get("students", {})), fields.get("STUDENTINDEX"), "STUDENTINDEX")
        out["color"] = COLOR_BY_NAME[student]
    if key in ("monk", "herald", "grandma_herbs"):
        out["island"] = fields.get("ISLANDINDEX")
    if key == "mushroom_hunter":
        out["color"] = color(fields.get("MERCHANTCOLOR"), "MERCHANTCOLOR")
    if key == "thief":
        out["color"] = color(fields.get("REDUCECOLOR"), "REDUCECOLOR")
    if key == "jester":
        out["swaps"] = _jester_swaps(card, me, fields)
    if key == "minstrel":
        out["swaps"] = _minstrel_swaps(me, fields)
    return out


def _index_list(fields: dict[str, Any], key: str) -> list[Any]:
    value = fields.get(key, [])
    if not isinstance(value, list):
        raise bad(f"{key}: a list of indexes is needed")
    return value


def _distinct(items: list[str], indexes: list[Any], what: str) -> list[str]:
    if len(set(map(repr, indexes))) != len(indexes):
        raise bad(f"{what}: the same student twice")
    return [pick(items, i, what) for i in indexes]


def _jester_swaps(card: dict[str, Any], me: dict[str, Any],
                  fields: dict[str, Any]) -> list[list[str]]:
    taken = _distinct(expand(card.get("students", {})), _index_list(fields, "CARDSTUDENTINDEX"),
                      "CARDSTUDENTINDEX")
    given = _distinct(expand(me["entrance"]), _index_list(fields, "ENTRANCESTUDENTINDEX"),
                      "ENTRANCESTUDENTINDEX")
    if len(taken) != len(given) or len(taken) > 3:
        raise bad("the Jester swaps as many card students as entrance students, at most 3")
    return [[COLOR_BY_NAME[a], COLOR_BY_NAME[b]] for a, b in zip(taken, given)]


def _minstrel_swaps(me: dict[str, Any], fields: dict[str, Any]) -> list[list[str]]:
    given = _distinct(expand(me["entrance"]), _index_list(fields, "ENTRANCESTUDENTINDEX"),
                      "ENTRANCESTUDENTINDEX")
    tables = [color(c, "DININGROOMTABLECOLOR") for c in _index_list(fields, "DININGROOMTABLECOLOR")]
    if len(given) != len(tables) or len(given) > 2:
        raise bad("the Bard swaps as many entrance students as dining students, at most 2")
    return [[COLOR_BY_NAME[a], b] for a, b in zip(given, tables)]
