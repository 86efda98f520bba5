"""The OpenAPI 3.1 document of the HTTP API, written from the routes of the app and what
api_spec.OPERATIONS says of each: the pydantic models of request and response bodies (the same
ones the routes validate with and answer through), path and query parameters with their types
and ranges, the bearer security schemes, and every status a route answers with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel

from service.games.registry import all_games
from service.gateway.api_models import Error, adapter
from service.store import MAX_ID

Security = Literal["admin", "player", "reader"] | None

ID: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": MAX_ID}
#: a flag of the query string
FLAG: dict[str, Any] = {"type": "string", "enum": ["0", "1", "true", "false"]}
#: stands for the registered games' names (written out when the document is)
GAME: dict[str, Any] = {"x-tavolo-game": True}

PATH_PARAMETERS: dict[str, tuple[dict[str, Any], str]] = {
    "match_id": (ID, "a match's id"),
    "player_id": (ID, "a player's id"),
    "device_id": (ID, "one of the caller's devices (GET /api/account lists them)"),
    "version": (ID, "a number of applied actions, from 0 to the match's version"),
    "game": (GAME, "a game's name (GET /api/games lists them)"),
}

SECURITY_SCHEMES = {
    "admin": {"type": "http", "scheme": "bearer", "description":
              "the admin token (setting admin_token, TAVOLO_ADMIN_TOKEN); without it set, "
              "the admin API answers 403 admin/disabled"},
    "player": {"type": "http", "scheme": "bearer", "description":
               "a player's token: the one a canonical hello issues, or a device token of "
               "POST /api/account/sign-in"},
}
#: the ``security`` of an operation, by who may call it ("reader": anyone, a player's token
#: shows them their own matches and hidden parts)
SECURITY = {"admin": [{"admin": []}], "player": [{"player": []}],
            "reader": [{}, {"player": []}]}

ERRORS = {400: "bad input (nothing was changed)", 401: "no token, or a token nobody holds",
          403: "not allowed (a banned player; the admin API switched off)",
          404: "no such thing", 409: "not in this state (nothing was changed)",
          413: "the body is too large", 415: "the body is not application/json",
          429: "too many: wait (Retry-After)", 500: "an internal error (logged)",
          503: "the store is unavailable"}

#: the OpenAPI document's description of each route, keyed by (method, canonical path)
OPERATIONS: web.AppKey[dict[tuple[str, str], Operation]] = web.AppKey("api_operations", dict)


@dataclass(frozen=True)
class Query:
    name: str
    schema: dict[str, Any]
    description: str
    required: bool = False
    #: a list written as ``a,b,c`` (OpenAPI ``style: form, explode: false``)
    comma_list: bool = False


@dataclass(frozen=True)
class Operation:
    #: the shape of the success body (an api_models model, or a list of one), and its status
    ok: Any
    errors: tuple[int, ...] = ()
    status: int = 200
    body: type[BaseModel] | None = None
    query: tuple[Query, ...] = ()
    security: Security = None
    #: answers with a body of their own that are not errors, by status
    more: dict[int, Any] = field(default_factory=dict)
    #: when the handler's docstring does not say it
    summary: str | None = None


class _Writer:
    """Collects the components' schemas while the operations are written."""

    def __init__(self) -> None:
        self.schemas: dict[str, Any] = {}
        self.games = sorted(game.name for game in all_games())

    def schema_of(self, shape: Any, mode: Literal["validation", "serialization"]) -> Any:
        found = adapter(shape).json_schema(ref_template="#/components/schemas/{model}",
                                           mode=mode)
        for name, schema in found.pop("$defs", {}).items():
            self._component(name, schema)
        if isinstance(shape, type) and issubclass(shape, BaseModel):
            self._component(shape.__name__, found)
            return {"$ref": f"#/components/schemas/{shape.__name__}"}
        return found

    def _component(self, name: str, schema: Any) -> None:
        if self.schemas.setdefault(name, schema) != schema:
            raise ValueError(f"two different schemas are called {name}")

    def param(self, schema: dict[str, Any]) -> dict[str, Any]:
        return {"type": "string", "enum": self.games} if schema is GAME else schema

    def body(self, status: int, description: str, shape: Any) -> dict[str, Any]:
        if shape is None:
            return {"description": description}
        return {"description": description, "content": {"application/json": {
            "schema": self.schema_of(shape, "serialization")}}}

    def error(self, status: int) -> dict[str, Any]:
        return self.body(status, ERRORS.get(status, "an error"), Error)


