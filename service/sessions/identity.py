"""Secret resume tokens: given to a player once, stored only as a hash."""

from __future__ import annotations

import hashlib
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def guest_nickname() -> str:
    return f"guest-{secrets.token_hex(4)}"
