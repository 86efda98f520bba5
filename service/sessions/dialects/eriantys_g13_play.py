"""Seed-000 game commands (assistant, students, Mother Nature, cloud, characters) as actions.

One table, :data:`ERROR_ANSWERS`, maps the engine's ``rules/<reason>`` codes to the
document's error answers; any other error becomes a Tavolo ``ErrorMsg``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.errors import ProtocolError, RulesError
from service.games.eriantys import GAME as ERIANTYS
from service.games.eriantys.constants import CHARACTERS
from service.protocol import eriantys_g13 as wire
from service.protocol import eriantys_g13_board as pics
from service.sessions.match import MatchRuntime

#: (command family, engine reason) -> the document's answer; ``{n}`` is the move / card number
ERROR_ANSWERS: dict[tuple[str, str], str] = {
    ("assistant", "card_not_in_hand"): "AnsTurnDecidedExcMsg",
    ("assistant", "card_already_played"): "AnsTurnDecidedExcMsg",
    ("student", "student_not_in_entrance"): "AnsColorExc{n}Msg",
    ("student", "dining_full"): "AnsColorExc{n}Msg",
    ("student", "no_such_island"): "AnsIslandExc{n}Msg",
    ("mother_nature", "bad_mother_nature_distance"): "AnsNumStepMNExcMsg",
    ("cloud", "no_such_cloud"): "AnsNumCloudExcMsg",
    ("cloud", "cloud_already_taken"): "AnsNumCloudExcMsg",
    ("cloud", "empty_cloud"): "AnsNumCloudExcMsg",
    ("character", "not_expert"): "AnsCannotPlayCCMsg",
    ("character", "wrong_phase"): "AnsCannotPlayCCMsg",
    ("character", "character_not_in_play"): "AnsCCNotInTableExcMsg",
    ("character", "character_already_used"): "AnsPlayerAlrUsedCCExcMsg",
    ("character", "not_enough_coins"): "AnsNotEnoughCoinsExcMsg",
    ("character_args", "not_expert"): "AnsCannotPlayCCMsg",
    ("character_args", "wrong_phase"): "AnsCannotPlayCCMsg",
    ("character_args", "character_not_in_play"): "AnsCCNotInTableExcMsg",
    ("character_args", "character_already_used"): "AnsPlayerAlrUsedCCExcMsg",
    ("character_args", "not_enough_coins"): "AnsNotEnoughCoinsExcMsg",
    ("character_args", "student_not_on_character"): "AnsCC{n}Msg",
    ("character_args", "student_not_in_entrance"): "AnsCC{n}Msg",
    ("character_args", "no_such_island"): "AnsCC{n}Msg",
    ("character_args", "no_entry_tiles_exhausted"): "AnsCC{n}Msg",
    ("character_args", "dining_full"): "AnsCC{n}Msg",
    ("character_args", "bad_swap"): "AnsCC{n}Msg",
}

#: CC number -> engine character key (standard order, rules §11)
CC_KEYS: dict[int, str] = {c.id + 1: c.key for c in CHARACTERS}


class Table:
    """What one seat of one match looks like on the wire."""

    def __init__(self, runtime: MatchRuntime, seat: int,
                 renderer: Callable[..., str] | None = None) -> None:
        self.runtime, self.seat = runtime, seat
        #: writes a message from the view in another codec (the Java dialect's); None: JSON
        self.renderer = renderer

    def view(self) -> dict[str, Any]:
        return self.runtime.view(self.seat)

    def nicknames(self) -> list[str | None]:
        return [s.nickname for s in self.runtime.seats]

    def message(self, kind: str, parent: str | None, **given: Any) -> str:
        """A server message whose fields not ``given`` are read off the current view."""
        view, nicks = self.view(), self.nicknames()
        if self.renderer is not None:
            return self.renderer(kind, parent, view, nicks, self.seat, given)
        fields = {name: given[name] if name in given else self._field(name, view, nicks)
                  for name in wire.SERVER_MESSAGES[kind]}
        return wire.format_message(kind, parent, **fields)

    def _field(self, name: str, view: dict[str, Any], nicks: list[str | None]) -> Any:
        result = view.get("result") or {}
        makers: dict[str, Callable[[], Any]] = {
            "name": lambda: nicks[self.seat],
            "dca": lambda: pics.deck(view, self.seat),
            "generalBoard": lambda: pics.general_board(view, nicks),
            "playedCards": lambda: pics.played_cards(view),
            "characterCards": lambda: pics.character_cards(view),
            "modexp": lambda: view["expert"],
            "clouds": lambda: pics.clouds(view),
            "nicknames": lambda: nicks,
            "numPlayers": lambda: len(nicks),
            "nickname": lambda: pics.order_of_play(view, nicks),
            "winner": lambda: [nicks[s] for s in result.get("winners", [])],
            "draw": lambda: result.get("draw", False),
            "reason": lambda: result.get("reason", ""),
            "characterCard": lambda: None,
            "error": lambda: None,
        }
        return makers[name]()

    def my_action_turn(self, view: dict[str, Any]) -> bool:
        return view["phase"] == "action" and view["to_act"] == [self.seat]


def answer_for(family: str, exc: RulesError, n: int | None) -> str | None:
    """The document's answer to a rules error of a command family, or None (ErrorMsg)."""
    name = ERROR_ANSWERS.get((family, exc.reason))
    return name.format(n=n) if name is not None else None


