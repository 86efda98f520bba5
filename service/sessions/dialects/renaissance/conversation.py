"""The seed-003 conversation (Masters of Renaissance): nickname, lobby, set-up, turns, the end.

A connection is one player, known by nickname (the seed has no token). The first player of
a lobby chooses its size; the others join the oldest lobby of this dialect. A nickname with
a seat in an unfinished match of this dialect takes it back, with a fresh view. Game lines
are typed commands (see commands.py) and dialogues (dialogues.py); the server starts each of
the player's turns, and follows each finished command, with "What do you want to do?".
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from service.errors import RulesError, ServiceError, SessionError
from service.games.renaissance.state import State
from service.protocol import renaissance as wire
from service.protocol.framing import FrameError
from service.sessions.dialects.base import Conversation
from service.sessions.dialects.renaissance import commands, text
from service.sessions.dialects.renaissance import dialogues as d
from service.sessions.dialects.renaissance.dialogues import Act, Ask, Dialogue, Say, Seat
from service.sessions.match import MatchRuntime
from service.sessions.notices import Applied, Notice, PresenceChanged, RematchChanged, Started
from service.store import PlayerRecord

log = logging.getLogger(__name__)

NAME = "renaissance"
GAME = "renaissance"
MAX_NICKNAME = 32


class RenaissanceConversation(Conversation):
    dialect = NAME
    #: seconds between pings (the original: 2) and of silence before a client is dropped
    ping_interval: float = 2.0
    silence_limit: float = 30.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player: PlayerRecord | None = None
        self.runtime: MatchRuntime | None = None
        self.seat: int | None = None
        self.asking_players = False
        self.dialogue: Dialogue | None = None
        self._acting = False
        self._prompt_due = False
        self._key: tuple[Any, ...] | None = None
        self._over_sent = False
        #: seats whose players this connection was told are away
        self._away: set[int] = set()

    # --- lifecycle and heartbeat -------------------------------------------------------

    async def on_open(self) -> None:
        self.say(wire.INSERT_NICKNAME)
        self.keep_alive(self._beat)

    async def on_close(self) -> None:
        logged = self._logged_in()
        if self.player is not None and logged.get(self.player.id) is self:
            del logged[self.player.id]
        if self.player is not None and self.runtime is not None:
            await self.hub.give_up_seat(self.runtime, self.player.id)  # only before the start
        await super().on_close()

    async def _beat(self) -> None:
        await self.ping_while_heard(self.ping_interval, self.silence_limit,
                                    lambda: self.say(wire.PING))

    def _logged_in(self) -> dict[int, RenaissanceConversation]:
        return self.hub.dialect_state(NAME, dict)

    def say(self, line: str) -> None:
        self.peer.send(line)

    def reply_error(self, exc: ServiceError) -> None:
        self.say(exc.message)

    async def on_frame(self, frame: str | FrameError) -> None:
        self._prompt_due = False
        await super().on_frame(frame)
        if self._prompt_due:
            self._announce(prompt=True)

    # --- dispatch ------------------------------------------------------------------------

    async def handle(self, frame: str) -> None:
        if frame == wire.PONG:
            return
        if frame == wire.PING:
            self.say(wire.PONG)
            return
        if self.player is None:
            await self._nickname(frame)
        elif self.asking_players:
            await self._players(frame)
        elif self.runtime is None:
            await self._after_game(frame)
        elif self.runtime.status == "waiting":
            self.say(wire.NOTHING_TO_DO)
        elif self.runtime.status == "finished":
            await self._after_game(frame)
        else:
            self._prompt_due = True  # answered or not, the player is asked again
            if self.dialogue is not None:
                await self._advance(frame)
            else:
                await self._command(frame)

    # --- nickname and lobby --------------------------------------------------------------

    async def _nickname(self, line: str) -> None:
        nickname = line.strip()
        if not (1 <= len(nickname) <= MAX_NICKNAME and nickname.isprintable()):
            self.say(wire.INSERT_VALID_NICKNAME)
            return
        player = await self.hub.player_by_nickname(nickname, create=True)
        logged = self._logged_in()
        if logged.get(player.id) not in (None, self):
            self.say(wire.INSERT_VALID_NICKNAME)
            return
        logged[player.id] = self  # no await since the check: two logins cannot both pass
        self.player = player
        resumable = await self.hub.seats_to_resume(player, GAME, NAME)
        if resumable:
            self._resume(*resumable[0])
        else:
            await self._find_lobby()

    async def _find_lobby(self) -> None:
        assert self.player is not None
        records = await self.hub.store.list_matches(game=GAME, status="waiting", limit=200)
        for match_id in sorted(r.id for r in records if r.dialect == NAME):
            try:
                runtime, seat = await self.hub.join(match_id, self.player)
            except SessionError:
                continue  # filled since we looked: the next one
            self._seated(runtime, seat)
            return
        self.asking_players = True
        self.say(wire.INSERT_PLAYERS)

    async def _players(self, line: str) -> None:
        try:
            count = wire.number(wire.compact(line))
        except ServiceError:
            self.say(wire.INSERT_VALID_NUMBER)
            self.say(wire.INSERT_PLAYERS)
            return
        if not 1 <= count <= 4:
            self.say(wire.INSERT_PLAYERS)
            return
        self.asking_players = False
        runtime, seat = await self.hub.create(GAME, None, seats=count, player=self.player,
                                              dialect=NAME)
        assert seat is not None
        self._seated(runtime, seat)

    def _seated(self, runtime: MatchRuntime, seat: int) -> None:
        self._take(runtime, seat)
        if runtime.status == "active":  # ours was the last seat: the start went out before we listened
            self._start()
        else:
            self._lobby_line()

    def _lobby_line(self) -> None:
        assert self.runtime is not None
        joined = sum(1 for s in self.runtime.seats if s.player_id is not None)
        self.say(wire.WAITING_LOBBY.format(joined=joined, seats=len(self.runtime.seats)))

    def _take(self, runtime: MatchRuntime, seat: int) -> None:
        self.runtime, self.seat = runtime, seat
        self.dialogue, self._key, self._over_sent = None, None, False
        self._away = {s.seat for s in runtime.seats if s.player_id is not None
                      and s.seat != seat and not runtime.present(s.seat)
                      and runtime.status == "active"}
        self.attach(runtime, seat)

    def _resume(self, runtime: MatchRuntime, seat: int) -> None:
        assert self.player is not None
        self._take(runtime, seat)
        self.say(wire.WELCOME_BACK.format(nickname=self.player.nickname))
        if runtime.status == "waiting":
            self._lobby_line()
            return
        for line in self._picture():
            self.say(line)
        self._continue()

    def _start(self) -> None:
        self.say(wire.ALL_CONNECTED)
        for line in self._picture(board=False):
            self.say(line)
        self._continue()

    def _continue(self) -> None:
        """Pick the conversation up from the saved state: set-up, a placement, or a turn."""
        state = self._state()
        me = state.players[self._my_seat()]
        if state.phase == "setup" and (me.dealt or me.bonus_left):
            self._begin(d.setup(self._seat_view()))
        elif state.phase == "setup":
            self.say(wire.WAIT_FOR_SETUP)
        self._announce(prompt=True)

    # --- the game --------------------------------------------------------------------------

    def _state(self) -> State:
        assert self.runtime is not None
        return self.runtime.state  # type: ignore[no-any-return]

    def _my_seat(self) -> int:
        assert self.seat is not None
        return self.seat

    def _seat_view(self) -> Seat:
        return Seat(self._state, self._my_seat())

    async def _command(self, line: str) -> None:
        command = wire.parse_command(line)
        name = commands.kind(command)
        state = self._state()
        if name == "view":
            self._view(command.params)
        elif command.name in ("setupgame", "joingame", "chooseplayers"):
            pass  # the original's lobby commands: the answer is the prompt that follows
        elif name is None:
            self.say(wire.WRONG_COMMAND)
        elif state.phase == "setup":
            self.say(wire.WAIT_FOR_SETUP)
        elif state.current != self.seat:
            self.say(wire.NOT_YOUR_TURN)
        else:
            await self._run(commands.dialogue(self._seat_view(), command))

    def _begin(self, dialogue: Dialogue) -> None:
        """Start a dialogue that opens with words only (no action before its first question)."""
        self.dialogue = dialogue
        try:
            step = next(dialogue)
            while not isinstance(step, Ask):
                assert isinstance(step, Say), "a dialogue started without await cannot act first"
                for line in step.lines:
                    self.say(line)
                step = dialogue.send(None)
        except StopIteration:
            self.dialogue = None
            return
        if step.prompt:
            self.say(step.prompt)

    async def _run(self, dialogue: Dialogue) -> None:
        self.dialogue = dialogue
        await self._advance(None)

    async def _advance(self, value: Any) -> None:
        error: BaseException | None = None
        while self.dialogue is not None:
            try:
                step = self.dialogue.throw(error) if error else self.dialogue.send(value)
            except StopIteration:
                self.dialogue = None
                return
            except BaseException:
                self.dialogue = None
                raise
            value, error = None, None
            if isinstance(step, Say):
                for line in step.lines:
                    self.say(line)
            elif self.runtime is not None and self.runtime.status == "finished":
                self.dialogue = None  # the game is over: its answer was said, nothing more to ask
            elif isinstance(step, Ask):
                if step.prompt:
                    self.say(step.prompt)
                return
            else:
                try:
                    value = await self._act(step)
                except RulesError as exc:
                    error = exc

    async def _act(self, step: Act) -> list[Any]:
        assert self.runtime is not None and self.player is not None
        self._acting = True
        try:
            await self.runtime.act(self.player.id, step.action)
        finally:
            self._acting = False
        return []

    def _view(self, params: tuple[str, ...]) -> None:
        what = params[0].casefold() if params else ""
        seats = self._seat_numbers(params[1:])
        lines = self._picture() if not what else (
            text.market(self._state()) if what == "market" else
            text.card_market(self._state()) if what == "cardmarket" else
            [line for s in seats for line in self._board(s)] if what == "personalboard" else
            text.leaders(self._state().players[self._my_seat()]) if what == "leadercards" else None)
        if lines is None:
            self.say(wire.NOT_A_VALID_PARAMETER)
            return
        for line in lines:
            self.say(line)
        self.say(wire.PRINTED)

    def _seat_numbers(self, params: tuple[str, ...]) -> list[int]:
        if not params:
            return [self._my_seat()]
        number = wire.in_range(wire.number(params[0]), 1, self._state().seats)
        return [number - 1]

    def _board(self, seat: int) -> list[str]:
        assert self.runtime is not None
        return text.personal_board(self._state(), seat, self.runtime.seats[seat].nickname or "?")

    def _picture(self, board: bool = True) -> list[str]:
        state = self._state()
        mine = text.leaders(state.players[self._my_seat()]) if board else []
        return [*text.market(state), *text.card_market(state),
                *(self._board(self._my_seat()) if board else []), *mine]

    # --- announcements -----------------------------------------------------------------

    def _announce(self, prompt: bool = False) -> None:
        """Say what changed: the end, or whose turn it is (and prompt the current player)."""
        if self.runtime is None or self.seat is None or self.runtime.status == "waiting":
            return
        state = self._state()
        if state.phase == "over" or self.runtime.status == "finished":
            self._game_over()
            return
        key = (state.phase, state.current, state.turns)
        changed, self._key = key != self._key, key
        if self.dialogue is not None or state.phase != "play":
            return
        if state.current == self.seat:
            if changed or prompt:
                self._turn_prompt()
        elif changed:
            nickname = self.runtime.seats[state.current].nickname
            self.say(wire.TURN_OF.format(nickname=nickname))

    def _turn_prompt(self) -> None:
        state = self._state()
        if any(state.pending) or state.pending_white:
            self._begin(d.placement(self._seat_view()))
        else:
            self.say(wire.WHAT_TO_DO)

    def _game_over(self) -> None:
        if self._over_sent or self.runtime is None or self.seat is None:
            return
        self._over_sent = True
        self.dialogue = None
        nicknames = [s.nickname or "?" for s in self.runtime.seats]
        for line in text.results(self._state(), self.seat, nicknames):
            self.say(line)
        self.say(wire.GAME_OVER)
        self.say(wire.REMATCH_OFFER)

    async def _after_game(self, line: str) -> None:
        word = wire.answer(line)
        if word == "rematch" and self.runtime is not None and self.player is not None:
            runtime = await self.hub.rematch(self.runtime.id, self.player)
            if runtime.rematch_id is None:
                self.say(wire.REMATCH_WAIT)
            else:
                await self._follow_rematch(runtime.rematch_id)
        elif word == "newgame":
            self._leave()
            await self._find_lobby()
        else:
            self.say(wire.REMATCH_OFFER)

    async def _follow_rematch(self, new_id: int) -> None:
        assert self.player is not None
        if self.runtime is not None and self.runtime.id == new_id:
            return
        runtime = await self.hub.get(new_id)
        seat = runtime.seat_of(self.player.id)
        if seat is None:
            return
        self._leave()
        self._take(runtime, seat)
        self._start()

    def _leave(self) -> None:
        if self.runtime is not None:
            self.detach(self.runtime.id)
        self.runtime, self.seat, self.dialogue = None, None, None

    # --- what the match tells us ------------------------------------------------------------

    def notify(self, match: MatchRuntime, notice: Notice) -> None:
        if match is not self.runtime or self.seat is None:
            return
        if isinstance(notice, Started):
            self._start()
        elif isinstance(notice, Applied):
            if not self._acting:
                self._announce()
        elif isinstance(notice, PresenceChanged):
            self._presence(match, notice)
        elif isinstance(notice, RematchChanged) and notice.new_match_id is not None:
            task = asyncio.get_running_loop().create_task(self._follow_rematch(notice.new_match_id))
            task.add_done_callback(_quiet)

    def _presence(self, match: MatchRuntime, change: PresenceChanged) -> None:
        if change.seat == self.seat or match.status != "active":
            return
        nickname = match.seats[change.seat].nickname
        if not change.present:
            self._away.add(change.seat)
            self.say(wire.PLAYER_AWAY.format(nickname=nickname))
        elif change.seat in self._away:  # a first arrival is no news
            self._away.discard(change.seat)
            self.say(wire.PLAYER_BACK.format(nickname=nickname))


def _quiet(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("renaissance: following a rematch failed: %r", task.exception())
