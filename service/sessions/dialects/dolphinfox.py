"""The seed-002 conversation (Dolphins & Foxes), including Tavolo's resume extension.

Roles: before its join a connection is a new player (P) or viewer (Q); after it,
a team player (D/F) or a team viewer (E/G). Real time: each move is served in the
order it arrives, then the mover and its team's viewers get ``N``.
"""

from __future__ import annotations

from typing import Any

from service.errors import ProtocolError, ServiceError, SessionError
from service.games.dolphinfox import GAME
from service.games.dolphinfox.board import TEAM_LETTERS
from service.protocol import dolphinfox as wire
from service.protocol.framing import LineFramer
from service.sessions.dialects.base import Conversation, Dialect
from service.sessions.match import MatchRuntime
from service.sessions.notices import Applied, DialectNotice, Ended, Notice, Started

NAME = "dolphinfox"


class DolphinFoxConversation(Conversation):
    dialect = NAME

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match: MatchRuntime | None = None
        self.team: int | None = None
        self.viewer = False
        self.player_id: int | None = None

    @property
    def code(self) -> str:
        """This connection's own letter: P/Q before joining, then D/F or E/G."""
        if self.team is None:
            return "Q" if self.viewer else "P"
        return (wire.VIEWER_CODE if self.viewer else wire.PLAYER_CODE)[self.team]

    def reply_error(self, exc: ServiceError) -> None:
        self.peer.send(wire.error(self.code, exc.code, exc.message))

    async def handle(self, frame: str) -> None:
        message = wire.parse(frame)
        if isinstance(message, wire.Join):
            await self._join(message)
        elif isinstance(message, wire.MoveCmd):
            await self._move(message)
        else:
            self._refresh(message)

    # --- joining ------------------------------------------------------------------

    async def _join(self, join: wire.Join) -> None:
        if self.match is not None and not self.match.over:
            raise SessionError("this connection has joined already", code="session/already_joined")
        self._leave()
        self.viewer = join.viewer
        if join.viewer:
            await self._join_as_viewer(join.match_id)
        elif join.key is not None:
            await self._resume(join.key)
        else:
            await self._join_as_player()

    async def _join_as_player(self) -> None:
        identity = await self.hub.identify()
        runtime, seat = await self.hub.quick_join(NAME, identity.player, dialect=NAME)
        self.player_id = identity.player.id
        self.peer.send(wire.team_announcement(False, TEAM_LETTERS[seat]))
        assert identity.new_token is not None
        self.peer.send(wire.resume_key(identity.new_token))
        self._take(runtime, seat)
        if runtime.status == "active":  # our seat was the last: the start notice went out before we listened
            self.peer.send(wire.next_turn(self.code))

    async def _resume(self, key: str) -> None:
        try:
            identity = await self.hub.identify(token=key)
            unfinished = await self.hub.unfinished_of(identity.player, game=NAME)
        except SessionError:
            self.peer.send(wire.team_announcement(False, "R"))
            return
        if not unfinished:
            self.peer.send(wire.team_announcement(False, "R"))
            return
        runtime = await self.hub.get(max(r.id for r in unfinished))
        seat = runtime.seat_of(identity.player.id)
        assert seat is not None
        self.player_id = identity.player.id
        self.peer.send(wire.team_announcement(False, TEAM_LETTERS[seat]))
        self._take(runtime, seat)
        if runtime.status == "active":
            self.peer.send(wire.board(self.code, GAME.board(runtime.state)))
            self.peer.send(wire.next_turn(self.code))

    async def _join_as_viewer(self, match_id: int | None) -> None:
        runtime, team = await (self._viewer_match() if match_id is None
                               else self._named_match(match_id))
        self.peer.send(wire.team_announcement(True, TEAM_LETTERS[team]))
        self.team = team
        self.match = runtime
        self.attach(runtime, None)
        if runtime.status != "waiting":
            self.peer.send(wire.board(self.code, GAME.board(runtime.state)))

    async def _named_match(self, match_id: int) -> tuple[MatchRuntime, int]:
        """``QCJ <match id>``: that match, if it is a public live one of this game."""
        runtime = await self.hub.get(match_id)
        if runtime.game.name != NAME or runtime.private:
            raise SessionError(f"no match {match_id} to watch here", code="session/no_such_match")
        if not _live(runtime):
            raise SessionError(f"match {match_id} is not being played", code="session/not_live")
        counts = _viewer_counts(runtime)
        return runtime, counts.index(min(counts))

    async def _viewer_match(self) -> tuple[MatchRuntime, int]:
        """The oldest live match lacking a viewer for a team (else the least watched); live:
        in play here with a player connected, or waiting with someone attending it. A match
        its players have left is never offered."""
        oldest: tuple[MatchRuntime, int] | None = None
        for runtime in sorted(self.hub.live(), key=lambda r: r.id):
            if runtime.game.name != NAME or runtime.private or not _live(runtime):
                continue  # private: watched with its invitation code only (canonical)
            counts = _viewer_counts(runtime)
            if min(counts) == 0:
                return runtime, counts.index(0)
            oldest = oldest or (runtime, counts.index(min(counts)))
        if oldest is not None:
            return oldest
        runtime, _ = await self.hub.create(NAME, dialect=NAME)
        return runtime, 0

    async def on_close(self) -> None:
        if self.match is not None and not self.viewer and self.player_id is not None:
            # a player gone before the second one came is no opponent to pair with
            await self.hub.give_up_seat(self.match, self.player_id)
        await super().on_close()

    def _take(self, runtime: MatchRuntime, seat: int) -> None:
        self.match, self.team = runtime, seat
        self.attach(runtime, seat)

    def _leave(self) -> None:
        if self.match is not None:
            self.detach(self.match.id)
        self.match, self.team, self.viewer = None, None, False

    # --- playing ------------------------------------------------------------------

    def _check_sender(self, sender: str) -> MatchRuntime:
        if self.match is None or self.viewer or self.team is None:
            raise ProtocolError("join as a player first (PCJ)", code="protocol/not_a_player")
        if sender != wire.PLAYER_CODE[self.team]:
            raise ProtocolError(f"you play {wire.PLAYER_CODE[self.team]}, not {sender}",
                                code="protocol/wrong_sender")
        return self.match

    async def _move(self, move: wire.MoveCmd) -> None:
        runtime = self._check_sender(move.sender)
        assert self.player_id is not None and self.team is not None
        action = {"type": "move", "r1": move.r1, "c1": move.c1, "r2": move.r2, "c2": move.c2}
        try:
            await runtime.act(self.player_id, action)
        except ServiceError as exc:
            self.reply_error(exc)
            runtime.publish(DialectNotice(NAME, "failed", self.team))

    def _refresh(self, refresh: wire.Refresh) -> None:
        runtime = self._check_sender(refresh.sender)
        runtime.publish(DialectNotice(NAME, "refresh", self.team))

    # --- what the match tells us ----------------------------------------------------

    def notify(self, match: MatchRuntime, notice: Notice) -> None:
        if self.team is None:
            return
        if isinstance(notice, Started):
            self._on_started(match)
        elif isinstance(notice, Applied):
            self._on_applied(match, notice)
        elif isinstance(notice, Ended):  # resigned, claimed or aborted: the seed's end message
            self.peer.send(wire.game_end(self.code))
        elif isinstance(notice, DialectNotice) and notice.dialect == NAME:
            self._on_dialect_notice(match, notice)

    def _on_started(self, match: MatchRuntime) -> None:
        if self.viewer:
            self.peer.send(wire.board(self.code, GAME.board(match.state)))
        else:
            self.peer.send(wire.next_turn(self.code))

    def _on_applied(self, match: MatchRuntime, applied: Applied) -> None:
        if self.viewer:
            self.peer.send(wire.board(self.code, GAME.board(match.state)))
        if applied.seat == self.team:
            self.peer.send(wire.next_turn(self.code))
        if applied.outcome is not None:
            self.peer.send(wire.game_end(self.code))

    def _on_dialect_notice(self, match: MatchRuntime, notice: DialectNotice) -> None:
        if notice.seat != self.team:
            return
        if notice.kind == "failed":
            if self.viewer:
                self.peer.send(wire.failed(self.code))
            self.peer.send(wire.next_turn(self.code))
        elif notice.kind == "refresh" and self.viewer:
            self.peer.send(wire.board(self.code, GAME.board(match.state)))


def _live(runtime: MatchRuntime) -> bool:
    if runtime.status == "active":
        return any(runtime.present(s.seat) for s in runtime.seats)
    return runtime.status == "waiting" and bool(runtime.listeners())


def _viewer_counts(runtime: MatchRuntime) -> list[int]:
    counts = [0, 0]
    for listener, seat in runtime.listeners():
        if seat is None and isinstance(listener, DolphinFoxConversation) and listener.viewer:
            if listener.team is not None:
                counts[listener.team] += 1
    return counts


DIALECT = Dialect(
    name=NAME,
    default_port=7002,
    framer=lambda: LineFramer(max_line=256),
    conversation=DolphinFoxConversation,
    description="Dolphins & Foxes, seed 002: 3-letter headers, one message per line",
)