# --- actions from commands -------------------------------------------------------------


def assistant_action(msg: wire.ClientMsg) -> dict[str, Any]:
    return {"type": "play_assistant", "card": wire.CARD_VALUE[msg["card"]]}


def student_action(msg: wire.ClientMsg) -> dict[str, Any]:
    location = msg["location"]
    if location != wire.DINING_ROOM and location < 0:
        raise RulesError("no_such_island", f"no island {location}")
    to: Any = "dining" if location == wire.DINING_ROOM else location
    return {"type": "move_student", "color": wire.TO_ENGINE_COLOUR[msg["colour"]], "to": to}


def cloud_action(msg: wire.ClientMsg) -> dict[str, Any]:
    if msg["cloud"] < 0:
        raise RulesError("no_such_cloud", f"no cloud {msg['cloud']}")
    return {"type": "choose_cloud", "cloud": msg["cloud"]}


def character_action(number: int, msg: wire.ClientMsg | None = None) -> dict[str, Any]:
    """``play_character`` for CC<number>, with the arguments of CC<number>Msg if it needs any."""
    action: dict[str, Any] = {"type": "play_character", "character": CC_KEYS[number]}
    if msg is None:
        return action
    colour = wire.TO_ENGINE_COLOUR
    if "isl" in msg.fields:
        if msg["isl"] < 0:
            raise RulesError("no_such_island", f"no island {msg['isl']}")
        action["island"] = msg["isl"]
    if "stud" in msg.fields:
        action["color"] = colour[msg["stud"]]
    if "color" in msg.fields:
        action["color"] = colour[msg["color"]]
    if number == 7:
        action["swaps"] = _swaps(msg["students"], msg["entrancestud"], 3)
    if number == 10:
        action["swaps"] = _swaps(msg["entrancestud"], msg["diningstud"], 2)
    return action


def _swaps(first: list[str], second: list[str], most: int) -> list[list[str]]:
    if len(first) != len(second) or len(first) > most:
        raise RulesError("bad_swap", f"give two lists of the same length, at most {most}")
    colour = wire.TO_ENGINE_COLOUR
    return [[colour[a], colour[b]] for a, b in zip(first, second)]


def cc_number(msg: wire.ClientMsg) -> int:
    """The N of ``CC<N>Msg``."""
    return int(msg.type[2:-3])


def move_number(msg: wire.ClientMsg) -> int:
    """The N of ``MoveStudent<N>Msg``."""
    return int(msg.type[len("MoveStudent"):-3])


def precheck_character(table: Table, number: int) -> None:
    """Whether CC<number> may be played now, asked before its arguments (the engine's own
    checks, in its order and with its codes)."""
    ERIANTYS.check_character(table.runtime.state, table.seat, CC_KEYS[number])


def check_move_number(table: Table, number: int) -> None:
    """MoveStudent<N>Msg must be the N-th move of the turn (when it is your turn at all)."""
    view = table.view()
    if table.my_action_turn(view):
        expected = view["turn"]["students_moved"] + 1
        if number != expected:
            raise ProtocolError(f"this is student move {expected}, not {number}",
                                code="protocol/wrong_move_number")


def must_end_turn(table: Table) -> bool:
    """Mother Nature moved and no cloud with students is left: the turn ends without one."""
    view = table.view()
    if not table.my_action_turn(view) or not view["turn"]["mother_nature_moved"]:
        return False
    return not any(not c["taken"] and sum(c["students"].values()) for c in view["clouds"])
