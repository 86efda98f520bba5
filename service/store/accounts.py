"""What the store keeps of accounts: devices (one token each), the password and recovery
code hashes, the cost of wrong ones, bans, renames and the operators' log (sessions/accounts.py
decides; this only reads and writes, each call in one transaction)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, TypeVar, cast

from sqlalchemy import CursorResult, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncSession

from service.errors import NicknameTaken, SessionError
from service.store.failures import StoreConflict
from service.store.models import Device, OperatorLog, Player, utcnow
from service.store.nicknames import nickname_key
from service.store.records import (Credentials, DeviceRecord, OperatorEntry, PlayerRecord,
                                   player_record)

T = TypeVar("T")


def _device(row: Device) -> DeviceRecord:
    return DeviceRecord(id=row.id, player_id=row.player_id, label=row.label,
                        created_at=row.created_at, last_used_at=row.last_used_at)


def _count(connection: Connection, statement: Any) -> int:
    return cast("CursorResult[Any]", connection.execute(statement)).rowcount


def _unknown(player_id: int) -> SessionError:
    return SessionError(f"no player {player_id}", code="session/unknown_player")


class AccountQueries:
    """Mixed into ``Store``."""

    _tx: Callable[[], AbstractAsyncContextManager[AsyncSession]]
    _write: Callable[[Callable[[Connection], Any]], Any]

    # -- devices ---------------------------------------------------------------------

    async def add_device(self, player_id: int, token_hash: str, label: str) -> DeviceRecord:
        """A new token for a player who holds one already (or is claimed by this one)."""
        now = utcnow()

        def add(connection: Connection) -> int:
            if _count(connection, update(Player).where(Player.id == player_id)
                      .values(last_seen_at=now)) != 1:
                raise _unknown(player_id)
            connection.execute(update(Player).where(Player.id == player_id,
                                                    Player.claimed_at.is_(None))
                               .values(claimed_at=now))
            return int(connection.execute(
                insert(Device.__table__).returning(Device.__table__.c.id),
                {"player_id": player_id, "token_hash": token_hash, "label": label[:100],
                 "created_at": now, "last_used_at": now}).scalar_one())

        device_id = await self._write(add)
        return DeviceRecord(device_id, player_id, label[:100], now, now)

    async def reach(self, token_hash: str) -> tuple[PlayerRecord, DeviceRecord] | None:
        """The player and the device that hold this token."""
        statement = select(Player, Device).join(Device, Device.player_id == Player.id).where(
            Device.token_hash == token_hash)
        async with self._tx() as session:
            row = (await session.execute(statement)).first()
            return None if row is None else (player_record(row[0]), _device(row[1]))

    async def touch_device(self, device_id: int) -> None:
        """The device (and its player) was used now."""
        now = utcnow()

        def touch(connection: Connection) -> None:
            player_id = connection.execute(
                update(Device).where(Device.id == device_id).values(last_used_at=now)
                .returning(Device.player_id)).scalar()
            if player_id is not None:
                connection.execute(update(Player).where(Player.id == player_id)
                                   .values(last_seen_at=now))

        await self._write(touch)

    async def banned_player_ids(self) -> set[int]:
        async with self._tx() as session:
            return set(await session.scalars(select(Player.id).where(
                Player.banned_at.is_not(None))))

    async def devices_of(self, player_id: int) -> list[DeviceRecord]:
        async with self._tx() as session:
            rows = await session.scalars(select(Device).where(Device.player_id == player_id)
                                         .order_by(Device.id))
            return [_device(row) for row in rows]

    async def revoke_device(self, player_id: int, device_id: int) -> bool:
        """Forget one of the player's tokens; False when the player has no such device."""
        statement = delete(Device).where(Device.id == device_id, Device.player_id == player_id)
        return bool(await self._write(lambda connection: _count(connection, statement)))

    # -- passwords and recovery codes ------------------------------------------------

    async def credentials(self, player_id: int) -> Credentials | None:
        async with self._tx() as session:
            row = await session.get(Player, player_id)
            if row is None:
                return None
            return Credentials(row.id, row.password_hash, row.recovery_hash,
                               row.login_failures, row.login_blocked_until)

    async def set_password_hash(self, player_id: int, password_hash: str | None) -> None:
        await self._update(player_id, password_hash=password_hash)

    async def set_recovery_hash(self, player_id: int, recovery_hash: str | None) -> None:
        await self._update(player_id, recovery_hash=recovery_hash)

    async def use_recovery_code(self, player_id: int, recovery_hash: str, token_hash: str,
                                label: str, password_hash: str | None) -> DeviceRecord | None:
        """Spend the recovery code stored as ``recovery_hash`` (once: a second use finds it
        gone) for a new device; with ``password_hash``, the new password too. None when the
        code was not the player's current one."""
        now = utcnow()
        values: dict[str, Any] = {"recovery_hash": None, "login_failures": 0,
                                  "login_blocked_until": None, "last_seen_at": now}
        if password_hash is not None:
            values["password_hash"] = password_hash
        spend = update(Player).where(Player.id == player_id,
                                     Player.recovery_hash == recovery_hash).values(**values)

        def use(connection: Connection) -> int | None:
            if _count(connection, spend) != 1:
                return None
            return int(connection.execute(
                insert(Device.__table__).returning(Device.__table__.c.id),
                {"player_id": player_id, "token_hash": token_hash, "label": label[:100],
                 "created_at": now, "last_used_at": now}).scalar_one())

        device_id = await self._write(use)
        if device_id is None:
            return None
        return DeviceRecord(device_id, player_id, label[:100], now, now)

    async def login_failed(self, player_id: int, blocked_until: datetime) -> None:
        await self._update(player_id, login_failures=Player.login_failures + 1,
                           login_blocked_until=blocked_until)

    async def login_succeeded(self, player_id: int) -> None:
        await self._update(player_id, login_failures=0, login_blocked_until=None)

    # -- what operators do -----------------------------------------------------------

    async def reset_credentials(self, player_id: int, recovery_hash: str) -> None:
        """No password and no device any more; only the new recovery code reaches the player."""
        def reset(connection: Connection) -> None:
            if _count(connection, update(Player).where(Player.id == player_id).values(
                    password_hash=None, recovery_hash=recovery_hash, login_failures=0,
                    login_blocked_until=None, claimed_at=utcnow())) != 1:
                raise _unknown(player_id)
            connection.execute(delete(Device).where(Device.player_id == player_id))

        await self._write(reset)

    async def rename_player(self, player_id: int, nickname: str) -> None:
        try:
            await self._update(player_id, nickname=nickname, nickname_key=nickname_key(nickname))
        except StoreConflict as exc:
            raise NicknameTaken(f"the nickname {nickname!r} is taken") from exc

    async def set_ban(self, player_id: int, reason: str | None) -> None:
        """Ban with ``reason``, or lift the ban (None)."""
        await self._update(player_id, banned_at=utcnow() if reason is not None else None,
                           ban_reason=reason)

    async def log_operator(self, operator: str, what: str, player_id: int | None,
                           detail: dict[str, Any] | None = None) -> None:
        row = {"operator": operator[:200], "what": what, "player_id": player_id,
               "detail": detail, "at": utcnow()}
        await self._write(lambda connection: connection.execute(
            insert(OperatorLog.__table__), row))

    async def operator_log(self, *, player_id: int | None = None, limit: int = 100,
                           offset: int = 0) -> list[OperatorEntry]:
        """Newest first."""
        statement = select(OperatorLog).order_by(OperatorLog.id.desc()).limit(limit).offset(offset)
        if player_id is not None:
            statement = statement.where(OperatorLog.player_id == player_id)
        async with self._tx() as session:
            return [OperatorEntry(r.id, r.at, r.operator, r.what, r.player_id, r.detail)
                    for r in await session.scalars(statement)]

    async def _update(self, player_id: int, **values: Any) -> None:
        statement = update(Player).where(Player.id == player_id).values(**values)
        if await self._write(lambda connection: _count(connection, statement)) == 0:
            raise _unknown(player_id)
