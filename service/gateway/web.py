"""The browser client's static files at ``/``, each game's rules at ``/rules/GAME``, and CORS
for ``/api`` from configured origins."""

from __future__ import annotations

from pathlib import Path

from aiohttp import web
from aiohttp.typedefs import Handler

from service.games.registry import all_games
from service.gateway.keys import SETTINGS

#: the browser client: static modules, no build step (see service/web/README.md)
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
#: each game's rules page (docs/rules/GAME.md beside the service package: the checkout the
#: service is installed from, editable, and the Docker image, which copies docs/rules)
RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"
CORS_METHODS = "GET, OPTIONS"


async def index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})


async def rules(request: web.Request) -> web.Response:
    """``/rules/GAME``: the game's rules page as Markdown, for the browser's rules screen."""
    game = request.match_info["game"]
    if game not in {g.name for g in all_games()}:
        raise web.HTTPNotFound(text=f"no game {game!r}")
    page = RULES_DIR / f"{game}.md"
    if not page.is_file():
        raise web.HTTPNotFound(text=f"the rules of {game} are not installed here ({page})")
    return web.Response(text=page.read_text(encoding="utf-8"), content_type="text/markdown",
                        charset="utf-8", headers={"Cache-Control": "no-cache"})


def _allowed_origin(request: web.Request) -> str | None:
    origin = request.headers.get("Origin")
    allowed = request.app[SETTINGS].cors_origins
    if origin is None or not allowed:
        return None
    if "*" in allowed:
        return "*"
    return origin if origin in allowed else None


@web.middleware
async def cors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """``/api`` answers pages of the configured origins; a preflight gets its headers."""
    if not request.path.startswith("/api/"):
        return await handler(request)
    origin = _allowed_origin(request)
    if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
        return _with_cors(web.Response(status=204 if origin else 403), origin)
    try:
        return _with_cors(await handler(request), origin)
    except web.HTTPException as exc:  # a 400 or 404 is readable by the page too
        raise _with_cors(exc, origin)


def _with_cors(response: web.StreamResponse, origin: str | None) -> web.StreamResponse:
    if origin is not None:
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Allow-Methods"] = CORS_METHODS
        response.headers["Access-Control-Allow-Headers"] = "Content-Type"
        if origin != "*":
            response.headers["Vary"] = "Origin"
    return response


def add_routes(app: web.Application) -> None:
    app.middlewares.append(cors)
    app.router.add_get("/", index)
    app.router.add_get("/rules/{game}", rules)
    app.router.add_static("/web/", WEB_DIR, append_version=False)
