"""The seed-000 model objects (general board, islands, clouds, players, school boards, character
and assistant cards) built from a Tavolo view, as the original client renders them.

Only the engine's ``view`` dict is read (``docs/rules/eriantys.md``): hands are public in
Eriantys (everyone starts with the same ten and plays face up), the bag is sent as its
composition in colour order, never its order. One object is built once per message and shared
where the original shared it (a school board in ``AllBoards`` and in its ``Player``; the
players list in the message and in the Thief's card; the bag in every card that holds it), so
the writer sends the same back-references the original did.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.games.eriantys.constants import COLOURS, PARAMS
from service.protocol.eriantys_g13 import CARDS, FROM_ENGINE_COLOUR
from service.protocol.javaser import JEnum, JObject

M = "it.polimi.ingsw.Model."
View = dict[str, Any]
#: ``Player.nameCharacterCard`` when no character was played (as the recordings show it)
NO_CHARACTER = 13

#: the original's card texts where the recordings show them; the others by the rulebook name
DESCRIPTIONS: dict[int, str] = {
    4: "Puoi muovere madre natura fino a due isole addizionali rispetto a quanto indicato "
       "sulla carta assistente che hai giocato",
    5: "Piazza una tessera divieto su un'isola a tua scelta,la prima volta che madre natura "
       "termina il suo movimento lì, rimettete la tessera divieto sulla carta senza calcolare "
       "l'influenza su quell'isola nè piazzare torri",
    6: "Durante il conteggio dell'influenza su un'isola le torri presenti non vengono calcolate.",
    7: "Puoi prendere fino a 3 studenti da questa carta e scambiarli con altrettanti studenti "
       "presenti nel tuo ingresso ",
    11: "Prendi uno studente dalla carta e piazzalo nella tua sala.Poi pesca uno studente dal "
        "sacchetto e mettilo su questa carta",
    12: "Scegli un colore di studente,ogni giocatore incluso te deve rimettere nel sacchetto 3 "
        "studenti di quel colore presenti nella sua sala.Chi avesse meno di 3 studenti di quel "
        "colore,rimetterà tutti quelli che ha.",
}


def colour(engine_colour: str) -> JEnum:
    return JEnum(M + "Color", FROM_ENGINE_COLOUR[engine_colour])


def students(counts: dict[str, int]) -> list[Any]:
    """Students as the original's list of Color, in colour order."""
    return [colour(c) for c in COLOURS for _ in range(counts.get(c, 0))]


def tower(name: str | None) -> JEnum | None:
    return JEnum(M + "ColorTower", name.capitalize()) if name else None


def card(value: int | None) -> JEnum | None:
    return JEnum(M + "CardAssistant", CARDS[value - 1]) if value else None


def deck(hand: Sequence[int]) -> JObject:
    return JObject(M + "DeckCardAssistant", {"Cards": [card(v) for v in hand]})


