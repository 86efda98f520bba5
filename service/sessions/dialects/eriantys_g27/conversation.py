"""The seed-004 conversation (Eriantys, group 27): registration, LOADGAME, rules, wizard, game.

Stages: ``username`` → (``loadgame``) → ``rules`` / ``queued`` / ``wizard`` → ``waiting`` →
``game`` → ``over`` (or ``released``). PING is answered at any time and REQUESTVALUE whenever a
match is attached; an idle link is pinged, a silent one dropped. The original has no error
message: a refused answer is logged and the pending request asked again.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from service.errors import ProtocolError, ServiceError, SessionError
from service.protocol import eriantys_g27 as wire
from service.protocol import eriantys_g27_model as model
from service.protocol import eriantys_g27_values as values
from service.protocol.eriantys_g27 import LengthFramer, Message, Typed
from service.protocol.eriantys_g27_effects import Effect
from service.sessions.dialects.base import Conversation, Dialect
from service.sessions.dialects.eriantys_g27.lobby import (
    GAME_NAME, G27Lobby, Member, NewLobby, lobby_for,
)
from service.sessions.dialects.eriantys_g27.play import NAME, GamePart
from service.sessions.match import MatchRuntime
from service.sessions.notices import DialectNotice
from service.store import MatchRecord, PlayerRecord

log = logging.getLogger(__name__)

MAX_USERNAME = 32


class EriantysG27Conversation(GamePart, Conversation):
    dialect = NAME
    #: ping a link idle this long (seconds); settable for tests
    ping_interval: float = 2.0
    #: a peer silent this long is gone
    idle_timeout: float = 5.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lobby: G27Lobby = lobby_for(self.hub, NAME)
        self.stage = "username"
        self.username: str | None = None
        self.age = 0
        self.player: PlayerRecord | None = None
        self.offer: MatchRecord | None = None
        self.entry: tuple[NewLobby, Member] | None = None
        self.runtime: MatchRuntime | None = None
        self.seat: int | None = None
        self.running = False
        self.cloud: int | None = None
        self.effect: Effect | None = None
        self.slots = model.Slots()
        self.shown: dict[str, Any] = {}
        self.asked: Message | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.closed = False

    # --- the link ------------------------------------------------------------------------

    def send(self, message: Message) -> None:
        self.send_text(wire.format_message(message), message.type)

    def send_text(self, text: str, kind: str) -> bool:
        """Send a formatted message; False (and nothing sent) when it does not fit a frame."""
        if not wire.fits(text):
            log.error("%s: a %s message does not fit a frame; not sent", self.peer.name, kind)
            return False
        self.peer.send(text)
        return True

    async def on_open(self) -> None:
        self.keep_alive(self._beat)
        self.ask_username()

    async def _beat(self) -> None:
        while not self.peer.closing:
            await asyncio.sleep(min(self.ping_interval, self.idle_timeout) / 2)
            silent = self.silent_for()
            if silent >= self.relaxed(self.idle_timeout):
                self.drop(f"silent for {silent:.1f} s")
                return
            if silent >= self.ping_interval:
                self.send(Message("PING"))

    async def on_close(self) -> None:
        self.closed = True
        if self.entry is not None:
            self.lobby.leave(*self.entry)
            self.entry = None
        if self.username is not None:
            self.lobby.release(self.username, self)
        await super().on_close()

    def release(self) -> None:
        """Done with this client: close the connection (the document disconnects)."""
        self.stage = "released"
        if self.runtime is not None:
            self.detach(self.runtime.id)
        self.peer.close()

    # --- frames --------------------------------------------------------------------------

    async def handle(self, frame: str) -> None:
        message = wire.parse_message(frame)
        if message.type == "PING":
            self.send(Message("PONG"))
        elif message.type == "PONG":
            return
        elif message.type == "REQUESTVALUE":
            self._answer_value(message.value)
        elif message.type == "RESPONSEACTION":
            name, right = wire.split_response(message)
            await self._respond(name, right)
        else:
            raise ProtocolError(f"a client does not send {message.type}",
                                code="protocol/unexpected")

    def reply_error(self, exc: ServiceError) -> None:
        """The original has no error message (its client checks moves before sending them), and
        any unknown message or key stops it: log the refusal and ask the pending request again."""
        log.info("%s: refused (%s): %s", self.peer.name, exc.code, exc.message)
        self.ask_again()

    def ask_again(self) -> None:
        if self.stage == "username":
            self.ask_username()
        elif self.stage == "loadgame":
            self.send(wire.request("LOADGAME"))
        elif self.stage == "rules":
            self.ask_rules()
        elif self.stage == "wizard":
            self.ask_wizard()
        elif self.stage == "game" and self.running and self._my_turn():
            self.asked = None  # refused: the pending request is asked again
            self.prompt()

    def _answer_value(self, typed: Typed | None) -> None:
        if self.runtime is None:
            raise SessionError("values are asked during a game", code="session/no_game")
        name = typed.value if typed is not None else None
        if isinstance(name, dict):
            name = name.get("value", name.get("gameValue"))
        if not isinstance(name, str) or name not in values.VALUE_KEYS:
            raise ProtocolError(f"no value {str(name)[:40]!r}; ask one of "
                                f"{', '.join(values.VALUE_KEYS)}", code="protocol/unknown_value")
        view = self._view()
        if name in ("CHARACTERCARDARRAY", "COINPOOL") and not view["expert"]:
            raise ProtocolError(f"{name} is for expert games", code="protocol/unknown_value")
        self.send_info({name: values.value_of(name, view, self._names(), self.slots.update(view))})

    async def _respond(self, name: str, right: Typed | None) -> None:
        pre = {"INSERTEDUSERNAMEANDAGE": ("username", self._username),
               "LOADGAMECHOICE": ("loadgame", self._load_choice),
               "CHOSENRULES": ("rules", self._rules),
               "CHOSENWIZARD": ("wizard", self._wizard)}
        if name in pre:
            stage, handler = pre[name]
            if self.stage != stage:
                raise ProtocolError(f"{name} is not expected now", code="protocol/unexpected")
            await handler(right)
        else:
            await self.game_response(name, right)

    # --- registration -------------------------------------------------------------------

    def ask_username(self) -> None:
        """The names in use, as many as one frame holds (the server checks a name anyway)."""
        self.send_text(self.lobby.greeting(), "REQUESTACTION")

    async def _username(self, right: Typed | None) -> None:
        data = values.record(right, wire.USERNAME_AND_AGE, ("username", "magicAge"))
        username, age = data["username"], data["magicAge"]
        if not isinstance(username, str) or not 0 < len(username.strip()) <= MAX_USERNAME:
            raise values.bad(f"a username has 1 to {MAX_USERNAME} characters")
        if isinstance(age, bool) or not isinstance(age, int) or age < 0:
            raise values.bad("magicAge is a whole number of years, 0 or more")
        username = username.strip()
        if not self.lobby.claim(username, self):
            raise SessionError("username not available", code="session/username_taken")
        self.username, self.age = username, age
        try:
            self.player = await self.hub.player_by_nickname(username, create=True)
        except BaseException:  # refused (or gone): the name is free again, not held for ever
            self.lobby.release(username, self)
            self.username = None
            raise
        unfinished = [r for r in await self.hub.unfinished_of(self.player, GAME_NAME)
                      if r.dialect == NAME and r.status == "active"]
        if unfinished:
            self.offer = max(unfinished, key=lambda r: r.id)
            self.stage = "loadgame"
            self.send(wire.request("LOADGAME"))
        else:
            self._enter_lobby()

    async def _load_choice(self, right: Typed | None) -> None:
        resume = values.boolean(right, "LOADGAMECHOICE")
        assert self.offer is not None and self.player is not None
        runtime = await self.hub.get(self.offer.id)
        seat = runtime.seat_of(self.player.id)
        self.offer = None
        if seat is None or runtime.status != "active":
            self._enter_lobby()  # it ended meanwhile
        elif resume:
            self.enter_game(runtime, seat)
            self.begin_game()
        else:
            runtime.publish(DialectNotice(NAME, "abandoned", seat))
            self._enter_lobby()

    def _enter_lobby(self) -> None:
        assert self.player is not None and self.username is not None
        lobby, ask = self.lobby.enter(Member(self, self.player, self.username, self.age))
        self.lobby_moved(lobby, ask)

    def lobby_moved(self, lobby: NewLobby, ask: str) -> None:
        member = next(m for m in lobby.members if m.client is self)
        self.entry = (lobby, member)
        if ask == "rules":
            self.ask_rules()
        elif ask == "wizard":
            self.ask_wizard()
        else:
            self.stage = "queued"

    def ask_rules(self) -> None:
        self.stage = "rules"
        self.send(wire.request("RULES"))

    def ask_wizard(self) -> None:
        assert self.entry is not None
        self.stage = "wizard"
        free = self.entry[0].free_wizards()
        self.send(wire.request("WIZARD", Typed(wire.WIZARD_ARRAY, {"wizards": free})))

    async def _rules(self, right: Typed | None) -> None:
        data = values.record(right, wire.GAME_RULES, ("numOfPlayers", "expertMode"))
        seats, expert = data["numOfPlayers"], data["expertMode"]
        if (isinstance(seats, bool) or not isinstance(seats, int) or seats not in (2, 3, 4)
                or not isinstance(expert, bool)):
            raise values.bad("numOfPlayers is 2, 3 or 4 and expertMode a boolean")
        assert self.entry is not None
        self.lobby.set_rules(self.entry[0], seats, expert)
        self.ask_wizard()

    async def _wizard(self, right: Typed | None) -> None:
        data = values.record(right, wire.WIZARD, ("wizard",))
        assert self.entry is not None
        lobby, member = self.entry
        self.stage = "waiting"
        try:
            await self.lobby.choose_wizard(lobby, member, str(data["wizard"]))
        except ServiceError:
            self.stage = "wizard"
            raise

    # --- the parts of the game part that need the hub ------------------------------------

    def enter_game(self, runtime: MatchRuntime, seat: int) -> None:
        self.entry = None
        if not self.closed:  # gone while the match was being created: it waits for LOADGAME
            super().enter_game(runtime, seat)


DIALECT = Dialect(
    name=NAME,
    default_port=6556,
    framer=LengthFramer,
    conversation=EriantysG27Conversation,
    description="Eriantys (group 27), seed 004: writeUTF frames, Gson message envelope",
)
