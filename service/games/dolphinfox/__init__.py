"""Dolphins & Foxes: a real-time two-team game on a board of water and land (seed 002)."""

from service.games.dolphinfox.game import GAME, DolphinFox, DolphinFoxOptions, DolphinFoxState, Move

__all__ = ["GAME", "DolphinFox", "DolphinFoxOptions", "DolphinFoxState", "Move"]
