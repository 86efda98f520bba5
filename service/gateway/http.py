"""The HTTP API: health, games, matches, actions (read-only); new matches are in http_create."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from service.errors import ProtocolError, ServiceError, SessionError
from service.gateway import (
    admin_http,
    api_docs,
    api_errors,
    api_spec,
    browser,
    http_account,
    http_create,
    http_metrics,
    http_players,
    node,
    openapi,
)
from service.gateway import api_models as models
from service.gateway.access import readable_match, reader_of
from service.gateway.api_errors import number as _number
from service.gateway import web as webclient
from service.gateway.keys import HUB, LISTENERS, STORE
from service.games.registry import all_games, get_game
from service.inspection import match_detail, match_summary, position_at
from service.sessions import lobby_feed
from service.store import MATCH_STATUSES

MAX_LIMIT = 500


def _int_param(request: web.Request, name: str, default: int) -> int:
    raw = request.query.get(name)
    return default if raw is None else _number(raw, name)


def _status_param(request: web.Request) -> str | None:
    status = request.query.get("status")
    if status is not None and status not in MATCH_STATUSES:
        raise ProtocolError(f"status must be one of {', '.join(MATCH_STATUSES)}",
                            code="protocol/bad_message")
    return status


async def health(request: web.Request) -> web.Response:
    """Whether the database answers and can write (a tiny write, made at most every few
    seconds: ``degraded`` with the reason, 503, when it fails); the listening dialects and the
    live matches; this node's id, and the cluster it sees (its bus, members, the matches this
    node owns)."""
    store = request.app[STORE]
    try:
        await store.ping()
    except ServiceError as exc:
        return models.reply(models.HealthUnavailable,
                            {"status": "unavailable", "error": exc.to_dict()}, status=503)
    problem = await store.write_probe.problem()
    ports = {name: listener.port for name, listener in request.app[LISTENERS].items()}
    live = len(request.app[HUB].live())
    body: dict[str, Any] = {"status": "ok" if problem is None else "degraded",
                            "listeners": ports, "live_matches": live,
                            "node": node.node_id(request.app),
                            "cluster": await node.cluster_view(request.app)}
    if problem is not None:
        body["reason"] = f"the store cannot write: {problem}"
    return models.reply(models.Health, body, status=200 if problem is None else 503)


async def games(request: web.Request) -> web.Response:
    """Every game: seats, options (JSON Schema) and catalog."""
    listed: list[dict[str, Any]] = [
        {"name": g.name, "title": g.title, "min_seats": g.min_seats, "max_seats": g.max_seats,
         "real_time": g.real_time, "goal": g.goal, "draws": g.draws_by_agreement,
         "clocks": not g.real_time, "options": g.options_model.model_json_schema(),
         "catalog": g.catalog()}
        for g in all_games()
    ]
    return models.reply(list[models.GameInfo], listed)


async def matches(request: web.Request) -> web.Response:
    """Saved matches, newest first (``game``, ``status``, ``limit``, ``offset``): the public
    ones, and the private ones the caller (``Authorization: Bearer <token>``) plays in."""
    limit = min(_int_param(request, "limit", 100), MAX_LIMIT)
    offset = _int_param(request, "offset", 0)
    reader = await reader_of(request)
    game = request.query.get("game")
    records = await request.app[STORE].list_matches(
        game=None if game is None else get_game(game).name, status=_status_param(request),
        limit=limit, offset=offset, all_private=False, private_of=reader.player_id)
    return models.reply(list[models.MatchSummary], [match_summary(r) for r in records])


async def match(request: web.Request) -> web.Response:
    """One match: seats, status, version, result, spectator view, recent actions (as the
    caller may know them)."""
    record, reader = await readable_match(request)
    recent = await request.app[STORE].actions(record.id, after=max(record.version - 20, 0))
    return models.reply(models.MatchDetail,
                        match_detail(record, recent, viewer=reader.seat_in(record)))


async def actions(request: web.Request) -> web.Response:
    """The action log of a match (``after``, ``limit``), as the caller may know it."""
    record, reader = await readable_match(request)
    after = _int_param(request, "after", 0)
    limit = min(_int_param(request, "limit", MAX_LIMIT), MAX_LIMIT)
    records = await request.app[STORE].actions(record.id, after=after, limit=limit)
    game, viewer = get_game(record.game), reader.seat_in(record)
    return models.reply(list[models.LoggedAction],
                        [{**a.seen_by(game, viewer), "at": a.created_at.isoformat()}
                         for a in records])


async def lobby(request: web.Request) -> web.Response:
    """The open matches of every game, fairly ordered and paged (``offset``, ``limit``), with
    their ``total``: the HTTP twin of the canonical ``lobby`` command."""
    feed = request.app[HUB].lobby_feed
    limit = min(_int_param(request, "limit", lobby_feed.PAGE), lobby_feed.MAX_PAGE)
    return models.reply(models.LobbyPage,
                        await feed.page(_int_param(request, "offset", 0), limit))


async def position(request: web.Request) -> web.Response:
    """The spectator's picture of a match after its first ``version`` actions (the replay)."""
    store = request.app[STORE]
    record, reader = await readable_match(request)
    version = _number(request.match_info["version"], "a version")
    if version > record.version:
        raise SessionError(f"the match is at version {record.version}", code="session/no_such_version")
    log = await store.actions(record.id, after=0, limit=version) if version else []
    return models.reply(models.Position, position_at(record, log, viewer=reader.seat_in(record)))


async def bot_levels(request: web.Request) -> web.Response:
    """The bot levels a match may seat."""
    return models.reply(list[str], sorted(request.app[HUB].bot_levels))


def add_routes(app: web.Application) -> None:
    webclient.add_routes(app)
    app.middlewares.append(api_errors.json_errors)  # inside CORS, which adds its headers
    api_docs.add_routes(app)
    app[openapi.OPERATIONS] = api_spec.OPERATIONS
    admin_http.add_routes(app)
    http_create.add_routes(app)
    http_account.add_routes(app)
    http_players.add_routes(app)
    browser.install(app)  # every response's headers; JSON-only bodies (inside the JSON errors)
    http_metrics.install(app)  # the outermost middleware: counts what is finally answered
    app.router.add_get("/api/lobby", lobby)
    app.router.add_get("/api/matches/{match_id}/at/{version}", position)
    app.router.add_get("/api/health", health)
    app.router.add_get("/api/games", games)
    app.router.add_get("/api/matches", matches)
    app.router.add_get("/api/bots", bot_levels)
    app.router.add_get("/api/matches/{match_id}", match)
    app.router.add_get("/api/matches/{match_id}/actions", actions)
