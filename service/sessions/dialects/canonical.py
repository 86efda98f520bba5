"""The canonical conversation: JSON commands over WebSocket, for every game."""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import replace
from typing import Any

from service.errors import ServiceError, SessionError
from service.games.describing import tell_outcome
from service.games.registry import get_game
from service.protocol import canonical as msg
from service.protocol.framing import LineFramer
from service.sessions.dialects.base import Conversation, Dialect
from service.sessions.accounts import device_words, player_words
from service.sessions import draws
from service.sessions.match import MatchRuntime
from service.sessions.notices import (
    Applied,
    Ended,
    Notice,
    PresenceChanged,
    DrawOffers,
    RematchChanged,
    StandIn,
    Started,
)
from service.store import ActionRecord, MatchRecord, PlayerRecord

NAME = "canonical"
#: a match longer than this is not replayed to put the caught-up actions in words
REPLAY_FOR_WORDS = 3000
log = logging.getLogger(__name__)

class CanonicalConversation(Conversation):
    dialect = NAME

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player: PlayerRecord | None = None
        #: the hash of the token this connection said hello with (None: a nickname alone)
        self.token_hash: str | None = None
        self._seat: dict[int, int | None] = {}
        self._current_re: msg.CorrelationId = None
        #: ``hello {push_legal}``: states and updates carry the seat's legal actions
        self.push_legal = False

    def send(self, message: msg.ServerMessage) -> None:
        self.peer.send(msg.encode(message))

    def reply_error(self, exc: ServiceError) -> None:
        re = exc.details.get("re", self._current_re)
        details = {k: v for k, v in exc.details.items() if k != "re"} or None
        self.send(msg.Error(re=re, code=exc.code, message=exc.message, details=details))

    async def handle(self, frame: str) -> None:
        self._current_re = None
        command = msg.parse_client(frame)
        self._current_re = command.id
        handler = getattr(self, f"_on_{command.type}")
        await handler(command)

    def _me(self) -> PlayerRecord:
        if self.player is None:
            raise SessionError("say hello first", code="session/not_identified")
        return self.player

    # --- identity and lobby ----------------------------------------------------------

    async def _on_hello(self, cmd: msg.Hello) -> None:
        identity = await self.hub.identify(
            nickname=cmd.nickname, token=cmd.token, claim=cmd.claim, password=cmd.password,
            recovery_code=cmd.recovery_code, device=cmd.device)
        self.player, self.token_hash = identity.player, identity.token_hash
        self.push_legal = cmd.push_legal
        unfinished = [] if identity.created else await self.hub.unfinished_of(identity.player)
        matches = [self._yours(r, identity.player.id) for r in unfinished]
        self.send(msg.Welcome(re=cmd.id, token=identity.new_token, matches=matches,
                              player=player_words(identity.player)))

    def _yours(self, record: MatchRecord, player_id: int) -> dict[str, Any]:
        """One of the player's unfinished matches for ``welcome``: its seat, the seats to act
        (``to_act``, from the match in memory, else from its saved snapshot) and whether it is
        this player's turn (``your_turn``)."""
        seat = next(s.seat for s in record.seats if s.player_id == player_id)
        loaded = self.hub.loaded(record.id)
        if loaded is not None:
            to_act, status, version = loaded.to_act(), loaded.status, loaded.version
        else:
            status, version = record.status, record.version
            to_act = []
            if status == "active" and record.snapshot:
                try:
                    game = get_game(record.game)
                    to_act = sorted(game.to_act(game.load_state(record.snapshot)))
                except Exception:  # a snapshot this code cannot read: say nobody is to act
                    log.exception("match %s: reading who is to act failed", record.id)
        return {"match_id": record.id, "game": record.game, "status": status, "version": version,
                "seat": seat, "to_act": to_act, "your_turn": status == "active" and seat in to_act}

    async def _on_create(self, cmd: msg.Create) -> None:
        if cmd.private:
            runtime, seat, invite = await self.hub.create_private(
                cmd.game, cmd.options, seats=cmd.seats, player=self._me(), seat=cmd.seat,
                dialect=NAME, bots=cmd.bots, clock=cmd.clock)
            self._seated(cmd.id, runtime, seat, invite=invite)
            return
        runtime, seat_or_none = await self.hub.create(cmd.game, cmd.options, seats=cmd.seats,
                                                      player=self._me(), seat=cmd.seat,
                                                      dialect=NAME, bots=cmd.bots, clock=cmd.clock)
        self._seated(cmd.id, runtime, seat_or_none)

    async def _on_join(self, cmd: msg.Join) -> None:
        runtime, seat = await self.hub.join(cmd.match_id, self._me(), cmd.seat, invite=cmd.invite)
        self._seated(cmd.id, runtime, seat)

    async def _on_quick_join(self, cmd: msg.QuickJoin) -> None:
        runtime, seat = await self.hub.quick_join(cmd.game, self._me(), cmd.options,
                                                  seats=cmd.seats, dialect=NAME, bots=cmd.bots,
                                                  clock=cmd.clock)
        self._seated(cmd.id, runtime, seat)

    def _seated(self, re: msg.CorrelationId, runtime: MatchRuntime, seat: int | None,
                **extra: Any) -> None:
        self._watch(runtime, seat)
        self.send(msg.Ok(re=re, result={"match_id": runtime.id, "seat": seat, **extra}))
        self.send(self._state(runtime))

    # --- playing -------------------------------------------------------------------

    async def _on_act(self, cmd: msg.Act) -> None:
        runtime = await self.hub.get(cmd.match_id)
        result = await runtime.act(self._me().id, cmd.action, cmd.client_id, cmd.version)
        self.peer.send(msg.encode_ack(re=cmd.id, match_id=runtime.id, client_id=cmd.client_id,
                                      version=result.version, duplicate=result.duplicate))

    async def _on_legal(self, cmd: msg.Legal) -> None:
        runtime = await self.hub.get(cmd.match_id)
        seat = runtime.seat_of(self._me().id)
        if seat is None:
            raise SessionError("you have no seat in this match", code="session/not_seated")
        async with runtime.lock:  # never list from an action applied but not yet committed
            self.send(msg.Ok(re=cmd.id, result={"match_id": runtime.id, "version": runtime.version,
                                                "actions": runtime.legal(seat)}))

    async def _on_watch(self, cmd: msg.Watch) -> None:
        runtime = await self.hub.get(cmd.match_id)
        runtime.check_invited(self.player.id if self.player else None, cmd.invite)
        await self._catch_up(cmd.id, runtime, None, cmd.since)

    async def _on_resume(self, cmd: msg.Resume) -> None:
        runtime = await self.hub.get(cmd.match_id)
        seat = runtime.seat_of(self._me().id)
        if seat is None:
            raise SessionError("you have no seat in this match", code="session/not_seated")
        await self._catch_up(cmd.id, runtime, seat, cmd.since)

    async def _catch_up(self, re: msg.CorrelationId, runtime: MatchRuntime, seat: int | None,
                        since: int | None) -> None:
        async with runtime.lock:  # no action slips between the catch-up and the stream
            self._watch(runtime, seat)
            self.send(msg.Ok(re=re, result={"match_id": runtime.id, "seat": seat,
                                            "version": runtime.version}))
            missed = None if since is None else await self.hub.missed(runtime, since)
            if missed:
                actions = [a.seen_by(runtime.game, seat) for a in missed]
                for entry, told in zip(actions, await self._told_again(runtime, missed, seat)):
                    entry.update(told)
                self.send(msg.CaughtUp(match_id=runtime.id, since=since or 0,
                                       version=runtime.version, actions=actions))
            self.send(self._state(runtime))

    async def _on_rematch(self, cmd: msg.Rematch) -> None:
        runtime = await self.hub.rematch(cmd.match_id, self._me())
        self.send(msg.Ok(re=cmd.id, result={"match_id": runtime.id,
                                            "agreed": sorted(runtime.rematch_votes),
                                            "new_match_id": runtime.rematch_id}))
        if runtime.rematch_id is not None and runtime.rematch_id not in self._attached:
            new = await self.hub.get(runtime.rematch_id)
            self._watch(new, new.seat_of(self._me().id))
            self.send(self._state(new))

    async def _on_resign(self, cmd: msg.Resign) -> None:
        runtime = await self.hub.lifecycle.resign(cmd.match_id, self._me().id)
        self.send(msg.Ok(re=cmd.id, result={"match_id": runtime.id, "outcome": runtime.outcome()}))

    async def _on_offer_draw(self, cmd: msg.OfferDraw) -> None:
        offered = await self.hub.lifecycle.offer_draw(cmd.match_id, self._me().id)
        runtime = await self.hub.get(cmd.match_id)
        self.send(msg.Ok(re=cmd.id, result={"match_id": cmd.match_id, "offered": list(offered),
                                            "outcome": runtime.outcome()}))

    async def _on_decline_draw(self, cmd: msg.DeclineDraw) -> None:
        await self.hub.lifecycle.decline_draw(cmd.match_id, self._me().id)
        self.send(msg.Ok(re=cmd.id, result={"match_id": cmd.match_id, "offered": []}))

    async def _on_claim(self, cmd: msg.Claim) -> None:
        runtime = await self.hub.lifecycle.claim(cmd.match_id, self._me().id)
        result = {"match_id": runtime.id, "outcome": runtime.outcome()}
        if not runtime.over:  # more than two sides: stand-ins play the away seats
            result["stand_ins"] = {str(s): level for s, level in runtime.stand_ins().items()}
        self.send(msg.Ok(re=cmd.id, result=result))

    async def _on_leave(self, cmd: msg.Leave) -> None:
        runtime = self._attached.get(cmd.match_id)
        if runtime is None:
            raise SessionError("you are not following this match", code="session/not_watching")
        freed = await self.hub.give_up_seat(runtime, self._me().id) if self.player else False
        self.detach(cmd.match_id)
        self._seat.pop(cmd.match_id, None)
        self.send(msg.Ok(re=cmd.id, result={"match_id": cmd.match_id, "seat_freed": freed}))

    # --- the account -----------------------------------------------------------------

    def _signed_in(self) -> PlayerRecord:
        """The player, reached by a token (a device of theirs)."""
        me = self._me()
        if self.token_hash is None:
            raise SessionError("this needs a token: hello {claim: true} keeps the nickname with "
                               "one", code="session/token_required")
        return me

    async def _on_set_password(self, cmd: msg.SetPassword) -> None:
        me = self._signed_in()
        await self.hub.accounts.set_password(me, cmd.password, cmd.old_password)
        self.player = replace(me, has_password=True)
        self.send(msg.Ok(re=cmd.id, result={"password": True}))

    async def _on_recovery_code(self, cmd: msg.RecoveryCode) -> None:
        code = await self.hub.accounts.new_recovery_code(self._signed_in())
        self.send(msg.Ok(re=cmd.id, result={"code": code}))

    async def _on_devices(self, cmd: msg.Devices) -> None:
        me = self._signed_in()
        devices = await self.hub.accounts.devices(me)
        current_id = await self.hub.accounts.current_device(self.token_hash)
        self.send(msg.Ok(re=cmd.id, result={"devices": [
            device_words(d, current=d.id == current_id) for d in devices]}))

    async def _on_revoke_device(self, cmd: msg.RevokeDevice) -> None:
        await self.hub.accounts.revoke(self._signed_in(), cmd.device_id)
        self.send(msg.Ok(re=cmd.id, result={"device_id": cmd.device_id, "revoked": True}))

    async def _on_sign_out(self, cmd: msg.SignOut) -> None:
        me = self._signed_in()
        await self.hub.accounts.sign_out(me, self.token_hash or "")
        for match_id in list(self._attached):
            self.detach(match_id)
        self.hub.lobby_feed.unsubscribe(self)
        self.player, self.token_hash = None, None
        self.send(msg.Ok(re=cmd.id, result={"signed_out": True}))

    async def _on_ping(self, cmd: msg.Ping) -> None:
        self.send(msg.Pong(re=cmd.id))

    async def _on_lobby(self, cmd: msg.Lobby) -> None:
        feed = self.hub.lobby_feed
        if cmd.subscribe:
            feed.subscribe(self, lambda entries: self.send(msg.LobbyNotice(matches=entries)))
        else:
            feed.unsubscribe(self)
        page = await feed.page(cmd.offset, cmd.limit)
        self.send(msg.Ok(re=cmd.id, result={**page, "subscribed": cmd.subscribe}))

    async def on_close(self) -> None:
        self.hub.lobby_feed.unsubscribe(self)
        await super().on_close()

    # --- the stream ---------------------------------------------------------------

    def _watch(self, runtime: MatchRuntime, seat: int | None) -> None:
        self._seat[runtime.id] = seat
        self.attach(runtime, seat)

    def _state(self, runtime: MatchRuntime) -> msg.State:
        seat = self._seat.get(runtime.id)
        to_act, outcome = runtime.to_act(), runtime.outcome()
        return msg.State(match_id=runtime.id, game=runtime.game.name, version=runtime.version,
                         status=runtime.status, seats=self._seats(runtime), you=seat,
                         to_act=to_act, view=runtime.shown(seat),
                         outcome=outcome, rematch_id=runtime.rematch_id,
                         legal=self._pushed_legal(runtime, seat, to_act),
                         claim_grace=runtime.game.abandon_grace,
                         outcome_said=self._outcome_said(runtime, outcome, seat),
                         clock=runtime.timing.reading(),
                         draw_offers=list(draws.offers(runtime))
                         if runtime.game.draws_by_agreement else None)

    def _seats(self, runtime: MatchRuntime) -> list[dict[str, Any]]:
        """The public seats; in an active match each away player's seat also says for how long
        the server has counted it away (``away_for``, seconds) and in how many seconds a claim
        over it becomes possible (``claim_in``; 0: now). The count is the lifecycle's: it starts
        at the first sweep that saw the seat away (a few seconds after it left), so a fresh
        ``away`` seat reads ``away_for`` 0 and ``claim_in`` the whole grace."""
        seats = runtime.seats_public()
        if runtime.status != "active":
            return seats
        grace = runtime.game.abandon_grace
        for entry, info in zip(seats, runtime.seats):
            if entry.get("present") or info.player_id is None or info.bot is not None \
                    or entry.get("stand_in"):
                continue
            away = round(self.hub.lifecycle.away_for(runtime, info.seat), 1)
            entry["away_for"] = away
            entry["claim_in"] = round(max(0.0, grace - away), 1)
        return seats

    def _update(self, match: MatchRuntime, notice: Applied, seat: int | None) -> str:
        """The ``update`` frame of ``notice`` for a listener of ``seat`` (``notice`` is what
        that seat may know: MatchRuntime.publish). Its fields are JSON data already, so it is
        written straight from a dict (msg.encode_update), and the frame is the same for every
        listener of the seat that asks the same of it: it is built once per version, seat and
        ``push_legal`` (the match's memo) unless the match has a clock, whose reading is
        taken for each frame."""
        to_act = match.to_act()
        wants_legal = self.push_legal and seat in to_act
        key = (UPDATE_FRAME, notice.version, seat, wants_legal)
        shared = match.timing.clock is None
        memo = match.memo()
        if shared and (frame := memo.get(key)) is not None:
            return frame  # type: ignore[no-any-return]
        outcome = notice.outcome.to_dict() if notice.outcome else None
        words = self.hub.dialect_state(WORDS, _Words)  # this hub's, not the process's
        said, outcome_said = words.of(match, notice, seat, outcome)
        frame = msg.encode_update(
            match_id=match.id, version=notice.version, seat=notice.seat, action=notice.action,
            events=notice.events, to_act=to_act, status=match.status, view=match.shown(seat),
            outcome=outcome, legal=match.legal(seat) if wants_legal else None, said=said,
            outcome_said=outcome_said, clock=match.timing.reading())
        if shared:
            memo[key] = frame
        return frame

    def _pushed_legal(self, runtime: MatchRuntime, seat: int | None,
                      to_act: list[int]) -> list[dict[str, Any]] | None:
        """The seat's legal actions for a state or update, if this connection asked for them
        and the seat is to act (None leaves the field out)."""
        if not self.push_legal or seat not in to_act:
            return None
        return runtime.legal(seat)

    async def _told_again(self, runtime: MatchRuntime, missed: list[ActionRecord],
                          seat: int | None) -> list[dict[str, Any]]:
        """The missed actions' ``events`` and ``said`` for ``seat``, as their ``update``s told
        them: the saved actions have no events, so the match is replayed from its seed up to
        the last one (off the event loop; the caller holds the match's lock). Past
        ``REPLAY_FOR_WORDS`` actions the replay costs too much: the actions go without them."""
        if runtime.version > REPLAY_FOR_WORDS or not missed:
            return [{} for _ in missed]
        earlier = await self.hub.store.actions(runtime.id, after=0, limit=missed[0].seq - 1)
        names = self._names(runtime)
        game = runtime.game

        def replay() -> list[dict[str, Any]]:
            state = game.setup(len(runtime.seats), runtime.options, runtime.seed)
            for record in earlier:
                game.apply(state, record.seat, game.parse_action(record.action))
            told = []
            for record in missed:
                events = game.apply(state, record.seat, game.parse_action(record.action))
                told.append({"events": game.events_seen_by(events, seat),
                             "said": game.describe(events, seat, action=record.action,
                                                   actor=record.seat, names=names)})
            return told

        try:
            return await asyncio.to_thread(replay)
        except Exception:  # words are a courtesy: a failed replay must not cost the catch-up
            log.exception("match %s: replaying the caught-up actions failed", runtime.id)
            return [{} for _ in missed]

    @staticmethod
    def _names(match: MatchRuntime) -> dict[int, str]:
        """What the words call each seat: its nickname, or "Bot (level)" for a computer player
        (whose nickname, ``random-bot-34355495``, says nothing to a person), with the seat's
        label when two bots of one level play."""
        bots = [s.bot for s in match.seats if s.bot]
        return {s.seat: (s.nickname if not s.bot else f"Bot ({s.bot})" if bots.count(s.bot) == 1
                         else f"Bot ({s.bot}, {match.game.seat_label(s.seat)})")
                for s in match.seats if s.nickname}

    @classmethod
    def _outcome_said(cls, match: MatchRuntime, outcome: dict[str, Any] | None,
                      seat: int | None, names: dict[int, str] | None = None
                      ) -> list[str] | None:
        """How the match ended in words for ``seat`` (None while it goes on)."""
        if not outcome:
            return None
        try:
            return tell_outcome(match.game, outcome, seat,
                                cls._names(match) if names is None else names)
        except Exception:  # a describe bug must never break the stream
            log.exception("match %s: telling the outcome failed", match.id)
            return None

    @staticmethod
    def _said(match: MatchRuntime, notice: Applied, seat: int | None,
              names: dict[int, str]) -> list[str]:
        """The action in words for this listener: ``notice`` is already what its seat may
        know (MatchRuntime.publish), and the game's ``describe`` filters again anyway. A game
        that fails to tell must not cost the update: it then says nothing."""
        try:
            return match.game.describe(notice.events, seat, action=notice.action,
                                       actor=notice.seat, names=names)
        except Exception:  # a describe bug must never break the stream
            log.exception("match %s: describing version %s failed", match.id, notice.version)
            return []

    def notify(self, match: MatchRuntime, notice: Notice) -> None:
        if isinstance(notice, Applied):
            self.peer.send(self._update(match, notice, self._seat.get(match.id)))
        elif isinstance(notice, Started):
            self.send(self._state(match))
        elif isinstance(notice, PresenceChanged):
            nickname = match.seats[notice.seat].nickname
            self.send(msg.Presence(match_id=match.id, seat=notice.seat, present=notice.present,
                                   nickname=nickname))
        elif isinstance(notice, Ended):
            self.send(msg.EndedNotice(match_id=match.id, status=notice.status,
                                      outcome=notice.result))
            self.send(self._state(match))
        elif isinstance(notice, StandIn):
            self.send(msg.StandInNotice(match_id=match.id, seat=notice.seat, level=notice.level,
                                        nickname=match.seats[notice.seat].nickname))
            self.send(self._state(match))
        elif isinstance(notice, DrawOffers):
            self.send(msg.DrawNotice(match_id=match.id, offered=list(notice.seats)))
        elif isinstance(notice, RematchChanged):
            self.send(msg.RematchNotice(match_id=match.id, agreed=list(notice.agreed),
                                        new_match_id=notice.new_match_id))


