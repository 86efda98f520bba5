"""The registry of games: one place that knows every game by its name."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from service.errors import SessionError
from service.games.base import Game

#: game name -> module that defines ``GAME``; a game is added here and nowhere else
GAME_MODULES: dict[str, str] = {
    "dolphinfox": "service.games.dolphinfox",
    "santorini": "service.games.santorini",
    "eriantys": "service.games.eriantys",
    "renaissance": "service.games.renaissance",
}

_loaded: dict[str, Game[Any]] = {}


def get_game(name: str) -> Game[Any]:
    """The game object registered under ``name``; SessionError when unknown."""
    game = _loaded.get(name)
    if game is not None:
        return game
    module_name = GAME_MODULES.get(name)
    if module_name is None:
        raise SessionError(f"unknown game {name!r}", code="session/unknown_game")
    game = import_module(module_name).GAME
    _loaded[name] = game
    return game


def all_games() -> list[Game[Any]]:
    return [get_game(name) for name in sorted(GAME_MODULES)]
