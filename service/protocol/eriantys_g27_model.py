"""Seed 004 values as the original group-27 server wrote them (its Gson model adapters).

The original's adapters nest: many values are themselves JSON *text* inside the JSON. A
:class:`~service.protocol.eriantys_g27.J` marks such a value; ``pretty`` turns it into the string.
Everything here is a pure function of Tavolo's public view (``GAME.view(state, seat)``) and the
players' usernames. Colours go in the original's order RED, YELLOW, GREEN, PINK, BLUE.
"""

from __future__ import annotations

from typing import Any

from service.games.eriantys.constants import CHARACTER_BY_KEY
from service.protocol import eriantys_g27 as wire
from service.protocol.eriantys_g27 import J

#: the original's Color enum order (per-colour int arrays use it)
ORIGINAL_COLOURS: tuple[str, ...] = ("red", "yellow", "green", "pink", "blue")
CLOUD_LENGTH = 4
PLAYER = wire.COMMON + "model.Player"
PLAYER_ARRAY = "[L" + PLAYER + ";"
CLOUD_ARRAY = "[L" + wire.COMMON + "model.CloudTile;"
ENTRANCE = wire.COMMON + "model.Entrance"
#: the original's Character enum against Tavolo's character keys
CHARACTER_NAMES: dict[str, str] = {
    "monk": "MONK", "farmer": "FARMER", "herald": "STANDARD_BEARER", "magic_mailman": "MAGICIAN",
    "grandma_herbs": "HERBALIST", "centaur": "CENTAUR", "jester": "JESTER", "knight": "CAVALIER",
    "mushroom_hunter": "MERCHANT", "minstrel": "BARD", "spoiled_princess": "PRINCESS",
    "thief": "THIEF"}
CHARACTER_BY_NAME: dict[str, str] = {v: k for k, v in CHARACTER_NAMES.items()}
#: the wrapper type of a player ("type" in Player[]) and its Java class, by (teams, expert)
PLAYER_KINDS: dict[tuple[bool, bool], tuple[str, str]] = {
    (False, False): ("base", "Player"), (False, True): ("expert", "PlayerExpert"),
    (True, False): ("team", "PlayerTeam"), (True, True): ("teamExpert", "PlayerTeamExpert")}


def counters(counts: dict[str, int]) -> list[int]:
    return [counts.get(c, 0) for c in ORIGINAL_COLOURS]


def expand(counts: dict[str, int]) -> list[str]:
    """Counts as colour names in the original's colour order."""
    return [c.upper() for c in ORIGINAL_COLOURS for _ in range(counts.get(c, 0))]


def color_array(colors: list[str], length: int) -> J:
    """A ``Color[]`` as the original writes it: its length and the students in it."""
    return J({"length": length, "colors": list(colors)})


def entrance_length(view: dict[str, Any]) -> int:
    return 9 if view["seats"] == 3 else 7


# --- the board ---------------------------------------------------------------------------

def island(isl: dict[str, Any]) -> dict[str, Any]:
    merged = len(isl["tiles"]) > 1
    return {"studentCounters": J(counters(isl["students"])),
            "multiplicity": isl["towers"] if isl["tower"] else 0,
            "towerColor": J({"towerColor": isl["tower"].upper()}) if isl["tower"] else "none",
            "noEntryTileCount": J(isl["no_entry"]) if merged or isl["no_entry"] else "none",
            "backgroundID": isl["tiles"][0] % 3}


def islands(view: dict[str, Any], only: list[int] | None = None) -> J:
    chosen = view["islands"] if only is None else [view["islands"][i] for i in only]
    return J({"islands": [island(i) for i in chosen]})


def cloud_tile(cloud: dict[str, Any]) -> J:
    return color_array(expand(cloud["students"]), CLOUD_LENGTH)


def clouds(view: dict[str, Any]) -> J:
    return J({"cloudTiles": [cloud_tile(c) for c in view["clouds"]]})


