"""Database lanes: the players' work and strangers' lookups never share a queue.

The session layer says, per connection task, whose work it runs (a context variable): a
connection that has not identified itself is a stranger. The store serves strangers from
their own small engine (its own pool on PostgreSQL, its own connection on SQLite), so a flood
of lookups from strangers waits behind itself, never in front of the players' lobby work or
the append path (which has its own connection, store/appender.py)."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Literal

Lane = Literal["players", "strangers"]
PLAYERS: Lane = "players"
STRANGERS: Lane = "strangers"

#: whose work the running task does; work done by no connection (sweeps, bots) is the players'
lane: ContextVar[Lane] = ContextVar("tavolo_database_lane", default=PLAYERS)


def for_strangers() -> bool:
    return lane.get() == STRANGERS
