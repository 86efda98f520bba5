"""The live list of open matches: who is waiting for players, in every game.

Every change to the lobby (a match opened, a seat taken or given up, a rematch started) happens
under the hub's lobby lock. The lock handed out here tells the feed when it is released; the
feed then reads the waiting matches from the store once, however many changes came in the
meantime, and gives the list to every subscriber.

Fairness (README, "Who may create, and what the browser is told"): the lobby is ordered so
that nobody drowns it. Open matches are grouped by creator (the person in the lowest occupied
seat; a match with no person seated is its own group); each creator's newest match comes
first, creators in the order of their newest match, then everyone's second newest, and so on
(round robin). A page (``page(offset, limit)``) cuts that order; ``total`` counts every public
open match considered.
The lobby considers the SCAN_LIMIT newest waiting matches (the per-player and per-address
limits of sessions/admission.py keep the honest count far below it).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Callable, Hashable
from typing import Any

from service.errors import ServiceError
from service.games.registry import get_game
from service.protocol.canonical import LOBBY_MAX_PAGE, LOBBY_PAGE
from service.sessions.clocks import TimeControl
from service.store import MatchRecord, Store
from service.sessions.budget import detached

log = logging.getLogger(__name__)

#: the newest waiting matches the lobby considers (documented in README)
SCAN_LIMIT = 1000
#: open matches on one page: by default (the canonical ``lobby`` and its pushes) and at most
PAGE, MAX_PAGE = LOBBY_PAGE, LOBBY_MAX_PAGE
#: seconds the fair order, once read, answers pages without reading the store again; any
#: change under the lobby lock drops it at once (others, such as an idle abort, show within this)
FRESH_FOR = 2.0

Subscriber = Callable[[list[dict[str, Any]]], None]


def lobby_entry(record: MatchRecord) -> dict[str, Any]:
    """One open match as the lobby shows it: game, options, its clock in words (None: no
    clock), who sits where (``bot``: the level of a computer player, None for a person), the
    free seats."""
    game = get_game(record.game)
    seats = [{"seat": s.seat, "label": game.seat_label(s.seat), "nickname": s.nickname,
              "player_id": s.player_id, "bot": s.bot_level} for s in record.seats]
    return {"match_id": record.id, "game": record.game, "title": game.title,
            "status": record.status, "options": record.options,
            "clock": clock_words(record.clock), "seats": seats,
            "free": [s.seat for s in record.seats if s.player_id is None],
            "created_at": record.created_at.isoformat()}


def clock_words(saved: dict[str, Any] | None) -> str | None:
    """A saved clock's time control in words (None: the match has no clock)."""
    return TimeControl.model_validate(saved["control"]).words() if saved else None


def creator_of(record: MatchRecord) -> Hashable:
    """Who a waiting match counts as opened by: the person in its lowest occupied seat."""
    person = next((s.player_id for s in record.seats
                   if s.player_id is not None and s.bot_level is None), None)
    return ("player", person) if person is not None else ("match", record.id)


def fair_order(records: list[MatchRecord]) -> list[MatchRecord]:
    """Round robin over creators, newest first (module docs)."""
    by_creator: dict[Hashable, list[MatchRecord]] = {}
    for record in sorted(records, key=lambda r: -r.id):
        by_creator.setdefault(creator_of(record), []).append(record)
    rounds = itertools.zip_longest(*by_creator.values())
    return [record for turn in rounds for record in turn if record is not None]


class _NotifyingLock(asyncio.Lock):
    def __init__(self, on_release: Callable[[], None]) -> None:
        super().__init__()
        self._on_release = on_release

    def release(self) -> None:
        super().release()
        self._on_release()


class LobbyFeed:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._subscribers: dict[object, Subscriber] = {}
        self._dirty = False
        self._pushing: asyncio.Task[None] | None = None
        #: the open matches in the fair order as last read (lobby entries, no snapshots), when
        #: they were read, and a count of the changes (a read that saw one is not kept)
        self._ordered: list[dict[str, Any]] | None = None
        self._ordered_at = 0.0
        self._changes = 0
        #: in a cluster, tells the other nodes' feeds that the open matches changed here
        self.tell_others: Callable[[], None] | None = None

    def lock(self) -> asyncio.Lock:
        """The lobby lock: releasing it means the open matches may have changed."""
        return _NotifyingLock(self.changed)

    async def open_matches(self) -> list[dict[str, Any]]:
        """The first page of open matches (what ``lobby`` answers and pushes)."""
        return (await self.page())["matches"]  # type: ignore[no-any-return]

    async def page(self, offset: int = 0, limit: int = PAGE) -> dict[str, Any]:
        """Open matches ``offset`` to ``offset + limit`` in the fair order, and the total."""
        ordered = await self._fair_entries()
        limit = min(limit, MAX_PAGE)
        return {"matches": ordered[offset:offset + limit], "total": len(ordered),
                "offset": offset, "limit": limit}

    async def _fair_entries(self) -> list[dict[str, Any]]:
        if self._ordered is not None and time.monotonic() - self._ordered_at <= FRESH_FOR:
            return self._ordered
        changes, read_at = self._changes, time.monotonic()
        records = await self.store.list_matches(status="waiting", limit=SCAN_LIMIT)
        public = [r for r in records if r.invite_hash is None]  # private ones are by invitation
        ordered = [lobby_entry(r) for r in fair_order(public)]
        if changes == self._changes:
            self._ordered, self._ordered_at = ordered, read_at
        return ordered

    def subscribe(self, key: object, subscriber: Subscriber) -> None:
        self._subscribers[key] = subscriber

    def unsubscribe(self, key: object) -> None:
        self._subscribers.pop(key, None)

    def changed(self) -> None:
        """The open matches may have changed on this node (its lobby lock was released)."""
        self.changed_elsewhere()
        if self.tell_others is not None:
            self.tell_others()

    def changed_elsewhere(self) -> None:
        """The open matches may have changed (here, or on another node of the cluster)."""
        self._ordered = None
        self._changes += 1
        if not self._subscribers:
            return
        self._dirty = True
        if self._pushing is None or self._pushing.done():
            self._pushing = detached(self._push(), name="lobby feed")

    async def _push(self) -> None:
        while self._dirty:
            self._dirty = False
            try:
                entries = await self.open_matches()
            except ServiceError as exc:
                log.warning("lobby feed: cannot read the open matches: %s", exc)
                return
            for subscriber in list(self._subscribers.values()):
                subscriber(entries)
