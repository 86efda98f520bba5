"""What every log line is about: the match, the dialect and the peer of the task that logs.

The gateway sets ``dialect`` and ``peer`` for each connection's task (tasks it starts inherit
them); a match runtime sets ``match`` while it handles an action. ``service.logs`` puts them
on every record."""

from __future__ import annotations

from contextvars import ContextVar

match_var: ContextVar[int | None] = ContextVar("tavolo_match", default=None)
dialect_var: ContextVar[str | None] = ContextVar("tavolo_dialect", default=None)
peer_var: ContextVar[str | None] = ContextVar("tavolo_peer", default=None)


def current() -> dict[str, object]:
    return {"match": match_var.get(), "dialect": dialect_var.get(), "peer": peer_var.get()}
