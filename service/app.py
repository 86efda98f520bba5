"""create_app(settings): the one place where the layers are wired together."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

from aiohttp import web

from service.bots.policies import LEVELS
from service.cluster.node import ClusterNode, alone
from service.bots.seats import BotSeats
from service.bots.thinker import Thinker, process_pool
from service.gateway import http, websocket
from service.gateway.keys import BOTS, DESCRIPTORS, HUB, LISTENERS, SETTINGS, STORE, WS_GATE
from service.gateway.limits import (
    AcceptErrorFilter,
    ConnectionGate,
    DescriptorBudget,
    network_share,
)
from service.gateway.tcp import TcpListener
from service.gateway.websocket import OPEN_WEBSOCKETS
from service.sessions.dialects import CANONICAL, DIALECTS, Dialect
from service.sessions.admission import OpenLimits
from service.sessions.budget import FrameBudgets, FrameLimits
from service.sessions.accounts import Accounts, Policy as LoginPolicy
from service.sessions.hub import Hub
from service.sessions.limits import KINDS, CreationLimiter, CreationLimits, Rate
from service.settings import Settings, node_id_of
from service.store import Store
from service.store.engine import PoolSize

log = logging.getLogger("service")


def creation_limits(settings: Settings) -> CreationLimits:
    connection = Rate(settings.creation_burst_per_connection, settings.creation_per_minute_per_connection)
    address = Rate(settings.creation_burst_per_address, settings.creation_per_minute_per_address)
    return CreationLimits(per_connection={kind: connection for kind in KINDS},
                          per_address={kind: address for kind in KINDS})


def open_limits(settings: Settings) -> OpenLimits:
    return OpenLimits(waiting_per_player=settings.max_waiting_per_player,
                      waiting_per_address=settings.max_waiting_per_address,
                      bot_matches_per_player=settings.max_bot_matches_per_player,
                      bot_matches=settings.max_bot_matches)


def frame_limits(settings: Settings) -> FrameLimits:
    """What one connection, and one address, may cost in frames (sessions/budget.py)."""
    return FrameLimits(
        frames_per_second=settings.frames_per_second, frame_burst=settings.frame_burst,
        stranger_frames_per_second=settings.stranger_frames_per_second,
        stranger_frame_burst=settings.stranger_frame_burst,
        free_streak=settings.rejected_free_streak, close_streak=settings.rejected_close_streak,
        max_pause=settings.rejected_max_pause,
        rejected_per_address_burst=settings.rejected_burst_per_address,
        rejected_per_address_per_second=settings.rejected_per_second_per_address)


def gate(settings: Settings, name: str, budget: DescriptorBudget | None) -> ConnectionGate:
    total = settings.max_connections_per_listener
    return ConnectionGate(name, per_address=settings.max_connections_per_address, total=total,
                          per_network=network_share(total, settings.network_connection_share),
                          budget=budget)


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


async def _cluster_node(settings: Settings) -> ClusterNode:
    """This node: joined to the cluster over the bus and the database, or alone."""
    node_id = node_id_of(settings)
    if not settings.cluster_bus:
        return await alone(node_id)
    node = await ClusterNode.join(settings.cluster_bus, settings.database_url, node_id)
    log.info("node %s joined the cluster over the %s bus", node_id, node.bus_kind)
    return node


async def _store_ctx(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    store = Store(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous,
                  snapshot_every=settings.snapshot_every,
                  pool=PoolSize(settings.database_pool_size, settings.database_pool_overflow),
                  strangers_pool=PoolSize(settings.database_strangers_pool, 0, 10.0))
    if settings.migrate:
        await store.upgrade()
    app[STORE] = store
    app[HUB] = Hub(store, limits=CreationLimiter(creation_limits(settings)),
                   waiting_grace=settings.waiting_match_grace,
                   waiting_abort_after=settings.waiting_abort_after,
                   open_limits=open_limits(settings))
    app[HUB].heartbeat_scale = settings.heartbeat_scale
    app[HUB].frame_budgets = FrameBudgets(frame_limits(settings))
    app[HUB].lifecycle.stand_in_level = settings.stand_in_level
    app[HUB].accounts = Accounts(store, LoginPolicy(
        settings.login_failures_free, settings.login_wait_first, settings.login_wait_max,
        settings.login_address_failures))
    await app[HUB].bans.refresh()
    node = await _cluster_node(settings)
    app[HUB].join_cluster(node)
    yield
    await app[HUB].close()
    await node.close()
    await store.close()


async def _sweep_forever(hub: Hub, interval: float) -> None:
    while True:
        await asyncio.sleep(interval)
        try:
            aborted = await hub.lifecycle.sweep()
        except Exception:  # the store may be away: the next sweep tries again
            log.exception("lifecycle sweep failed")
            continue
        if aborted:
            log.info("aborted idle waiting match(es) %s", ", ".join(map(str, aborted)))


async def _lifecycle_ctx(app: web.Application) -> AsyncIterator[None]:
    """Sweep for idle waiting matches and away seats (service/sessions/lifecycle.py)."""
    task = asyncio.create_task(_sweep_forever(app[HUB], app[SETTINGS].lifecycle_sweep_interval),
                               name="lifecycle sweep")
    yield
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def _bots_ctx(app: web.Application) -> AsyncIterator[None]:
    """Server-side bots: they think in worker processes and resume their matches on start."""
    settings = app[SETTINGS]
    thinker = Thinker(process_pool(settings.bot_workers), budget=settings.bot_budget)
    bots = BotSeats(app[HUB], thinker, pace=settings.bot_pace)
    app[HUB].bot_levels = frozenset(LEVELS)
    app[BOTS] = bots
    resumed = await bots.resume()
    if resumed:
        log.info("bots resumed %s match(es)", resumed)
    yield
    await bots.close()


async def _listeners_ctx(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    quiet = AcceptErrorFilter(asyncio.get_running_loop())
    quiet.install()
    listeners: dict[str, TcpListener] = {}
    app[LISTENERS] = listeners
    budget = app[DESCRIPTORS]
    try:
        for dialect, port in listening_dialects(settings).items():
            listener = TcpListener(app[HUB], dialect, outbox=settings.outbox,
                                   gate=gate(settings, f"{dialect.name} tcp", budget),
                                   idle_timeout=settings.tcp_idle_timeout)
            await listener.start(settings.host, port, reuse_port=settings.reuse_port)
            listeners[dialect.name] = listener
            log.info("listening: %s on tcp %s:%s", dialect.name, settings.host, listener.port)
        yield
    finally:
        await asyncio.gather(*(listener.close() for listener in listeners.values()))
        quiet.remove()


async def _hang_up(app: web.Application) -> None:
    """``on_shutdown``: every WebSocket and TCP client is closed at once, each within the
    close timeout (gateway.limits.CLOSE_TIMEOUT) whether it answers or not."""
    drain = app[HUB].replication is not None  # other nodes take the matches over
    await asyncio.gather(app[OPEN_WEBSOCKETS].close_all(drain=drain),
                         *(listener.close() for listener in app.get(LISTENERS, {}).values()))


def create_app(settings: Settings) -> web.Application:
    app = web.Application()
    app[SETTINGS] = settings
    app[DESCRIPTORS] = DescriptorBudget(settings.fd_reserve)
    # a WebSocket is an upgraded connection of the HTTP port, whose gate (GatedSite) counts
    # its descriptor: counted here again, the process would hold half the sockets it can
    app[WS_GATE] = gate(settings, "websocket", None)
    app.cleanup_ctx.append(_store_ctx)
    app.cleanup_ctx.append(_lifecycle_ctx)
    app.cleanup_ctx.append(_bots_ctx)
    app.cleanup_ctx.append(_listeners_ctx)
    app.on_shutdown.append(_hang_up)
    http.add_routes(app)
    websocket.add_routes(app)
    return app
