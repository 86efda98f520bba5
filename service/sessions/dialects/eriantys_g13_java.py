"""Seed 000 (Eriantys, group 13) on the original's own wire: Java object serialization.

The conversation is the JSON g13 dialect's (``eriantys_g13.py``): same login, lobby, waits,
game commands, heartbeat, resume and rematch, same matches (a JSON and a Java client may sit
at one table). Only the codec differs (:mod:`service.protocol.eriantys_g13_java`), plus what
the original client needs and the JSON dialect does not:

- the server's stream header goes out as soon as the client connects;
- the client's pings are not answered (the original ignored them; the server pings anyway);
- errors: the original has no error message. A stream that cannot be read on ends the
  connection; a refused command gets the document's answer for its class where there is one
  (``AnsTurnDecidedExcMsg``, ``AnsColorExcNMsg``, ``AnsNumStepExcMsg``, ``AnsNumCloudExcMsg``,
  ``AnsCCNotInTableExcMsg``, ``AnsCCNExcMsg``, ``AnswIfAllowedMsg INVALID``, ``BooleanCheckMsg
  KO``), and ends the connection otherwise (an original client could only hang);
- resume: the original client, after its login, asks ``AskIfGameCreatedMsg`` and
  ``GameStartedMsg`` and then waits on its next ready command; that command is answered with
  whatever makes the client ask for the next step of the game as it stands;
- a ``CloudMsg`` when no cloud is left to take (the last round) ends the turn.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from service.errors import ServiceError
from service.protocol import eriantys_g13 as wire
from service.protocol import eriantys_g13_java as javawire
from service.protocol.framing import FrameError
from service.sessions.dialects import eriantys_g13_play as play
from service.sessions.dialects.base import Dialect
from service.sessions.dialects.eriantys_g13 import EriantysG13Conversation, Wait
from service.sessions.match import MatchRuntime

log = logging.getLogger(__name__)

NAME = "eriantys-g13-java"
DEFAULT_PORT = 4568
RESUME = "resume"
#: the ready commands a resumed client may be waiting on
_READY = ("FirstPlayerTurnMsg", "NewOrderMsg", "AskCAMsg", "CheckTurnEndedMsg")


class EriantysG13JavaConversation(EriantysG13Conversation):
    dialect = NAME
    codec = javawire
    renderer = staticmethod(javawire.render)
    answer_pings = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.current_type: str | None = None
        self.resuming = False

    async def on_open(self) -> None:
        self.peer.send(javawire.header())
        await super().on_open()

    async def on_frame(self, frame: str | FrameError) -> None:
        self.current_type = _type_of(frame)
        await super().on_frame(frame)

    # --- errors --------------------------------------------------------------------------

    def reply_error(self, exc: ServiceError) -> None:
        answer = None if exc.code in javawire.FATAL_CODES else self._error_answer(exc)
        if answer is None:
            log.info("%s: %s (%s); closing", self.peer.name, exc.message, exc.code)
            self.peer.close()
            return
        self.peer.send(answer)

    def _error_answer(self, exc: ServiceError) -> str | None:
        kind, parent = self.current_type, self.current_id
        if kind == "LoginMsg" and self.player is None:
            return self.codec.format_message("AnswIfAllowedMsg", parent, status="INVALID")
        if kind == "NewGameMsg":
            return self.codec.format_message("BooleanCheckMsg", parent, status="KO")
        if kind == "CCMsg":
            return self.codec.format_message("AnsCCNotInTableExcMsg", parent)
        answer = _ANSWERS.get(kind or "")
        if kind and kind.startswith("CC") and kind[2:-3].isdigit():
            answer = f"AnsCC{kind[2:-3]}Msg"
        if answer is None or self.table is None:
            return None
        return self.table.message(answer, parent, error=exc.code)

    # --- resume ------------------------------------------------------------------------------

    def _resume(self, runtime: MatchRuntime, seat: int, parent: str) -> None:
        """Seated again; the client now asks as if it were new (see the module's notes)."""
        self._take(runtime, seat)
        self.resuming = runtime.status != "waiting"

    async def _start_wait(self, msg: wire.ClientMsg) -> None:
        if not (self.resuming and msg.type in _READY):
            await super()._start_wait(msg)
            return
        assert self.table is not None
        self.resuming = False
        self.wait = Wait(RESUME, msg.identifier, self.table.view()["round"])
        self.check_wait()

    def _wait_met(self, wait: Wait, view: dict[str, Any]) -> bool:
        if wait.answer == RESUME:
            return self._resume_answer(view) is not None
        return super()._wait_met(wait, view)

    def _wait_answer(self, wait: Wait, view: dict[str, Any]) -> str:
        if wait.answer == RESUME:
            assert self.table is not None
            kind = self._resume_answer(view)
            assert kind is not None
            return self.table.message(kind, wait.parent)
        return super()._wait_answer(wait, view)

    def _resume_answer(self, view: dict[str, Any]) -> str | None:
        """The answer after which the original client asks for the game's next step for us;
        None while there is none (someone else is choosing an assistant)."""
        assert self.table is not None
        seat = self.table.seat
        if view["phase"] == "planning":
            if view["to_act"] != [seat]:
                return None
            return "AnsFirstPlayerTurnMsg" if view["round"] == 1 else "AnsNewOrderMsg"
        if view["to_act"] == [seat]:
            turn = view["turn"]
            if turn["mother_nature_moved"]:
                return "AnsNumStepMNMsg"
            moved = turn["students_moved"]
            return f"AnsMoveStudent{moved}Msg" if moved else "AnsAskCAMsg"
        order, current = view["action_order"], view["to_act"][0]
        if order.index(seat) < order.index(current):
            return "AnsCloudMsg"  # my turn is over: the client asks CheckTurnEndedMsg next
        return "AnsTurnDecidedMsg"  # the client asks AskCAMsg next, which waits for my turn

    # --- the last round's cloud ------------------------------------------------------------

    async def game_command(self, msg: wire.ClientMsg) -> None:
        table = self.table
        if msg.type == "CloudMsg" and table is not None and play.must_end_turn(table):
            await self.end_turn_if_due()
            self._answer("AnsCloudMsg", msg)
            self._after(msg)
            return
        await super().game_command(msg)


#: a refused command's document answer (more in ``_error_answer``)
_ANSWERS: dict[str, str] = {
    "TurnDecidedMsg": "AnsTurnDecidedExcMsg",
    **{f"MoveStudent{n}Msg": f"AnsColorExc{n}Msg" for n in range(1, 5)},
    "NumStepMNMsg": "AnsNumStepMNExcMsg",
    "CloudMsg": "AnsNumCloudExcMsg",
}


def _type_of(frame: str | FrameError) -> str | None:
    """The command class of a frame (the framer's JSON line), to pick its error answer."""
    if isinstance(frame, FrameError):
        return None
    try:
        data = json.loads(frame)
    except ValueError:
        return None
    kind = data.get("type") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else None


DIALECT = Dialect(
    name=NAME,
    default_port=DEFAULT_PORT,
    framer=javawire.JavaFramer,
    conversation=EriantysG13JavaConversation,
    description="Eriantys, seed 000 (group 13): the original's Java object serialization",
)