def character_card(card: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {"cost": card["cost"], "character": CHARACTER_NAMES[card["key"]],
                            "hasCoin": card["used"]}
    kind = "base"
    if "students" in card:
        kind = "student"
        body["students"] = color_array(expand(card["students"]),
                                       CHARACTER_BY_KEY[card["key"]].students)
    if "no_entry" in card:
        kind = "noEntry"
        body["noEntryCount"] = card["no_entry"]
    return {"type": kind, "card": J(body)}


def characters(cards: list[dict[str, Any]]) -> J:
    return J({"characterCards": [character_card(c) for c in cards]})


# --- players ----------------------------------------------------------------------------

def assistant(value: int) -> dict[str, int]:
    return {"cardValue": value, "movementPoints": (value + 1) // 2}


def player_kind(view: dict[str, Any]) -> tuple[str, str]:
    return PLAYER_KINDS[(view["seats"] == 4, view["expert"])]


def school_board(view: dict[str, Any], seat: int, entrance: list[str]) -> J:
    team = view["teams"][view["players"][seat]["team"]]
    towers = team["towers_left"] if team["seats"][0] == seat else 0
    return J({"towerColor": J({"towerColor": team["tower"].upper()}), "towerCount": towers,
              "entrance": entrance_value(view, entrance),
              "diningRoom": J({"studentCounters": counters(view["players"][seat]["dining"])})})


def entrance_value(view: dict[str, Any], entrance: list[str]) -> J:
    return J({"students": color_array(entrance, entrance_length(view))})


def player(view: dict[str, Any], seat: int, names: list[str], entrance: list[str]) -> dict[str, Any]:
    p = view["players"][seat]
    out: dict[str, Any] = {
        "assistantDeck": J({"assistantDeck": [J(assistant(v)) for v in p["hand"]]}),
        "lastPlayedCard": J(assistant(p["played"])) if p["played"] else "void",
        "playerID": seat, "playerWizard": J({"wizard": p["wizard"].upper()}),
        "schoolBoard": school_board(view, seat, entrance), "username": names[seat]}
    if view["expert"]:
        out["coinCount"] = p["coins"]
    if view["seats"] == 4:
        out["teamMember"] = next(s for s in view["teams"][p["team"]]["seats"] if s != seat)
    return out


def wrapped(view: dict[str, Any], seat: int | None, names: list[str],
            entrances: list[list[str]]) -> dict[str, Any]:
    """One entry of a ``Player[]``: ``isPresent``, the kind, the player as JSON text."""
    if seat is None:
        return {"isPresent": False}
    return {"isPresent": True, "type": player_kind(view)[0],
            "player": J(player(view, seat, names, entrances[seat]))}


def players(view: dict[str, Any], names: list[str], entrances: list[list[str]],
            seats: list[int | None] | None = None) -> J:
    chosen = range(view["seats"]) if seats is None else seats
    return J({"players": [wrapped(view, s, names, entrances) for s in chosen]})


def professors(view: dict[str, Any], names: list[str], entrances: list[list[str]]) -> J:
    owners = [view["professors"][c] for c in ORIGINAL_COLOURS]
    return J({"professorLocations": players(view, names, entrances, owners)})


def winner(view: dict[str, Any], seat: int, names: list[str],
           entrances: list[list[str]]) -> wire.Typed:
    cls = wire.COMMON + "model." + player_kind(view)[1]
    return wire.Typed(cls, player(view, seat, names, entrances[seat]))


def winners(view: dict[str, Any], seats: list[int], names: list[str],
            entrances: list[list[str]]) -> wire.Typed:
    return wire.Typed(PLAYER_ARRAY, {"players": [wrapped(view, s, names, entrances) for s in seats]})


def entrance_tuple(view: dict[str, Any], seat: int, entrance: list[str]) -> J:
    """The ENTRANCE value: ``Tuple{Integer playerID, Entrance}``."""
    return J({"left": {"type": wire.INTEGER, "value": J(seat)},
              "right": {"type": ENTRANCE, "value": entrance_value(view, entrance)}})


# --- the whole model --------------------------------------------------------------------

def game_model(view: dict[str, Any], names: list[str], entrances: list[list[str]]) -> J:
    model: dict[str, Any] = {
        "players": players(view, names, entrances), "islands": islands(view),
        "cloudTiles": clouds(view), "motherNaturePosition": view["mother_nature"],
        "bag": J({"studentCounters": counters(view["bag"]["by_color"])}),
        "globalProfessorTable": [
            {"color": c.upper(), "playerID": "none" if view["professors"][c] is None
             else J(view["professors"][c])} for c in ORIGINAL_COLOURS],
        "expertMode": view["expert"]}
    if view["expert"]:
        model["characterCards"] = characters(view["characters"])
        model["coinPool"] = J(view["reserve"])
    return J(model)


class Slots:
    """What the original keeps and Tavolo's view does not, per connection.

    Each entrance as an ordered list, as the original keeps it: a student taken out leaves no
    hole (the list closes up) and students that arrive are put at the end, so that an index a
    client sends means the slot that connection was shown. And each player's last played
    assistant, which the original shows until the next one (Tavolo's view forgets it each round).
    """

    def __init__(self) -> None:
        self.order: dict[int, list[str]] = {}
        self.played: dict[int, int] = {}

    def update(self, view: dict[str, Any]) -> list[list[str]]:
        """The entrances in slot order; fills in each player's last played card in ``view``."""
        for seat, p in enumerate(view["players"]):
            if p["played"]:
                self.played[seat] = p["played"]
            p["played"] = self.played.get(seat)
        return [self._merge(seat, p["entrance"]) for seat, p in enumerate(view["players"])]

    def take(self, seat: int, index: int) -> None:
        """The student at ``index`` leaves (before the view that shows it)."""
        slots = self.order.get(seat, [])
        if 0 <= index < len(slots):
            del slots[index]

    def _merge(self, seat: int, counts: dict[str, int]) -> list[str]:
        left = {c.upper(): n for c, n in counts.items()}
        kept = []
        for name in self.order.get(seat, []):
            if left.get(name, 0) > 0:
                kept.append(name)
                left[name] -= 1
        kept += [c.upper() for c in ORIGINAL_COLOURS for _ in range(left[c.upper()])]
        self.order[seat] = kept
        return list(kept)
