"""WebSocket endpoints: ``/ws`` (canonical) and ``/ws/{dialect}``; one text frame per message.

Every close handshake is bounded (CLOSE_TIMEOUT): a client that does not answer the close
frame, or does not read at all, is cut off then. On shutdown every WebSocket is closed at once
("going away"), so the server never waits on its clients for longer than that."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from aiohttp import WSCloseCode, WSMsgType, web

from service.gateway.connection import serve_connection
from service.gateway.keys import HUB, SETTINGS, WS_GATE
from service.gateway.limits import CLOSE_TIMEOUT
from service.protocol.framing import FrameError
from service.sessions.dialects import CANONICAL, DIALECTS, Dialect

log = logging.getLogger(__name__)

MAX_WS_MESSAGE = 64 * 1024
#: the status logged for a client that hung up before its answer could be sent (nginx's)
CLIENT_CLOSED = 499


class WebSocketLink:
    __slots__ = ("ws", "request")

    def __init__(self, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.ws = ws
        self.request = request

    def abort(self) -> None:
        if self.request.transport is not None:
            self.request.transport.abort()

    async def send(self, frame: str) -> None:
        await self.ws.send_str(frame)

    async def close(self, code: int = WSCloseCode.OK, message: bytes = b"") -> None:
        """The close handshake, cut off after CLOSE_TIMEOUT. (The response's own timeout bounds
        the wait for the client's close frame; this bounds the send too, which waits for
        as long as a client does not read.)"""
        try:
            await asyncio.wait_for(self.ws.close(code=code, message=message),
                                   CLOSE_TIMEOUT + 0.5)
        except asyncio.TimeoutError:
            self.abort()
        except (ConnectionError, RuntimeError):
            pass


class OpenWebSockets:
    """The WebSockets being served, so that shutdown can close them all at once."""

    def __init__(self) -> None:
        self.links: set[WebSocketLink] = set()
        self.shutting_down = False

    async def close_all(self, *, drain: bool = False) -> None:
        """On shutdown: say "going away" to every client at once; done within CLOSE_TIMEOUT
        (plus a margin), answered or not. New WebSockets are refused from now on. A node of a
        cluster that drains says 1012 (service restart) instead: reconnect (to any node)
        and resume (docs/protocol.md)."""
        self.shutting_down = True
        code, reason = ((WSCloseCode.SERVICE_RESTART, b"node draining: reconnect and resume")
                        if drain else (WSCloseCode.GOING_AWAY, b"server shutting down"))
        await asyncio.gather(*(link.close(code, reason) for link in list(self.links)))


OPEN_WEBSOCKETS = web.AppKey("open_websockets", OpenWebSockets)


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
    open_websockets = request.app[OPEN_WEBSOCKETS]
    if open_websockets.shutting_down:
        raise web.HTTPServiceUnavailable(text="shutting down")
    if not gate.admit(address):
        raise web.HTTPServiceUnavailable(text="too many connections")
    try:
        ws = web.WebSocketResponse(max_msg_size=MAX_WS_MESSAGE, heartbeat=30, timeout=CLOSE_TIMEOUT)
        try:
            await ws.prepare(request)
        except ConnectionError:  # no fault of ours: nothing to serve, one line to say so
            log.info("%s %s from %s: the client hung up during the WebSocket upgrade",
                     request.method, request.path, address)
            return web.Response(status=CLIENT_CLOSED, reason="Client Closed Request")
        name = f"{dialect.name} ws {address}"
        link = WebSocketLink(ws, request)
        open_websockets.links.add(link)
        try:
            await serve_connection(request.app[HUB], dialect, link, _frames(ws), name=name,
                                   outbox=request.app[SETTINGS].outbox, address=address,
                                   transport="ws")
        finally:
            open_websockets.links.discard(link)
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
    app[OPEN_WEBSOCKETS] = OpenWebSockets()  # closed on shutdown by app.py
    app.router.add_get("/ws", canonical_ws)
    app.router.add_get("/ws/{dialect}", dialect_ws)
