"""Seed 004 values: the SENDINFO deltas, the in-game requests and the answers, as the original.

Everything here works on the public view (``GAME.view(state, seat)``), the players' usernames
and each entrance's slot order (:class:`~service.protocol.eriantys_g27_model.Slots`), so it is a
pure function of what the match shows. Where the original server decides by itself (Mother Nature
with one island in reach, the last cloud) :func:`turn_decision` returns the engine action instead
of a request.
"""

from __future__ import annotations

import re
from typing import Any

from service.errors import ProtocolError
from service.protocol import eriantys_g27 as wire
from service.protocol import eriantys_g27_model as model
from service.protocol.eriantys_g27 import J, Message, Typed

WIZARDS = ("NATURE", "DESERT", "CLOUD", "SNOW")
DINING_ROW = 10
#: SENDINFO keys in the order the original writes them when several change at once
DELTA_ORDER = ("CLOUDARRAY", "ISLANDARRAY", "PLAYERARRAY", "CHARACTERCARDARRAY", "ENTRANCEARRAY",
               "DININGROOMARRAY", "GLOBALPROFESSORTABLE", "MOTHERNATURE", "COINPOOL")
#: every GameValues key a client may ask with REQUESTVALUE
VALUE_KEYS = ("MODEL", *DELTA_ORDER)
_INTEGER = re.compile(r"-?[0-9]{1,9}")


def bad(message: str) -> ProtocolError:
    return ProtocolError(message, code="protocol/bad_value")


# --- SENDINFO -------------------------------------------------------------------------------

def facets(view: dict[str, Any], entrances: list[list[str]]) -> dict[str, Any]:
    """What each SENDINFO key shows, to tell which keys changed between two views."""
    out: dict[str, Any] = {
        "CLOUDARRAY": model.clouds(view), "ISLANDARRAY": model.islands(view),
        "PLAYERARRAY": [(p["hand"], p["played"], p.get("coins")) for p in view["players"]]
        + [t["towers_left"] for t in view["teams"]],
        "ENTRANCEARRAY": entrances,
        "DININGROOMARRAY": [model.counters(p["dining"]) for p in view["players"]],
        "GLOBALPROFESSORTABLE": view["professors"], "MOTHERNATURE": view["mother_nature"]}
    if view["expert"]:
        out["CHARACTERCARDARRAY"] = model.characters(view["characters"])
        out["COINPOOL"] = view["reserve"]
        out["CARDCONTENTS"] = [(c.get("students"), c.get("no_entry")) for c in view["characters"]]
    return out


def value_of(key: str, view: dict[str, Any], names: list[str],
             entrances: list[list[str]]) -> Any:
    """The value of one GameValues key as the original writes it in an InfoMap."""
    if key == "MODEL":
        return model.game_model(view, names, entrances)
    if key == "CLOUDARRAY":
        return model.clouds(view)
    if key == "ISLANDARRAY":
        return model.islands(view)
    if key == "PLAYERARRAY":
        return model.players(view, names, entrances)
    if key == "CHARACTERCARDARRAY":
        return model.characters(view["characters"])
    if key == "ENTRANCEARRAY":
        return [model.entrance_value(view, e) for e in entrances]
    if key == "DININGROOMARRAY":
        return [J({"studentCounters": model.counters(p["dining"])}) for p in view["players"]]
    if key == "GLOBALPROFESSORTABLE":
        return model.professors(view, names, entrances)
    if key == "MOTHERNATURE":
        return J(view["mother_nature"])
    if key == "COINPOOL":
        return J(view["reserve"])
    raise ProtocolError(f"no value {key!r}; ask one of {', '.join(VALUE_KEYS)}",
                        code="protocol/unknown_value")


PAYMENT = ("PLAYERARRAY", "CHARACTERCARDARRAY", "COINPOOL")


