"""One live match: its state, its seats, its listeners, and the one writer that changes it.

Durable before visible: an accepted action is applied, then written (log row and
snapshot in one transaction), and only after the commit is anyone told. If the
commit fails the runtime is marked broken and the hub reloads it from the store (in
place) as soon as the store answers, so nobody saw a state that is not on disk. When the
store cannot say whether the commit happened (``store/unknown_outcome``), the reload
tells: the action is published then if it was saved.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from service import metrics
from service.errors import RulesError, SessionError, StoreError
from service.games.base import Game, GameOptions
from service.games.registry import get_game
from service.sessions import draws, logcontext
from service.sessions.clocks import Timing
from service.sessions.identity import admits
from service.sessions.notices import (
    Applied,
    Ended,
    Listener,
    Notice,
    PresenceChanged,
    RematchChanged,
    StandIn,
    Started,
)
from service.store import ActionRecord, MatchRecord, Store, StoreUnknownOutcome

log = logging.getLogger(__name__)

#: the ``dialect_data`` key under which the stand-ins of away seats are saved:
#: ``{"<seat>": level}`` (README, "Match lifecycle")
STAND_INS = "stand_ins"

#: how many recent client ids per match are remembered to make `act` idempotent
CLIENT_ID_MEMORY = 1024


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    player_id: int | None
    nickname: str | None
    team: int | None = None
    #: the level of the computer player in this seat; None for a person
    bot: str | None = None

    def to_dict(self, game: Game[Any], present: bool, stand_in: str | None = None) -> dict[str, Any]:
        return {"seat": self.seat, "label": game.seat_label(self.seat), "nickname": self.nickname,
                "player_id": self.player_id, "team": self.team, "present": present,
                "bot": self.bot, "stand_in": stand_in}


@dataclass(frozen=True)
class ActResult:
    version: int
    duplicate: bool = False


class MatchLink(Protocol):
    """The cluster's side of one match (service/sessions/replica.py): what this runtime tells
    the other nodes, and how a runtime that does not own its match reaches the owner."""

    def replicate(self, runtime: MatchRuntime, notice: Notice) -> None:
        """Tell the other nodes what ``notice`` says (the owner's changes, dialect notices)."""

    def seats_changed(self, runtime: MatchRuntime) -> None:
        """The owner seated or unseated a player (saved): the other nodes read it back."""

    def presence_changed(self, runtime: MatchRuntime) -> None:
        """Who is attached on this node changed."""

    async def act(self, runtime: MatchRuntime, player_id: int, raw_action: Any,
                  client_id: str | None, seen_version: int | None) -> ActResult:
        """Carry an action to the owner; back once this runtime has the version it made."""

    async def call(self, runtime: MatchRuntime, op: str, **args: Any) -> Any:
        """Run ``op`` (replica.OPS) where the match is owned; this runtime is up to date
        with what it did when it returns."""


#: seconds a runtime that follows its match waits for the version its forwarded action
#: made before it reads the store itself
REACH_TIMEOUT = 5.0


class MatchRuntime:
    def __init__(self, record: MatchRecord, store: Store) -> None:
        self.id = record.id
        self.store = store
        self.lock = asyncio.Lock()
        self._listeners: dict[Listener, int | None] = {}
        #: since when nobody has followed the match (monotonic seconds)
        self._unfollowed_since = time.monotonic()
        self._client_ids: OrderedDict[tuple[int, str], int] = OrderedDict()
        #: called when a failed commit breaks the runtime (the hub reloads it from the store)
        self.on_broken: Callable[[MatchRuntime], None] | None = None
        #: called when the match has ended (saved): the hub takes it into the ratings
        self.on_ended: Callable[[MatchRuntime], None] | None = None
        #: raises ``session/banned`` for a banned player (the hub's Bans.check)
        self.bans: Callable[[int], None] | None = None
        #: the action whose commit the store neither confirmed nor refused
        self._uncertain: Applied | None = None
        #: this node runs the match's writer (always, on a node that runs alone)
        self.owned = True
        #: the cluster's side of this match; None on a node alone
        self.link: MatchLink | None = None
        #: other nodes' attached seats and listener counts: node id -> (seats, listeners)
        self._elsewhere: dict[str, tuple[frozenset[int], int]] = {}
        #: catching up with the store and the owner's notices: one at a time
        self._sync_lock = asyncio.Lock()
        self._moved = asyncio.Event()
        #: the match's clocks (sessions/clocks.py); ``timing.clock`` None: no clock
        self.timing = Timing(None)
        #: what was worked out from the state as it is now (views, legal lists, frames), kept
        #: until the state changes (``memo``); bumped on every reload, whose version may repeat
        self._memo: dict[Any, Any] = {}
        self._memo_key: tuple[int, str, int] | None = None
        self._loads = 0
        self._take_record(record)

    def _take_record(self, record: MatchRecord) -> None:
        self.game: Game[Any] = get_game(record.game)
        #: this game's children of the action metrics, looked up once (``labels`` is a lock
        #: and a dict lookup per call)
        self._counted = metrics.ACTIONS.labels(self.game.name)
        self._timed = metrics.ACK_SECONDS.labels(self.game.name)
        self.options: GameOptions = self.game.parse_options(record.options)
        self.seed = record.seed
        self.status = record.status
        #: the saved result of a match that ended outside the game (resigned, claimed, aborted)
        self.ended_result = None if record.status == "waiting" else record.result
        self.version = record.version
        self.state = self.game.load_state(record.snapshot)
        self.seats = [SeatInfo(s.seat, s.player_id, s.nickname, s.team, s.bot_level)
                      for s in sorted(record.seats, key=lambda s: s.seat)]
        self.rematch_of = record.rematch_of
        self.rematch_id = record.rematch_id
        self.dialect = record.dialect
        self.created_at = record.created_at
        self.invite_hash = record.invite_hash
        self.rematch_votes: set[int] = set(record.rematch_votes)
        #: per dialect, what it remembers about this match; saved with it (``save_dialect_data``)
        self.dialect_data: dict[str, Any] = dict(record.dialect_data)
        self.timing.load(record.clock)
        self.broken = False
        self._loads += 1  # a reload may come back to the same version: nothing memoised holds

    def reload(self, record: MatchRecord, saved_client_ids: list[ActionRecord]) -> None:
        """Become the saved match again after a failed commit. The same object, so whoever
        holds it (dialect conversations) stays current. An action whose commit was uncertain
        is published now if the store has it: every listener sees every saved version."""
        uncertain, self._uncertain = self._uncertain, None
        self._take_record(record)
        self.restore_client_ids(saved_client_ids)
        if uncertain is not None and uncertain.version == self.version:
            log.warning("match %s: action %s was saved after all", self.id, self.version,
                        extra=logcontext.about(self.id))
            self.publish(uncertain)

    # --- seats and listeners ---------------------------------------------------------

    @property
    def to_owner(self) -> MatchLink | None:
        """The way to the node that owns this match when it is another one (every change is
        carried there); None when this node writes the match itself."""
        return None if self.owned else self.link

    def seat_of(self, player_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.player_id == player_id), None)

    @property
    def over(self) -> bool:
        """Finished (by the game, a resignation or a claim) or aborted: nothing more to play."""
        return self.status in ("finished", "aborted")

    @property
    def private(self) -> bool:
        return self.invite_hash is not None

    def check_invited(self, player_id: int | None, invite: str | None) -> None:
        """A private match lets in its own players and whoever brings its invitation code; to
        anyone else it does not exist (the same error as an id never used)."""
        seated = player_id is not None and self.seat_of(player_id) is not None
        if not admits(self.invite_hash, seated, invite):
            raise SessionError(f"no match {self.id}", code="session/no_such_match")

    def empty_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.player_id is None]

    def bot_seats(self) -> list[SeatInfo]:
        return [s for s in self.seats if s.bot is not None]

    def stand_ins(self) -> dict[int, str]:
        """The away seats a server-side bot plays for now: seat -> bot level."""
        return {int(seat): level for seat, level in self.dialect_data.get(STAND_INS, {}).items()}

    async def set_stand_in(self, seat: int, level: str | None) -> None:
        """A bot of ``level`` plays ``seat`` from now on (None: its player plays it again):
        saved first, then everyone following the match is told."""
        if (owner := self.to_owner) is not None:
            await owner.call(self, "stand_in", seat=seat, level=level)
            return
        stand_ins = {str(s): lv for s, lv in self.stand_ins().items() if s != seat}
        if level is not None:
            stand_ins[str(seat)] = level
        await self.save_dialect_data(STAND_INS, stand_ins or None)
        self.publish(StandIn(seat, level))
        logcontext.match_event(logcontext.STAND_IN, self.id, self.game.name,
                               f"seat {seat} played by a {level} stand-in" if level
                               else f"seat {seat} played by its player again",
                               seat=seat, bot_level=level)

    def present(self, seat: int) -> bool:
        """Someone is attached to ``seat``, on this node or (in a cluster) another."""
        return seat in self._listeners.values() or any(
            seat in seats for seats, _ in self._elsewhere.values())

    def listeners(self) -> list[tuple[Listener, int | None]]:
        """The listeners attached on this node."""
        return list(self._listeners.items())

    def followed(self) -> bool:
        """Someone follows the match, on this node or another."""
        return bool(self._listeners) or any(count for _, count in self._elsewhere.values())

    def local_presence(self) -> tuple[frozenset[int], int]:
        """The seats attached on this node, and how many listeners it has."""
        return (frozenset(s for s in self._listeners.values() if s is not None),
                len(self._listeners))

    def attach(self, listener: Listener, seat: int | None) -> None:
        arriving = seat is not None and not self.present(seat)
        self._listeners[listener] = seat
        if arriving:
            assert seat is not None
            self.publish(PresenceChanged(seat, True), skip=listener)
        if self.link is not None:
            self.link.presence_changed(self)

    def unfollowed_for(self) -> float:
        """Seconds since the last listener left (0 while someone follows the match)."""
        return 0.0 if self.followed() else time.monotonic() - self._unfollowed_since

    def detach(self, listener: Listener) -> None:
        if listener not in self._listeners:
            return
        seat = self._listeners.pop(listener)
        if not self.followed():
            self._unfollowed_since = time.monotonic()
        if seat is not None and not self.present(seat):
            self.publish(PresenceChanged(seat, False))
        if self.link is not None:
            self.link.presence_changed(self)

    def elsewhere(self, node: str, seats: frozenset[int] | None, listeners: int = 0) -> None:
        """What another node has attached (None: that node is gone); listeners here hear of
        each seat whose presence this changes."""
        watched = set(seats or ()) | set(self._elsewhere.get(node, (frozenset(), 0))[0])
        before = {seat: self.present(seat) for seat in watched}
        if seats is None:
            self._elsewhere.pop(node, None)
        else:
            self._elsewhere[node] = (seats, listeners)
        if not self.followed():
            self._unfollowed_since = time.monotonic()
        for seat in sorted(watched):
            if self.present(seat) != before[seat] and 0 <= seat < len(self.seats):
                self.publish(PresenceChanged(seat, self.present(seat)), local=True)

    def nodes_elsewhere(self) -> list[str]:
        return list(self._elsewhere)

    def publish(self, notice: Notice, *, skip: Listener | None = None,
                local: bool = False) -> None:
        """Tell every listener (but ``skip``); an applied action as the listener's seat may
        know it, which is the one place hidden information is taken out of the stream.
        In a cluster the other nodes hear of it too, unless it came from one (``local``)."""
        shown: dict[int | None, Notice] = {}
        for listener, seat in list(self._listeners.items()):
            if listener is skip:
                continue
            told = notice
            if isinstance(notice, Applied):
                if seat not in shown:
                    shown[seat] = notice.seen_by(self.game, seat)
                told = shown[seat]
            try:
                listener.notify(self, told)
            except Exception:  # a broken listener must not hurt the match
                log.exception("match %s: listener failed on %s", self.id, type(notice).__name__,
                              extra=logcontext.about(self.id))
        if self.link is not None and not local:
            self.link.replicate(self, notice)

    # --- what a seat may see ------------------------------------------------------------

    def memo(self) -> dict[Any, Any]:
        """A place for what is worked out from the match as it stands (a seat's view, its
        legal list, a dialect's encoded frame), shared by every listener: emptied whenever the
        version or the status moves or the match is reloaded. The state changes only with the
        version (an action applied, here or on the owner), a reload, or the status; an action
        applied but not yet committed is either committed (the version moves) or breaks the
        runtime (it is reloaded), so nothing worked out from it outlives it. Whatever is kept
        here is shared: callers must not change it."""
        key = (self.version, self.status, self._loads)
        if key != self._memo_key:
            self._memo, self._memo_key = {}, key
        return self._memo

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see, fresh (the caller may change it)."""
        return self.game.view(self.state, seat)

    def shown(self, seat: int | None) -> dict[str, Any]:
        """The same as :meth:`view`, worked out once per version and seat however many
        listeners ask for it (read-only: it is shared)."""
        views = self.memo().setdefault("views", {})
        found = views.get(seat)
        if found is None:
            found = views[seat] = (self.game.view_beside(self.state, seat, views) if views
                                   else self.game.view(self.state, seat))
        return found  # type: ignore[no-any-return]

    def to_act(self) -> list[int]:
        """The seats to act now (a fresh list: none unless active)."""
        return list(self._to_act())

    def _to_act(self) -> tuple[int, ...]:
        memo = self.memo()
        found = memo.get("to_act")
        if found is None:
            found = memo["to_act"] = (tuple(sorted(self.game.to_act(self.state)))
                                      if self.status == "active" else ())
        return found  # type: ignore[no-any-return]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        """The actions ``seat`` may send now, as the wire writes them (none unless active):
        listed once per version and seat (the list is shared: callers must not change it)."""
        if self.status != "active":
            return []
        memo = self.memo()
        key = ("legal", seat)
        found = memo.get(key)
        if found is None:
            found = memo[key] = [self.game.dump_action(a)
                                 for a in self.game.legal_actions(self.state, seat)]
        return found  # type: ignore[no-any-return]

    def outcome(self) -> dict[str, Any] | None:
        outcome = self.game.outcome(self.state)
        return outcome.to_dict() if outcome else self.ended_result

    def seats_public(self) -> list[dict[str, Any]]:
        stand_ins = self.stand_ins()
        return [s.to_dict(self.game, self.present(s.seat), stand_ins.get(s.seat)) for s in self.seats]

    # --- the one writer ---------------------------------------------------------------

    async def act(self, player_id: int, raw_action: Any, client_id: str | None = None,
                  seen_version: int | None = None) -> ActResult:
        if (owner := self.to_owner) is not None:
            return await owner.act(self, player_id, raw_action, client_id, seen_version)
        started = time.perf_counter()
        async with self.lock:
            if self.broken:
                raise StoreError("this match is being reloaded; try again", code="store/reloading")
            if client_id is not None and (player_id, client_id) in self._client_ids:
                # answered first: the action that finished the match is still a duplicate
                return ActResult(self._client_ids[(player_id, client_id)], duplicate=True)
            seat = self._check_can_act(player_id)
            self.timing.check(seat)
            self._check_version(seen_version)
            action = self.game.parse_action(raw_action)
            if seat not in self.game.to_act(self.state):
                raise RulesError("not_your_turn", "it is not your turn")
            events = self.game.apply(self.state, seat, action)
            applied = await self._commit(seat, self.game.dump_action(action), events, client_id)
            self._remember(player_id, client_id, self.version)
            self._counted.inc()
            self._timed.observe(time.perf_counter() - started)
            self.publish(applied)
            return ActResult(self.version)

    def _check_can_act(self, player_id: int) -> int:
        if self.bans is not None:
            self.bans(player_id)
        seat = self.seat_of(player_id)
        if seat is None:
            raise SessionError("you have no seat in this match", code="session/not_seated")
        if self.status == "waiting":
            raise SessionError("the match has not started: seats are still free",
                               code="session/not_started")
        if self.status != "active":
            raise SessionError(f"the match is {self.status}", code="session/match_over")
        return seat

    def _check_version(self, seen: int | None) -> None:
        if seen is None or seen == self.version:
            return
        if seen > self.version:
            raise SessionError(f"version {seen} is ahead of the match ({self.version})",
                               code="session/bad_version", version=self.version)
        if not self.game.real_time:
            raise SessionError(f"the match moved on since version {seen} (now {self.version})",
                               code="session/stale_version", version=self.version)

    async def _commit(self, seat: int, action: dict[str, Any], events: list[Any],
                      client_id: str | None) -> Applied:
        outcome = self.game.outcome(self.state)
        status = "finished" if outcome else "active"
        clock = None if self.timing.clock is None else self.timing.after(
            self.game.to_act(self.state), outcome is not None)  # no to_act on the hot path
        seq = self.version + 1
        try:
            await self.store.append_action(  # the whole state only every few actions
                self.id, seq=seq, seat=seat, action=action,
                snapshot=(self.game.dump_state(self.state)
                          if self.store.snapshot_due(seq, status) else None), status=status,
                result=outcome.to_dict() if outcome else None, client_id=client_id,
                clock=None if clock is None else clock.to_dict(),
                clock_deadline=None if clock is None else clock.deadline(),
            )
        except StoreUnknownOutcome:
            raise self._uncertain_commit(seat, action, events, outcome) from None
        except StoreError:
            self._break(f"could not save action {self.version + 1}")
            raise StoreError("the action could not be saved and was not applied",
                             code="store/unavailable") from None
        except Exception:  # the store maps its own failures; anything else may have saved it
            log.exception("match %s: unexpected error saving action %s", self.id, self.version + 1,
                          extra=logcontext.about(self.id))
            raise self._uncertain_commit(seat, action, events, outcome) from None
        self.version += 1
        self.status = status
        self.timing.take(clock, owned=self.owned)
        if outcome:
            logcontext.match_ended(self.id, self.game.name, status, outcome.to_dict(), self.version)
            self._ended()
        return Applied(self.version, seat, action, events, outcome)

    def _uncertain_commit(self, seat: int, action: dict[str, Any], events: list[Any],
                          outcome: Any) -> StoreError:
        """The action may or may not be saved: the reload publishes it if it was."""
        self._uncertain = Applied(self.version + 1, seat, action, events, outcome)
        self._break(f"the store did not say whether action {self.version + 1} was saved")
        return StoreError("the store did not confirm the action: it may or may not be applied; "
                          "resend it with the same client_id to learn which",
                          code="store/unknown_outcome")

    def _ended(self) -> None:
        if self.on_ended is not None:
            self.on_ended(self)

    def _break(self, why: str) -> None:
        self.broken = True
        log.error("match %s: %s; reloading from the store", self.id, why,
                  extra=logcontext.about(self.id))
        if self.on_broken is not None:
            self.on_broken(self)

    def _remember(self, player_id: int, client_id: str | None, version: int) -> None:
        if client_id is None:
            return
        self._client_ids[(player_id, client_id)] = version
        while len(self._client_ids) > CLIENT_ID_MEMORY:
            self._client_ids.popitem(last=False)

    def restore_client_ids(self, saved: list[ActionRecord]) -> None:
        """Remember the client ids of saved actions (oldest first), e.g. after a restart."""
        for record in sorted(saved, key=lambda r: r.seq):
            player_id = self.seats[record.seat].player_id
            if player_id is not None:
                self._remember(player_id, record.client_id, record.seq)

    # --- lifecycle changes made by the hub -------------------------------------------

    async def end(self, status: str, result: dict[str, Any], *,
                  only_if: tuple[str, ...] = ("waiting", "active"),
                  at_version: int | None = None) -> None:
        """End the match outside the game (``finished`` or ``aborted``, with its ``result``):
        saved first, then everyone following it is told. The action log is untouched, so the
        replay still reproduces the snapshot. ``session/match_over`` if it already ended;
        with ``at_version``, ``session/moved_on`` if an action came meanwhile."""
        if (owner := self.to_owner) is not None:
            await owner.call(self, "end", status=status, result=result,
                                 only_if=list(only_if), at_version=at_version)
            return
        async with self.lock:
            if self.status not in only_if:
                raise SessionError(f"the match is {self.status}", code="session/match_over")
            if at_version is not None and self.version != at_version:
                raise SessionError("the match moved on", code="session/moved_on")
            clock = self.timing.after(set(), True)
            await self.store.set_status(self.id, status, result=result,
                                        clock=None if clock is None else clock.to_dict(),
                                        snapshot=self.game.dump_state(self.state),
                                        snapshot_version=self.version)
            self.status, self.ended_result = status, result
            self.timing.take(clock, owned=self.owned)
            self.publish(Ended(status, result))
            logcontext.match_ended(self.id, self.game.name, status, result, self.version)
            self._ended()

    def seat_player(self, seat: int, player_id: int, nickname: str, status: str,
                    bot: str | None = None) -> None:
        self.seats[seat] = replace(self.seats[seat], player_id=player_id, nickname=nickname, bot=bot)
        was = self.status
        self.status = status
        if was == "waiting" and status == "active":
            self.publish(Started())
        elif self.link is not None:
            self.link.seats_changed(self)

    async def stop_clock(self, seat: int) -> None:
        """The seat's time no longer counts (a stand-in plays it): saved, then kept."""
        async with self.lock:
            if self.timing.clock is None:
                return
            clock = self.timing.clock.copy()
            clock.stop(seat)
            await self.store.set_clock(self.id, clock.to_dict(), clock.deadline())
            self.timing.take(clock, owned=self.owned)

    def unseat(self, seat: int) -> None:
        """The seat's player left before the start: the seat is free again."""
        self.seats[seat] = replace(self.seats[seat], player_id=None, nickname=None, bot=None)
        if self.link is not None:
            self.link.seats_changed(self)

    async def save_dialect_data(self, dialect: str, data: Any) -> None:
        """Remember ``data`` (JSON; None forgets) for ``dialect``: saved first, so it survives
        a restart, then kept here."""
        if self.dialect_data.get(dialect) == data:
            return
        if (owner := self.to_owner) is not None:
            await owner.call(self, "dialect_data", dialect=dialect, data=data)
            return
        await self.store.set_dialect_data(self.id, dialect, data)
        if data is None:
            self.dialect_data.pop(dialect, None)
        else:
            self.dialect_data[dialect] = data

    def votes_saved(self, seats: set[int]) -> None:
        """The seats agreeing to a rematch, once the store has them."""
        self.rematch_votes = set(seats)
        self.publish(RematchChanged(tuple(sorted(self.rematch_votes)), self.rematch_id))

    def rematch_started(self, new_match_id: int) -> None:
        self.rematch_id = new_match_id
        self.publish(RematchChanged(tuple(sorted(self.rematch_votes)), new_match_id))

    # --- following the owner (a runtime on a node that does not own its match) ---------

    @contextlib.asynccontextmanager
    async def following(self) -> AsyncIterator[None]:
        """Held while this copy takes the owner's changes: one catch-up at a time, and (the
        runtime's lock) never while a client's catch-up is being read."""
        async with self._sync_lock, self.lock:
            yield

    def apply_saved(self, seq: int, seat: int, action: dict[str, Any]) -> None:
        """Play action ``seq``, which the owner saved, on this copy, and tell its listeners.
        The rules are deterministic (a replay reproduces every snapshot), so this copy's
        state is the owner's. Call within :meth:`following`."""
        if seq != self.version + 1:
            raise ValueError(f"match {self.id}: action {seq} does not follow {self.version}")
        events = self.game.apply(self.state, seat, self.game.parse_action(action))
        outcome = self.game.outcome(self.state)
        self.version = seq
        # the owner's reading comes with the record; this one is as near as this node knows
        if self.timing.clock is not None:
            self.timing.take(self.timing.after(self.game.to_act(self.state), outcome is not None),
                             owned=self.owned)
        if outcome is not None:
            self.status = "finished"
        self.publish(Applied(seq, seat, action, events, outcome), local=True)
        self._moved.set()
        self._moved = asyncio.Event()

    def take_facts(self, record: MatchRecord) -> None:
        """Take what the owner saved besides actions (seats, status, stand-ins, rematch
        votes, dialect data) and tell listeners what changed, as the owner told its own.
        Saying it twice is harmless: only a change is told. Call within :meth:`following`."""
        before = (self.status, self.stand_ins(), tuple(sorted(self.rematch_votes)),
                  self.rematch_id)
        offered = draws.offers(self)
        self.seats = [SeatInfo(s.seat, s.player_id, s.nickname, s.team, s.bot_level)
                      for s in sorted(record.seats, key=lambda s: s.seat)]
        self.dialect_data = dict(record.dialect_data)
        self.timing.load(record.clock)
        self.rematch_votes = set(record.rematch_votes)
        self.rematch_id = record.rematch_id
        status, stand_ins, votes, rematch_id = before
        if record.status != status:
            self.status = record.status
            self.ended_result = None if record.status == "waiting" else record.result
            if status == "waiting" and record.status == "active":
                self.publish(Started(), local=True)
            elif record.status in ("finished", "aborted") and status in ("waiting", "active"):
                self.publish(Ended(record.status, record.result or {}), local=True)
        elif record.status != "waiting":
            self.ended_result = record.result
        now = self.stand_ins()
        for seat in sorted(set(stand_ins) | set(now)):
            if stand_ins.get(seat) != now.get(seat):
                self.publish(StandIn(seat, now.get(seat)), local=True)
        if (tuple(sorted(self.rematch_votes)), self.rematch_id) != (votes, rematch_id):
            self.publish(RematchChanged(tuple(sorted(self.rematch_votes)), self.rematch_id),
                         local=True)
        draws.told_change(self, offered)

    async def catch_up(self) -> None:
        """Read what the store has beyond this copy: the actions (played here, each told)
        and the rest of the record. Call within :meth:`following`."""
        for record in await self.store.actions(self.id, after=self.version):
            self.apply_saved(record.seq, record.seat, record.action)
        saved = await self.store.get_match(self.id)
        if saved is None:
            raise SessionError(f"no match {self.id}", code="session/no_such_match")
        if saved.version > self.version:  # actions came meanwhile: the next notice brings them
            for record in await self.store.actions(self.id, after=self.version):
                self.apply_saved(record.seq, record.seat, record.action)
        self.take_facts(saved)

    async def reached(self, version: int, timeout: float = REACH_TIMEOUT) -> None:
        """Wait until this copy has ``version`` (the owner's notice brings it); past
        ``timeout`` read it from the store."""
        deadline = time.monotonic() + timeout
        while self.version < version:
            left = deadline - time.monotonic()
            if left <= 0:
                async with self.following():
                    await self.catch_up()
                return
            try:
                await asyncio.wait_for(self._moved.wait(), left)
            except TimeoutError:
                pass
