"""create_app(settings): the one place where the layers are wired together."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from aiohttp import web

from service.gateway import http, websocket
from service.gateway.keys import HUB, LISTENERS, SETTINGS, STORE
from service.gateway.tcp import start_listener
from service.sessions.dialects import CANONICAL, DIALECTS, Dialect
from service.sessions.hub import Hub
from service.settings import Settings
from service.store import Store

log = logging.getLogger("service")


def listening_dialects(settings: Settings) -> dict[Dialect, int]:
    """Each dialect that listens on TCP, with its port (0: any free port)."""
    known = {**DIALECTS, CANONICAL.name: CANONICAL}
    unknown = sorted(set(settings.listen) - set(known))
    if unknown:
        raise ValueError(f"unknown dialect(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    chosen: dict[Dialect, int] = {}
    for name, dialect in known.items():
        port = settings.listen.get(name, dialect.default_port)
        if port is not None:
            chosen[dialect] = port
    return chosen


async def _store_ctx(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    store = Store(settings.database_url)
    if settings.migrate:
        await store.upgrade()
    app[STORE] = store
    app[HUB] = Hub(store)
    yield
    await store.close()


async def _listeners_ctx(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    servers: dict[str, asyncio.Server] = {}
    app[LISTENERS] = servers
    try:
        for dialect, port in listening_dialects(settings).items():
            server = await start_listener(app[HUB], dialect, settings.host, port,
                                          outbox=settings.outbox)
            servers[dialect.name] = server
            bound = server.sockets[0].getsockname()
            log.info("listening: %s on tcp %s:%s", dialect.name, bound[0], bound[1])
        yield
    finally:
        for server in servers.values():
            server.close()
        for server in servers.values():
            try:  # from Python 3.12 this also waits for open connections: bound it
                await asyncio.wait_for(server.wait_closed(), timeout=5)
            except asyncio.TimeoutError:
                log.warning("some connections were still open at shutdown")


def create_app(settings: Settings) -> web.Application:
    app = web.Application()
    app[SETTINGS] = settings
    app.cleanup_ctx.append(_store_ctx)
    app.cleanup_ctx.append(_listeners_ctx)
    http.add_routes(app)
    websocket.add_routes(app)
    return app
