"""Tavolo: a persistent multiplayer board-game service."""
