"""WebSocket endpoints: ``/ws`` (canonical) and ``/ws/{dialect}``; one text frame per message."""

from __future__ import annotations

from collections.abc import AsyncIterator

from aiohttp import WSMsgType, web

from service.gateway.connection import serve_connection
from service.gateway.keys import HUB, SETTINGS, WS_GATE
from service.protocol.framing import FrameError
from service.sessions.dialects import CANONICAL, DIALECTS, Dialect

MAX_WS_MESSAGE = 64 * 1024


class WebSocketLink:
    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self.request = request

    def abort(self) -> None:
        if self.request.transport is not None:
            self.request.transport.abort()

    async def send(self, frame: str) -> None:
        await self.ws.send_str(frame)

    async def close(self) -> None:
        await self.ws.close()


async def _frames(ws: web.WebSocketResponse) -> AsyncIterator[str | FrameError]:
    async for message in ws:
        if message.type == WSMsgType.TEXT:
            yield message.data
        elif message.type == WSMsgType.BINARY:
            try:
                yield message.data.decode("utf-8")
            except UnicodeDecodeError:
                yield FrameError("protocol/bad_encoding", "frames must be UTF-8 text")
        elif message.type == WSMsgType.ERROR:
            return


async def _serve(request: web.Request, dialect: Dialect) -> web.StreamResponse:
    gate, address = request.app[WS_GATE], request.remote or "?"
    if not gate.admit(address):
        raise web.HTTPServiceUnavailable(text="too many connections")
    try:
        ws = web.WebSocketResponse(max_msg_size=MAX_WS_MESSAGE, heartbeat=30)
        await ws.prepare(request)
        name = f"{dialect.name} ws {address}"
        await serve_connection(request.app[HUB], dialect, WebSocketLink(ws, request), _frames(ws),
                               name=name, outbox=request.app[SETTINGS].outbox, address=address,
                               transport="ws")
        return ws
    finally:
        gate.release(address)


async def canonical_ws(request: web.Request) -> web.StreamResponse:
    return await _serve(request, CANONICAL)


async def dialect_ws(request: web.Request) -> web.StreamResponse:
    dialect = DIALECTS.get(request.match_info["dialect"])
    if dialect is None:
        raise web.HTTPNotFound(text=f"no dialect {request.match_info['dialect']!r}")
    return await _serve(request, dialect)


def add_routes(app: web.Application) -> None:
    app.router.add_get("/ws", canonical_ws)
    app.router.add_get("/ws/{dialect}", dialect_ws)
