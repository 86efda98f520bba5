"""Ownership for a node that runs alone (SQLite, or PostgreSQL without a cluster bus): it owns
every match it asks for, and nothing can take one away. The same calls as
:class:`~service.cluster.ownership.Ownership`, so the match runtime has one path."""

from __future__ import annotations

import asyncio
from collections.abc import Collection

from service.cluster.ownership import (LostCallback, OwnershipLost, check_match_id,
                                       check_node_id)


class LocalOwnership:
    """Every match this process asks for is its own; ``lost`` never fires."""

    def __init__(self, node_id: str = "local") -> None:
        self.node_id = check_node_id(node_id)
        self.lost = asyncio.Event()
        self._owned: set[int] = set()
        self._closed = False

    def on_lost(self, callback: LostCallback) -> None:
        """Nothing to lose alone: the callback is never called."""

    def owned(self) -> frozenset[int]:
        return frozenset(self._owned)

    def owns(self, match_id: int) -> bool:
        return match_id in self._owned

    async def try_own(self, match_id: int) -> bool:
        self._check(match_id)
        self._owned.add(match_id)
        return True

    async def release(self, match_id: int) -> bool:
        self._check(match_id)
        if match_id not in self._owned:
            return False
        self._owned.discard(match_id)
        return True

    async def owners(self, among: Collection[int] | None = None) -> dict[int, str]:
        self._check(None)
        return {match_id: self.node_id for match_id in sorted(self._owned)
                if among is None or match_id in among}

    async def owner_of(self, match_id: int) -> str | None:
        self._check(match_id)
        return self.node_id if match_id in self._owned else None

    async def members(self) -> list[str]:
        self._check(None)
        return [self.node_id]

    def _check(self, match_id: int | None) -> None:
        if match_id is not None:
            check_match_id(match_id)
        if self._closed:
            raise OwnershipLost(f"node {self.node_id}'s ownership is closed")

    async def close(self) -> None:
        self._closed = True
        self._owned.clear()
