"""Players' profiles, leaderboards and the ratings beside names, over HTTP (docs/ratings.md).
Read-only and public: only what the finished and aborted public matches show."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from service.errors import ProtocolError, ServiceError
from service.gateway import api_models as models
from service.gateway.api_errors import status_of
from service.gateway.keys import STORE
from service.sessions import profiles
from service.store import MAX_ID

#: at most this many matches, leaderboard rows or players per request
MAX_LIMIT = 100
HISTORY_PAGE = 20
LEADERBOARD_PAGE = 50
#: HTTP status of a refusal, by code (any other: as api_errors.STATUS_OF_CODE says)
STATUS_OF = {"session/unknown_player": 404, "session/unknown_game": 404,
             "store/unavailable": 503, "store/unknown_outcome": 503}

Handler = Callable[[web.Request], Awaitable[dict[str, Any]]]


def _json(shape: type[models.BaseModel]
          ) -> Callable[[Handler], Callable[[web.Request], Awaitable[web.Response]]]:
    """The handler's body as JSON once it fits ``shape``; its refusals as JSON errors."""
    def wrap(handler: Handler) -> Callable[[web.Request], Awaitable[web.Response]]:
        @functools.wraps(handler)
        async def respond(request: web.Request) -> web.Response:
            try:
                return models.reply(shape, await handler(request))
            except ServiceError as exc:
                return web.json_response({"error": exc.to_dict()},
                                         status=STATUS_OF.get(exc.code) or status_of(exc))
        return respond
    return wrap


def _bad(message: str) -> ProtocolError:
    return ProtocolError(message, code="protocol/bad_request")


def _whole(raw: str, what: str) -> int:
    if not (raw.isascii() and raw.isdigit()) or int(raw) > MAX_ID:
        raise _bad(f"{what} must be a whole number from 0 to {MAX_ID}")
    return int(raw)


def _page(request: web.Request, default: int) -> tuple[int, int]:
    offset = _whole(request.query.get("offset", "0"), "offset")
    limit = _whole(request.query.get("limit", str(default)), "limit")
    if not 1 <= limit <= MAX_LIMIT:
        raise _bad(f"limit must be from 1 to {MAX_LIMIT}")
    return offset, limit


def _flag(request: web.Request, name: str) -> bool:
    raw = request.query.get(name, "0")
    if raw not in ("0", "1", "true", "false"):
        raise _bad(f"{name} must be 1 or 0")
    return raw in ("1", "true")


@_json(models.Profile)
async def player(request: web.Request) -> dict[str, Any]:
    """A player's profile: games with their counts and ratings, public ended matches."""
    player_id = _whole(request.match_info["player_id"], "a player id")
    offset, limit = _page(request, HISTORY_PAGE)
    return await profiles.profile(request.app[STORE], player_id, offset=offset, limit=limit)


@_json(models.Leaderboard)
async def leaderboard(request: web.Request) -> dict[str, Any]:
    """A game's rated players, best first; provisional ones only with ``provisional=1``."""
    offset, limit = _page(request, LEADERBOARD_PAGE)
    return await profiles.leaderboard(request.app[STORE], request.match_info["game"],
                                      offset=offset, limit=limit,
                                      with_provisional=_flag(request, "provisional"))


@_json(models.Ratings)
async def ratings(request: web.Request) -> dict[str, Any]:
    """``?game=<g>&players=1,2,3``: the displayed rating of each rated one of them."""
    game = request.query.get("game")
    if not game:
        raise _bad("name the game: ?game=<name>")
    raw = request.query.get("players", "")
    ids = [_whole(part.strip(), "a player id") for part in raw.split(",") if part.strip()]
    if len(ids) > MAX_LIMIT:
        raise _bad(f"at most {MAX_LIMIT} players at once")
    return await profiles.ratings_of(request.app[STORE], game, sorted(set(ids)))


def add_routes(app: web.Application) -> None:
    app.router.add_get("/api/players/{player_id}", player)
    app.router.add_get("/api/leaderboards/{game}", leaderboard)
    app.router.add_get("/api/ratings", ratings)
