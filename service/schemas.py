"""JSON Schema of the canonical messages and of each game's actions, from their pydantic
models: served under ``/api/schema/canonical.json`` and ``/api/games/{game}/actions.schema.json``,
printed by ``tavolo schema canonical|GAME``."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from service.errors import ServiceError
from service.games.registry import GAME_MODULES, get_game
from service.protocol.canonical import ClientMessage, ServerMessage

JSON_SCHEMA = "https://json-schema.org/draft/2020-12/schema"


def canonical_schema() -> dict[str, Any]:
    """Every message of the canonical protocol: what a client sends, what the server sends."""
    return {
        "$schema": JSON_SCHEMA,
        "title": "Tavolo canonical protocol",
        "client": TypeAdapter(ClientMessage).json_schema(),
        "server": TypeAdapter(ServerMessage).json_schema(),
    }


def actions_schema(game_name: str) -> dict[str, Any]:
    """The actions of one game (the ``action`` of a canonical ``act``); KeyError if no such game."""
    if game_name not in GAME_MODULES:
        raise KeyError(game_name)
    game = get_game(game_name)
    return {**game.action_adapter.json_schema(), "$schema": JSON_SCHEMA,
            "title": f"{game.title} actions"}


def schema_document(what: str) -> dict[str, Any]:
    """``canonical`` or a game's name; KeyError for anything else."""
    if what == "canonical":
        return canonical_schema()
    try:
        return actions_schema(what)
    except ServiceError as exc:  # the registry may refuse a listed game it cannot load
        raise KeyError(what) from exc


def schema_names() -> list[str]:
    return ["canonical", *sorted(GAME_MODULES)]
