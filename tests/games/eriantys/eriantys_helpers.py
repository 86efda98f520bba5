"""Shared helpers of the Eriantys tests (imported as a plain module from this directory)."""

from __future__ import annotations

from typing import Any

from rules_helpers import refused, types

from service.games.eriantys import GAME
from service.games.eriantys.notation import position, students
from service.games.eriantys.state import State

__all__ = ["GAME", "position", "students", "act", "rejects", "types"]


def act(state: State, seat: int, **raw: Any) -> list[dict[str, Any]]:
    return GAME.apply(state, seat, raw)


def rejects(state: State, seat: int, reason: str, **raw: Any) -> None:
    """The action is refused with ``rules/<reason>`` and the state is untouched."""
    refused(GAME, state, seat, reason, raw)
