"""The live list of open matches: who is waiting for players, in every game.

Every change to the lobby (a match opened, a seat taken or given up, a rematch started) happens
under the hub's lobby lock. The lock handed out here tells the feed when it is released; the
feed then reads the waiting matches from the store once, however many changes came in the
meantime, and gives the list to every subscriber.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from service.errors import ServiceError
from service.games.registry import get_game
from service.store import MatchRecord, Store

log = logging.getLogger(__name__)

#: the open matches listed at most (the oldest first)
OPEN_LIMIT = 200

Subscriber = Callable[[list[dict[str, Any]]], None]


def lobby_entry(record: MatchRecord) -> dict[str, Any]:
    """One open match as the lobby shows it: game, options, who sits where (``bot``: the level
    of a computer player, None for a person), the free seats."""
    game = get_game(record.game)
    seats = [{"seat": s.seat, "label": game.seat_label(s.seat), "nickname": s.nickname,
              "bot": s.bot_level} for s in record.seats]
    return {"match_id": record.id, "game": record.game, "title": game.title,
            "status": record.status, "options": record.options, "seats": seats,
            "free": [s.seat for s in record.seats if s.player_id is None],
            "created_at": record.created_at.isoformat()}


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

    def lock(self) -> asyncio.Lock:
        """The lobby lock: releasing it means the open matches may have changed."""
        return _NotifyingLock(self.changed)

    async def open_matches(self) -> list[dict[str, Any]]:
        records = await self.store.list_matches(status="waiting", limit=OPEN_LIMIT)
        public = [r for r in records if r.invite_hash is None]  # private ones are by invitation
        return [lobby_entry(r) for r in sorted(public, key=lambda r: r.id)]

    def subscribe(self, key: object, subscriber: Subscriber) -> None:
        self._subscribers[key] = subscriber

    def unsubscribe(self, key: object) -> None:
        self._subscribers.pop(key, None)

    def changed(self) -> None:
        if not self._subscribers:
            return
        self._dirty = True
        if self._pushing is None or self._pushing.done():
            self._pushing = asyncio.get_running_loop().create_task(self._push(), name="lobby feed")

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
