"""Browser hygiene (README, "Who may create, and what the browser is told"): what every HTTP
response tells the browser, and the JSON-only rule for bodies that change something.

- Every response (pages, static files, the API, errors, the WebSocket handshake) carries a
  strict Content-Security-Policy (scripts, styles and connections from this origin only; no
  inline script or style; never framed), ``X-Frame-Options: DENY``,
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``. They are set when
  the response is prepared (``on_response_prepare``), so a 404 of the router or an error raised
  past every middleware carries them too.
- A POST, PUT, PATCH or DELETE under ``/api/`` that has a body must say
  ``Content-Type: application/json``; anything else is 415 ``http/unsupported_media_type`` and
  reaches no handler. Another site's page can send a form or a ``text/plain`` body without
  asking (a "simple" request); it cannot send JSON, nor an ``Authorization`` header, without a
  CORS preflight, which this server answers only for the configured origins (and only for GET).
"""

from __future__ import annotations

import functools
import re

from aiohttp import web
from aiohttp.typedefs import Handler

from service.gateway.api_errors import error_response

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
JSON = "application/json"
#: a Host header that may be written into the policy (anything else: no ws: source is added)
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")

BASE_POLICY = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",  # data: for the page's empty icon (index.html)
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)

FIXED_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@functools.lru_cache(maxsize=256)
def content_security_policy(host: str | None) -> str:
    """The policy for a page served under ``host``: its own origin, plus the WebSocket
    schemes of that same host (``'self'`` covers them in current browsers only). Remembered
    for the last hosts asked: every open WebSocket's response holds its header, one string
    for all of them rather than one each."""
    connect = "connect-src 'self'"
    if host and _HOST.match(host):
        connect += f" ws://{host} wss://{host}"
    return "; ".join((*BASE_POLICY, connect))


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """``on_response_prepare``: every response leaves with the headers of the module docs."""
    response.headers["Content-Security-Policy"] = content_security_policy(request.host)
    for name, value in FIXED_HEADERS.items():
        response.headers[name] = value


def _has_body(request: web.Request) -> bool:
    return bool(request.content_length) or "chunked" in request.headers.get(
        "Transfer-Encoding", "").lower()


@web.middleware
async def json_bodies_only(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A state-changing ``/api/`` request with a body that is not JSON: 415, nothing done."""
    if (request.method in STATE_CHANGING and request.path.startswith("/api/")
            and _has_body(request) and request.content_type != JSON):
        given = request.headers.get("Content-Type", "none")
        return error_response(415, "http/unsupported_media_type",
                              f"send the body as {JSON} (Content-Type: {given[:80]!r} is refused)")
    return await handler(request)


def install(app: web.Application) -> None:
    app.on_response_prepare.append(add_security_headers)
    app.middlewares.append(json_bodies_only)
