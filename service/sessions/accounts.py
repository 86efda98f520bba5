"""Accounts: a nickname protected by a password, signed in from any device; one-time recovery
codes; devices a player sees and revokes; what operators do to players (reset, rename, ban).

Secrets are never stored or logged in clear: passwords as argon2id (argon2-cffi, its default
parameters, hashed on a worker thread), tokens and recovery codes (random, 120 bits and more) as
SHA-256. Wrong passwords and codes cost time, never the account: per player (in the store, so
every node of a cluster counts them) the first ``free`` wrong ones cost nothing, each further one
makes the next try wait twice as long, from ``first_wait`` up to ``max_wait``; per address (in
memory, sessions/throttle.py) likewise. A right one clears the player's count
(docs/protocol.md, "Accounts").
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import TYPE_CHECKING

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from service.errors import Banned, SessionError
from service.sessions import limits
from service.sessions.identity import hash_token, new_token
from service.sessions.throttle import FailureThrottle
from service.store import (FIRST_DEVICE, Credentials, DeviceRecord, PlayerRecord, Store,
                           normalise_nickname)
from service.store.models import utcnow

if TYPE_CHECKING:
    from service.sessions.hub import Identity

log = logging.getLogger(__name__)

MIN_PASSWORD = 8
MAX_PASSWORD = 128
#: what a device is called when its client names none
UNNAMED_DEVICE = "a device"
#: the recovery code's alphabet: no 0/O, 1/I/L to misread
_CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
#: argon2 runs (64 MiB each) at once; more wait their turn
HASHING_AT_ONCE = 2


class Throttled(SessionError):
    code = "session/throttled"

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many wrong passwords or codes: try again in {retry_after} s",
                         retry_after=retry_after)
        self.retry_after = retry_after


def check_not_banned(player: PlayerRecord) -> None:
    if player.banned_at is not None:
        raise Banned("this player is banned" + (f": {player.ban_reason}" if player.ban_reason
                                                 else ""))


def new_recovery_code() -> str:
    """25 letters of 31 (over 120 bits), in five groups: ``ABCDE-FGHJK-...``."""
    letters = "".join(secrets.choice(_CODE_LETTERS) for _ in range(25))
    return "-".join(letters[i:i + 5] for i in range(0, 25, 5))


def _code_key(code: str) -> str:
    """The recovery code as stored (hashed): case, spaces and dashes do not matter."""
    return hash_token("".join(c for c in code.upper() if c.isalnum()))


def check_password(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise SessionError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters",
                           code="session/weak_password")
    if len(set(password)) < 4:
        raise SessionError("a password needs at least 4 different characters",
                           code="session/weak_password")


@dataclass(frozen=True)
class Policy:
    """What wrong passwords and codes cost (Settings.login_*)."""

    free: int = 5
    first_wait: float = 1.0
    max_wait: float = 900.0
    per_address: int = 20


class Accounts:
    def __init__(self, store: Store, policy: Policy | None = None) -> None:
        self.store = store
        self.policy = policy or Policy()
        self.hasher = PasswordHasher()  # argon2id, RFC 9106's second recommended parameters
        self.addresses = FailureThrottle(
            what="sign-in", secret="passwords or codes", allowed=self.policy.per_address,
            first_lockout=max(self.policy.first_wait, 1.0), max_lockout=self.policy.max_wait)
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)

    # --- argon2 off the event loop ---------------------------------------------------------

    async def hash_password(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, password_hash: str | None, password: str) -> bool:
        if password_hash is None:
            return False
        async with self._hashing:
            try:
                return await asyncio.to_thread(self.hasher.verify, password_hash, password)
            except (VerificationError, InvalidHashError):
                return False

    # --- signing in ------------------------------------------------------------------------

    async def sign_in(self, nickname: str, password: str, label: str | None) -> Identity:
        """A new device for the player whose nickname and password these are."""
        player, credentials = await self._trying(nickname)
        if not await self._verify(credentials.password_hash, password):
            raise await self._wrong(player, SessionError(
                "wrong nickname or password", code="session/bad_password"))
        await self.store.login_succeeded(player.id)
        return await self._new_device(player, label)

    async def recover(self, nickname: str, code: str, password: str | None,
                      label: str | None) -> Identity:
        """Spend the player's recovery code for a new device (and password, if given)."""
        if password is not None:
            check_password(password)
        player, credentials = await self._trying(nickname)
        wrong = SessionError("wrong nickname or recovery code", code="session/bad_recovery_code")
        if credentials.recovery_hash is None or not hmac.compare_digest(
                _code_key(code), credentials.recovery_hash):
            raise await self._wrong(player, wrong)
        password_hash = await self.hash_password(password) if password is not None else None
        token = new_token()
        device = await self.store.use_recovery_code(
            player.id, credentials.recovery_hash or "", hash_token(token), device_label(label),
            password_hash)
        if device is None:  # spent by another try a moment ago
            raise wrong
        log.info("player %s recovered with their code", player.id)
        return self._identity(replace(player, has_token=True,
                                      has_password=player.has_password or bool(password_hash)),
                              token)

    async def _trying(self, nickname: str) -> tuple[PlayerRecord, Credentials]:
        """The player named, if the address and the player may try a secret now."""
        address = limits.current_address() or "?"
        wait = self.addresses.retry_after(address)
        if wait is not None:
            raise Throttled(wait)
        player = await self.store.player_by_nickname(normalise_nickname(nickname))
        credentials = await self.store.credentials(player.id) if player is not None else None
        if player is None or credentials is None or player.bot_level is not None:
            self.addresses.failed(address)
            raise SessionError("wrong nickname or password", code="session/bad_password")
        check_not_banned(player)
        blocked = credentials.login_blocked_until
        if blocked is not None and blocked > utcnow():
            raise Throttled(max(1, int((blocked - utcnow()).total_seconds() + 0.999)))
        return player, credentials

    async def _wrong(self, player: PlayerRecord, error: SessionError) -> SessionError:
        """Count a wrong secret against the address and the player; the error to raise."""
        self.addresses.failed(limits.current_address() or "?")
        credentials = await self.store.credentials(player.id)
        failures = (credentials.login_failures if credentials else 0) + 1
        over = failures - self.policy.free
        wait = 0.0 if over <= 0 else min(self.policy.first_wait * 2 ** min(over - 1, 40),
                                         self.policy.max_wait)
        await self.store.login_failed(player.id, utcnow() + timedelta(seconds=wait))
        if over > 0:
            log.warning("player %s: %d wrong passwords or codes in a row; the next waits %.0f s",
                        player.id, failures, wait)
        return error

    async def _new_device(self, player: PlayerRecord, label: str | None) -> Identity:
        token = new_token()
        await self.store.add_device(player.id, hash_token(token), device_label(label))
        return self._identity(replace(player, has_token=True), token)

    @staticmethod
    def _identity(player: PlayerRecord, token: str) -> Identity:
        from service.sessions.hub import Identity
        return Identity.issued(player, token)

    # --- what a signed-in player does --------------------------------------------------------

    async def set_password(self, player: PlayerRecord, password: str,
                           old_password: str | None) -> None:
        """Protect the nickname (or change its password: the old one is asked)."""
        if not player.has_token:
            raise SessionError("keep the nickname with a token first (hello {claim: true})",
                               code="session/token_required")
        check_password(password)
        credentials = await self.store.credentials(player.id)
        if credentials is not None and credentials.password_hash is not None:
            if old_password is None or not await self._verify(credentials.password_hash,
                                                              old_password):
                raise await self._wrong(player, SessionError(
                    "the old password is wrong", code="session/bad_password"))
        await self.store.set_password_hash(player.id, await self.hash_password(password))
        log.info("player %s set a password", player.id)

    async def new_recovery_code(self, player: PlayerRecord) -> str:
        if not player.has_token:
            raise SessionError("keep the nickname with a token first (hello {claim: true})",
                               code="session/token_required")
        code = new_recovery_code()
        await self.store.set_recovery_hash(player.id, _code_key(code))
        log.info("player %s got a new recovery code", player.id)
        return code

    async def devices(self, player: PlayerRecord) -> list[DeviceRecord]:
        return await self.store.devices_of(player.id)

    async def current_device(self, token_hash: str | None) -> int | None:
        """The id of the device that holds this token."""
        reached = await self.store.reach(token_hash) if token_hash else None
        return reached[1].id if reached is not None else None

    async def sign_out(self, player: PlayerRecord, token_hash: str) -> None:
        """The device holding this token is revoked: the token reaches nobody any more."""
        reached = await self.store.reach(token_hash)
        if reached is not None and reached[0].id == player.id:
            await self.store.revoke_device(player.id, reached[1].id)
        log.info("player %s signed out", player.id)

    async def revoke(self, player: PlayerRecord, device_id: int) -> None:
        if not await self.store.revoke_device(player.id, device_id):
            raise SessionError(f"you have no device {device_id}", code="session/no_such_device")
        log.info("player %s revoked device %s", player.id, device_id)

    # --- what operators do ---------------------------------------------------------------------

    async def reset(self, player: PlayerRecord, operator: str) -> str:
        """No password and no device any more: the new recovery code (for the operator to hand
        over) is what reaches the player now."""
        code = new_recovery_code()
        await self.store.reset_credentials(player.id, _code_key(code))
        await self._logged(operator, "reset", player, {})
        return code

    async def rename(self, player: PlayerRecord, nickname: str, operator: str) -> str:
        nickname = normalise_nickname(nickname)
        await self.store.rename_player(player.id, nickname)
        await self._logged(operator, "rename", player, {"from": player.nickname, "to": nickname})
        return nickname

    async def set_ban(self, player: PlayerRecord, reason: str | None, operator: str) -> None:
        await self.store.set_ban(player.id, reason)
        await self._logged(operator, "ban" if reason is not None else "unban", player,
                           {"reason": reason} if reason is not None else {})

    async def _logged(self, operator: str, what: str, player: PlayerRecord,
                      detail: dict[str, object]) -> None:
        await self.store.log_operator(operator, what, player.id, detail or None)
        log.warning("operator %s: %s player %s (%s) %s", operator, what, player.id,
                    player.nickname, detail or "")


def player_words(player: PlayerRecord) -> dict[str, object]:
    """A player as ``welcome`` and the account API show them to themselves."""
    return {"id": player.id, "nickname": player.nickname, "protected": player.has_token,
            "password": player.has_password}


def device_words(device: DeviceRecord, *, current: bool) -> dict[str, object]:
    return {"id": device.id, "label": device.label, "created_at": device.created_at.isoformat(),
            "last_used_at": device.last_used_at.isoformat(), "current": current}


def device_label(label: str | None, default: str = UNNAMED_DEVICE) -> str:
    """What a device is called: what its client says (one line, at most 100 characters)."""
    cleaned = " ".join((label or "").split())[:100]
    return cleaned or default
