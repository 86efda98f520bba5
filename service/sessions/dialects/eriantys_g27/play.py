"""The seed-004 game itself, in the original server's sequence (docs/protocols/eriantys-g27.md).

Mixed into :class:`EriantysG27Conversation`. At GAMESTART (and on resume) the whole GameModel
(``SENDINFO {MODEL}``), then after every change a SENDINFO with the keys that changed, then one
request to the player to act, unless the original would decide by itself (then the action is
taken for the player). A match runs while every seat is connected; when one drops the others get
GAMEINTERRUPT and wait; when it is back (LOADGAME) everyone gets GAMESTART and the MODEL again.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from service.errors import ProtocolError, ServiceError, SessionError
from service.games.eriantys import GAME as ERIANTYS
from service.games.eriantys.state import fail
from service.protocol import eriantys_g27 as wire
from service.protocol import eriantys_g27_model as model
from service.protocol import eriantys_g27_values as values
from service.protocol.eriantys_g27 import Message, Typed
from service.protocol.eriantys_g27_effects import Effect
from service.sessions.match import MatchRuntime
from service.sessions.notices import Applied, DialectNotice, Notice, PresenceChanged
from service.store import PlayerRecord

log = logging.getLogger(__name__)

NAME = "eriantys-g27"
#: characters that need no further input
NO_INPUT = frozenset({"farmer", "magic_mailman", "centaur", "knight"})


class GamePart:
    """In-game behaviour; expects the attributes set by the conversation's ``__init__``."""

    runtime: MatchRuntime | None
    seat: int | None
    player: PlayerRecord | None
    stage: str
    running: bool
    cloud: int | None
    effect: Effect | None
    slots: model.Slots
    shown: dict[str, Any]
    #: the request asked and not yet answered, with nothing shown since (never asked twice)
    asked: Message | None
    _tasks: set[asyncio.Task[None]]  # automatic actions under way (kept until done)

    # provided by the conversation (and its base): send, release, attach, detach
    def send(self, message: Message) -> None:
        raise NotImplementedError

    def release(self) -> None:
        raise NotImplementedError

    # --- entering a match ------------------------------------------------------------

    def enter_game(self, runtime: MatchRuntime, seat: int) -> None:
        self.runtime, self.seat, self.stage = runtime, seat, "game"
        self.running, self.cloud, self.effect = False, None, None
        self.slots, self.shown, self.asked = model.Slots(), {}, None
        self.attach(runtime, seat)  # type: ignore[attr-defined]

    def begin_game(self) -> None:
        """Start (or resume) when every seat is here; else wait in silence."""
        if self.running or self.stage != "game":
            return
        if self.runtime is not None and all(self.runtime.present(s.seat) for s in self.runtime.seats):
            self._go()

    def _go(self) -> None:
        assert self.runtime is not None
        self.running = True
        self.send(Message("GAMESTART"))
        view = self._view()
        entrances = self.slots.update(view)
        fields: dict[str, Any] = {}
        if view["expert"] and self.runtime.version > 0:  # on resume, as the original
            fields["CHARACTERCARDARRAY"] = model.characters(view["characters"])
        fields["MODEL"] = model.game_model(view, self._names(), entrances)
        self.send_info(fields)
        if self.runtime.version == 0:  # as the original, which fills the board after its MODEL
            if view["expert"]:
                self.send_info({k: values.value_of(k, view, self._names(), entrances)
                                for k in values.PAYMENT})
            self.send_info({"CLOUDARRAY": model.clouds(view)})
        self.shown = values.facets(view, entrances)
        if self.runtime.status == "finished":
            self._end_game()
            return
        self._other_turn_notice(view)
        if self._my_turn():
            self.prompt()

    def _names(self) -> list[str]:
        assert self.runtime is not None
        return [s.nickname or f"seat{s.seat}" for s in self.runtime.seats]

    def _view(self) -> dict[str, Any]:
        assert self.runtime is not None
        return self.runtime.view(self.seat)

    def _my_turn(self) -> bool:
        return self.runtime is not None and self.seat in self.runtime.to_act()

    def send_text(self, text: str, kind: str) -> bool:
        raise NotImplementedError

    def send_info(self, fields: dict[str, Any]) -> None:
        """One SENDINFO; one too big for a frame (the original's own can come near the limit)
        goes as two: the biggest value on its own after the others."""
        self.asked = None  # something was shown since: a request may be asked again
        text = wire.format_message(Message("SENDINFO", wire.info_map(fields)))
        if len(fields) < 2 or wire.fits(text):
            self.send_text(text, "SENDINFO")
            return
        sizes = {k: len(wire.format_message(Message("SENDINFO", wire.info_map({k: v}))))
                 for k, v in fields.items()}
        biggest = max(sizes, key=lambda k: sizes[k])
        self.send_info({k: v for k, v in fields.items() if k != biggest})
        self.send_info({biggest: fields[biggest]})

    def prompt(self) -> None:
        """Ask the pending decision, or take it when the original would take it by itself."""
        assert self.seat is not None
        view = self._view()
        entrance = self.slots.update(view)[self.seat]
        if self.effect is not None:
            self._ask(self.effect.request(view, self.seat))
            return
        decision = values.turn_decision(view, self.seat, entrance, self.cloud)
        if isinstance(decision, Message):
            self._ask(decision)
        else:
            self._auto(decision)

    def _ask(self, request: Message) -> None:
        """Send a request, unless it is the one still pending with nothing shown since (two
        notices can reach the same decision; the original asks once)."""
        if request != self.asked:
            self.asked = request
            self.send(request)

    def _auto(self, action: dict[str, Any]) -> None:
        assert self.runtime is not None and self.player is not None
        task = asyncio.create_task(self._auto_act(self.runtime, self.runtime.version, action))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _auto_act(self, runtime: MatchRuntime, version: int, action: dict[str, Any]) -> None:
        assert self.player is not None
        if not self.running:  # interrupted meanwhile: the decision is asked again on resume
            return
        try:
            await runtime.act(self.player.id, action, seen_version=version)
        except ServiceError as exc:  # the match moved on meanwhile: nothing to do
            log.info("eriantys-g27: automatic %s not taken: %s", action["type"], exc.code)

    def _other_turn_notice(self, view: dict[str, Any]) -> None:
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
            self.effect = None
            if applied.action.get("type") != "play_character":
                self.cloud = None
        if not self.running or self.stage != "game":
            return
        view = self._view()
        entrances = self.slots.update(view)
        after = values.facets(view, entrances)
        kinds = {e.get("type") for e in applied.events if isinstance(e, dict)}
        refilled = "round_started" in kinds
        groups = values.deltas(self.shown, after, view, self._names(), entrances,
                               str(applied.action.get("type")), refilled)
        self.shown = after
        refill = groups.pop() if refilled else None
        for fields in groups:
            self.send_info(fields)
        ended = [e.get("seat") for e in applied.events
                 if isinstance(e, dict) and e.get("type") == "turn_ended"]
        if self.seat in ended and not view["expert"]:
            self.send(Message("CUR_PLAYER_END_TURN"))
        if refill is not None:
            self.send_info(refill)
        if applied.outcome is not None:
            self._end_game()
            return
        if kinds & {"action_phase_started", "turn_ended"}:
            self._other_turn_notice(view)
        if self._my_turn():
            self.prompt()

    def _on_presence(self, change: PresenceChanged) -> None:
        if self.stage == "game" and change.seat != self.seat:
            if not change.present and self.running:
                self.running = False
                self.send(Message("GAMEINTERRUPT"))
            elif change.present and not self.running:
                self.begin_game()

    def _on_dialect_notice(self, notice: DialectNotice) -> None:
        if notice.kind == "abandoned" and self.stage == "game" and not self.running:
            self.send(Message("GAMEPROGRESS"))  # a player we wait for started a new game
            self.release()

    # --- answers in the game -------------------------------------------------------------

    async def game_response(self, name: str, right: Typed | None) -> None:
        self.asked = None  # answered: a refusal asks it again
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

    def _entrance(self) -> list[str]:
        assert self.seat is not None
        return self.slots.update(self._view())[self.seat]

    async def _assistant(self, right: Typed | None) -> None:
        await self._act(values.assistant_action(right))

    async def _move_student(self, right: Typed | None) -> None:
        assert self.seat is not None
        entrance = self._entrance()
        action = values.move_action(self._view(), entrance, right)
        self._dry_run(action)
        assert isinstance(right, Typed)
        self.slots.take(self.seat, values.integer(right.value["studentIndex"], "studentIndex"))
        await self._act(action)

    async def _mother_nature(self, right: Typed | None) -> None:
        await self._act(values.mother_nature_action(self._view(), right))

    async def _cloud(self, right: Typed | None) -> None:
        assert self.seat is not None
        view = self._view()
        action = {"type": "choose_cloud", "cloud": values.cloud_index(view, right)}
        if not values.playable_characters(view, self.seat):
            await self._act(action)
            return
        self._dry_run(action)
        self.cloud = action["cloud"]  # taken with the end of the turn (a character may come first)
        self.prompt()

    async def _end_turn(self, right: Typed | None) -> None:
        if self.cloud is not None:
            await self._act({"type": "choose_cloud", "cloud": self.cloud})
        else:
            await self._act({"type": "end_turn"})

    async def _chosen_character(self, right: Typed | None) -> None:
        assert self.runtime is not None and self.seat is not None
        key = values.chosen_character(right)
        ERIANTYS.check_character(self.runtime.state, self.seat, key)
        if key in NO_INPUT:
            await self._act({"type": "play_character", "character": key})
            return
        self.effect = Effect.start(self._view(), self.seat, key, self._entrance())
        self.prompt()

    async def _character_fields(self, right: Typed | None) -> None:
        if self.effect is None or right is None:
            raise ProtocolError("CHOSENFIELDSMAP answers a CHARACTERCARDEFFECT request",
                                code="protocol/unexpected")
        action = self.effect.answer(wire.read_info_map(right))
        if action is None:
            self.prompt()  # the next swap
            return
        self.effect = None
        await self._act(action)

    # --- the end -------------------------------------------------------------------------

    def _end_game(self) -> None:
        """GAMEWINNER (the winning Player), GAMEWINNERTEAM or GAMEDRAW (Player[]); the
        connection stays open, as the original leaves it."""
        assert self.runtime is not None
        outcome = self.runtime.outcome() or {}
        view, names = self._view(), self._names()
        entrances = self.slots.update(view)
        seats = list(outcome.get("winners", []))
        if outcome.get("draw"):
            self.send(Message("GAMEDRAW", model.winners(view, seats, names, entrances)))
        elif len(seats) > 1:
            self.send(Message("GAMEWINNERTEAM", model.winners(view, seats, names, entrances)))
        elif seats:
            self.send(Message("GAMEWINNER", model.winner(view, seats[0], names, entrances)))
        self.stage = "over"


_HANDLERS = {
    "CHOSENASSISTANTCARD": GamePart._assistant,
    "MOVESTUDENTINFO": GamePart._move_student,
    "CHOSENMOTHERNATUREMOVEMENT": GamePart._mother_nature,
    "SELECTEDCLOUD": GamePart._cloud,
    "ENDTHISTURN": GamePart._end_turn,
    "CHOSENCHARACTER": GamePart._chosen_character,
    "CHOSENFIELDSMAP": GamePart._character_fields,
}
