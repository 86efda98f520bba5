"""Santorini with god powers (seed 001): a pure rules package.

``GAME`` is the game object; see ``docs/rules/santorini.md`` for every rules choice.
"""

from __future__ import annotations

from .game import SantoriniGame, SantoriniOptions

GAME = SantoriniGame()

__all__ = ["GAME", "SantoriniGame", "SantoriniOptions"]
