"""What ``/metrics`` says of the HTTP side and of the matches this node runs: every request
counted and timed by method, route and status (the route's canonical path, such as
``/api/matches/{match_id}``, never the raw URL: one series per route, not per id), the live
matches by status counted when scraped, and every dialect's connection series present from
the start (at 0)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

from aiohttp import web
from aiohttp.typedefs import Handler

from service import metrics
from service.bots.policies import LEVELS
from service.games.registry import all_games
from service.gateway.keys import HUB
from service.sessions.dialects import CANONICAL, DIALECTS
from service.sessions.lifecycle import ENDED_OUTSIDE_RULES
from service.transfer import tavolo_version

#: the route label of a request that matched no route (404s: their paths are not labels)
UNMATCHED = "unmatched"
#: the transports every dialect is served on (gateway/tcp.py, gateway/websocket.py)
TRANSPORTS = ("tcp", "ws")
#: the status counted for a request whose client went away before the answer
CLIENT_GONE = 499

#: who aborts a match (sessions/lifecycle.py); the reasons of finishes outside the rules
#: are lifecycle's own ENDED_OUTSIDE_RULES
ABORTED_BY = ("admin", "idle", "inactive")
FALLBACK_REASONS = ("loop", "timeout", "failed")


def preset_series() -> None:
    """Every series whose labels are known beforehand, at 0 from the start: dashboards and
    alerts see every dialect, game and bot level before the first client, match or move;
    and the build's version."""
    metrics.BUILD_INFO.info({"version": tavolo_version()})
    for dialect in (CANONICAL.name, *DIALECTS):
        for transport in TRANSPORTS:
            metrics.CONNECTIONS.labels(dialect, transport)
    for game in (g.name for g in all_games()):
        metrics.ACTIONS.labels(game)
        metrics.ACK_SECONDS.labels(game)
        metrics.MATCHES_CREATED.labels(game)
        for by in ABORTED_BY:
            metrics.MATCHES_ABORTED.labels(game, by)
        for reason in sorted(ENDED_OUTSIDE_RULES):
            metrics.MATCHES_FINISHED.labels(game, reason)
        for reason in FALLBACK_REASONS:
            metrics.BOT_FALLBACKS.labels(game, reason)
        for level in LEVELS:
            metrics.BOT_THINK_SECONDS.labels(game, level)


preset_series()


def route_of(request: web.Request) -> str:
    resource = request.match_info.route.resource
    if resource is None or request.match_info.http_exception is not None:
        return UNMATCHED
    return resource.canonical


@web.middleware
async def measured(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Counts and times every request (the outermost middleware: the status is the one sent)."""
    started, status = time.perf_counter(), 500
    try:
        response = await handler(request)
        status = response.status
        return response
    except web.HTTPException as exc:
        status = exc.status
        raise
    except asyncio.CancelledError:
        status = CLIENT_GONE
        raise
    finally:
        route = route_of(request)
        metrics.HTTP_REQUESTS.labels(request.method, route, str(status)).inc()
        metrics.HTTP_SECONDS.labels(request.method, route).observe(time.perf_counter() - started)


async def _live_matches(app: web.Application) -> AsyncIterator[None]:
    """Counts this app's matches when ``/metrics`` is scraped (those it owns: over a cluster
    each match is counted once, by its owner's node)."""
    def statuses() -> list[str]:
        return [runtime.status for runtime in app[HUB].live() if runtime.owned]

    metrics.LIVE_BY_STATUS.source = statuses
    yield
    if metrics.LIVE_BY_STATUS.source is statuses:
        metrics.LIVE_BY_STATUS.source = None


def install(app: web.Application) -> None:
    app.middlewares.insert(0, measured)
    app.cleanup_ctx.append(_live_matches)
