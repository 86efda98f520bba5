"""Persistence of Tavolo: SQLAlchemy 2 (async) models, engine, migrations and repository."""

from __future__ import annotations

from service.store.engine import DEFAULT_URL, create_engine, is_sqlite_url, normalise_url
from service.store.migrate import downgrade, upgrade
from service.store.records import (OPERATOR, ActionRecord, Credentials, DeviceRecord, MatchRecord,
                                   OperatorEntry, PlayerRecord, SeatRecord, Viewer)
from service.store.models import FIRST_DEVICE, MATCH_STATUSES
from service.store.nicknames import MAX_NICKNAME, nickname_key, normalise_nickname
from service.store.failures import StoreConflict, StoreUnknownOutcome
from service.store.repository import MAX_ID, SeatSpec, Store

__all__ = [
    "DEFAULT_URL",
    "FIRST_DEVICE",
    "MATCH_STATUSES",
    "MAX_ID",
    "MAX_NICKNAME",
    "OPERATOR",
    "ActionRecord",
    "Credentials",
    "DeviceRecord",
    "MatchRecord",
    "OperatorEntry",
    "PlayerRecord",
    "SeatRecord",
    "SeatSpec",
    "Store",
    "StoreConflict",
    "StoreUnknownOutcome",
    "Viewer",
    "create_engine",
    "downgrade",
    "is_sqlite_url",
    "nickname_key",
    "normalise_nickname",
    "normalise_url",
    "upgrade",
]
