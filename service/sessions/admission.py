"""Who may open a match now (README, "Who may create, and what the browser is told").

Creation is bounded by who asks, not only by how fast (sessions/limits.py):

- a match that will wait for players may be opened only while its asker sits in fewer than
  ``waiting_per_player`` waiting matches (counted in the store), and while the matches opened
  from the asker's address that still wait number fewer than ``waiting_per_address``;
- a match of bots only (no person seated) may be opened by an operator or a player who does
  not sit in it, while the process runs fewer than ``bot_matches`` of them and (a player) the
  player has fewer than ``bot_matches_per_player`` running.

Refusals are SessionErrors ``session/too_many_waiting``, ``session/too_many_bot_matches`` and
``session/bots_busy``, raised before anything is saved. What an address or a player opened is
remembered in memory (a restart forgets it; the store still counts a player's seats, and the
process counts its running matches of bots from the live ones).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from service.errors import SessionError
from service.sessions.limits import current_address
from service.store import PlayerRecord, Store

if TYPE_CHECKING:
    from service.sessions.match import MatchRuntime


@dataclass(frozen=True)
class OpenLimits:
    """The bounds of the module docs (Settings.max_waiting_per_player and the like)."""

    waiting_per_player: int = 3
    waiting_per_address: int = 10
    bot_matches_per_player: int = 2
    bot_matches: int = 4
    #: addresses and players remembered at most (the least recently seen are forgotten)
    remembered: int = 10_000


def bots_only(runtime: MatchRuntime) -> bool:
    return bool(runtime.seats) and all(s.bot is not None for s in runtime.seats)


class Admission:
    def __init__(self, store: Store, loaded: Callable[[int], MatchRuntime | None],
                 live: Callable[[], list[MatchRuntime]], limits: OpenLimits | None = None) -> None:
        self.store = store
        self.limits = limits or OpenLimits()
        self._loaded = loaded
        self._live = live
        #: address -> ids of the matches opened from it that may still wait
        self._by_address: dict[str, list[int]] = {}
        #: player id -> ids of the matches of bots only it opened that may still run
        self._bots_of: dict[int, list[int]] = {}

    async def check(self, game: Any, seats: int | None, asker: PlayerRecord | None, *,
                    sitting: bool, bots: int, operator: bool = False) -> list[int]:
        """Refuse a match ``asker`` may not open now (module docs). ``bots``: the seats bots
        will take. Returns the asker's running matches of bots only when it opens one (give
        them back to ``opened_bot_match``)."""
        count = seats or game.min_seats
        if not sitting and bots >= count:
            return await self._check_bot_matches(asker, operator)
        if asker is not None and not sitting:
            raise SessionError(f"a player who takes no seat opens a match of bots only: give "
                               f"{count} bot levels", code="session/too_few_bots")
        if not operator and sitting + bots < count:
            await self._check_waiting(asker)
        return []

    def created(self, match_id: int) -> None:
        """A match was just opened on behalf of the current client (if any)."""
        address = current_address()
        if address is not None:
            created = [*self._by_address.get(address, ()), match_id]
            self._remember(self._by_address, address, created)

    def opened_bot_match(self, runtime: MatchRuntime, asker: PlayerRecord | None,
                         held: list[int]) -> None:
        if asker is not None and bots_only(runtime):
            self._remember(self._bots_of, asker.id, [*held, runtime.id])

    async def _check_waiting(self, asker: PlayerRecord | None) -> None:
        limits = self.limits
        if asker is not None:
            held = await self.store.count_matches_of_player(asker.id, statuses=("waiting",))
            if held >= limits.waiting_per_player:
                raise SessionError(
                    f"you already wait in {held} matches (at most "
                    f"{limits.waiting_per_player}): play or leave one first",
                    code="session/too_many_waiting")
        address = current_address()
        if address is not None:
            waiting = await self._in_status(self._by_address.get(address, []), "waiting")
            self._remember(self._by_address, address, waiting)
            if len(waiting) >= limits.waiting_per_address:
                raise SessionError(
                    f"{len(waiting)} matches opened from this address wait for players (at "
                    f"most {limits.waiting_per_address}): join one",
                    code="session/too_many_waiting")

    async def _check_bot_matches(self, asker: PlayerRecord | None, operator: bool) -> list[int]:
        limits = self.limits
        running = [r for r in self._live() if r.status == "active" and bots_only(r)]
        if len(running) >= limits.bot_matches:
            raise SessionError(f"{len(running)} matches of bots only run on this server (at "
                               f"most {limits.bot_matches}): try again later",
                               code="session/bots_busy")
        if asker is None or operator:
            return []
        mine = await self._in_status(self._bots_of.get(asker.id, []), "active")
        self._remember(self._bots_of, asker.id, mine)
        if len(mine) >= limits.bot_matches_per_player:
            raise SessionError(f"{len(mine)} matches of bots you opened are running (at most "
                               f"{limits.bot_matches_per_player}): wait for one to end",
                               code="session/too_many_bot_matches")
        return mine

    async def _in_status(self, match_ids: list[int], status: str) -> list[int]:
        """Those of ``match_ids`` whose status is ``status`` now."""
        loaded = {match_id: runtime.status for match_id in match_ids
                  if (runtime := self._loaded(match_id)) is not None}
        saved = await self.store.statuses_of([m for m in match_ids if m not in loaded])
        return [m for m in match_ids if loaded.get(m, saved.get(m)) == status]

    def _remember(self, table: dict[Any, list[int]], key: Any, ids: list[int]) -> None:
        table.pop(key, None)
        if not ids:
            return
        while len(table) >= self.limits.remembered:
            del table[next(iter(table))]
        table[key] = ids  # most recent last