class _Words:
    """The words of the last applied action (``said``, ``outcome_said``), once per seat.
    MatchRuntime.publish tells every listener the action as its seat may know it, and the
    words depend only on the match, the version and the seat: a match's spectators, or a
    player's several tabs, share them instead of describing the action again each. Another
    match or version starts afresh; only the last one's words are held (not its match)."""

    def __init__(self) -> None:
        self._match: weakref.ref[MatchRuntime] | None = None
        self._version = -1
        self._told: dict[int | None, tuple[list[str], list[str] | None]] = {}

    def of(self, match: MatchRuntime, notice: Applied, seat: int | None,
           outcome: dict[str, Any] | None) -> tuple[list[str], list[str] | None]:
        if self._match is None or self._match() is not match or notice.version != self._version:
            self._match, self._version, self._told = weakref.ref(match), notice.version, {}
        if seat not in self._told:
            names = CanonicalConversation._names(match)
            self._told[seat] = (CanonicalConversation._said(match, notice, seat, names),
                                CanonicalConversation._outcome_said(match, outcome, seat, names))
        return self._told[seat]


#: the hub's dialect state (Hub.dialect_state) under which the last action's words are kept
WORDS = f"{NAME}:words"
#: the key of an encoded ``update`` in a match's memo (MatchRuntime.memo)
UPDATE_FRAME = f"{NAME}:update"

DIALECT = Dialect(
    name=NAME,
    default_port=None,
    framer=lambda: LineFramer(max_line=msg.MAX_MESSAGE_BYTES),
    conversation=CanonicalConversation,
    description="Tavolo canonical JSON protocol: WebSocket /ws, or JSON lines over TCP with --listen canonical=PORT",
)
