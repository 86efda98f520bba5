"""Masters of Renaissance (Cranio Creations 2019): 1-4 players, solo against Lorenzo.

Rules choices are recorded in docs/rules/renaissance.md; reason codes in ``codes.REASONS``.
"""

from __future__ import annotations

from service.games.renaissance.game import Renaissance

GAME = Renaissance()

__all__ = ["GAME", "Renaissance"]
