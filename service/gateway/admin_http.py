"""The admin API under ``/api/admin/...``: what the CLI's operator commands do, for a running
server (an abort here tells the match's clients). Open only with ``admin_token`` set, and only
to requests that carry it as ``Authorization: Bearer <token>`` (README, "Admin")."""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable

from aiohttp import web

from service.errors import AdminError, ServiceError
from service.gateway.keys import HUB, SETTINGS, STORE
from service.inspection import match_summary, player_detail, player_summary
from service.store import MATCH_STATUSES, MAX_ID

Handler = Callable[[web.Request], Awaitable[web.Response]]
MAX_LIMIT = 500
#: HTTP status of an error code (any other refusal: 409 Conflict, e.g. ``session/match_over``)
STATUS_OF = {"protocol/bad_request": 400, "session/no_such_match": 404,
             "session/unknown_player": 404}


def _error(exc: ServiceError, status: int) -> web.Response:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return web.json_response({"error": exc.to_dict()}, status=status, headers=headers)


def _check_token(request: web.Request) -> None:
    expected = request.app[SETTINGS].admin_token
    if expected is None:
        raise AdminError("the admin API is switched off: set admin_token (TAVOLO_ADMIN_TOKEN)",
                         code="admin/disabled")
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(),
                                                            expected.encode()):
        raise AdminError("send the admin token as 'Authorization: Bearer <token>'")


def admin(handler: Handler) -> Handler:
    """Only for the holder of the admin token; errors as JSON with stable codes."""

    async def guarded(request: web.Request) -> web.Response:
        try:
            _check_token(request)
            return await handler(request)
        except AdminError as exc:
            return _error(exc, 403 if exc.code == "admin/disabled" else 401)
        except ServiceError as exc:
            return _error(exc, STATUS_OF.get(exc.code, 409))

    return guarded


def _number(raw: str, what: str) -> int:
    if not (raw.isascii() and raw.isdigit()) or int(raw) > MAX_ID:
        raise ServiceError(f"{what} must be a whole number from 0 to {MAX_ID}",
                           code="protocol/bad_request")
    return int(raw)


@admin
async def players(request: web.Request) -> web.Response:
    limit = min(_number(request.query.get("limit", "100"), "limit"), MAX_LIMIT)
    offset = _number(request.query.get("offset", "0"), "offset")
    listed = await request.app[STORE].list_players(limit=limit, offset=offset,
                                                   bots=request.query.get("bots") == "1")
    return web.json_response([player_summary(p) for p in listed])


@admin
async def player(request: web.Request) -> web.Response:
    store = request.app[STORE]
    found = await store.player_by_id(_number(request.match_info["player_id"], "a player id"))
    if found is None:
        raise ServiceError("no such player", code="session/unknown_player")
    return web.json_response(player_detail(
        found, await store.matches_of_player(found.id, statuses=MATCH_STATUSES)))


def _match_id(request: web.Request) -> int:
    return _number(request.match_info["match_id"], "a match id")


@admin
async def abort(request: web.Request) -> web.Response:
    match_id = _match_id(request)
    runtime = await request.app[HUB].lifecycle.abort(match_id, by="admin")
    record = await request.app[STORE].get_match(runtime.id)
    return web.json_response(match_summary(record) if record else {"id": match_id})


@admin
async def delete(request: web.Request) -> web.Response:
    match_id = _match_id(request)
    if not await request.app[HUB].lifecycle.delete(match_id):
        raise ServiceError(f"no match {match_id}", code="session/no_such_match")
    return web.json_response({"id": match_id, "deleted": True})


def add_routes(app: web.Application) -> None:
    app.router.add_get("/api/admin/players", players)
    app.router.add_get("/api/admin/players/{player_id}", player)
    app.router.add_post("/api/admin/matches/{match_id}/abort", abort)
    app.router.add_delete("/api/admin/matches/{match_id}", delete)
