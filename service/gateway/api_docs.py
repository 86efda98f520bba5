"""HTTP routes that describe and move whole matches: export, the readable move list, the
OpenAPI document (written from the routes themselves) and the JSON Schemas."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel

from service import metrics
from service.errors import SessionError
from service.gateway import node
from service.gateway.access import readable_match
from service.gateway.keys import HUB, STORE
from service.schemas import actions_schema, canonical_schema
from service.store import ActionRecord, MatchRecord
from service.transfer import ExportDocument, export_document, move_list, tavolo_version

#: the statuses of a match that is over: its export holds nothing still hidden
ENDED = ("finished", "aborted")

_PARAM = re.compile(r"{([^}]+)}")

#: (method, path) -> the pydantic model of the request body, for the OpenAPI document
REQUEST_BODIES = web.AppKey("request_bodies", dict)


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
    return web.json_response([{"seq": a.seq, "seat": a.seat, "text": line}
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
    return web.json_response(openapi_document(request.app))


def _operation(route: web.AbstractRoute, path: str,
               body: type[BaseModel] | None = None) -> dict[str, Any]:
    doc = (getattr(route.handler, "__doc__", None) or route.handler.__name__).strip()
    params = [{"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
              for name in _PARAM.findall(path)]
    error = {"description": "an error", "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Error"}}}}
    operation: dict[str, Any] = {
        "summary": doc.splitlines()[0], "operationId": f"{route.method.lower()}_{route.handler.__name__}",
        "responses": {"200": {"description": "OK"}, "4XX": error, "5XX": error}}
    if params:
        operation["parameters"] = params
    if body is not None:
        operation["requestBody"] = {"required": True, "content": {"application/json": {
            "schema": {"$ref": f"#/components/schemas/{body.__name__}"}}}}
    return operation


def openapi_document(app: web.Application) -> dict[str, Any]:
    """OpenAPI 3.1 of every ``/api`` route of ``app``: summaries from the handlers' docstrings,
    request bodies and the export document from their pydantic models."""
    bodies: dict[tuple[str, str], type[BaseModel]] = app.get(REQUEST_BODIES, {})
    paths: dict[str, dict[str, Any]] = {}
    for route in app.router.routes():
        path = route.resource.canonical if route.resource is not None else ""
        if not path.startswith("/api") or route.method in ("HEAD", "OPTIONS", "*"):
            continue
        paths.setdefault(path, {})[route.method.lower()] = _operation(
            route, path, bodies.get((route.method, path)))
    schemas: dict[str, Any] = {"Error": {"type": "object", "properties": {"error": {
        "type": "object", "required": ["code", "message"],
        "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}}}
    for model in [ExportDocument, *bodies.values()]:
        found = model.model_json_schema(ref_template="#/components/schemas/{model}")
        schemas.update(found.pop("$defs", {}))
        schemas[model.__name__] = found
    return {"openapi": "3.1.0",
            "info": {"title": "Tavolo HTTP API", "version": tavolo_version()},
            "paths": dict(sorted(paths.items())), "components": {"schemas": schemas}}


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
