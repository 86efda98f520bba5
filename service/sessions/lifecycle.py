"""Abandoned matches end: idle waiting matches are aborted, away seats can be claimed,
players resign, operators abort and delete (README, "Match lifecycle").

Time comes from an injectable clock (monotonic seconds): the server sweeps every few seconds,
tests advance a fake clock and sweep by hand. Away and unattended times count from the first
sweep that saw them, so after a restart they start again from zero (and so they do when a match
nobody followed left memory: ``Hub.evict_idle``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from service.errors import SessionError
from service.games.registry import all_games
from service.sessions import draws
from service.sessions.match import MatchRuntime

if TYPE_CHECKING:
    from service.sessions.hub import Hub

log = logging.getLogger(__name__)

Clock = Callable[[], float]
#: how many waiting matches one sweep looks at (the oldest first)
SWEEP_BATCH = 500


#: the ``result.reason`` of a match that was finished by people, not by the rules
#: (its log replays to no outcome; the result is kept as saved)
ENDED_OUTSIDE_RULES = frozenset({"resigned", "abandoned", "banned", "time_out", "agreed"})


def ended(reason: str, winners: list[int], *, draw: bool = False,
          **detail: Any) -> dict[str, Any]:
    """A result in the shape of ``Outcome.to_dict`` for a match that ended outside the game."""
    return {"winners": sorted(winners), "draw": draw, "reason": reason,
            **({"detail": detail} if detail else {})}


def other_sides(runtime: MatchRuntime, seat: int) -> list[int]:
    """The seats not on ``seat``'s side (its team, or itself where there are no teams)."""
    mine = runtime.seats[seat].team
    return [s.seat for s in runtime.seats
            if s.seat != seat and (mine is None or s.team != mine)]


def sides(runtime: MatchRuntime) -> int:
    return len({s.team if s.team is not None else -1 - s.seat for s in runtime.seats})


