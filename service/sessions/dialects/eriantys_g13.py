"""The seed-000 conversation (Eriantys, group 13): login, lobby, resume, heartbeat, waits.

A connection logs in by nickname (the seed has no tokens). ``NewGameMsg`` opens a new
match and seats the sender; ``GameStartedMsg`` from a player without a seat joins the
oldest waiting match of this dialect (any size and mode). A login whose nickname holds
a seat in an unfinished match takes that seat back.

The seed's "ready" commands (``GameStartedMsg``, ``FirstPlayerTurnMsg``, ``AskCAMsg``,
``CheckTurnEndedMsg``, ``NewOrderMsg``) are *waits*: each is answered as soon as what it
waits for is true (at once, or later when another player's action makes it so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.errors import NICKNAME_REFUSED, ProtocolError, ServiceError, SessionError
from service.protocol import eriantys_g13 as wire
from service.protocol.framing import FrameError, LineFramer
from service.sessions.dialects.base import Conversation, Dialect
from service.sessions.dialects.eriantys_g13_commands import GameCommands
from service.sessions.dialects.eriantys_g13_play import Table
from service.sessions.match import MatchRuntime
from service.sessions.notices import Applied, Notice, Started
from service.store import PlayerRecord


NAME = "eriantys-g13"
GAME = "eriantys"

#: which wait each ready command is, and the answer it gets
WAITS: dict[str, str] = {
    "GameStartedMsg": "AnsGameStartedMsg",
    "FirstPlayerTurnMsg": "AnsFirstPlayerTurnMsg",
    "NewOrderMsg": "AnsNewOrderMsg",
    "AskCAMsg": "AnsAskCAMsg",
    "CheckTurnEndedMsg": "AnsNewTurnMsg",
}


#: commands that open or join a game (after a finished one, they start afresh)
LOBBY = ("AskIfGameCreatedMsg", "NewGameMsg", "GameStartedMsg")


@dataclass(frozen=True)
class Wait:
    answer: str
    parent: str
    round: int = 0


class EriantysG13Conversation(GameCommands, Conversation):
    """The conversation both g13 dialects hold; client frames are always the JSON dialect's
    lines (the Java dialect's framer translates), server messages are written by ``codec``
    (``format_message``) and, where they carry the game, by ``renderer`` (None: JSON)."""

    dialect = NAME
    #: seconds between the server's pings, and of silence before a client is dropped
    ping_interval: float = 7.5
    silence_limit: float = 15.0
    codec: Any = wire
    renderer: Callable[..., str] | None = None
    #: whether a client's PingCMSG is answered (the JSON dialect does; the original did not)
    answer_pings = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player: PlayerRecord | None = None
        self.table: Table | None = None
        self.wait: Wait | None = None
        self.acting = False
        self.end_sent = False
        self.selected_cc: int | None = None
        self.current_id: str | None = None

    # --- connection lifecycle and heartbeat ---------------------------------------------

    async def on_open(self) -> None:
        self.keep_alive(self._beat)

    async def on_close(self) -> None:
        if self.player is not None and self._logged_in().get(self.player.id) is self:
            del self._logged_in()[self.player.id]
        if self.player is not None and self.table is not None:
            await self.hub.give_up_seat(self.table.runtime, self.player.id)  # only before the start
        await super().on_close()

    def _logged_in(self) -> dict[int, EriantysG13Conversation]:
        """Player id -> the connection logged in as that player now (this dialect, this hub)."""
        return self.hub.dialect_state(NAME, dict)

    async def on_frame(self, frame: str | FrameError) -> None:
        self.current_id = wire.identifier_of(frame) if isinstance(frame, str) else None
        await super().on_frame(frame)

    async def _beat(self) -> None:
        await self.ping_while_heard(self.ping_interval, self.silence_limit,
                                    lambda: self.peer.send(self.codec.format_message("PingSMSG")))

    # --- dispatch --------------------------------------------------------------------

    def reply_error(self, exc: ServiceError) -> None:
        self.peer.send(wire.error(self.current_id, exc.code, exc.message))

    async def handle(self, frame: str) -> None:
        msg = wire.parse(frame)
        if msg.type == "PingCMSG":
            if self.answer_pings:
                self.peer.send(wire.format_message("PingSMSG", msg.identifier))
        elif msg.type == "LoginMsg":
            await self._login(msg)
        elif self.player is None:
            raise ProtocolError("log in first (LoginMsg)", code="protocol/not_logged_in")
        elif msg.type in LOBBY and self._leave_finished():
            await self.handle(frame)  # the game is over: this one starts a new one
        elif msg.type == "AskIfGameCreatedMsg":
            await self._ask_if_created(msg)
        elif msg.type == "NewGameMsg":
            await self._new_game(msg)
        elif msg.type == "GameStartedMsg" and self.table is None:
            await self._join_waiting(msg)
        elif self.table is None:
            raise SessionError("you are in no game: send NewGameMsg or GameStartedMsg",
                               code="session/no_game")
        elif msg.type in WAITS:
            await self._start_wait(msg)
        else:
            await self.game_command(msg)

    # --- login, lobby, resume ----------------------------------------------------------

    async def _login(self, msg: wire.ClientMsg) -> None:
        if self.player is not None:
            raise ProtocolError("already logged in", code="protocol/already_logged_in")
        nickname = msg["name"]
        if nickname.strip() != nickname:
            self._send("AnswIfAllowedMsg", msg.identifier, status="INVALID")
            return
        try:
            player = await self.hub.player_by_nickname(nickname, create=True)
        except NICKNAME_REFUSED:  # refused by the nickname rule, or a token player's name
            self._send("AnswIfAllowedMsg", msg.identifier, status="INVALID")
            return
        resumable = await self._unfinished(player)
        logged_in = self._logged_in()
        held = logged_in.get(player.id)
        if (held is not None and held is not self) or any(
                runtime.present(seat) for runtime, seat in resumable):
            self._send("AnswIfAllowedMsg", msg.identifier, status="INVALID")
            return
        logged_in[player.id] = self  # no await since the check: two logins cannot both pass
        self.player = player
        self._send("AnswIfAllowedMsg", msg.identifier, status="VALID")
        if resumable:
            self._resume(*resumable[0], msg.identifier)

    async def _unfinished(self, player: PlayerRecord) -> list[tuple[MatchRuntime, int]]:
        """This player's seats in unfinished matches of this dialect, newest first."""
        return await self.hub.seats_to_resume(player, GAME, NAME)

    def _resume(self, runtime: MatchRuntime, seat: int, parent: str) -> None:
        """Back in the match: who plays, the whole board, and the pending request if any."""
        table = self._take(runtime, seat)
        if runtime.status == "waiting":
            self.wait = Wait("AnsGameStartedMsg", parent)
            return
        self.peer.send(table.message("AnsGameStartedMsg", parent))
        self.peer.send(table.message("GameStateMsg", parent))
        view = table.view()
        if view["phase"] == "over":
            self._send_end(parent)
        elif view["to_act"] == [seat]:
            kind = "AnsAskCAMsg" if view["phase"] == "action" else (
                "AnsFirstPlayerTurnMsg" if view["round"] == 1 else "AnsNewOrderMsg")
            self.peer.send(table.message(kind, parent))

    def _leave_finished(self) -> bool:
        """Forget a finished game so the connection may open or join another one."""
        if self.table is None or not self.table.runtime.over:
            return False
        self.detach(self.table.runtime.id)
        self.table, self.wait, self.end_sent, self.selected_cc = None, None, False, None
        return True

    def _take(self, runtime: MatchRuntime, seat: int) -> Table:
        self.table = Table(runtime, seat, self.renderer)
        self.attach(runtime, seat)
        return self.table

    async def _waiting_matches(self) -> list[int]:
        records = await self.hub.store.list_matches(game=GAME, status="waiting", limit=200)
        return sorted(r.id for r in records if r.dialect == NAME)

    async def _ask_if_created(self, msg: wire.ClientMsg) -> None:
        exists = self.table is not None or bool(await self._waiting_matches())
        self._send("AnsGameCreatedMsg", msg.identifier, status="INVALID" if exists else "VALID")

    async def _new_game(self, msg: wire.ClientMsg) -> None:
        count, expert = msg["numPlayers"], msg["modExpert"]
        if self.table is not None or not 2 <= count <= 4:
            self._send("BooleanCheckMsg", msg.identifier, status="KO")
            return
        assert self.player is not None
        runtime, seat = await self.hub.create(GAME, {"expert": expert}, seats=count,
                                              player=self.player, dialect=NAME)
        assert seat is not None
        self._take(runtime, seat)
        self._send("BooleanCheckMsg", msg.identifier, status="OK")

    async def _join_waiting(self, msg: wire.ClientMsg) -> None:
        assert self.player is not None
        for match_id in await self._waiting_matches():
            try:
                runtime, seat = await self.hub.join(match_id, self.player)
            except SessionError:
                continue  # filled (or started) since we looked: try the next one
            self._take(runtime, seat)
            await self._start_wait(msg)
            return
        self._send("AnsGameCreatedMsg", msg.identifier, status="VALID")  # none: create one

    # --- waits -------------------------------------------------------------------------

    async def _start_wait(self, msg: wire.ClientMsg) -> None:
        assert self.table is not None
        if msg.type == "CheckTurnEndedMsg":
            await self.end_turn_if_due()
        self.wait = Wait(WAITS[msg.type], msg.identifier, self.table.view()["round"])
        self.check_wait()

    def check_wait(self) -> None:
        """Answer the pending wait if what it waits for is now true."""
        wait, table = self.wait, self.table
        if wait is None or table is None:
            return
        if wait.answer == "AnsGameStartedMsg":
            if table.runtime.status != "waiting":
                self.wait = None
                self.peer.send(table.message("AnsGameStartedMsg", wait.parent))
            return
        view = table.view()
        if view["phase"] == "over":
            self.wait = None
            self._send_end(wait.parent)
        elif self._wait_met(wait, view):
            self.wait = None
            self.peer.send(self._wait_answer(wait, view))

    def _wait_met(self, wait: Wait, view: dict[str, Any]) -> bool:
        assert self.table is not None
        if wait.answer == "AnsNewTurnMsg":
            return view["phase"] == "planning" or view["round"] > wait.round
        phase = "action" if wait.answer == "AnsAskCAMsg" else "planning"
        return view["phase"] == phase and view["to_act"] == [self.table.seat]

    def _wait_answer(self, wait: Wait, view: dict[str, Any]) -> str:
        assert self.table is not None
        if wait.answer == "AnsNewTurnMsg":
            first = self.table.nicknames()[view["first_player"]]
            return self.table.message("AnsNewTurnMsg", wait.parent, name=first)
        return self.table.message(wait.answer, wait.parent)

    def _send_end(self, parent: str | None) -> None:
        assert self.table is not None
        self.end_sent = True
        self.peer.send(self.table.message("AnsEndGameMsg", parent))

    def _send(self, kind: str, parent: str | None, **fields: Any) -> None:
        self.peer.send(self.codec.format_message(kind, parent, **fields))

    # --- what the match tells us --------------------------------------------------------

    def notify(self, match: MatchRuntime, notice: Notice) -> None:
        if self.table is None or match.id != self.table.runtime.id:
            return
        if isinstance(notice, Started):
            self.check_wait()
        elif isinstance(notice, Applied) and not self.acting:
            self.check_wait()
            if notice.outcome is not None and not self.end_sent:
                self._send_end(None)


DIALECT = Dialect(
    name=NAME,
    default_port=4567,
    framer=lambda: LineFramer(max_line=8192),
    conversation=EriantysG13Conversation,
    description="Eriantys, seed 000 (group 13): one JSON message per line, original names",
)
