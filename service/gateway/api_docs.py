"""HTTP routes that describe and move whole matches: export, the readable move list, the
OpenAPI document (service/gateway/openapi.py) and the JSON Schemas."""

from __future__ import annotations

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from service import metrics
from service.errors import SessionError
from service.gateway import node
from service.gateway.access import readable_match
from service.gateway.api_models import MoveLine, reply
from service.gateway.openapi import openapi_document
from service.gateway.keys import HUB, STORE
from service.schemas import actions_schema, canonical_schema
from service.store import ActionRecord, MatchRecord
from service.transfer import export_document, move_list, tavolo_version

#: the statuses of a match that is over: its export holds nothing still hidden
ENDED = ("finished", "aborted")


async def export(request: web.Request) -> web.Response:
    """The whole match as one JSON document (game, options, seed, seats, every action, result),
    once it is over: until then its seed and log would show what the rules hide (operators
    export a live match through the admin API)."""
    record, _ = await readable_match(request)
    if record.status not in ENDED:
        raise SessionError(f"match {record.id} is {record.status}: a match is exported once it "
                           "is over (its seed and actions would show hidden cards)",
                           code="session/match_not_over")
    return export_response(record, await request.app[STORE].actions(record.id))


def export_response(record: MatchRecord, log: list[ActionRecord]) -> web.Response:
    """The export document of ``record`` as a download."""
    return web.json_response(export_document(record, log), headers={
        "Content-Disposition": f'attachment; filename="tavolo-match-{record.id}.json"'})


async def moves(request: web.Request) -> web.Response:
    """The readable move list: one line per action, as the caller may know it."""
    record, reader = await readable_match(request)
    log = await request.app[STORE].actions(record.id)
    lines = move_list(record, log, viewer=reader.seat_in(record))
    return reply(list[MoveLine], [{"seq": a.seq, "seat": a.seat, "text": line}
                                  for a, line in zip(log, lines)])


async def canonical(request: web.Request) -> web.Response:
    """JSON Schema of every canonical protocol message (client and server)."""
    return web.json_response(canonical_schema())


async def game_actions(request: web.Request) -> web.Response:
    """JSON Schema of one game's actions (the ``action`` of a canonical ``act``)."""
    name = request.match_info["game"]
    try:
        return web.json_response(actions_schema(name))
    except KeyError:
        raise SessionError(f"unknown game {name!r}", code="session/unknown_game") from None


async def openapi(request: web.Request) -> web.Response:
    """This document: every route of the HTTP API."""
    return web.json_response(openapi_document(request.app, tavolo_version()))


async def prometheus(request: web.Request) -> web.Response:
    """Prometheus metrics (text exposition format)."""
    metrics.LIVE_MATCHES.set(len(request.app[HUB].live()))
    response = web.Response(body=metrics.exposition(node.node_id(request.app),
                                                    node.bus_kind(request.app)))
    response.content_type = CONTENT_TYPE_LATEST.split(";")[0]
    return response


#: path -> handler of every GET route of this module
GETS = {"/metrics": prometheus, "/api/matches/{match_id}/export": export,
        "/api/matches/{match_id}/moves": moves, "/api/openapi.json": openapi,
        "/api/schema/canonical.json": canonical, "/api/games/{game}/actions.schema.json": game_actions}


def add_routes(app: web.Application) -> None:
    app.router.add_routes([web.get(path, handler) for path, handler in GETS.items()])