def deltas(before: dict[str, Any], after: dict[str, Any], view: dict[str, Any],
           names: list[str], entrances: list[list[str]], action: str,
           refilled: bool = False) -> list[dict[str, Any]]:
    """The SENDINFOs for what changed after an action of type ``action``, grouped as the
    original sends them: Mother Nature's move as {ISLANDARRAY, PLAYERARRAY, MOTHERNATURE} then
    {ISLANDARRAY, MOTHERNATURE}; a character's payment (PLAYERARRAY, CHARACTERCARDARRAY,
    COINPOOL) first, then its effect, with the card again when its students or no-entry tiles
    changed or islands were involved; the clouds refilled for a new round last, on their own."""
    changed = [k for k in DELTA_ORDER if k in after and before.get(k) != after[k]]
    if action == "move_mother_nature":  # a no-entry tile back on its card: shown on its own
        moved = ("ISLANDARRAY", "PLAYERARRAY", "MOTHERNATURE")
        card = ["ISLANDARRAY", "CHARACTERCARDARRAY"] if "CHARACTERCARDARRAY" in changed else []
        groups = [[k for k in DELTA_ORDER if k in moved or k in changed and k not in card],
                  card, list(moved[::2])]
    elif action == "play_character":
        effect = [k for k in changed if k not in PAYMENT]
        if "ISLANDARRAY" in effect or before.get("CARDCONTENTS") != after.get("CARDCONTENTS"):
            effect = [k for k in DELTA_ORDER if k in effect or k == "CHARACTERCARDARRAY"]
        groups = [[k for k in PAYMENT if k in after], effect]
    else:
        groups = [[k for k in DELTA_ORDER if k in changed or
                   ("MOTHERNATURE" in changed and k == "ISLANDARRAY")]]
    empty = J({"cloudTiles": [model.cloud_tile({"students": {}}) for _ in view["clouds"]]})
    out = [delta(g, before, view, names, entrances, empty if refilled else None)
           for g in groups if g]
    if refilled:
        out.append({"CLOUDARRAY": model.clouds(view)})
    return out


def delta(changed: list[str], before: dict[str, Any], view: dict[str, Any],
          names: list[str], entrances: list[list[str]], clouds: J | None = None) -> dict[str, Any]:
    """One SENDINFO's fields; a cloud taken goes with that one ENTRANCE. ``clouds`` stands for
    the clouds when they were refilled since (the original shows them emptied first)."""
    fields = {k: value_of(k, view, names, entrances) for k in changed}
    if clouds is not None and "CLOUDARRAY" in fields:
        fields["CLOUDARRAY"] = clouds
    moved = [s for s, e in enumerate(entrances) if before.get("ENTRANCEARRAY", [None] * 9)[s] != e]
    if "CLOUDARRAY" in fields and "ENTRANCEARRAY" in fields and len(moved) == 1:
        del fields["ENTRANCEARRAY"]
        fields["ENTRANCE"] = model.entrance_tuple(view, moved[0], entrances[moved[0]])
    return fields


# --- requests -------------------------------------------------------------------------------

