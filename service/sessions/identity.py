"""Secret resume tokens: given to a player once, stored only as a hash."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def admits(invite_hash: str | None, seated: bool, invite: str | None) -> bool:
    """The rule of private matches, for every channel: a match with no invitation is open to
    all; a private one to its own players and to whoever brings its invitation."""
    return invite_hash is None or seated or opens(invite, invite_hash)


def opens(secret: str | None, secret_hash: str | None) -> bool:
    """Whether ``secret`` (a token or invitation as given) is the one stored as ``secret_hash``."""
    if secret is None or secret_hash is None:
        return False
    return hmac.compare_digest(hash_token(secret), secret_hash)


def guest_nickname() -> str:
    return f"guest-{secrets.token_hex(4)}"
