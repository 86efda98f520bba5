from __future__ import annotations

import asyncio
import hashlib
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import update

from service.errors import SessionError, StoreError
from service.store import Store, StoreConflict
from service.store.models import Player


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


async def _last_seen(store: Store, player_id: int) -> datetime:
    async with store._tx() as session:
        player = await session.get(Player, player_id)
        assert player is not None
        return player.last_seen_at


async def test_create_and_find_player(store: Store) -> None:
    created = await store.create_player("Ada", _hash("t1"))
    assert created.id > 0 and created.nickname == "Ada"
    assert created.created_at.utcoffset() == timedelta(0)
    assert await store.player_by_nickname("Ada") == created
    assert await store.player_by_token_hash(_hash("t1")) == created
    assert await store.player_by_token_hash(_hash("other")) is None
    assert await store.player_by_nickname("Bob") is None
    found = await store.player_by_nickname("ada")
    assert found is not None and found.created_at.utcoffset() == timedelta(0)


async def test_nicknames_are_case_insensitive(store: Store) -> None:
    created = await store.create_player("Ada", None)
    for other in ("ADA", "ada", "aDa"):
        assert await store.player_by_nickname(other) == created
        with pytest.raises(SessionError) as caught:
            await store.create_player(other, None)
        assert caught.value.code == "session/nickname_taken"
    strasse = await store.create_player("Straße", None)
    assert await store.player_by_nickname("STRASSE") == strasse  # casefold, not lower


async def test_token_hashes_are_devices(store: Store) -> None:
    first = await store.create_player("a", None)
    second = await store.create_player("b", None)  # many players without a token
    assert first.id != second.id and not first.has_token
    await store.add_device(first.id, _hash("t"), "phone")
    assert await store.player_by_token_hash(_hash("t")) == first
    assert (await store.player_by_id(first.id)).has_token  # a token claims the name
    laptop = await store.add_device(first.id, _hash("t2"), "laptop")
    assert await store.player_by_token_hash(_hash("t")) == first  # both reach the player
    assert await store.player_by_token_hash(_hash("t2")) == first
    assert await store.revoke_device(first.id, laptop.id)
    assert await store.player_by_token_hash(_hash("t2")) is None
    assert not await store.revoke_device(second.id, laptop.id)
    with pytest.raises(StoreConflict) as caught:
        await store.add_device(second.id, _hash("t"), "stolen")  # a token is one device's
    assert caught.value.code == "store/conflict"
    with pytest.raises(SessionError):
        await store.create_player("c", _hash("t"))
    assert await store.player_by_nickname("c") is None  # the player went with its device


async def test_claiming_takes_a_first_device_once(store: Store) -> None:
    player = await store.create_player("d", None)
    assert await store.claim_player(player.id, _hash("x"))
    assert not await store.claim_player(player.id, _hash("y"))  # claimed already
    assert await store.player_by_token_hash(_hash("y")) is None
    assert [d.label for d in await store.devices_of(player.id)] == ["first device"]


async def test_get_or_create_player(store: Store) -> None:
    first = await store.get_or_create_player("Carla")
    assert await store.get_or_create_player("CARLA") == first
    racing = await asyncio.gather(*(store.get_or_create_player("Dora") for _ in range(4)))
    assert len({player.id for player in racing}) == 1


async def test_touch_player_and_unknown_players(store: Store) -> None:
    player = await store.create_player("Fay", None)
    long_ago = datetime(2000, 1, 1, tzinfo=timezone.utc)
    async with store._tx() as session:
        await session.execute(update(Player).values(last_seen_at=long_ago))
    assert await _last_seen(store, player.id) == long_ago
    await store.touch_player(player.id)
    assert await _last_seen(store, player.id) > long_ago
    for method in (store.touch_player, lambda pid: store.add_device(pid, _hash("t"), "x")):
        with pytest.raises(SessionError) as caught:
            await method(999)
        assert caught.value.code == "session/unknown_player"


async def test_ping(store: Store) -> None:
    await store.ping()


async def test_ping_unreachable_postgres() -> None:
    unreachable = Store("postgresql://nobody@127.0.0.1:1/none")
    try:
        with pytest.raises(StoreError) as caught:
            await unreachable.ping()
        assert caught.value.code == "store/unavailable"
    finally:
        await unreachable.close()


def test_store_attributes() -> None:
    assert Store("sqlite:///x.db").is_sqlite
    pg = Store("postgres://u@h/db")
    assert not pg.is_sqlite and pg.url == "postgresql+asyncpg://u@h/db"