def playable_characters(view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The characters the acting player may use now (expert, none used yet, affordable)."""
    turn = view.get("turn")
    if not view["expert"] or turn is None or turn["seat"] != seat or turn["character_used"]:
        return []
    coins = view["players"][seat]["coins"]
    return [c for c in view["characters"] if c["cost"] <= coins]


def free_clouds(view: dict[str, Any]) -> list[int]:
    return [n for n, c in enumerate(view["clouds"])
            if not c["taken"] and sum(c["students"].values()) > 0]


def reachable(view: dict[str, Any]) -> list[int]:
    """The islands Mother Nature can reach, nearest first (never all the way round)."""
    n, here = len(view["islands"]), view["mother_nature"]
    steps = min(view["turn"]["max_steps"], n - 1)
    return [(here + k) % n for k in range(1, steps + 1)]


def turn_decision(view: dict[str, Any], seat: int, entrance: list[str],
                  cloud: int | None) -> Message | dict[str, Any]:
    """The request for the decision ``seat`` faces, or the action the original takes itself."""
    if view["phase"] == "planning":
        hand = [J(model.assistant(v)) for v in legal_assistants(view, seat)]
        return wire.request("PLAYASSISTANTCARD", Typed(wire.ASSISTANT_ARRAY, {"assistantDeck": hand}))
    turn, cards = view["turn"], playable_characters(view, seat)
    extra = {"CHARACTERCARDARRAY": model.characters(cards)} if cards else {}
    suffix = "ORPLAYCARD" if cards else ""
    if turn["students_to_move"] > 0:
        dining = view["players"][seat]["dining"]
        fields = {"COLORARRAY": model.color_array(entrance, model.entrance_length(view)),
                  "BOOLARRAY": [J(dining[c] < DINING_ROW) for c in model.ORIGINAL_COLOURS]}
        return wire.request("MOVESTUDENT" + suffix, wire.info_map({**fields, **extra}))
    if not turn["mother_nature_moved"]:
        reach = reachable(view)
        if len(reach) == 1 and not cards:
            return {"type": "move_mother_nature", "steps": 1}
        fields = {"MNPOSSIBLEMOVEMENTS": model.islands(view, reach)}
        return wire.request("MOVEMOTHERNATURE" + suffix, wire.info_map({**fields, **extra}))
    free = free_clouds(view)
    if free and cloud is None:
        tiles = [model.cloud_tile(view["clouds"][n]) for n in free]
        if cards:
            fields = {"CLOUDARRAY": J({"cloudTiles": tiles}), **extra}
            return wire.request("CHOOSECLOUDORPLAYCARD", wire.info_map(fields))
        if len(free) == 1:
            return {"type": "choose_cloud", "cloud": free[0]}
        return wire.request("CHOOSECLOUD", Typed(model.CLOUD_ARRAY, {"cloudTiles": tiles}))
    if cards:
        return wire.request("ENDTURN", wire.info_map(extra))
    return {"type": "choose_cloud", "cloud": cloud} if cloud is not None else {"type": "end_turn"}


def legal_assistants(view: dict[str, Any], seat: int) -> list[int]:
    hand = view["players"][seat]["hand"]
    taken = {p["played"] for p in view["players"] if p["played"] and p["seat"] != seat}
    return [v for v in hand if v not in taken] or list(hand)


# --- reading answers --------------------------------------------------------------------------

def integer(value: Any, what: str) -> int:
    """A whole number as the original writes one (a JSON number, or its text); nothing else."""
    if isinstance(value, Typed):
        value = value.value
    if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**9:
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


def pick(items: list[Any], index: Any, what: str) -> Any:
    i = integer(index, what)
    if not 0 <= i < len(items):
        raise bad(f"{what}: index {i} is not in 0..{len(items) - 1}")
    return items[i]


def color(name: Any, what: str) -> str:
    """A Color name (RED ... BLUE) as Tavolo's colour."""
    if not isinstance(name, str) or name.lower() not in model.ORIGINAL_COLOURS:
        raise bad(f"{what}: a Color is one of RED, YELLOW, GREEN, PINK, BLUE")
    return name.lower()


def assistant_action(typed: Typed | None) -> dict[str, Any]:
    card = record(typed, wire.ASSISTANT_CARD, ("cardValue",))
    return {"type": "play_assistant", "card": integer(card["cardValue"], "cardValue")}


def move_action(view: dict[str, Any], entrance: list[str], typed: Typed | None) -> dict[str, Any]:
    """MOVESTUDENTINFO: ``studentIndex`` is a slot of the COLORARRAY that was sent."""
    info = record(typed, wire.MOVE_STUDENT_INFO, ("toDiningRoom", "studentIndex"))
    student = color(pick(entrance, info["studentIndex"], "studentIndex"), "studentIndex")
    if info["toDiningRoom"] is True:
        return {"type": "move_student", "color": student, "to": "dining"}
    island = integer(info.get("islandNum"), "islandNum")
    if not 0 <= island < len(view["islands"]):
        raise bad(f"islandNum: no island {island}")
    return {"type": "move_student", "color": student, "to": island}


def mother_nature_action(view: dict[str, Any], typed: Typed | None) -> dict[str, Any]:
    """CHOSENMOTHERNATUREMOVEMENT is the index of the island reached, not a number of steps."""
    target = integer(typed, "CHOSENMOTHERNATUREMOVEMENT")
    n = len(view["islands"])
    if not 0 <= target < n:
        raise bad(f"CHOSENMOTHERNATUREMOVEMENT: no island {target}")
    steps = (target - view["mother_nature"]) % n
    return {"type": "move_mother_nature", "steps": steps or n}


def cloud_index(view: dict[str, Any], typed: Typed | None) -> int:
    cloud = integer(typed, "SELECTEDCLOUD")
    if not 0 <= cloud < len(view["clouds"]):
        raise bad(f"SELECTEDCLOUD: no cloud {cloud}")
    return cloud


def chosen_character(typed: Typed | None) -> str:
    card = record(typed, wire.CHARACTER, ("character",))
    name = card["character"]
    if not isinstance(name, str) or name not in model.CHARACTER_BY_NAME:
        raise bad(f"no character {name!r}")
    return model.CHARACTER_BY_NAME[name]
