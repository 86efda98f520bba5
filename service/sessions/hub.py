"""The hub: identity, the lobby, and the live match runtimes (loaded lazily from the store)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from service.errors import Banned, NicknameTaken, SessionError, StoreError
from service.games.registry import get_game
from service.sessions import budget, logcontext
from service.sessions.budget import FrameBudgets, detached
from service.sessions.clocks import Clock as MatchClock, parse_control
from service.store.models import utcnow
from service.sessions.accounts import Accounts, check_not_banned, device_label
from service.sessions.identity import guest_nickname, hash_token, new_token
from service.sessions.lifecycle import Clock, Lifecycle
from service.sessions.admission import Admission, OpenLimits
from service.sessions.limits import CreationLimiter
from service.sessions.lobby_feed import LobbyFeed
from service.sessions.match import CLIENT_ID_MEMORY, MatchRuntime
from service.sessions.rating_intake import RatingIntake
from service.sessions.replica import MatchLink, Replication
from service.store import (
    FIRST_DEVICE,
    ActionRecord,
    MatchRecord,
    PlayerRecord,
    Store,
    nickname_key,
    normalise_nickname,
)

if TYPE_CHECKING:
    from service.cluster.node import ClusterNode

log = logging.getLogger(__name__)

T = TypeVar("T")

#: a reconnecting client more than this many actions behind gets a full state only
CATCH_UP_LIMIT = 200
#: seconds between attempts to reload a broken match while the store is away
RECOVERY_FIRST_DELAY = 0.2
RECOVERY_MAX_DELAY = 5.0
#: seconds a waiting match nobody follows stays in memory (it stays in the store)
WAITING_GRACE = 60.0


def nickname_taken(nickname: str) -> NicknameTaken:
    return NicknameTaken(f"the nickname {nickname!r} is taken")


def _check_reachable_by_nickname(player: PlayerRecord, nickname: str) -> None:
    """A player who holds a token, or a computer player, is never reached by nickname alone."""
    if player.bot_level is not None:
        raise NicknameTaken(f"the nickname {nickname!r} belongs to a computer player")
    check_not_banned(player)
    if player.has_token:
        raise nickname_taken(nickname)


@dataclass(frozen=True)
class Identity:
    player: PlayerRecord
    #: the secret token, only when it was issued just now (it is never stored in clear)
    new_token: str | None = None
    #: the player was created just now (so it has no matches yet)
    created: bool = False
    #: the hash of the token this connection holds (its device); None: a nickname alone
    token_hash: str | None = None

    @classmethod
    def issued(cls, player: PlayerRecord, token: str, *, created: bool = False) -> Identity:
        return cls(player, token, created, hash_token(token))


class Bans:
    """The ids of banned players, as this node knows them: changed at once by a ban here,
    read again from the store at every lifecycle sweep (bans made on another node)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.ids: set[int] = set()

    async def refresh(self) -> None:
        self.ids = await self.store.banned_player_ids()

    def check(self, player_id: int) -> None:
        if player_id in self.ids:
            raise Banned("this player is banned")