class Lifecycle:
    def __init__(self, hub: Hub, *, clock: Clock = time.monotonic,
                 waiting_abort_after: float | None = None) -> None:
        self.hub = hub
        #: the bot level that plays a seat abandoned in a game of more than two sides
        #: (Settings.stand_in_level)
        self.stand_in_level = "random"
        self.clock = clock
        self.waiting_abort_after = waiting_abort_after
        self._unattended: dict[int, float] = {}
        self._away: dict[tuple[int, int], float] = {}
        self._draws = asyncio.Lock()
        #: real-time matches: match id -> (version, since when it has not changed)
        self._still: dict[int, tuple[int, float]] = {}

    # --- the sweep -------------------------------------------------------------------

    async def sweep(self) -> list[int]:
        """One pass: note who is away, abort the waiting matches unattended for too long and
        the real-time ones without an action for too long, then drop from memory the matches
        nobody needs there (``Hub.evict_idle``), those just aborted included, even when the
        store failed. Returns the ids of those aborted."""
        self._note_away()
        await self.hub.ratings.sweep()  # logs its own failures
        try:
            await self.hub.bans.refresh()  # bans made on other nodes
            await self._overdue_clocks()
            return await self._abort_unattended() + await self._abort_inactive()
        finally:
            self.hub.evict_idle()

    async def _abort_unattended(self) -> list[int]:
        if self.waiting_abort_after is None:
            return []
        aborted = []
        now = self.clock()
        seen = set()
        for record in await self.hub.store.list_matches(status="waiting", limit=SWEEP_BATCH):
            seen.add(record.id)
            loaded = self.hub.loaded(record.id)
            if loaded is not None and loaded.followed():
                self._unattended.pop(record.id, None)
                continue
            since = self._unattended.setdefault(record.id, now)
            if now - since >= self.waiting_abort_after and await self._abort_idle(record.id):
                aborted.append(record.id)
        self._unattended = {k: v for k, v in self._unattended.items() if k in seen}
        return aborted

    async def _abort_inactive(self) -> list[int]:
        """Real-time games (``Game.inactivity_limit``): an active match whose version has not
        moved for the limit is aborted, whether or not its players are connected."""
        now, still, aborted = self.clock(), {}, []
        for game in all_games():
            if game.inactivity_limit is None:
                continue
            for record in await self.hub.store.list_matches(game=game.name, status="active",
                                                            limit=SWEEP_BATCH):
                version, since = self._still.get(record.id, (record.version, now))
                if version != record.version:
                    version, since = record.version, now
                if now - since < game.inactivity_limit:
                    still[record.id] = (version, since)
                elif await self._abort_idle(record.id, "inactive", ("active",), version):
                    aborted.append(record.id)
        self._still = still
        return aborted

    async def _abort_idle(self, match_id: int, by: str = "idle",
                          only_if: tuple[str, ...] = ("waiting",), version: int | None = None) -> bool:
        """Abort unless the match moved on meanwhile (it started, or an action came)."""
        runtime = await self.hub.get(match_id)
        self._unattended.pop(match_id, None)
        if not runtime.owned:
            return False  # another node runs it, and knows who follows it there
        try:
            await runtime.end("aborted", ended("aborted", [], by=by), only_if=only_if,
                              at_version=version)
        except SessionError:
            return False  # it started (or ended) meanwhile: nothing to abort
        return True

    def _note_away(self) -> None:
        now = self.clock()
        away = {}
        for runtime in self.hub.live():
            if runtime.status != "active":
                continue
            for seat in runtime.seats:
                if seat.bot is None and seat.player_id is not None and not runtime.present(seat.seat):
                    key = (runtime.id, seat.seat)
                    away[key] = self._away.get(key, now)
        self._away = away

    def away_for(self, runtime: MatchRuntime, seat: int) -> float:
        """Seconds the sweeps have seen ``seat`` away (0 when present)."""
        if runtime.present(seat):
            return 0.0
        since = self._away.get((runtime.id, seat))
        return 0.0 if since is None else self.clock() - since

    # --- what players and operators do --------------------------------------------------

    async def resign(self, match_id: int, player_id: int) -> MatchRuntime:
        """The player gives up: in a game of two sides the other side wins."""
        runtime = await self.hub.get(match_id)
        seat = _active_seat(runtime, player_id)
        if sides(runtime) != 2:
            raise SessionError("resigning ends games of two sides only; leave the match instead",
                               code="session/cannot_resign")
        await runtime.end("finished", ended("resigned", other_sides(runtime, seat), seat=seat),
                          only_if=("active",))
        return runtime

    async def claim(self, match_id: int, player_id: int) -> MatchRuntime:
        """A player present claims over the seats away longer than the game's grace: with two
        sides the claimer's side wins; with more, a stand-in bot plays those seats from now on
        (until their players come back) and the others go on."""
        runtime = await self.hub.get(match_id)
        seat = _active_seat(runtime, player_id)
        grace = runtime.game.abandon_grace
        others = [s for s in other_sides(runtime, seat) if s not in runtime.stand_ins()]
        gone = [s for s in others if self.away_for(runtime, s) >= grace]
        two_sides = sides(runtime) == 2
        if not gone or (two_sides and len(gone) < len(others)):
            raise SessionError(f"the other side has not been away for {grace:g} s",
                               code="session/not_abandoned", grace=grace)
        if two_sides:
            winners = [s.seat for s in runtime.seats if s.seat not in gone]
            await runtime.end("finished", ended("abandoned", winners, away=gone),
                              only_if=("active",))
        else:
            await self._stand_in(runtime, gone)
        return runtime

    async def banished(self, player_id: int) -> None:
        """What a ban does to the player's matches: waiting seats are given up; in an active
        match of two sides the other side wins (reason ``banned``); in one of more, a stand-in
        plays the seat from now on."""
        for record in await self.hub.store.matches_of_player(player_id):
            runtime = await self.hub.get(record.id)
            seat = runtime.seat_of(player_id)
            if seat is None or runtime.over:
                continue
            if runtime.status == "waiting":
                await self.hub.give_up_seat(runtime, player_id)
            elif sides(runtime) == 2:
                await runtime.end("finished", ended("banned", other_sides(runtime, seat),
                                                    seat=seat), only_if=("active",))
            else:
                await self._stand_in(runtime, [seat])

    async def offer_draw(self, match_id: int, player_id: int) -> tuple[int, ...]:
        """The player's side offers a draw (or accepts the one offered): when every side
        has, the match ends drawn. The seats offering now (empty once it ended)."""
        runtime = await self.hub.get(match_id)
        seat = _active_seat(runtime, player_id)
        draws.check_allowed(runtime)
        if sides(runtime) < 2:
            raise SessionError("a draw takes two sides", code="session/no_draws")
        if (owner := runtime.to_owner) is not None:
            return tuple(await owner.call(runtime, "draw", seat=seat, offer=True))
        return await self.draw_seat(runtime, seat, offer=True)

    async def decline_draw(self, match_id: int, player_id: int) -> None:
        """The player's side declines: every offer lapses."""
        runtime = await self.hub.get(match_id)
        seat = _active_seat(runtime, player_id)
        draws.check_allowed(runtime)
        if (owner := runtime.to_owner) is not None:
            await owner.call(runtime, "draw", seat=seat, offer=False)
            return
        await self.draw_seat(runtime, seat, offer=False)

    async def draw_seat(self, runtime: MatchRuntime, seat: int, *, offer: bool
                        ) -> tuple[int, ...]:
        """Where the match is owned: record the seat's offer (or decline), one at a time."""
        async with self._draws:
            offered = draws.offers(runtime)
            if not offer:
                if offered:
                    await draws.save(runtime, ())
                return ()
            if seat in offered:
                return offered
            offered = tuple(sorted({*offered, seat}))
            if not draws.agreed(runtime, offered):
                await draws.save(runtime, offered)
                return offered
            await runtime.end("finished", ended("agreed", [s.seat for s in runtime.seats],
                                                draw=True), only_if=("active",),
                              at_version=runtime.version)
            return ()

    async def time_out(self, match_id: int) -> None:
        """A running clock may be out: in a game of two sides the other side wins (reason
        ``time_out``; a draw when both sides ran out at once; in a solo game nobody wins); in one of more, a stand-in plays each seat out of time from now on
        (its clock stops) and the others go on. Nothing when no time is up (a move came)."""
        runtime = await self.hub.get(match_id)
        clock = runtime.timing.clock
        if not runtime.owned or runtime.status != "active" or clock is None:
            return
        late = clock.flagged(runtime.timing.now())
        if not late:
            runtime.timing.arm(owned=True)  # the flag had not fallen yet: wait on
            return
        if sides(runtime) <= 2:
            if sides(runtime) == 1:  # solo: Lorenzo (nobody) wins
                result = ended("time_out", [], seat=late[0])
            elif all(set(late) & set(other_sides(runtime, seat)) for seat in late):
                # both sides' time ran out at once (both were to act, as when each keeps its
                # leaders at the start, with the same time left): neither outlasted the other
                result = ended("time_out", [s.seat for s in runtime.seats], draw=True,
                               seat=late[0], seats=late)
            else:  # the other side wins, a late seat's partner loses with it
                result = ended("time_out", other_sides(runtime, late[0]), seat=late[0])
            try:
                await runtime.end("finished", result, only_if=("active",), at_version=runtime.version)
            except SessionError as exc:  # a move or an end came meanwhile: look again
                if exc.code not in ("session/moved_on", "session/match_over"):
                    raise
                runtime.timing.arm(owned=runtime.owned)
            return
        await self._stand_in(runtime, late)

    async def _overdue_clocks(self) -> None:
        """Matches whose flag fell while nobody had them loaded (after a restart, say)."""
        for match_id in await self.hub.store.overdue_clocks(self.hub.now()):
            try:
                await self.time_out(match_id)
            except SessionError as exc:
                log.warning("match %s: its clock ran out but could not end it: %s",
                            match_id, exc.message)

    async def _stand_in(self, runtime: MatchRuntime, seats: list[int]) -> None:
        for seat in seats:
            await runtime.stop_clock(seat)
            await runtime.set_stand_in(seat, self.stand_in_level)
        self.hub.announce(runtime)  # the bot seats (service/bots) take the new seats up

    async def abort(self, match_id: int, *, by: str = "admin") -> MatchRuntime:
        """An operator ends a waiting or active match without a winner."""
        runtime = await self.hub.get(match_id)
        await runtime.end("aborted", ended("aborted", [], by=by))
        return runtime


    async def delete(self, match_id: int) -> bool:
        """An operator deletes a match: a live one is aborted first (its followers hear it),
        then it leaves memory and the store. False when there was no such match."""
        runtime = self.hub.loaded(match_id)
        if runtime is not None and runtime.status in ("waiting", "active"):
            await self.abort(match_id)
        self.hub.forget(match_id)
        return await self.hub.store.delete_match(match_id)


def _active_seat(runtime: MatchRuntime, player_id: int) -> int:
    seat = runtime.seat_of(player_id)
    if seat is None:
        raise SessionError("you have no seat in this match", code="session/not_seated")
    if runtime.status != "active":
        raise SessionError(f"the match is {runtime.status}", code="session/match_over")
    return seat
