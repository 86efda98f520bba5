"""What operators do to the store: list and show players, delete a match (README, "Admin")."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from service.store.models import Action, Match, Player, Seat
from service.store.records import PlayerRecord, player_record


class AdminQueries:
    """Mixed into ``Store``: the operator's reads and deletes, each in one transaction."""

    _tx: Callable[[], AbstractAsyncContextManager[AsyncSession]]

    async def list_players(self, *, limit: int = 100, offset: int = 0,
                           bots: bool = False) -> list[PlayerRecord]:
        """Players, newest first; computer players only with ``bots``."""
        statement = select(Player).order_by(Player.id.desc()).limit(limit).offset(offset)
        if not bots:
            statement = statement.where(Player.bot_level.is_(None))
        async with self._tx() as session:
            return [player_record(p) for p in await session.scalars(statement)]

    async def player_by_id(self, player_id: int) -> PlayerRecord | None:
        async with self._tx() as session:
            player = await session.get(Player, player_id)
            return player_record(player) if player is not None else None

    async def delete_match(self, match_id: int) -> bool:
        """Delete a match with its seats and log; a rematch of it stays, unlinked.
        False when there was no such match."""
        async with self._tx() as session:
            await session.execute(update(Match).where(Match.rematch_of == match_id)
                                  .values(rematch_of=None))
            await session.execute(delete(Action).where(Action.match_id == match_id))
            await session.execute(delete(Seat).where(Seat.match_id == match_id))
            gone = await session.execute(delete(Match).where(Match.id == match_id))
            return bool(gone.rowcount)  # type: ignore[attr-defined]
