"""The store's side of accounts: recovery codes spent once, operators' resets, renames, bans
and their log."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import datetime, timezone

import pytest

from service.errors import SessionError
from service.store import Store


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


async def test_a_recovery_code_is_spent_once(store: Store) -> None:
    player = await store.create_player("ada", _hash("t"))
    await store.set_recovery_hash(player.id, _hash("code"))
    assert await store.use_recovery_code(player.id, _hash("wrong"), _hash("t2"), "x", None) is None
    racing = await asyncio.gather(*(
        store.use_recovery_code(player.id, _hash("code"), _hash(f"n{i}"), "new", "argon")
        for i in range(3)))
    assert sum(device is not None for device in racing) == 1  # once, however many ask
    credentials = await store.credentials(player.id)
    assert credentials is not None
    assert credentials.recovery_hash is None and credentials.password_hash == "argon"
    assert len(await store.devices_of(player.id)) == 2


async def test_login_failures_count_and_reset(store: Store) -> None:
    player = await store.create_player("bob", _hash("t"))
    until = datetime(2030, 1, 1, tzinfo=timezone.utc)
    await store.login_failed(player.id, until)
    await store.login_failed(player.id, until)
    credentials = await store.credentials(player.id)
    assert credentials and credentials.login_failures == 2
    assert credentials.login_blocked_until == until
    await store.login_succeeded(player.id)
    credentials = await store.credentials(player.id)
    assert credentials and (credentials.login_failures, credentials.login_blocked_until) == (0, None)


async def test_reset_rename_ban_and_the_log(store: Store) -> None:
    player = await store.create_player("cleo", _hash("t"))
    await store.set_password_hash(player.id, "argon")
    await store.reset_credentials(player.id, _hash("fresh"))
    assert await store.devices_of(player.id) == []
    assert await store.player_by_token_hash(_hash("t")) is None
    after = await store.player_by_id(player.id)
    assert after and after.has_token and not after.has_password  # still no nickname's alone
    await store.create_player("dan", None)
    with pytest.raises(SessionError) as caught:
        await store.rename_player(player.id, "DAN")
    assert caught.value.code == "session/nickname_taken"
    await store.rename_player(player.id, "Cleopatra")
    renamed = await store.player_by_nickname("cleopatra")
    assert renamed and renamed.id == player.id and renamed.nickname == "Cleopatra"
    await store.set_ban(player.id, "cheating")
    banned = await store.player_by_id(player.id)
    assert banned and banned.banned_at is not None and banned.ban_reason == "cheating"
    await store.set_ban(player.id, None)
    lifted = await store.player_by_id(player.id)
    assert lifted and lifted.banned_at is None
    await store.log_operator("root@cli", "ban", player.id, {"reason": "cheating"})
    await store.log_operator("root@cli", "unban", player.id)
    log = await store.operator_log(player_id=player.id)
    assert [(e.what, e.operator) for e in log] == [("unban", "root@cli"), ("ban", "root@cli")]
    assert log[1].detail == {"reason": "cheating"}
    with pytest.raises(SessionError):
        await store.set_ban(999, "x")
