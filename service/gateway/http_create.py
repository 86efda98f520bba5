"""New matches over HTTP: ``POST /api/matches`` for a player, ``POST /api/admin/matches`` for
an operator (README, "Who may create, and what the browser is told").

A player names themself with their canonical token (``token`` in the body, or
``Authorization: Bearer <token>``); without one the answer is 401 ``session/token_required``.
The player takes a seat, bots (one level each) take the seats they list; with ``sit: false``
the player opens a match of bots only and takes no seat. Every creation goes through the hub,
which bounds what one player, one address and the process may hold open (sessions/admission.py);
what a client creates is charged to its address (sessions/limits.py).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from service.errors import ProtocolError, ServiceError, SessionError
from service.games.base import format_validation_error
from service.gateway.admin_http import admin, bearer
from service.gateway.api_errors import status_of
from service.gateway.api_models import Created, reply
from service.gateway.keys import HUB
from service.sessions.match import MatchRuntime
from service.store import PlayerRecord

#: HTTP status of a refused creation, by code (any other: as api_errors.STATUS_OF_CODE says)
STATUS_OF = {"session/token_required": 401, "session/rate_limited": 429,
             "session/too_many_waiting": 429, "session/too_many_bot_matches": 429,
             "session/bots_busy": 503, "session/unknown_game": 404}


class OperatorMatch(BaseModel):
    """POST /api/admin/matches: a new match, its seats taken by bots (one level each) or left
    free for players to join."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seats: int | None = Field(default=None, ge=1, le=8)
    bots: list[str] = Field(default_factory=list, max_length=8)
    #: a time control (docs/protocol.md, "Clocks"): {kind: per_move|total, seconds, increment?}
    clock: dict[str, Any] | None = None


class NewMatch(OperatorMatch):
    """POST /api/matches: a new match for the player named by ``token`` (or by
    ``Authorization: Bearer <token>``), who takes a seat (``sit``, default true) while bots
    take the seats listed in ``bots``. With ``sit: false`` the player opens a match of bots
    only (a bot for every seat) to watch."""

    token: str | None = Field(default=None, max_length=128)
    sit: bool = True


def _created(runtime: MatchRuntime, seat: int | None) -> web.Response:
    return reply(Created, {"match_id": runtime.id, "seat": seat, "status": runtime.status,
                           "seats": runtime.seats_public()}, status=201)


def _refused(exc: ServiceError) -> web.Response:
    status = STATUS_OF.get(exc.code) or status_of(exc)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return web.json_response({"error": exc.to_dict()}, status=status, headers=headers)


async def _player(request: web.Request, body: NewMatch) -> PlayerRecord:
    """The player who asks: by the body's token or the bearer token (not two different ones)."""
    header = bearer(request)
    if body.token and header and body.token != header:
        raise ProtocolError("two different tokens: send one, in the body or in Authorization",
                            code="protocol/bad_message")
    token = body.token or header
    if not token:
        raise SessionError("creating a match takes a player: send the token of your canonical "
                           "hello as 'token' or as 'Authorization: Bearer <token>'",
                           code="session/token_required")
    if len(token) > 128:
        raise SessionError("unknown token", code="session/bad_token")
    return (await request.app[HUB].identify(token=token)).player


async def create_match(request: web.Request) -> web.Response:
    """A new match for the player who asks (body: NewMatch)."""
    try:
        body = NewMatch.model_validate_json(await request.read())
    except ValidationError as exc:
        return _refused(ProtocolError(format_validation_error(exc), code="protocol/bad_message"))
    hub = request.app[HUB]
    try:
        with hub.limits.client_scope(request.remote):
            player = await _player(request, body)
            runtime, seat = await hub.create(
                body.game, body.options, seats=body.seats, bots=body.bots, dialect="canonical",
                player=player if body.sit else None, owner=None if body.sit else player,
                clock=body.clock)
    except ServiceError as exc:
        return _refused(exc)
    return _created(runtime, seat)


@admin
async def create_match_as_operator(request: web.Request) -> web.Response:
    """An operator's new match (body: OperatorMatch): bound only by the process's limit on
    matches of bots only."""
    try:
        body = OperatorMatch.model_validate_json(await request.read())
    except ValidationError as exc:
        raise ProtocolError(format_validation_error(exc), code="protocol/bad_request") from None
    runtime, seat = await request.app[HUB].create(
        body.game, body.options, seats=body.seats, bots=body.bots, dialect="canonical",
        operator=True, clock=body.clock)
    return _created(runtime, seat)


def add_routes(app: web.Application) -> None:
    app.router.add_post("/api/matches", create_match)
    app.router.add_post("/api/admin/matches", create_match_as_operator)
