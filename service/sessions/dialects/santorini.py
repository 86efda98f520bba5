"""The seed-001 conversation (Santorini with gods), including Tavolo's resume extension.

One connection = one player, known by its nickname only (as in the original). The
god player is seat 0, the first to join a lobby. What the match announces
(battlefieldUpdate, setPickedCards, youWin/youLose, and actualPlayer to the player
whose turn it is) is produced by every seated conversation from the match's
notices; answers to a player's own messages are sent after the engine accepted
them. As the original's, the order a player sees after its step is:
battlefieldUpdate, youWin/youLose, workerViewUpdate, its answer, then prompts such
as actualPlayer or setWorkersPosition.

Disconnection keeps the match: the others get ``playerDisconnected`` (an
extension the original client logs and ignores), and ``addPlayer`` with the same
nickname takes the seat back: the client is sent its path through the game as
already played and its replayed answers are absorbed (santorini_rejoin,
docs/protocols/santorini.md).
"""

from __future__ import annotations

import asyncio
from typing import Any

from service.errors import NICKNAME_REFUSED, ProtocolError, RulesError, ServiceError, SessionError
from service.games.santorini.state import CHOOSE, OVER, PLACE, PLAY, SELECT
from service.protocol import santorini as wire
from service.protocol.framing import LineFramer
from service.sessions.dialects import santorini_rejoin as rejoin
from service.sessions.dialects import santorini_views as views
from service.sessions.dialects.base import Conversation, Dialect
from service.sessions.match import MatchRuntime
from service.sessions.notices import Applied, Notice, PresenceChanged, Started


NAME = "santorini"
#: matches opened by this dialect: gods, the original deck of 14
OPTIONS: dict[str, Any] = {"gods": True, "deck": "original"}
LOBBY_SIZES = (2, 3)
MAX_NICKNAME = 32
#: events after which the board looks different
BOARD_EVENTS = frozenset({"workers_placed", "worker_moved", "worker_forced", "piece_built",
                          "block_removed", "worker_removed"})

