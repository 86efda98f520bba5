"""The admin API under ``/api/admin/...``: what the CLI's operator commands do, for a running
server (an abort here tells the match's clients). Open only with ``admin_token`` set, and only
to requests that carry it as ``Authorization: Bearer <token>`` (README, "Admin")."""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from service.errors import AdminError, ServiceError
from service.gateway.admin_throttle import ADMIN_THROTTLE, AdminThrottle, address_of
from service.gateway import api_models as models
from service.gateway.api_docs import export_response
from service.gateway.api_errors import NoSuchMatch
from service.gateway.keys import HUB, SETTINGS, STORE
from service.games.base import format_validation_error
from service.inspection import match_summary, operator_entry, player_detail, player_summary
from service.store import MATCH_STATUSES, MAX_ID, PlayerRecord

Handler = Callable[[web.Request], Awaitable[web.Response]]
MAX_LIMIT = 500
#: HTTP status of an error code (any other refusal: 409 Conflict, e.g. ``session/match_over``)
STATUS_OF = {"protocol/bad_request": 400, "session/no_such_match": 404,
             "session/unknown_player": 404, "session/unknown_game": 404,
             "options/invalid": 400, "session/bad_bot_level": 400, "session/too_many_bots": 400,
             "session/bad_nickname": 400,
             "session/bots_busy": 503}


def _error(exc: ServiceError, status: int) -> web.Response:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    if isinstance(exc, Throttled):
        status, headers = 429, {"Retry-After": str(exc.retry_after)}
    return web.json_response({"error": exc.to_dict()}, status=status, headers=headers)


class Throttled(AdminError):
    code = "admin/throttled"

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many wrong admin tokens from this address: try again in "
                         f"{retry_after} s")
        self.retry_after = retry_after


