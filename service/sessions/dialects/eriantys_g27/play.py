"""The seed-004 game itself: SENDINFO after every change, one request per decision, the end.

Mixed into :class:`EriantysG27Conversation`. A match runs while every seat is connected; when one
drops the others get GAMEINTERRUPT and wait; when it is back (LOADGAME) everyone gets GAMESTART
and the game goes on from the saved state.
"""

from __future__ import annotations

import logging
from typing import Any

from service.errors import ProtocolError, SessionError
from service.games.eriantys import GAME as ERIANTYS
from service.games.eriantys.state import fail
from service.protocol import eriantys_g27 as wire
from service.protocol import eriantys_g27_values as values
from service.protocol.eriantys_g27 import Message, Typed
from service.sessions.match import MatchRuntime
from service.sessions.notices import Applied, DialectNotice, Notice, PresenceChanged
from service.store import PlayerRecord

log = logging.getLogger(__name__)

NAME = "eriantys-g27"
STRING_ARRAY = "[Ljava.lang.String;"


class GamePart:
    """In-game behaviour; expects the attributes set by the conversation's ``__init__``."""

    runtime: MatchRuntime | None
    seat: int | None
    player: PlayerRecord | None
    stage: str
    running: bool
    cloud: int | None
    character: str | None
    voted: bool

    # provided by the conversation (and its base): send, release, attach, detach
    def send(self, message: Message) -> None:
        raise NotImplementedError

    def release(self) -> None:
        raise NotImplementedError

    # --- entering a match ------------------------------------------------------------

    def enter_game(self, runtime: MatchRuntime, seat: int) -> None:
        self.runtime, self.seat, self.stage = runtime, seat, "game"
        self.running, self.cloud, self.character, self.voted = False, None, None, False
        self.attach(runtime, seat)  # type: ignore[attr-defined]

    def begin_game(self) -> None:
        """Start (or resume) when every seat is here; else wait in silence."""
        if self.running or self.stage != "game":
            return
        if self.runtime is not None and all(self.runtime.present(s.seat) for s in self.runtime.seats):
            self._go()

    def _go(self) -> None:
        self.running = True
        self.send(Message("GAMESTART"))
        self._show(turn_notice=True)

    def _names(self) -> list[str]:
        assert self.runtime is not None
        return [s.nickname or f"seat{s.seat}" for s in self.runtime.seats]

    def _view(self) -> dict[str, Any]:
        assert self.runtime is not None
        return self.runtime.view(self.seat)

    def _my_turn(self) -> bool:
        return self.runtime is not None and self.seat in self.runtime.to_act()

    def send_info(self, fields: dict[str, Any] | None = None) -> None:
        fields = fields if fields is not None else values.info_fields(self._view(), self._names())
        self.send(Message("SENDINFO", wire.info_map(fields)))

    def current_request(self) -> Message:
        view = self._view()
        assert self.seat is not None
        if self.character is not None:
            return values.character_request(view, self.seat, self.character)
        return values.turn_request(view, self.seat, self.cloud is not None)

    def _show(self, turn_notice: bool = False) -> None:
        assert self.runtime is not None
        self.send_info()
        if self.runtime.status == "finished":
            self._end_game()
            return
        if turn_notice:
            self._other_turn_notice()
        if self._my_turn():
            self.send(self.current_request())

    def _other_turn_notice(self) -> None:
        view = self._view()
        if view["phase"] == "action" and view["to_act"] and view["to_act"][0] != self.seat:
            name = self._names()[view["to_act"][0]]
            self.send(Message("OTHER_PLAYER_START_TURN", Typed(wire.STRING, name)))

    # --- what the match tells us ---------------------------------------------------------

    def notify(self, match: MatchRuntime, notice: Notice) -> None:
        if match is not self.runtime:
            return
        if isinstance(notice, Applied):
            self._on_applied(notice)
        elif isinstance(notice, PresenceChanged):
            self._on_presence(notice)
        elif isinstance(notice, DialectNotice) and notice.dialect == NAME:
            self._on_dialect_notice(notice)

    def _on_applied(self, applied: Applied) -> None:
        if applied.seat == self.seat:  # a character keeps the cloud chosen before it
            self.character = None
            if applied.action.get("type") != "play_character":
                self.cloud = None
        if not self.running or self.stage != "game":
            return
        kinds = {e.get("type") for e in applied.events if isinstance(e, dict)}
        ended = [e.get("seat") for e in applied.events
                 if isinstance(e, dict) and e.get("type") == "turn_ended"]
        self.send_info()
        if self.seat in ended:
            self.send(Message("CUR_PLAYER_END_TURN"))
        if applied.outcome is not None:
            self._end_game()
            return
        if kinds & {"action_phase_started", "turn_ended"}:
            self._other_turn_notice()
        if self._my_turn():
            self.send(self.current_request())

    def _on_presence(self, change: PresenceChanged) -> None:
        assert self.runtime is not None
        if self.stage == "rematch":
            if not change.present and self.runtime.rematch_id is None:
                self._rematch_refused()
        elif self.stage == "game" and change.seat != self.seat:
            if not change.present and self.running:
                self.running = False
                self.send(Message("GAMEINTERRUPT"))
            elif change.present and not self.running:
                self.begin_game()

    def _on_dialect_notice(self, notice: DialectNotice) -> None:
        if notice.kind == "abandoned" and self.stage == "game" and not self.running:
            self.send(Message("GAMEPROGRESS"))  # a player we wait for started a new game
            self.release()
        elif notice.kind == "rematch_ready" and self.stage == "rematch":
            self._enter_rematch(notice.data["runtime"])
        elif notice.kind == "rematch_refused" and self.stage == "rematch":
            self._rematch_refused()

    # --- answers in the game -------------------------------------------------------------

    async def game_response(self, name: str, right: Typed | None) -> None:
        if self.stage == "rematch":
            if name != "REMATCHCHOICE":
                raise ProtocolError(f"{name} after the end: answer REMATCHCHOICE",
                                    code="protocol/unexpected")
            await self._rematch_choice(values.boolean(right, "REMATCHCHOICE"))
            return
        if self.stage != "game" or not self.running:
            raise SessionError("the game is not running: wait for GAMESTART",
                               code="session/interrupted")
        handler = _HANDLERS.get(name)
        if handler is None:
            raise ProtocolError(f"unknown answer {name}", code="protocol/unexpected")
        await handler(self, right)

    async def _act(self, action: dict[str, Any]) -> None:
        assert self.runtime is not None and self.player is not None
        await self.runtime.act(self.player.id, action)

    def _dry_run(self, action: dict[str, Any]) -> None:
        """Check an action against a copy of the state (raises its rules error; changes nothing)."""
        assert self.runtime is not None and self.seat is not None
        game = self.runtime.game
        if self.seat not in game.to_act(self.runtime.state):
            raise fail("not_your_turn")
        game.apply(game.load_state(game.dump_state(self.runtime.state)), self.seat, action)

    async def _assistant(self, right: Typed | None) -> None:
        await self._act(values.assistant_action(right))

    async def _move_student(self, right: Typed | None) -> None:
        assert self.seat is not None
        await self._act(values.move_action(self._view(), self.seat, right))

    async def _mother_nature(self, right: Typed | None) -> None:
        steps = values.integer(right, "CHOSENMOTHERNATUREMOVEMENT")
        await self._act({"type": "move_mother_nature", "steps": steps})

    async def _cloud(self, right: Typed | None) -> None:
        cloud = values.integer(right, "CHOOSECLOUD")
        self._dry_run({"type": "choose_cloud", "cloud": cloud})
        self.cloud = cloud  # taken with the end of the turn (ENDTHISTURN)
        self.send(self.current_request())

    async def _end_turn(self, right: Typed | None) -> None:
        if right is not None and not values.boolean(right, "ENDTHISTURN"):
            self.send(self.current_request())  # the server waits for a positive answer
            return
        if self.cloud is not None:
            await self._act({"type": "choose_cloud", "cloud": self.cloud})
        else:
            await self._act({"type": "end_turn"})

    async def _chosen_character(self, right: Typed | None) -> None:
        assert self.runtime is not None and self.seat is not None
        key = values.chosen_character(right)
        ERIANTYS.check_character(self.runtime.state, self.seat, key)
        if key in values.NO_INPUT:
            await self._act({"type": "play_character", "character": key})
            return
        self.character = key
        self.send(self.current_request())

    async def _character_fields(self, right: Typed | None) -> None:
        assert self.seat is not None
        key, self.character = self.character, None
        if key is None or right is None:
            raise ProtocolError("CHOSENFIELDSMAP answers a CHARACTERCARDEFFECT request",
                                code="protocol/unexpected")
        fields = wire.read_info_map(right)
        await self._act(values.character_action(self._view(), self.seat, key, fields))

    # --- the end and the rematch ---------------------------------------------------------

    def _end_game(self) -> None:
        assert self.runtime is not None
        outcome = self.runtime.outcome() or {}
        names = self._names()
        winners = [names[s] for s in outcome.get("winners", [])]
        if outcome.get("draw"):
            self.send(Message("GAMEDRAW", Typed(STRING_ARRAY, winners)))
        elif len(winners) > 1:
            self.send(Message("GAMEWINNERTEAM", Typed(STRING_ARRAY, winners)))
        else:
            self.send(Message("GAMEWINNER", Typed(wire.STRING, winners[0] if winners else "")))
        self.stage, self.voted = "rematch", False
        self.send(wire.request("REMATCH"))

    async def _rematch_choice(self, accept: bool) -> None:
        assert self.runtime is not None and self.player is not None
        old = self.runtime
        if not accept:
            old.publish(DialectNotice(NAME, "rematch_refused", self.seat))
            return
        if self.voted:
            return
        self.voted = True
        await self._hub_rematch(old)
        if old.rematch_id is not None and self.stage == "rematch":
            new = await self._hub_get(old.rematch_id)
            old.publish(DialectNotice(NAME, "rematch_ready", None, {"runtime": new}))

    async def _hub_rematch(self, old: MatchRuntime) -> None:
        raise NotImplementedError

    async def _hub_get(self, match_id: int) -> MatchRuntime:
        raise NotImplementedError

    def _enter_rematch(self, new: MatchRuntime) -> None:
        assert self.runtime is not None and self.player is not None
        seat = new.seat_of(self.player.id)
        self.detach(self.runtime.id)  # type: ignore[attr-defined]
        if seat is None:
            self.release()
            return
        self.enter_game(new, seat)
        self.begin_game()

    def _rematch_refused(self) -> None:
        self.send_info({"REMATCH": False})
        self.release()


_HANDLERS = {
    "CHOSENASSISTANTCARD": GamePart._assistant,
    "MOVESTUDENTINFO": GamePart._move_student,
    "CHOSENMOTHERNATUREMOVEMENT": GamePart._mother_nature,
    "CHOOSECLOUD": GamePart._cloud,
    "ENDTHISTURN": GamePart._end_turn,
    "CHOSENCHARACTER": GamePart._chosen_character,
    "CHOSENFIELDSMAP": GamePart._character_fields,
}