class Hub:
    def __init__(self, store: Store, *, limits: CreationLimiter | None = None,
                 waiting_grace: float = WAITING_GRACE, clock: Clock | None = None,
                 waiting_abort_after: float | None = None,
                 open_limits: OpenLimits | None = None) -> None:
        self.store = store
        self.limits = limits or CreationLimiter()
        #: what each connection may cost in frames (sessions/budget.py; the app sets the limits)
        self.frame_budgets = FrameBudgets()
        #: open matches held per player, per address and per process (README, "Who may
        #: create, and what the browser is told")
        self.admission = Admission(store, self.loaded, self.live, open_limits)
        self.waiting_grace = waiting_grace
        self._runtimes: dict[int, MatchRuntime] = {}
        self._loading: dict[int, asyncio.Future[MatchRuntime]] = {}
        #: the live list of open matches; every lobby change runs under its lock
        self.lobby_feed = LobbyFeed(store)
        self._lobby = self.lobby_feed.lock()
        self._recovering: dict[int, asyncio.Task[None]] = {}
        self._dialect_state: dict[str, Any] = {}
        #: the wall clock the match clocks read (tests set their own)
        self.now: Callable[[], datetime] = utcnow
        #: flags being dealt with (Lifecycle.time_out)
        self._flags: set[asyncio.Task[None]] = set()
        #: bot levels this hub may seat (set by whoever drives the bots; none: no bot seats)
        self.bot_levels: frozenset[str] = frozenset()
        #: multiplies the seed dialects' heartbeat limits (Settings.heartbeat_scale)
        self.heartbeat_scale = 1.0
        #: called with every runtime the hub loads, and again when bots sit in one
        #: (the bots take their seats from here)
        self.on_load: list[Callable[[MatchRuntime], None]] = []
        #: idle aborts, away seats, resignations and operators' aborts (sessions/lifecycle.py)
        self.lifecycle = Lifecycle(self, waiting_abort_after=waiting_abort_after,
                                   **({"clock": clock} if clock else {}))
        #: finished matches into the ratings (sessions/rating_intake.py)
        self.ratings = RatingIntake(store)
        #: passwords, recovery codes, devices and what operators do to players
        self.accounts = Accounts(store)
        #: banned players, refused when they create, join or act (sessions/accounts.py)
        self.bans = Bans(store)
        #: this node in its cluster (None until the app joins one; a node alone has one too)
        self.cluster: ClusterNode | None = None
        #: matches over several nodes (sessions/replica.py); None on a node alone
        self.replication: Replication | None = None

    def join_cluster(self, cluster: ClusterNode) -> None:
        """Run as ``cluster``'s node: with other nodes, every match is owned by one of them
        and followed by the others (sessions/replica.py)."""
        self.cluster = cluster
        if cluster.clustered:
            self.replication = Replication(self, cluster)
            self.replication.start()

    # --- identity ---------------------------------------------------------------------

    async def identify(self, *, nickname: str | None = None, token: str | None = None,
                       claim: bool = False, password: str | None = None,
                       recovery_code: str | None = None, device: str | None = None) -> Identity:
        """A token reclaims its player; a nickname with its password (or its recovery code,
        with ``password`` as the new one) signs in as a new device; a free nickname (or none:
        a guest) gets a new token.

        A nickname first seen on a dialect without tokens is reached by that nickname alone,
        as there; with ``claim`` it gets its first token and from then on only a secret
        reaches it (README, "Hardening"; docs/protocol.md)."""
        if recovery_code is not None or password is not None:
            if nickname is None:
                raise SessionError("name the nickname to sign in", code="protocol/bad_request")
            identity = await (self.accounts.recover(nickname, recovery_code, password, device)
                              if recovery_code is not None
                              else self.accounts.sign_in(nickname, password or "", device))
            budget.identified()
            return identity
        if token is not None:
            return await self._by_token(token, nickname)
        if nickname is None:
            return await self._new_player(None, device)
        nickname = normalise_nickname(nickname)
        existing = await self.store.player_by_nickname(nickname)
        if existing is None:
            return await self._new_player(nickname, device)
        _check_reachable_by_nickname(existing, nickname)
        budget.identified()
        if not claim:
            return Identity(existing)
        token = new_token()
        if not await self.store.claim_player(existing.id, hash_token(token)):
            raise nickname_taken(nickname)  # claimed by someone else a moment ago
        return Identity.issued(replace(existing, has_token=True), token)

    async def _by_token(self, token: str, nickname: str | None) -> Identity:
        token_hash = hash_token(token)
        reached = await self.store.reach(token_hash)
        if reached is None:
            raise SessionError("unknown token", code="session/bad_token")
        player, device = reached
        claimed = None if nickname is None else nickname_key(normalise_nickname(nickname))
        if claimed is not None and claimed != nickname_key(player.nickname):
            raise SessionError("the token belongs to another nickname", code="session/bad_token")
        check_not_banned(player)
        await self.store.touch_device(device.id)
        budget.identified()
        return Identity(player, token_hash=token_hash)

    async def _new_player(self, nickname: str | None, device: str | None) -> Identity:
        self.limits.charge("player")
        token = new_token()
        player = await self.store.create_player(nickname or guest_nickname(), hash_token(token),
                                                label=device_label(device, FIRST_DEVICE))
        budget.identified()
        return Identity.issued(player, token, created=True)

    async def player_by_nickname(self, nickname: str, *, create: bool = False) -> PlayerRecord:
        """Dialects whose seed protocol has no token identify a player by nickname alone.

        The nickname is normalised (``session/bad_nickname`` when refused). A player who holds
        a token is never reached this way: ``session/nickname_taken`` (class NicknameTaken),
        which each such dialect answers in its own words ("nickname taken"); nor is a banned
        one (``session/banned``, a NicknameTaken too)."""
        nickname = normalise_nickname(nickname)
        player = await self.store.player_by_nickname(nickname)
        if player is None and create:
            self.limits.charge("player")
            player = await self.store.get_or_create_player(nickname)
        if player is None:
            raise SessionError(f"no player {nickname!r}", code="session/unknown_player")
        _check_reachable_by_nickname(player, nickname)
        budget.identified()
        return player

    async def ban(self, player: PlayerRecord, reason: str, *, operator: str) -> None:
        """Ban the player (logged with ``operator``): refused from now on when they say hello,
        create, join or act; their matches go on without them (Lifecycle.banished) and their
        connections to this node close (other nodes refuse them from their next sweep)."""
        await self.accounts.set_ban(player, reason, operator)
        self.bans.ids.add(player.id)
        self.dismiss(player.id)
        await self.lifecycle.banished(player.id)

    async def unban(self, player: PlayerRecord, *, operator: str) -> None:
        await self.accounts.set_ban(player, None, operator)
        self.bans.ids.discard(player.id)

    async def reset_player(self, player: PlayerRecord, *, operator: str) -> str:
        """No password and no device any more (the connections here close): the returned
        recovery code is what reaches the player now."""
        code = await self.accounts.reset(player, operator)
        self.dismiss(player.id)
        return code

    async def rename(self, player: PlayerRecord, nickname: str, *, operator: str) -> str:
        """The player's new nickname, told to the matches in memory here (others read it
        when they load)."""
        nickname = await self.accounts.rename(player, nickname, operator)
        for runtime in self.live():
            runtime.seats = [replace(s, nickname=nickname) if s.player_id == player.id else s
                             for s in runtime.seats]
        return nickname

    def dismiss(self, player_id: int) -> None:
        """Close this node's connections attached to the player's seats (a ban)."""
        for runtime in self.live():
            seats = {s.seat for s in runtime.seats if s.player_id == player_id}
            for listener, seat in runtime.listeners():
                if seat in seats:
                    close = getattr(listener, "dismiss", None)
                    if close is not None:
                        close()

    # --- runtimes ---------------------------------------------------------------------

    async def get(self, match_id: int) -> MatchRuntime:
        """The live runtime of a match, loading it from the store on first touch."""
        runtime = self._runtimes.get(match_id)
        if runtime is not None and not runtime.broken:
            return runtime
        pending = self._loading.get(match_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[MatchRuntime] = asyncio.get_running_loop().create_future()
        self._loading[match_id] = future
        try:
            runtime = await self._load(match_id, runtime)
            future.set_result(runtime)
            return runtime
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved: waiters get it through shield
            raise
        finally:
            del self._loading[match_id]

    async def _read(self, match_id: int, stale: MatchRuntime | None) -> MatchRuntime:
        record = await self.store.get_match(match_id)
        if record is None:
            raise SessionError(f"no match {match_id}", code="session/no_such_match")
        client_ids = await self.store.recent_client_ids(match_id, limit=CLIENT_ID_MEMORY)
        if stale is not None:  # broken by a failed commit: it becomes the saved match again
            async with stale.lock:
                stale.reload(record, client_ids)
            log.info("match %s reloaded (version %s)", match_id, record.version,
                     extra=logcontext.about(match_id))
            return stale
        return self._install(record, client_ids)

    async def _load(self, match_id: int, stale: MatchRuntime | None) -> MatchRuntime:
        if self.replication is None or stale is not None:
            return await self._read(match_id, stale)
        record, link = await self.replication.load(match_id)
        owned = link.owner == link.cluster.node_id
        try:
            client_ids = (await self.store.recent_client_ids(match_id, limit=CLIENT_ID_MEMORY)
                          if owned else [])
        except BaseException:
            await link.close()
            raise
        runtime = self._install(record, client_ids, link=link, owned=owned)
        await self.replication.started(runtime, link, owned)
        return runtime

    async def _install_new(self, record: MatchRecord) -> MatchRuntime:
        """The runtime of a match this node just created (and so owns)."""
        if self.replication is None:
            return self._install(record, [])
        link = await self.replication.new(record.id)
        runtime = self._install(record, [], link=link, owned=True)
        await self.replication.started(runtime, link, True)
        return runtime

    def _install(self, record: MatchRecord, client_ids: list[ActionRecord], *,
                 link: MatchLink | None = None, owned: bool = True) -> MatchRuntime:
        """The runtime of a match just read (or just created: nothing to read back)."""
        runtime = MatchRuntime(record, self.store)
        runtime.restore_client_ids(client_ids)
        runtime.on_broken = self._recover_later
        runtime.on_ended = self.ratings.match_ended
        runtime.bans = self.bans.check
        runtime.owned = owned
        runtime.timing.now = lambda: self.now()
        runtime.timing.on_flag = lambda: self._flag_fell(runtime.id)
        runtime.timing.arm(owned=owned)
        if link is not None:
            link.start(runtime)
        self._forget_idle()
        self._runtimes[record.id] = runtime
        log.info("match %s loaded (%s, version %s%s)", record.id, record.game, record.version,
                 "" if owned else ", followed", extra=logcontext.about(record.id))
        self.announce(runtime)
        return runtime

    def _flag_fell(self, match_id: int) -> None:
        """A running clock of the match may be out: the lifecycle decides (its own task)."""
        task = asyncio.create_task(self.lifecycle.time_out(match_id), name=f"flag {match_id}")
        self._flags.add(task)
        task.add_done_callback(self._flag_done)

    def _flag_done(self, task: asyncio.Task[None]) -> None:
        self._flags.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a clock's flag could not be dealt with: %r (the sweep tries again)",
                        task.exception())

    def announce(self, runtime: MatchRuntime) -> None:
        """Call the ``on_load`` hooks with ``runtime``: it was loaded, or computer players
        (bot seats, stand-ins) were given seats in it. Only where the match is owned: its
        bots play where it runs."""
        if not runtime.owned:
            return
        for hook in self.on_load:
            hook(runtime)

    def _recover_later(self, runtime: MatchRuntime) -> None:
        """Reload a broken runtime as soon as the store answers again, without waiting for a
        client to touch it: its listeners learn what was saved."""
        if runtime.id not in self._recovering:
            task = detached(self._recover(runtime.id), name=f"recover match {runtime.id}")
            self._recovering[runtime.id] = task
            task.add_done_callback(lambda _: self._recovering.pop(runtime.id, None))

    async def _recover(self, match_id: int) -> None:
        delay = RECOVERY_FIRST_DELAY
        while True:
            try:
                await self.get(match_id)
                return
            except StoreError:
                await asyncio.sleep(delay)  # the store is still away: try again later
                delay = min(delay * 2, RECOVERY_MAX_DELAY)
            except SessionError:
                return

    def recovery(self, match_id: int) -> asyncio.Task[None] | None:
        """The reload under way for a broken match, if any (tests and shutdown wait on it)."""
        return self._recovering.get(match_id)

    async def close(self) -> None:
        for task in list(self._recovering.values()):
            task.cancel()
        await asyncio.gather(*self._recovering.values(), return_exceptions=True)
        await self.ratings.close()
        if self.replication is not None:
            await self.replication.close()

    def _forget_idle(self, *, active: bool = False) -> int:
        """Drop finished matches nobody follows, and waiting ones (with ``active``, active
        ones too) nobody has followed for ``waiting_grace`` seconds: memory stays bounded by
        what is in play. (They load again from the store if anyone touches them.) Returns how
        many were dropped."""
        graced = ("waiting", "active") if active else ("waiting",)
        idle = [match_id for match_id, runtime in self._runtimes.items()
                if not runtime.lock.locked() and not self._needed(runtime) and (
                    runtime.status in ("finished", "aborted")
                    or runtime.status in graced and runtime.unfollowed_for() >= self.waiting_grace)]
        for match_id in idle:
            runtime = self._runtimes.pop(match_id)
            if self.replication is not None:
                self.replication.dropped(runtime)
        return len(idle)

    @staticmethod
    def _needed(runtime: MatchRuntime) -> bool:
        """An owner is needed while anyone on any node follows; a copy while anyone here does."""
        return runtime.followed() if runtime.owned else bool(runtime.listeners())

    def evict_idle(self) -> int:
        """For every lifecycle sweep: idle matches leave memory on time even when nothing new
        loads after a flood, and so do active matches all of whose players left (a bot or a
        stand-in follows its match, so those stay). Not while a lobby change is under way (a
        join may hold a waiting runtime between two awaits): the next sweep does it."""
        return 0 if self._lobby.locked() else self._forget_idle(active=True)

    def forget(self, match_id: int) -> None:
        """Drop a match from memory (it was deleted from the store)."""
        runtime = self._runtimes.pop(match_id, None)
        if runtime is not None and self.replication is not None:
            self.replication.dropped(runtime)

    def loaded(self, match_id: int) -> MatchRuntime | None:
        """The runtime of a match if it is in memory now (nothing is loaded)."""
        return self._runtimes.get(match_id)

    def live(self) -> list[MatchRuntime]:
        return list(self._runtimes.values())

    def dialect_state(self, dialect: str, make: Callable[[], T]) -> T:
        """What a dialect keeps in memory for the life of this hub (its lobbies, the names
        connected now), made on first use. Not saved: anything that must survive a restart
        belongs in the store."""
        if dialect not in self._dialect_state:
            self._dialect_state[dialect] = make()
        return self._dialect_state[dialect]  # type: ignore[no-any-return]

    # --- the lobby ----------------------------------------------------------------------

    async def create(self, game_name: str, options: dict[str, Any] | None = None, *,
                     seats: int | None = None, player: PlayerRecord | None = None,
                     seat: int | None = None, dialect: str | None = None,
                     bots: Sequence[str] = (), owner: PlayerRecord | None = None,
                     operator: bool = False,
                     clock: dict[str, Any] | None = None) -> tuple[MatchRuntime, int | None]:
        """A new match; with ``bots`` (one level per seat), computer players take the seats
        the creator leaves free, in order. ``owner`` asks for a match of bots only without
        sitting in it; ``operator`` (the admin API) is bound by the process's limits only."""
        asker = player or owner
        if asker is not None:
            self.bans.check(asker.id)
        async with self._lobby:
            self._check_bots(game_name, seats, bots, len(bots) + (player is not None))
            held = await self.admission.check(get_game(game_name), seats, asker,
                                              sitting=player is not None, bots=len(bots),
                                              operator=operator)
            record = await self._new_match(game_name, options, seats, dialect, clock=clock)
            runtime = await self._install_new(record)
            taken = None if player is None else await self._sit(runtime, player, seat)
            await self._sit_bots(runtime, bots)
            self.admission.opened_bot_match(runtime, asker, held)
            return runtime, taken

    async def create_private(self, game_name: str, options: dict[str, Any] | None = None, *,
                             seats: int | None = None, player: PlayerRecord,
                             seat: int | None = None, dialect: str | None = None,
                             bots: Sequence[str] = (),
                             clock: dict[str, Any] | None = None) -> tuple[MatchRuntime, int, str]:
        """A match only its invitation code opens (returned once; only its hash is kept).
        Nobody finds it by quick join, and joining or watching it by id needs the code."""
        self.bans.check(player.id)
        invite = new_token()
        async with self._lobby:
            self._check_bots(game_name, seats, bots, len(bots) + 1)
            await self.admission.check(get_game(game_name), seats, player, sitting=True,
                                       bots=len(bots))
            record = await self._new_match(game_name, options, seats, dialect,
                                           invite_hash=hash_token(invite), clock=clock)
            runtime = await self._install_new(record)
            taken = await self._sit(runtime, player, seat)
            await self._sit_bots(runtime, bots)
            return runtime, taken, invite

    async def join(self, match_id: int, player: PlayerRecord, seat: int | None = None, *,
                   invite: str | None = None) -> tuple[MatchRuntime, int]:
        self.bans.check(player.id)
        runtime = await self.get(match_id)
        if (owner := runtime.to_owner) is not None:  # its owner seats the player
            runtime.check_invited(player.id, invite)
            return runtime, await owner.call(runtime, "join", player_id=player.id, seat=seat,
                                             invite=invite)
        async with self._lobby:
            runtime = await self.get(match_id)
            runtime.check_invited(player.id, invite)
            return runtime, await self._sit(runtime, player, seat)

    async def quick_join(self, game_name: str, player: PlayerRecord,
                         options: dict[str, Any] | None = None, *, seats: int | None = None,
                         dialect: str | None = None, bots: str | None = None,
                         clock: dict[str, Any] | None = None) -> tuple[MatchRuntime, int]:
        """Sit in the oldest waiting match of this game and options, or open a new one.
        With ``bots`` (a level), computer players of that level take every seat still free."""
        self.bans.check(player.id)
        self._check_bots(game_name, seats, [bots] if bots else [], 1)
        elsewhere: list[MatchRuntime] = []
        if not bots and self.replication is not None:  # another node's waiting match:
            # its owner seats the player
            runtime, elsewhere = await self._find_waiting(game_name, options, seats, player,
                                                          clock=clock)
            if runtime is not None and not runtime.owned:
                return runtime, runtime.seat_of(player.id)  # type: ignore[return-value]
        for runtime in elsewhere:
            if (owner := runtime.to_owner) is None:
                continue
            try:
                return runtime, await owner.call(runtime, "join", player_id=player.id,
                                                 seat=None, invite=None)
            except SessionError as exc:
                if exc.code not in ("session/match_full", "session/seat_taken"):
                    raise
        async with self._lobby:
            runtime, _ = await self._find_waiting(game_name, options, seats, player, here=True,
                                                  clock=clock)
            if runtime is None:
                game = get_game(game_name)
                await self.admission.check(game, seats, player, sitting=True,
                                           bots=(seats or game.min_seats) - 1 if bots else 0)
                record = await self._new_match(game_name, options, seats, dialect, clock=clock)
                runtime = await self._install_new(record)
            seat = await self._sit(runtime, player, None)
            if bots:
                await self._sit_bots(runtime, [bots] * len(runtime.empty_seats()))
            return runtime, seat

    async def _new_match(self, game_name: str, options: dict[str, Any] | None,
                         seats: int | None, dialect: str | None, *,
                         players: list[int | None] | None = None,
                         rematch_of: int | None = None,
                         invite_hash: str | None = None,
                         clock: dict[str, Any] | None = None) -> MatchRecord:
        """Set up and save a new match from a fresh seed. With ``players`` (one per seat)
        every seat is taken and the match starts at once; otherwise it waits for them."""
        game = get_game(game_name)
        parsed = game.parse_options(options)
        count = len(players) if players is not None else seats or game.min_seats
        game.check_seats(count)
        if players is None:  # a rematch is not charged: it follows a match played to the end
            self.limits.charge("match")
        seed = secrets.randbits(52)
        control = parse_control(clock, real_time=game.real_time)
        state = game.setup(count, parsed, seed)
        timing = None if control is None else MatchClock.new(control, count)
        if timing is not None and players:  # it starts at once: the first to act start
            timing.turn(game.to_act(state), self.now())
        sitting = players or [None] * count
        seat_rows = [(s, sitting[s], game.team_of(state, s), game.seat_label(s))
                     for s in range(count)]
        record = await self.store.create_match(
            game=game.name, options=parsed.model_dump(mode="json"), seed=seed, seats=seat_rows,
            snapshot=game.dump_state(state), status="active" if players else "waiting",
            dialect=dialect, rematch_of=rematch_of, invite_hash=invite_hash,
            clock=None if timing is None else timing.to_dict(),
            clock_deadline=None if timing is None else timing.deadline())
        if players is None:
            self.admission.created(record.id)
        logcontext.match_event(logcontext.CREATED, record.id, game.name, f"created, {count} seats",
                               seats=count, dialect=dialect, rematch_of=rematch_of,
                               private=invite_hash is not None)
        if players is not None:
            logcontext.match_event(logcontext.STARTED, record.id, game.name, "started (rematch)",
                                   seats=count, rematch_of=rematch_of)
        return record

    async def _find_waiting(self, game_name: str, options: dict[str, Any] | None,
                            seats: int | None, player: PlayerRecord, *, here: bool = False,
                            clock: dict[str, Any] | None = None,
                            ) -> tuple[MatchRuntime | None, list[MatchRuntime]]:
        """The oldest fitting waiting match this node owns (or where the player sits
        already), and the fitting ones owned by other nodes (none with ``here``)."""
        game = get_game(game_name)
        wanted = game.parse_options(options).model_dump(mode="json")
        control = parse_control(clock, real_time=game.real_time)
        timed = None if control is None else control.model_dump()
        count = seats or game.min_seats
        records = await self.store.list_matches(game=game.name, status="waiting", limit=200)
        fitting = [r for r in sorted(records, key=lambda r: r.id)
                   if r.options == wanted and len(r.seats) == count and r.invite_hash is None
                   and (r.clock or {}).get("control") == timed]
        mine = [r for r in fitting if any(s.player_id == player.id for s in r.seats)]
        elsewhere = []
        for record in mine or fitting:  # asking twice keeps the seat already taken
            runtime = await self.get(record.id)
            if runtime.status == "waiting" and (mine or runtime.empty_seats()):
                if runtime.owned or mine:
                    return runtime, []
                if not here:
                    elsewhere.append(runtime)
        return None, elsewhere

    async def _sit(self, runtime: MatchRuntime, player: PlayerRecord, seat: int | None) -> int:
        already = runtime.seat_of(player.id)
        if already is not None:
            return already
        free = runtime.empty_seats()
        if not free or runtime.status != "waiting":
            raise SessionError("the match has no free seat", code="session/match_full")
        if seat is None:
            seat = free[0]
        elif seat not in free:
            raise SessionError(f"seat {seat} is not free", code="session/seat_taken")
        status = "active" if len(free) == 1 else "waiting"
        started = runtime.timing.after(runtime.game.to_act(runtime.state), False) \
            if status == "active" else None  # the clocks start with the match
        await self.store.sit(runtime.id, seat, player.id, status=status,
                             clock=None if started is None else started.to_dict(),
                             clock_deadline=None if started is None else started.deadline())
        if started is not None:
            runtime.timing.take(started, owned=runtime.owned)
        runtime.seat_player(seat, player.id, player.nickname, status, bot=player.bot_level)
        logcontext.match_event(logcontext.JOINED, runtime.id, runtime.game.name,
                               f"{player.nickname} joined seat {seat}", player=player.id,
                               nickname=player.nickname, seat=seat, bot_level=player.bot_level)
        if status == "active":
            logcontext.match_event(logcontext.STARTED, runtime.id, runtime.game.name, "started",
                                   seats=len(runtime.seats))
        return seat

    def _check_bots(self, game_name: str, seats: int | None, bots: Sequence[str],
                    sitting: int) -> None:
        """Refuse, before anything is saved, bot seats of an unknown level or too many of them."""
        unknown = sorted(set(bots) - self.bot_levels)
        if unknown:
            known = ", ".join(sorted(self.bot_levels)) or "none on this server"
            raise SessionError(f"no bot level {unknown[0]!r} (levels: {known})",
                               code="session/bad_bot_level")
        count = seats or get_game(game_name).min_seats
        if bots and sitting > count:
            raise SessionError(f"{len(bots)} bots and you do not fit in {count} seats",
                               code="session/too_many_bots")

    async def _sit_bots(self, runtime: MatchRuntime, levels: Sequence[str]) -> None:
        """A new computer player of each level takes the next free seat."""
        for level in levels:
            bot = await self.store.create_player(f"{level}-bot-{secrets.token_hex(4)}", None,
                                                 bot_level=level)
            await self._sit(runtime, bot, None)
        if levels:
            self.announce(runtime)

    async def give_up_seat(self, runtime: MatchRuntime, player_id: int) -> bool:
        """Free the player's seat in a match that has not started (a lobby they left).
        False when the match has started: then the seat stays theirs to come back to."""
        if (owner := runtime.to_owner) is not None:
            return bool(await owner.call(runtime, "give_up_seat", player_id=player_id))
        async with self._lobby:
            seat = runtime.seat_of(player_id)
            if seat is None or runtime.status != "waiting":
                return False
            if not await self.store.unsit(runtime.id, seat, player_id):
                return False
            runtime.unseat(seat)
            logcontext.match_event(logcontext.LEFT, runtime.id, runtime.game.name,
                                   f"player {player_id} gave up seat {seat}",
                                   player=player_id, seat=seat)
            return True

    async def unfinished_of(self, player: PlayerRecord, game: str | None = None) -> list[MatchRecord]:
        return await self.store.matches_of_player(player.id, game=game)

    async def seats_to_resume(self, player: PlayerRecord, game: str,
                              dialect: str) -> list[tuple[MatchRuntime, int]]:
        """The player's seats in unfinished matches of ``game`` opened by ``dialect``, newest
        first (what a dialect that knows players by nickname takes back on login)."""
        out = []
        for record in await self.unfinished_of(player, game=game):
            if record.dialect == dialect:
                runtime = await self.get(record.id)
                seat = runtime.seat_of(player.id)
                if seat is not None and not runtime.over:
                    out.append((runtime, seat))
        return sorted(out, key=lambda pair: -pair[0].id)

    # --- catch-up and rematch -------------------------------------------------------

    async def missed(self, runtime: MatchRuntime, since: int) -> list[ActionRecord] | None:
        """The actions after ``since``: none when up to date, None when ``since`` is not a
        version this client can have seen or the gap is too large (send a full state)."""
        if since == runtime.version:
            return []
        if since > runtime.version or runtime.version - since > CATCH_UP_LIMIT:
            return None
        return await self.store.actions(runtime.id, after=since)

    async def rematch(self, match_id: int, player: PlayerRecord) -> MatchRuntime:
        """Agree to a rematch; when every seat has agreed the new match starts (idempotent)."""
        self.bans.check(player.id)
        runtime = await self.get(match_id)
        if (owner := runtime.to_owner) is not None:  # the owner checks and counts the vote
            await owner.call(runtime, "rematch", player_id=player.id)
            return runtime
        async with self._lobby:
            runtime = await self.get(match_id)
            seat = runtime.seat_of(player.id)
            if seat is None:
                raise SessionError("only the players of a match may ask for its rematch",
                                   code="session/not_seated")
            if runtime.status != "finished":
                raise SessionError("a rematch follows a finished match", code="session/not_finished")
            if runtime.rematch_id is None:
                await self._vote_rematch(runtime, seat)
                if len(runtime.rematch_votes) == len(runtime.seats):
                    await self._start_rematch(runtime)
            return runtime

    async def _vote_rematch(self, runtime: MatchRuntime, seat: int) -> None:
        """Save the seat's vote (computer players always agree) before anyone hears of it:
        the votes survive a restart."""
        votes = runtime.rematch_votes | {seat} | {bot.seat for bot in runtime.bot_seats()}
        if votes != runtime.rematch_votes:
            await self.store.set_rematch_votes(runtime.id, sorted(votes))
            runtime.votes_saved(votes)

    async def _start_rematch(self, old: MatchRuntime) -> None:
        record = await self._new_match(
            old.game.name, old.options.model_dump(mode="json"), None, old.dialect,
            players=[s.player_id for s in old.seats], rematch_of=old.id,
            invite_hash=old.invite_hash,  # a private match's rematch is private, same code
            clock=None if old.timing.clock is None else old.timing.clock.control.model_dump())
        await self.get(record.id)
        old.rematch_started(record.id)