class SantoriniConversation(Conversation):
    dialect = NAME
    #: seconds between a pong and the next ping (the original: 5)
    ping_interval: float = 5.0
    #: seconds a client has to answer a ping before it is dropped (the original: 10)
    pong_timeout: float = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match: MatchRuntime | None = None
        self.seat: int | None = None
        self.player_id: int | None = None
        self.nickname: str | None = None
        #: the nickname as this client spelled it; messages that name the client itself use it
        #: (the original compares them with its own spelling, case-sensitively)
        self.spelling = ""
        #: the god player still has to confirm the last card before placing its workers
        self.awaiting_last_card = False
        #: youWin or youLose was sent: this seat's game is over
        self.done = False
        self._absent: set[int] = set()
        #: messages of the original's path this client will replay after a rejoin (absorbed)
        self._replays = rejoin.Replays()
        self._acting = False
        self._deferred: list[str] = []
        self._pong = asyncio.Event()

    # --- connection lifecycle -----------------------------------------------------------

    async def on_open(self) -> None:
        self.keep_alive(self._beat)

    async def on_close(self) -> None:
        if self.match is not None and self.player_id is not None:
            await self.hub.give_up_seat(self.match, self.player_id)  # only before the start
        await super().on_close()

    async def _beat(self) -> None:
        """Ping; drop the client when no pong comes within ``pong_timeout``; ping again
        ``ping_interval`` after each pong."""
        while not self.peer.closing:
            self._pong.clear()
            self.peer.send(wire.Ping().line())
            try:
                await asyncio.wait_for(self._pong.wait(), self.relaxed(self.pong_timeout))
            except asyncio.TimeoutError:
                self.drop(f"no pong within {self.relaxed(self.pong_timeout)} s")
                return
            await asyncio.sleep(self.ping_interval)

    # --- frames -------------------------------------------------------------------------

    def send(self, message: wire.Message) -> None:
        self.peer.send(message.line())

    def later(self, message: wire.Message) -> None:
        """Send after the answer to the message being handled (or now, if none is)."""
        if self._acting:
            self._deferred.append(message.line())
        else:
            self.send(message)

    def reply_error(self, exc: ServiceError) -> None:
        self.peer.send(wire.error(exc.message))

    async def handle(self, frame: str) -> None:
        message = wire.parse(frame)
        if isinstance(message, wire.Pong):
            self._pong.set()
            return
        if isinstance(message, wire.Ping):
            self.send(wire.Pong())
            return
        self._acting = True
        try:
            await self._dispatch(message)
        finally:
            self._acting = False
            deferred, self._deferred = self._deferred, []
            for line in deferred:
                self.peer.send(line)

    async def _dispatch(self, message: wire.Message) -> None:
        if isinstance(message, wire.AddPlayer):
            await self._add_player(message)
            return
        runtime = self._joined()
        if await self._absorbed(runtime, message):
            return
        if isinstance(message, wire.GetDeck):
            self.send(views.deck(runtime))
        elif isinstance(message, wire.GetPlayers):
            self.send(views.players(runtime, self._own))
        elif isinstance(message, wire.GetBattlefield):
            self.send(wire.BattlefieldResponse(cellMatrix=views.cells(runtime, self._own)))
        elif isinstance(message, wire.PickCards):
            await self._pick_cards(runtime, message)
        elif isinstance(message, wire.ChooseCard):
            await self._choose_card(runtime, message)
        elif isinstance(message, wire.PlaceWorkers):
            await self._place_workers(runtime, message)
        elif isinstance(message, wire.SetStartTurn):
            await self._start_turn(runtime, message)
        elif isinstance(message, wire.SelectWorker):
            await self._select_worker(runtime, message)
        elif isinstance(message, wire.PlayStep):
            await self._play_step(runtime, message)
        elif isinstance(message, wire.SkipStep):
            await self._skip_step(runtime)
        else:  # pragma: no cover - every client message is handled above
            raise ProtocolError(f"unexpected {message.action}", code="protocol/unexpected")

    def _joined(self) -> MatchRuntime:
        if self.match is None or self.seat is None:
            raise ProtocolError("send addPlayer first", code="protocol/not_joined")
        return self.match

    @property
    def _own(self) -> views.Own | None:
        return None if self.seat is None else (self.seat, self.spelling)

    def _name(self, runtime: MatchRuntime, seat: int) -> str:
        return views.nickname(runtime, seat, self._own)

    def _check_nick(self, nick: str) -> None:
        if nick.strip().lower() != self.nickname:
            raise ProtocolError(f"you play as {self.nickname!r}, not {nick!r}",
                                code="protocol/wrong_player")

    async def _act(self, runtime: MatchRuntime, action: dict[str, Any]) -> None:
        assert self.player_id is not None
        await runtime.act(self.player_id, action)

    # --- joining ------------------------------------------------------------------------

    async def _add_player(self, msg: wire.AddPlayer) -> None:
        if self.match is not None and not self._free_to_rejoin():
            raise SessionError("this connection has joined a match already",
                               code="session/already_joined")
        nick = msg.playerNickname.strip().lower()
        size_ok = msg.lobbySize in LOBBY_SIZES

        def answer(valid: bool, size: int = msg.lobbySize) -> wire.AddPlayerResponse:
            return wire.AddPlayerResponse(playerNickname=msg.playerNickname, lobbySize=size,
                                          lobbyState=size_ok, validNick=valid, fullLobby=False)

        joined = await self._join(nick, msg.lobbySize if size_ok else None) if _valid_nickname(nick) else None
        if joined is None:
            self.send(answer(False))
            return
        # under the match's lock: the catch-up never shows an action that is not saved yet
        # (and then announced again when it is)
        async with joined[0].lock:
            # no await from the last check of the nickname to the attach: two connections
            # racing for one nickname cannot both take its seat
            if self.player_id is not None and self._in_use(self.player_id):
                self.send(answer(False))
                return
            self._sit(answer(True, len(joined[0].seats)), nick, msg.playerNickname.strip(), *joined)

    def _sit(self, reply: wire.AddPlayerResponse, nick: str, spelling: str, runtime: MatchRuntime,
             seat: int, resumed: bool) -> None:
        self._leave()
        self.nickname, self.spelling = nick, spelling
        self.send(reply)
        self._take(runtime, seat)
        if resumed:
            self._resume(runtime)
        elif runtime.status == "active":  # ours was the last seat: the start went out before we listened
            self.send(wire.PickedCardsRequest(playerNickname=self._name(runtime, 0)))

    async def _join(self, nick: str, size: int | None) -> tuple[MatchRuntime, int, bool] | None:
        """(runtime, seat, resumed) or None when the nickname or size cannot be taken."""
        try:
            player = await self.hub.player_by_nickname(nick, create=True)
        except NICKNAME_REFUSED:  # a token player's name, or refused by the nickname rule
            return None
        if self._in_use(player.id):
            return None
        self.player_id = player.id
        for record in sorted(await self.hub.unfinished_of(player, game=NAME),
                             key=lambda r: r.id, reverse=True):
            runtime = await self.hub.get(record.id)
            seat = runtime.seat_of(player.id)
            if seat is None or runtime.over or seat in runtime.state.out_order:
                continue  # beaten in a match that goes on: free to play another one
            return runtime, seat, True
        if size is None:
            return None
        runtime, seat = await self.hub.quick_join(NAME, player, OPTIONS, seats=size, dialect=NAME)
        return runtime, seat, False

    def _in_use(self, player_id: int) -> bool:
        """Whether another connection plays this player in an unfinished match right now."""
        for runtime in self.hub.live():
            seat = runtime.seat_of(player_id)
            if seat is None or runtime.over:
                continue
            if any(listener is not self and at == seat for listener, at in runtime.listeners()):
                return True
        return False

    def _free_to_rejoin(self) -> bool:
        assert self.match is not None
        return self.match.over or self.done

    def _take(self, runtime: MatchRuntime, seat: int) -> None:
        self.match, self.seat = runtime, seat
        self.awaiting_last_card, self.done = False, False
        self._replays = rejoin.Replays()
        self._absent = {s for s in range(len(runtime.seats))
                        if s != seat and runtime.seats[s].player_id is not None
                        and not runtime.present(s) and runtime.status == "active"}
        self.attach(runtime, seat)

    def _leave(self) -> None:
        if self.match is not None:
            self.detach(self.match.id)
        self.match, self.seat = None, None

    def _resume(self, runtime: MatchRuntime) -> None:
        """Back at its seat: the original's path as already played, up to the present."""
        if runtime.status != "active":
            return
        assert self.seat is not None
        caught = rejoin.catch_up(runtime, self.seat, self.spelling, self._absent)
        for message in caught.messages:
            self.send(message)
        self._replays = caught.replays

    async def _absorbed(self, runtime: MatchRuntime, message: wire.Message) -> bool:
        """Whether ``message`` replays a step already played (see santorini_rejoin); a replay
        changes nothing and gets no answer but the true battlefield after a placement."""
        st, seat = runtime.state, self.seat
        assert seat is not None
        if not self._replays.expects(message, st):
            return False
        nick = getattr(message, "playerNickname", None)
        if nick is not None:
            self._check_nick(nick)
        if isinstance(message, wire.ChooseCard) and message.card.upper() != st.gods[seat]:
            raise RulesError("god_not_offered", f"your card is {st.gods[seat]}")
        self._replays.absorb(message)
        if isinstance(message, wire.PlaceWorkers):
            self.send(views.battlefield(runtime, self._own))  # the client drew its workers where it meant to
        elif isinstance(message, wire.SetStartTurn) and st.turn is not None and st.turn.step != "PRE_BUILD":
            await self._choose_basic(runtime, message.basicTurn)
        return True

    # --- the set-up: cards and workers -------------------------------------------------------

    async def _pick_cards(self, runtime: MatchRuntime, msg: wire.PickCards) -> None:
        if self.seat != 0:
            raise ProtocolError("only the god player picks the cards", code="protocol/not_god_player")
        await self._act(runtime, {"type": "pick_gods", "gods": msg.cards})

    async def _choose_card(self, runtime: MatchRuntime, msg: wire.ChooseCard) -> None:
        self._check_nick(msg.playerNickname)
        st = runtime.state
        if self.awaiting_last_card and st.phase != CHOOSE:
            mine = st.gods[0] or ""
            if msg.card.upper() != mine:
                raise RulesError("god_not_offered", f"the card left for you is {mine}")
            self.awaiting_last_card = False
            if st.phase == PLACE and st.current == self.seat:
                self.send(wire.WorkersRequest(workersID=[0, 1]))
            return
        await self._act(runtime, {"type": "choose_god", "god": msg.card})

    async def _place_workers(self, runtime: MatchRuntime, msg: wire.PlaceWorkers) -> None:
        self._check_nick(msg.playerNickname)
        assert self.seat is not None
        mine = [2 * self.seat, 2 * self.seat + 1]
        placed = sorted(msg.workersPosition, key=lambda p: p.workerID)
        if [p.workerID for p in placed] != mine:
            raise ProtocolError(f"place exactly your workers {mine}", code="protocol/bad_workers")
        if self.awaiting_last_card:
            self.awaiting_last_card = False  # placing is confirmation enough
        await self._act(runtime, {"type": "place_workers",
                                  "positions": [{"x": p.x, "y": p.y} for p in placed]})

    # --- the turn -------------------------------------------------------------------------

    def _my_turn(self, runtime: MatchRuntime) -> Any:
        st = runtime.state
        if runtime.status != "active" or st.phase != PLAY:
            raise RulesError("wrong_phase", "no turn is being played")
        if st.current != self.seat:
            raise RulesError("not_your_turn", f"it is {views.nickname(runtime, st.current)}'s turn")
        return st

    @property
    def basic(self) -> bool:
        """The current turn is a basic one (only gods with chooseBasic: Atlas, Prometheus)."""
        return (self.match is not None and self.seat is not None
                and views.saved_basic(self.match, self.seat))

    async def _choose_basic(self, runtime: MatchRuntime, wanted: bool) -> None:
        """Save the turn's choice with the match: it outlives this connection and a restart."""
        st = runtime.state
        assert self.seat is not None
        basic = wanted and views.may_choose_basic(st, self.seat)
        await runtime.save_dialect_data(NAME, {"basic_turn": st.turn_number} if basic else None)

    async def _start_turn(self, runtime: MatchRuntime, msg: wire.SetStartTurn) -> None:
        self._check_nick(msg.playerNickname)
        st = self._my_turn(runtime)
        assert self.seat is not None and st.turn is not None
        if st.turn.acted:
            raise RulesError("worker_locked", "the turn is under way")
        await self._choose_basic(runtime, msg.basicTurn)
        self.send(wire.StartTurnResponse(
            playerNickname=self.spelling, basicTurn=self.basic,
            currentStep=views.first_step(st, self.seat, self.basic)))  # type: ignore[arg-type]

    async def _select_worker(self, runtime: MatchRuntime, msg: wire.SelectWorker) -> None:
        self._check_nick(msg.playerNickname)
        st = self._my_turn(runtime)
        assert self.seat is not None
        try:
            await self._act(runtime, {"type": "select_worker", "x": msg.x, "y": msg.y})
        except RulesError as exc:
            if exc.code == "rules/already_selected":  # nothing to save: the original answered
                # a selection with the worker's view, and still gets it
                self.send(wire.WorkerView(workerView=views.worker_view(st, self.seat, self.basic)))
                return
            if exc.code != "rules/worker_stuck":
                raise
            # the original answered a stuck worker with an all-false view: choose another one
            self.send(wire.WorkerView(workerView=[[False] * 5 for _ in range(5)]))
            return
        st = runtime.state
        if self.basic and st.turn is not None and st.turn.step == "PRE_BUILD":
            await self._act(runtime, {"type": "skip"})  # Prometheus' basic turn: no build first
            st = runtime.state
        self.send(wire.WorkerView(workerView=views.worker_view(st, self.seat, self.basic)))

    async def _play_step(self, runtime: MatchRuntime, msg: wire.PlayStep) -> None:
        st = self._my_turn(runtime)
        assert self.seat is not None and st.turn is not None
        if st.turn.step == SELECT:
            raise RulesError("no_worker", "select a worker first")
        number, worker = st.turn_number, st.turn.worker
        await self._act(runtime, views.step_action(st, self.seat, msg.x, msg.y, self.basic))
        st = runtime.state
        x, y = views.worker_at_end(st, worker, (msg.x, msg.y))
        step = views.current_step(st, self.seat, number)
        if step != "END":  # the original sent the view before the answer
            self.send(wire.WorkerView(workerView=views.worker_view(st, self.seat, self.basic)))
        self.send(wire.PlayStepResponse(x=x, y=y, nextStep=step))  # type: ignore[arg-type]

    async def _skip_step(self, runtime: MatchRuntime) -> None:
        st = self._my_turn(runtime)
        assert self.seat is not None and st.turn is not None
        number = st.turn_number
        await self._act(runtime, {"type": "skip"})
        st = runtime.state
        step = views.current_step(st, self.seat, number)
        self.send(wire.SkipStepResponse(currentStep=step))  # type: ignore[arg-type]
        if step != "END":
            self.send(wire.WorkerView(workerView=views.worker_view(st, self.seat, self.basic)))

    # --- what the match tells us ------------------------------------------------------------

    def notify(self, match: MatchRuntime, notice: Notice) -> None:
        if self.seat is None or match is not self.match or self.done:
            return
        if isinstance(notice, Started):
            self.send(wire.PickedCardsRequest(playerNickname=self._name(match, 0)))
        elif isinstance(notice, Applied):
            self._on_applied(match, notice)
        elif isinstance(notice, PresenceChanged):
            self._on_presence(match, notice)

    def _on_applied(self, match: MatchRuntime, applied: Applied) -> None:
        st, seat = match.state, self.seat
        assert seat is not None
        kinds = {e.get("type") for e in applied.events}
        done = applied.action.get("type")
        for _ in range(views.board_updates(applied.events, BOARD_EVENTS)):
            self.send(views.battlefield(match, self._own))
        if st.phase == CHOOSE and st.current == seat and done in ("pick_gods", "choose_god"):
            self.later(wire.PlayerCardRequest(cards=list(st.offered)))
        if done == "choose_god" and st.phase == PLACE and seat == 0:
            self.awaiting_last_card = True  # the original asks the god player to take the last card
            self.later(wire.PlayerCardRequest(cards=[st.gods[0] or ""]))
        if done == "place_workers" and st.phase == PLACE and st.current == seat:
            self.later(wire.WorkersRequest(workersID=[2 * seat, 2 * seat + 1]))
        if "turn_started" in kinds and st.phase == PLAY and st.current == seat:
            # like the original, only the player whose turn it is hears of it
            self.later(wire.ActualPlayer(playerNickname=self.spelling))
        # the end goes out at once, before the answer to the step that caused it, as the
        # original's (it sent youWin/youLose straight away and queued the answer)
        lost = any(e.get("type") == "player_lost" and e.get("seat") == seat for e in applied.events)
        if applied.outcome is not None or st.phase == OVER:
            self.done = True
            self.send(wire.YouWin() if st.winner == seat else wire.YouLose())
        elif lost:
            self.done = True
            self.send(wire.YouLose())

    def _on_presence(self, match: MatchRuntime, change: PresenceChanged) -> None:
        if change.seat == self.seat or match.status != "active":
            return
        if change.seat in match.state.out_order:
            return  # a beaten player leaving is no news
        name = views.nickname(match, change.seat)
        if not change.present:
            self._absent.add(change.seat)
            self.send(wire.PlayerDisconnected(playerNickname=name))
        elif change.seat in self._absent:
            self._absent.discard(change.seat)
            self.send(wire.PlayerReconnected(playerNickname=name))


def _valid_nickname(nick: str) -> bool:
    return 1 <= len(nick) <= MAX_NICKNAME and nick.isprintable()


DIALECT = Dialect(
    name=NAME,
    default_port=1337,
    framer=lambda: LineFramer(max_line=wire.MAX_LINE),
    conversation=SantoriniConversation,
    description="Santorini, seed 001: one compact JSON object per line, with god powers",
)

__all__ = ["DIALECT", "NAME", "SantoriniConversation"]
