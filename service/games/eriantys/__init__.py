"""Eriantys (Leo Colovini, Cranio Creations 2021): 2-4 players, normal and expert, 12 characters.

Rules choices are recorded in docs/rules/eriantys.md; reason codes in ``constants.REASONS``.
"""

from __future__ import annotations

from service.games.eriantys.game import Eriantys

GAME = Eriantys()

__all__ = ["GAME", "Eriantys"]
