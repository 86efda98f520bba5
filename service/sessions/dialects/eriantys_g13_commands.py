"""The seed-000 game commands of a seated connection (mixed into the conversation)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.errors import RulesError
from service.protocol import eriantys_g13 as wire
from service.protocol import eriantys_g13_board as pics
from service.sessions.dialects import eriantys_g13_play as play

if TYPE_CHECKING:
    from service.sessions.dialects.eriantys_g13_play import Table
    from service.sessions.peer import Peer
    from service.store import PlayerRecord


class GameCommands:
    """Turns a seated player's commands into actions and answers them in the seed's words."""

    table: Table | None
    player: PlayerRecord | None
    peer: Peer
    acting: bool
    end_sent: bool
    selected_cc: int | None

    def check_wait(self) -> None: ...  # provided by the conversation

    def _send_end(self, parent: str | None) -> None: ...  # provided by the conversation

    async def game_command(self, msg: wire.ClientMsg) -> None:
        if msg.type == "TurnDecidedMsg":
            await self._turn_decided(msg)
        elif msg.type.startswith("MoveStudent"):
            await self._move_student(msg)
        elif msg.type == "NumStepMNMsg":
            await self._mother_nature(msg)
        elif msg.type == "CloudMsg":
            await self._cloud(msg)
        elif msg.type == "CCMsg":
            await self._character(msg)
        elif msg.type == "CannotPlayCCMsg":
            self.selected_cc = None
            self._answer("AnsPlayAfterNotCCMsg", msg, characterCard=None)
        else:
            await self._character_arguments(msg)

    # --- acting ----------------------------------------------------------------------

    async def _act(self, msg: wire.ClientMsg, family: str, action: dict[str, Any],
                   n: int | None = None) -> bool:
        """Apply; True when done, False when a mapped error answer was sent instead."""
        table, player = self._seated()
        self.acting = True
        try:
            await table.runtime.act(player.id, action, client_id=msg.identifier)
        except RulesError as exc:
            return self._rules_error(msg, family, exc, n)
        finally:
            self.acting = False
        return True

    def _rules_error(self, msg: wire.ClientMsg, family: str, exc: RulesError,
                     n: int | None) -> bool:
        answer = play.answer_for(family, exc, n)
        if answer is None:
            raise exc
        table, _ = self._seated()
        given: dict[str, Any] = {}
        if answer.startswith("AnsCC") and answer[5].isdigit():
            given = {"characterCard": pics.find_character(table.view(), n or 0),
                     "error": exc.code}
        self._answer(answer, msg, **given)
        return False

    def _seated(self) -> tuple[Table, PlayerRecord]:
        assert self.table is not None and self.player is not None
        return self.table, self.player

    def _answer(self, kind: str, msg: wire.ClientMsg, **given: Any) -> None:
        table, _ = self._seated()
        self.peer.send(table.message(kind, msg.identifier, **given))

    def _after(self, msg: wire.ClientMsg) -> None:
        """After an accepted action: the end of the game, then any wait it fulfils."""
        table, _ = self._seated()
        if table.runtime.status == "finished" and not self.end_sent:
            self._send_end(msg.identifier)
        self.check_wait()

    def _rules(self, msg: wire.ClientMsg, family: str, exc: RulesError, n: int | None) -> None:
        self._rules_error(msg, family, exc, n)

    # --- the commands ------------------------------------------------------------------

    async def _turn_decided(self, msg: wire.ClientMsg) -> None:
        if await self._act(msg, "assistant", play.assistant_action(msg)):
            self._answer("AnsTurnDecidedMsg", msg)
            self._after(msg)

    async def _move_student(self, msg: wire.ClientMsg) -> None:
        n = play.move_number(msg)
        table, _ = self._seated()
        play.check_move_number(table, n)
        try:
            action = play.student_action(msg)
        except RulesError as exc:
            self._rules(msg, "student", exc, n)
            return
        if await self._act(msg, "student", action, n):
            self._answer(f"AnsMoveStudent{n}Msg", msg)
            self._after(msg)

    async def _mother_nature(self, msg: wire.ClientMsg) -> None:
        action = {"type": "move_mother_nature", "steps": msg["steps"]}
        if not await self._act(msg, "mother_nature", action):
            return
        table, _ = self._seated()
        if table.runtime.status != "finished":
            self._answer("AnsNumStepMNMsg", msg)
        self._after(msg)

    async def _cloud(self, msg: wire.ClientMsg) -> None:
        try:
            action = play.cloud_action(msg)
        except RulesError as exc:
            self._rules(msg, "cloud", exc, None)
            return
        if await self._act(msg, "cloud", action):
            self._answer("AnsCloudMsg", msg)
            self._after(msg)

    async def end_turn_if_due(self) -> None:
        """CheckTurnEndedMsg when no cloud is left to take (last round): end the turn."""
        table, player = self._seated()
        if play.must_end_turn(table):
            self.acting = True
            try:
                await table.runtime.act(player.id, {"type": "end_turn"})
            finally:
                self.acting = False

    async def _character(self, msg: wire.ClientMsg) -> None:
        table, _ = self._seated()
        number = msg["card"]
        if number not in play.CC_KEYS:
            self._answer("AnsCCNotInTableExcMsg", msg)
            return
        try:
            play.precheck_character(table, number)
        except RulesError as exc:
            self._rules(msg, "character", exc, number)
            return
        if number not in wire.CC_WITH_ARGUMENTS:
            if await self._act(msg, "character", play.character_action(number)):
                self._played(msg, number)
            return
        self.selected_cc = number
        self._answer(f"AnsCC{number}Msg", msg,
                     characterCard=pics.find_character(table.view(), number), error=None)

    async def _character_arguments(self, msg: wire.ClientMsg) -> None:
        number = play.cc_number(msg)
        try:
            action = play.character_action(number, msg)
        except RulesError as exc:
            self._rules(msg, "character_args", exc, number)
            return
        if await self._act(msg, "character_args", action, number):
            self.selected_cc = None
            self._played(msg, number)

    def _played(self, msg: wire.ClientMsg, number: int) -> None:
        table, _ = self._seated()
        self._answer("AnsPlayAfterCCMsg", msg,
                     characterCard=pics.find_character(table.view(), number))
        self._after(msg)
