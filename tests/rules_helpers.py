"""Helpers shared by the synchronous rules tests of every game (imported as a plain module)."""

from __future__ import annotations

from typing import Any

import pytest

from service.errors import RulesError
from service.games.base import Game


def refused(game: Game[Any], state: Any, seat: int, reason: str, raw: dict[str, Any]) -> None:
    """``raw`` is refused with ``rules/<reason>`` and the state is untouched."""
    before = game.dump_state(state)
    with pytest.raises(RulesError) as info:
        game.apply(state, seat, raw)
    assert info.value.code == f"rules/{reason}", info.value.message
    assert game.dump_state(state) == before


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]