def bearer(request: web.Request) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if there is one."""
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return given.strip() if scheme.lower() == "bearer" and given.strip() else None


def is_admin_token(request: web.Request, given: str) -> bool:
    """Whether ``given`` is the admin token (compared in constant time); Throttled, before any
    comparison, while the request's address is locked out. The caller reports a wrong token
    with ``request.app[ADMIN_THROTTLE].failed(...)`` when nothing else accepts it."""
    throttle = request.app[ADMIN_THROTTLE]
    address = address_of(request)
    wait = throttle.retry_after(address)
    if wait is not None:
        raise Throttled(wait)
    expected = request.app[SETTINGS].admin_token
    if expected is None or not hmac.compare_digest(given.encode(), expected.encode()):
        return False
    throttle.succeeded(address)
    return True


def _check_token(request: web.Request) -> None:
    if request.app[SETTINGS].admin_token is None:
        raise AdminError("the admin API is switched off: set admin_token (TAVOLO_ADMIN_TOKEN)",
                         code="admin/disabled")
    given = bearer(request)
    if not is_admin_token(request, given or ""):
        request.app[ADMIN_THROTTLE].failed(address_of(request))
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


def _flag(request: web.Request, name: str) -> bool:
    raw = request.query.get(name, "0")
    if raw not in ("0", "1", "true", "false"):
        raise ServiceError(f"{name} must be 1 or 0", code="protocol/bad_request")
    return raw in ("1", "true")


@admin
async def players(request: web.Request) -> web.Response:
    limit = min(_number(request.query.get("limit", "100"), "limit"), MAX_LIMIT)
    offset = _number(request.query.get("offset", "0"), "offset")
    listed = await request.app[STORE].list_players(limit=limit, offset=offset,
                                                   bots=_flag(request, "bots"))
    return models.reply(list[models.PlayerSummary], [player_summary(p) for p in listed])


@admin
async def player(request: web.Request) -> web.Response:
    store = request.app[STORE]
    found = await store.player_by_id(_number(request.match_info["player_id"], "a player id"))
    if found is None:
        raise ServiceError("no such player", code="session/unknown_player")
    return models.reply(models.PlayerDetail, player_detail(
        found, await store.matches_of_player(found.id, statuses=MATCH_STATUSES)))


def _match_id(request: web.Request) -> int:
    return _number(request.match_info["match_id"], "a match id")


@admin
async def abort(request: web.Request) -> web.Response:
    match_id = _match_id(request)
    runtime = await request.app[HUB].lifecycle.abort(match_id, by="admin")
    record = await request.app[STORE].get_match(runtime.id)
    if record is None:  # deleted meanwhile
        raise NoSuchMatch()
    return models.reply(models.MatchSummary, match_summary(record))


@admin
async def delete(request: web.Request) -> web.Response:
    match_id = _match_id(request)
    if not await request.app[HUB].lifecycle.delete(match_id):
        raise ServiceError(f"no match {match_id}", code="session/no_such_match")
    return models.reply(models.Deleted, {"id": match_id, "deleted": True})


@admin
async def export(request: web.Request) -> web.Response:
    """Any match, live or over, as its whole export document (seed and every action): what
    ``tavolo matches export`` writes, for the operator of a running server."""
    store = request.app[STORE]
    record = await store.get_match(_match_id(request))
    if record is None:
        raise NoSuchMatch()
    return export_response(record, await store.actions(record.id))


# --- what operators do to players (sessions/accounts.py; logged with who did it) ----------

class PlayerChange(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    #: who does it, for the operators' log (with the request's address)
    by: str | None = Field(default=None, max_length=100)


class Rename(PlayerChange):
    nickname: str = Field(min_length=1, max_length=32)


class Ban(PlayerChange):
    reason: str = Field(min_length=1, max_length=200)


async def _change(request: web.Request, model: type[PlayerChange]
                  ) -> tuple[PlayerRecord, Any, str]:
    """The player of the route, the body, and the operator as the log names them."""
    raw = await request.read()
    try:
        body = model.model_validate_json(raw or b"{}")
    except ValidationError as exc:
        raise ServiceError(format_validation_error(exc), code="protocol/bad_request") from None
    found = await request.app[STORE].player_by_id(
        _number(request.match_info["player_id"], "a player id"))
    if found is None:
        raise ServiceError("no such player", code="session/unknown_player")
    operator = f"{body.by or 'admin'} (admin API from {address_of(request)})"
    return found, body, operator


@admin
async def reset_player(request: web.Request) -> web.Response:
    """No password, no device: the new recovery code (to hand to the player) reaches them."""
    found, _, operator = await _change(request, PlayerChange)
    code = await request.app[HUB].reset_player(found, operator=operator)
    return models.reply(models.PlayerReset, {"player_id": found.id, "recovery_code": code})


@admin
async def rename_player(request: web.Request) -> web.Response:
    found, body, operator = await _change(request, Rename)
    nickname = await request.app[HUB].rename(found, body.nickname, operator=operator)
    return models.reply(models.Renamed, {"player_id": found.id, "nickname": nickname})


@admin
async def ban_player(request: web.Request) -> web.Response:
    found, body, operator = await _change(request, Ban)
    await request.app[HUB].ban(found, body.reason, operator=operator)
    return models.reply(models.Banned,
                        {"player_id": found.id, "banned": True, "reason": body.reason})


@admin
async def unban_player(request: web.Request) -> web.Response:
    found, _, operator = await _change(request, PlayerChange)
    await request.app[HUB].unban(found, operator=operator)
    return models.reply(models.Unbanned, {"player_id": found.id, "banned": False})


@admin
async def operator_log(request: web.Request) -> web.Response:
    """What operators did to players, newest first (``player_id`` to see one player's)."""
    limit = min(_number(request.query.get("limit", "100"), "limit"), MAX_LIMIT)
    offset = _number(request.query.get("offset", "0"), "offset")
    raw = request.query.get("player_id")
    entries = await request.app[STORE].operator_log(
        player_id=None if raw is None else _number(raw, "a player id"), limit=limit,
        offset=offset)
    return models.reply(list[models.OperatorEntry], [operator_entry(e) for e in entries])


def throttle_of(app: web.Application) -> AdminThrottle:
    settings = app[SETTINGS]
    return AdminThrottle(allowed=settings.admin_auth_failures,
                         first_lockout=settings.admin_lockout_first,
                         max_lockout=settings.admin_lockout_max)


def add_routes(app: web.Application) -> None:
    app[ADMIN_THROTTLE] = throttle_of(app)
    app.router.add_get("/api/admin/players", players)
    app.router.add_get("/api/admin/matches/{match_id}/export", export)
    app.router.add_get("/api/admin/players/{player_id}", player)
    app.router.add_post("/api/admin/matches/{match_id}/abort", abort)
    app.router.add_delete("/api/admin/matches/{match_id}", delete)
    app.router.add_post("/api/admin/players/{player_id}/reset", reset_player)
    app.router.add_post("/api/admin/players/{player_id}/rename", rename_player)
    app.router.add_post("/api/admin/players/{player_id}/ban", ban_player)
    app.router.add_post("/api/admin/players/{player_id}/unban", unban_player)
    app.router.add_get("/api/admin/log", operator_log)