class Pictures:
    """The model objects of one message, each built once (so shared ones are one object)."""

    def __init__(self, view: View, nicknames: Sequence[str | None]) -> None:
        self.view, self.nicknames = view, nicknames
        self._boards: list[JObject] | None = None
        self._players: list[JObject] | None = None
        self._board: JObject | None = None
        self._bag: JObject | None = None

    # --- tiles -----------------------------------------------------------------------

    def islands(self) -> list[JObject]:
        return [self._island(i) for i in self.view["islands"]]

    @staticmethod
    def _island(island: dict[str, Any]) -> JObject:
        return JObject(M + "IslandTiles", {
            "MotherNature": island["mother_nature"], "NoEntryTiles": island["no_entry"] > 0,
            "NumberID": island["index"], "NumberOfNet": island["no_entry"],
            "Tower": island["towers"] > 0, "size": len(island["tiles"]),
            "ColTower": tower(island["tower"]), "StudentsInIsland": students(island["students"])})

    def clouds(self) -> list[JObject]:
        return [JObject(M + "CloudTiles", {"Numid": i, "stud": students(c["students"])})
                for i, c in enumerate(self.view["clouds"])]

    # --- players and school boards -----------------------------------------------------

    def boards(self) -> list[JObject]:
        if self._boards is None:
            self._boards = [self._school(p) for p in self.view["players"]]
        return self._boards

    def _school(self, player: dict[str, Any]) -> JObject:
        view, seat = self.view, player["seat"]
        team = view["teams"][player["team"]]
        owned = [colour(c) for c in COLOURS if view["professors"].get(c) == seat]
        dining = JObject(M + "DiningRoom", {
            "DiningRoom": [[colour(c)] * player["dining"].get(c, 0) for c in COLOURS]})
        return JObject(M + "SchoolBoard", {
            "NumberId": seat, "NumberOfTower": team["towers_left"],
            "Student": PARAMS[view["seats"]].entrance, "Entrance": students(player["entrance"]),
            "ProfessorTable": owned, "colorTower": tower(team["tower"]), "diningRoom": dining})

    def players(self) -> list[JObject]:
        if self._players is None:
            boards = self.boards()
            self._players = [self._player(p, boards[p["seat"]]) for p in self.view["players"]]
        return self._players

    def _player(self, player: dict[str, Any], board: JObject) -> JObject:
        view, seat = self.view, player["seat"]
        turn = view.get("turn") or {}
        used = turn.get("seat") == seat and turn.get("character_used") is not None
        return JObject(M + "Player", {
            "NumberCoins": player.get("coins", 0),
            "Turn": _position(view["action_order"], seat),
            "nameCharacterCard": self._used_number(turn) if used else self._no_card(),
            "turnToPlayCardAssistant": _position(view["planning_order"], seat),
            "usedCharacterCard": used, "CA": card(player["played"]),
            "MyDeck": deck(player["hand"]), "MySchoolBoard": board,
            "NickName": self.nick(seat)})

    def _no_card(self) -> int:
        """The original's "no character this turn": 0 until the first action phase, then 13."""
        view = self.view
        return 0 if view["round"] == 1 and view["phase"] == "planning" else NO_CHARACTER

    def _used_number(self, turn: dict[str, Any]) -> int:
        key = turn["character_used"]
        return next((c["id"] + 1 for c in self.view.get("characters", []) if c["key"] == key), 0)

    def nick(self, seat: int) -> str:
        nick = self.nicknames[seat] if 0 <= seat < len(self.nicknames) else None
        return nick or f"seat{seat}"

    # --- the general board and the character cards --------------------------------------

    def general_board(self) -> JObject:
        if self._board is None:
            view = self.view
            self._board = JObject(M + "GeneralBoard", {
                "Coins": view.get("reserve", 0), "NoEntryTiles": 0, "AllBoards": self.boards(),
                "ChoosenCards": [], "Clouds": self.clouds(), "Islands": self.islands()})
            self._board.fields["ChoosenCards"] = self.characters()
        return self._board

    def characters(self) -> list[JObject]:
        board = self.general_board()
        cards = board.fields["ChoosenCards"]
        if not cards and self.view.get("characters"):
            cards = [self._character(c) for c in self.view["characters"]]
            board.fields["ChoosenCards"] = cards
        return list(cards)

    def character(self, number: int) -> JObject | None:
        return next((c for c in self.characters() if c.fields["Name"] == number), None)

    def bag(self) -> JObject:
        if self._bag is None:
            self._bag = JObject(M + "Bag", {"students": students(self.view["bag"]["by_color"])})
        return self._bag

    def _character(self, info: dict[str, Any]) -> JObject:
        number = info["id"] + 1
        on_card = students(info.get("students", {}))
        # the original shows the printed cost and counts uses (and charges one coin more once
        # used); Tavolo keeps whether a card was used, not how often
        printed = info["cost"] - (1 if info["used"] else 0)
        fields: dict[str, Any] = {
            "Coins": printed, "CountUse": 1 if info["used"] else 0, "Name": number,
            "DescriptionEffect": DESCRIPTIONS.get(number, info["name"])}
        fields.update(self._card_fields(number, info, on_card))
        return JObject(f"{M}CharacterCard{number}", fields)

    def _card_fields(self, number: int, info: dict[str, Any], on_card: list[Any]) -> dict[str, Any]:
        if number in (1, 11):
            extra = {"bag": self.bag(), "choosenColor": None, "choosenStudent": on_card}
            return {"Ichosen": None, **extra} if number == 1 else extra
        if number == 3:
            mover = JObject("it.polimi.ingsw.Controller.MoveMotherNature",
                            {"I1": None, "colorT": None, "colorTowerList": []})
            return {"numOfPlayer": self.view["seats"], "I1": None,
                    "generalBoard": self.general_board(), "moveMotherNature": mover,
                    "schoolBoardList": self.boards()}
        if number == 5:
            return {"NET": info.get("no_entry", 0), "I1": None}
        if number == 7:
            return {"bag": self.bag(), "studentChoosen": [], "studentOnCard": on_card,
                    "studentOnEntrance": []}
        if number == 9:
            return {"chosenColor": None}
        if number == 10:
            return {"studentOnDiningRoom": [], "studentOnEntrance": []}
        if number == 12:
            return {"bag": self.bag(), "chosenColor": None, "players": self.players()}
        return {}

    # --- what the planning answers carry ------------------------------------------------

    def played_this_round(self) -> list[JEnum | None]:
        players = self.view["players"]
        return [card(players[s]["played"]) for s in self.view["planning_order"]
                if players[s]["played"]]


def _position(order: Sequence[int], seat: int) -> int:
    return list(order).index(seat) if seat in order else 0