def _summary(handler: Any, op: Operation) -> tuple[str, str | None]:
    doc = (getattr(handler, "__doc__", None) or "").strip()
    summary = op.summary or (doc.splitlines()[0] if doc else handler.__name__)
    return summary, " ".join(doc.split()) or None


def _parameters(writer: _Writer, path: str, op: Operation) -> list[dict[str, Any]]:
    params: list[dict[str, Any]] = []
    for name in [part[1:-1] for part in path.split("/") if part.startswith("{")]:
        schema, description = PATH_PARAMETERS[name]
        params.append({"name": name, "in": "path", "required": True,
                       "description": description, "schema": writer.param(schema)})
    for query in op.query:
        param = {"name": query.name, "in": "query", "required": query.required,
                 "description": query.description, "schema": writer.param(query.schema)}
        if query.comma_list:
            param.update(style="form", explode=False)
        params.append(param)
    if any(q.name == "invite" for q in op.query):
        params.append({"name": "X-Tavolo-Invite", "in": "header", "required": False,
                       "description": "a private match's invitation", "schema": {"type": "string"}})
    return params


def _statuses(method: str, op: Operation) -> list[int]:
    errors = {*op.errors, 500, 503}
    if op.security == "admin":
        errors |= {401, 403, 429}
    if method in ("POST", "DELETE"):
        errors |= {413, 415}
    return sorted(errors - set(op.more))


def _operation(writer: _Writer, route: web.AbstractRoute, path: str,
               op: Operation) -> dict[str, Any]:
    summary, description = _summary(route.handler, op)
    name = route.handler.__name__
    prefix = "admin_" if path.startswith("/api/admin") and not name.startswith("admin") else ""
    responses = {str(op.status): writer.body(op.status, "OK", op.ok)}
    responses.update({str(s): writer.body(s, ERRORS.get(s, "see the body"), shape)
                      for s, shape in op.more.items()})
    responses.update({str(s): writer.error(s) for s in _statuses(route.method, op)})
    operation: dict[str, Any] = {"summary": summary, "operationId":
                                 f"{route.method.lower()}_{prefix}{name}", "responses": responses}
    if description:
        operation["description"] = description
    if params := _parameters(writer, path, op):
        operation["parameters"] = params
    if op.security is not None:
        operation["security"] = SECURITY[op.security]
    if op.body is not None:
        required = bool(op.body.model_json_schema().get("required"))
        operation["requestBody"] = {"required": required, "content": {"application/json": {
            "schema": writer.schema_of(op.body, "validation")}}}
    return operation


def openapi_document(app: web.Application, version: str) -> dict[str, Any]:
    """OpenAPI 3.1 of every ``/api`` route of ``app`` (a route without an entry in
    ``app[OPERATIONS]`` is written as answering 200 with no described body)."""
    operations = app.get(OPERATIONS, {})
    writer, paths = _Writer(), {}
    for route in app.router.routes():
        path = route.resource.canonical if route.resource is not None else ""
        if not path.startswith("/api") or route.method in ("HEAD", "OPTIONS", "*"):
            continue
        op = operations.get((route.method, path), Operation(None))
        paths.setdefault(path, {})[route.method.lower()] = _operation(writer, route, path, op)
    writer.schema_of(Error, "serialization")
    return {"openapi": "3.1.0",
            "info": {"title": "Tavolo HTTP API", "version": version, "description":
                     "Every body is JSON; every error is {\"error\": {\"code\", \"message\"}} "
                     "with a stable code (README, \"Inspecting saved games\"; docs/protocol.md)."},
            "paths": dict(sorted(paths.items())),
            "components": {"schemas": dict(sorted(writer.schemas.items())),
                           "securitySchemes": SECURITY_SCHEMES}}
