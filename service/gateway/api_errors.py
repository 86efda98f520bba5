"""Every HTTP error as JSON, ``{"error": {"code", "message"}}``, with the protocols' codes.

Handlers raise ServiceError (its code decides the status) or aiohttp's HTTP exceptions (their
status decides the code); anything else is logged and answered 500 ``service/internal``."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from service import metrics
from service.errors import ProtocolError, ServiceError, SessionError
from service.store import MAX_ID

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

#: the status of a ServiceError, by code; any other code is a 400
STATUS_OF_CODE: dict[str, int] = {
    "session/no_such_match": 404,
    "session/unknown_game": 404,
    "session/no_such_version": 404,
    "store/unavailable": 503,
    "store/unknown_outcome": 503,
    "session/rate_limited": 429,
    "session/bad_token": 401,
    "session/match_not_over": 409,
    "session/token_required": 401,
    "session/bad_password": 401,
    "session/bad_recovery_code": 401,
    "session/throttled": 429,
    "session/banned": 403,
    "session/unknown_player": 404,
    "session/no_such_device": 404,
    "session/nickname_taken": 409,
}

#: the code of an aiohttp HTTP exception, by status; any other is ``http/<status>``
CODE_OF_STATUS: dict[int, str] = {
    400: "protocol/bad_message",
    404: "http/not_found",
    405: "http/method_not_allowed",
    413: "protocol/frame_too_long",
    503: "service/unavailable",
}


def error_response(status: int, code: str, message: str,
                   headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response({"error": {"code": code, "message": message}}, status=status,
                             headers=headers)


def status_of(exc: ServiceError) -> int:
    return STATUS_OF_CODE.get(exc.code, 400)


@web.middleware
async def json_errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except ServiceError as exc:
        metrics.ERRORS.labels(exc.code).inc()
        retry_after = exc.details.get("retry_after")
        return web.json_response(
            {"error": exc.to_dict()}, status=status_of(exc),
            headers={"Retry-After": str(retry_after)} if retry_after else None)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        message = exc.text if exc.text and not exc.text.startswith(f"{exc.status}:") else exc.reason
        kept = {k: v for k, v in exc.headers.items() if k.lower() in ("allow", "retry-after")}
        return error_response(exc.status, CODE_OF_STATUS.get(exc.status, f"http/{exc.status}"),
                              message, kept)
    except Exception:  # the one place an unexpected failure of a handler ends up
        log.exception("%s %s failed", request.method, request.path)
        metrics.ERRORS.labels("service/internal").inc()
        return error_response(500, "service/internal", "internal error")


def number(raw: str, what: str) -> int:
    """A non-negative decimal integer no larger than the store's keys, else 400."""
    if not (raw.isascii() and raw.isdigit()) or int(raw) > MAX_ID:
        raise ProtocolError(f"{what} must be a whole number from 0 to {MAX_ID}",
                            code="protocol/bad_message")
    return int(raw)


class NoSuchMatch(SessionError):
    code = "session/no_such_match"

    def __init__(self) -> None:
        super().__init__("no such match")


def match_id_of(request: web.Request) -> int:
    return number(request.match_info["match_id"], "a match id")
