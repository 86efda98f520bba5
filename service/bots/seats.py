"""Bot seats in live matches: each one acts through ``MatchRuntime.act`` like a person.

The hub calls :meth:`BotSeats.adopt` for every runtime it loads; each bot seat then gets a
:class:`BotDriver`: a listener of the match (so the seat shows as present) and one task
that, whenever the seat may act, asks the thinker for a move and submits it. The move is
validated, saved, acknowledged (to the driver) and broadcast exactly as a person's.
Nothing lives only here: after a restart :meth:`BotSeats.resume` loads every active match
with a bot seat, and the bots go on from the saved state.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from dataclasses import replace

from service.bots.knowledge import knowledge_of
from service.bots.marks import bot_client_id
from service.bots.policies import canonical_level, is_idle
from service.bots.thinker import Thinker
from service.metrics import BOT_FALLBACKS
from service.errors import ServiceError
from service.sessions.hub import Hub
from service.sessions.match import STAND_INS, MatchRuntime, SeatInfo
from service.sessions.notices import Applied, Notice, PresenceChanged, StandIn, Started
from service.sessions.budget import detached

log = logging.getLogger(__name__)

#: a bot whose moves keep failing waits this long at most between tries
MAX_BACKOFF = 5.0
#: in a turn-based game, a bot that has made this many moves in a row without anyone else
#: moving (and, where the game says what players care about, without changing any of it)
#: plays one move at random, with a WARNING and ``tavolo_bot_fallbacks_total{reason="loop"}``:
#: a search that found a loop of legal moves which change nothing (choosing between two
#: pieces, say) gets out of it. A solo game has nobody else: there only idle moves count
STREAK_LIMIT = 100


class BotSeats:
    """Drives every bot seat of the matches a hub has loaded."""

    def __init__(self, hub: Hub, thinker: Thinker, *, pace: float = 0.0) -> None:
        self.hub = hub
        self.thinker = thinker
        #: in real-time games, the least time between two moves of one bot (seconds)
        self.pace = pace
        self.drivers: dict[tuple[int, int], BotDriver] = {}
        hub.on_load.append(self.adopt)

    def adopt(self, runtime: MatchRuntime) -> None:
        if runtime.status not in ("waiting", "active"):
            return
        for seat in runtime.bot_seats():
            if (runtime.id, seat.seat) not in self.drivers:
                self.drivers[(runtime.id, seat.seat)] = BotDriver(self, runtime, seat)
        for number, level in runtime.stand_ins().items():
            if (runtime.id, number) not in self.drivers and runtime.status == "active":
                seat = replace(runtime.seats[number], bot=level)
                self.drivers[(runtime.id, number)] = BotDriver(self, runtime, seat, stand_in=True)

    async def resume(self) -> int:
        """Load every active match with a bot seat, so its bots go on; how many there were."""
        match_ids = sorted(set(await self.hub.store.matches_with_bots())
                           | set(await self.hub.store.matches_with_stand_ins(STAND_INS)))
        for match_id in match_ids:
            try:
                await self.hub.get(match_id)
            except ServiceError as exc:
                log.error("match %s: its bots cannot resume: %s", match_id, exc)
        return len(match_ids)

    def forget(self, driver: BotDriver) -> None:
        self.drivers.pop((driver.match_id, driver.seat), None)

    async def close(self) -> None:
        drivers = list(self.drivers.values())
        for driver in drivers:
            driver.task.cancel()
        for driver in drivers:
            with contextlib.suppress(asyncio.CancelledError):
                await driver.task
        self.drivers.clear()
        self.thinker.close()


class BotDriver:
    """One bot seat of one match, or the stand-in of an away seat (``stand_in``): that one
    follows the match without taking the seat, and stands down once its player is back."""

    def __init__(self, host: BotSeats, runtime: MatchRuntime, seat: SeatInfo, *,
                 stand_in: bool = False) -> None:
        assert seat.player_id is not None and seat.bot is not None
        self.host = host
        self.match_id = runtime.id
        self.seat = seat.seat
        self.player_id = seat.player_id
        self.level = seat.bot
        self._wake = asyncio.Event()
        self._wake.set()
        self._moves = itertools.count()
        self._last_move = 0.0
        self.streak = 0
        #: this bot's last move changed nothing players care about (its next one must)
        self.after_idle = False
        self.stand_in = stand_in
        runtime.attach(self, None if stand_in else seat.seat)
        self.task = detached(self._run(), name=f"bot {runtime.id}/{seat.seat}")

    def notify(self, match: MatchRuntime, notice: Notice) -> None:
        if isinstance(notice, Applied | Started) or (
                self.stand_in and isinstance(notice, PresenceChanged | StandIn)):
            self._wake.set()
        if isinstance(notice, Applied) and notice.seat != self.seat:
            self.streak = 0

    async def _run(self) -> None:
        failures = 0
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                runtime = await self.host.hub.get(self.match_id)
                if (not runtime.owned  # another node took the match over: its bots play it
                        or runtime.status not in ("waiting", "active")
                        or await self._stood_down(runtime)):
                    runtime.detach(self)
                    return
                if self.seat not in runtime.to_act():
                    continue
                if await self._move(runtime):
                    failures = 0
                else:
                    failures += 1
                    await asyncio.sleep(min(MAX_BACKOFF, 0.01 * 2 ** failures))
                    self._wake.set()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("match %s: bot of seat %s stopped", self.match_id, self.seat)
        finally:
            self.host.forget(self)

    async def _stood_down(self, runtime: MatchRuntime) -> bool:
        """A stand-in whose player is back (attached to the seat again) gives the seat back;
        True when this driver has nothing more to play."""
        if not self.stand_in:
            return False
        if runtime.present(self.seat) and self.seat in runtime.stand_ins():
            await runtime.set_stand_in(self.seat, None)
        return self.seat not in runtime.stand_ins()

    async def _move(self, runtime: MatchRuntime) -> bool:
        """Choose and submit one action; False when it was refused (the bot tries again)."""
        async with runtime.lock:  # a committed position, never one being saved
            if self.seat not in runtime.to_act():  # an action came (or the end) while it queued:
                self._wake.set()  # look again (it leaves an ended match; the position it would
                return True  # have read had nothing to play: NoLegalAction, a traceback)
            version = runtime.version
            snapshot = runtime.game.dump_state(runtime.state)
        game = runtime.game
        looping = self.streak >= STREAK_LIMIT and not game.real_time
        level = "random" if looping else self.level
        if looping and self.level != "random":
            log.warning("match %s: the bot (%s) of seat %s made %s moves in a row that changed "
                        "nothing; this one is played at random", self.match_id, self.level,
                        self.seat, self.streak)
            BOT_FALLBACKS.labels(game=game.name, reason="loop").inc()
        action = await self.host.thinker.choose(game.name, snapshot, self.seat, level,
                                                after_idle=self.after_idle and not looping)
        caring = knowledge_of(game.name).essence is not None
        idle = caring and is_idle(game, game.load_state(snapshot), self.seat, action)
        if runtime.game.real_time and self.host.pace > 0:
            await asyncio.sleep(max(0.0, self._last_move + self.host.pace - time.monotonic()))
        # the level that chose the move, findable in the saved log (service/bots/marks.py)
        client_id = bot_client_id(canonical_level(level), version, next(self._moves))
        if not runtime.owned:  # taken over while it thought: the new owner's bot plays
            self._wake.set()
            return True
        try:
            await runtime.act(self.player_id, action, client_id, version)
        except ServiceError as exc:
            if runtime.over:  # not a fault: the match ended while the bot was thinking
                log.info("match %s ended while the bot of seat %s was thinking", self.match_id,
                         self.seat)
            else:
                log.debug("match %s: bot move refused (%s)", self.match_id, exc.code)
            return False
        self._last_move = time.monotonic()
        self.after_idle = idle
        # where the game says what players care about, a move that changes some of it is
        # progress, even with nobody else to move (a solo game)
        progress = caring and not idle
        self.streak = 0 if progress else self.streak + 1
        return True
