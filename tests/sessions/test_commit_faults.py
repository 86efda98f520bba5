"""Issue 25: every fault on the commit path gets an honest answer (``store/unavailable``: not
applied; ``store/unknown_outcome``: may be applied), never ``service/internal``; nothing
acknowledged is lost; the service recovers by itself.

The PostgreSQL fast restart is played without touching the shared server: another connection
terminates the appender's backend (``pg_terminate_backend``, the same FATAL ``57P01`` a fast
restart sends) while many matches have actions in flight."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import pytest
from sqlalchemy.engine import make_url
from test_hub import first_legal

from service.errors import StoreError
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.store import PlayerRecord, Store

MATCHES = 6
KILLS = 5
#: actions every match makes after the last kill (the service has recovered)
AFTER = 5
HONEST_ANSWERS = {"store/unavailable", "store/unknown_outcome"}


@dataclass
class Driver:
    """Plays one match as fast as the store lets it, resending an unanswered action with
    the same client id (the duplicate check tells whether it was applied)."""

    hub: Hub
    runtime: MatchRuntime
    players: list[PlayerRecord]
    acked: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    sent: int = 0

    async def act_once(self) -> None:
        runtime = self.runtime
        seat = min(runtime.game.to_act(runtime.state))
        client_id = f"m{runtime.id}-{self.sent}"
        action = first_legal(runtime, seat)
        while True:
            try:
                result = await runtime.act(self.players[seat].id, action, client_id)
            except StoreError as exc:
                self.errors.append(exc.code)
                await self._recovered()
                continue
            self.acked[client_id] = result.version
            self.sent += 1
            return

    async def _recovered(self) -> None:
        while self.runtime.broken:
            recovery = self.hub.recovery(self.runtime.id)
            if recovery is not None:
                await recovery
            else:
                await asyncio.sleep(0.05)


async def _drivers(hub: Hub) -> list[Driver]:
    drivers = []
    for n in range(MATCHES):
        alice = (await hub.identify(nickname=f"alice{n}")).player
        bob = (await hub.identify(nickname=f"bob{n}")).player
        runtime, _ = await hub.quick_join("dolphinfox", alice)
        same, _ = await hub.quick_join("dolphinfox", bob)
        assert same is runtime
        drivers.append(Driver(hub, runtime, [alice, bob]))
    return drivers


async def _play(driver: Driver, stop: asyncio.Event) -> None:
    while not stop.is_set() and driver.runtime.status == "active":
        await driver.act_once()


def _acks(drivers: list[Driver]) -> int:
    return sum(len(d.acked) for d in drivers)


async def _kill_appender(store: Store, drivers: list[Driver]) -> list[int]:
    """Terminate the appender's backend KILLS times, each time once the matches made
    progress on the connection before (so each kill lands on a busy, fresh connection)."""
    dsn = make_url(store.url).set(drivername="postgresql").render_as_string(hide_password=False)
    killer = await asyncpg.connect(dsn)
    killed: list[int] = []
    try:
        while len(killed) < KILLS:
            pid = store._appender.backend_pid  # type: ignore[attr-defined]
            if pid is None or pid in killed:
                await asyncio.sleep(0.01)
                continue
            mark = _acks(drivers)
            while _acks(drivers) < mark + 5:
                await asyncio.sleep(0.005)
            assert await killer.fetchval("SELECT pg_terminate_backend($1)", pid)
            killed.append(pid)
    finally:
        await killer.close()
    return killed


async def _check_log(store: Store, driver: Driver) -> None:
    saved = {a.client_id: a.seq for a in await store.actions(driver.runtime.id)}
    assert saved == driver.acked  # every ack saved, at its version; nothing unacknowledged
    assert driver.runtime.version == len(saved)
    reloaded = await Hub(store).get(driver.runtime.id)
    assert reloaded.version == driver.runtime.version and reloaded.state == driver.runtime.state


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_a_terminated_append_connection_answers_honestly_and_loses_nothing(
        store: Store) -> None:
    hub = Hub(store)
    drivers = await _drivers(hub)
    stop = asyncio.Event()
    players = [asyncio.create_task(_play(d, stop)) for d in drivers]
    try:
        killed = await asyncio.wait_for(_kill_appender(store, drivers), timeout=120)
    finally:
        stop.set()
        await asyncio.wait_for(asyncio.gather(*players), timeout=120)
    errors = [code for d in drivers for code in d.errors]
    assert set(errors) <= HONEST_ANSWERS, errors  # never service/internal, never a traceback
    assert errors, "no kill reached an action in flight"
    assert len(set(killed)) == KILLS  # a fresh connection after each kill
    for driver in drivers:  # the service recovered: later actions go through
        if driver.runtime.status == "active":
            for _ in range(AFTER):
                await asyncio.wait_for(driver.act_once(), timeout=60)
    assert store._appender.backend_pid not in killed  # type: ignore[attr-defined]
    for driver in drivers:
        await _check_log(store, driver)
    await hub.close()


class CutProxy:
    """A TCP proxy in front of PostgreSQL whose ``cut()`` drops every connection through it
    at once, both ways, whatever was in flight (a network cut mid-statement or mid-COMMIT:
    no FATAL message, the driver just loses its socket)."""

    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self.transports: list[asyncio.WriteTransport] = []
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        self.transports += [writer.transport, up_writer.transport]
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer),
                             return_exceptions=True)

    def cut(self) -> None:
        transports, self.transports = self.transports, []
        for transport in transports:
            transport.abort()

    async def close(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.transport.abort()


async def _cut_often(proxy: CutProxy, drivers: list[Driver]) -> None:
    for _ in range(KILLS):
        mark = _acks(drivers)
        while _acks(drivers) < mark + 5:
            await asyncio.sleep(0.005)
        proxy.cut()


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_a_network_cut_mid_commit_answers_honestly_and_loses_nothing(
        database_url: str) -> None:
    url = make_url(database_url)
    proxy = CutProxy(url.host or "127.0.0.1", url.port or 5432)
    proxied = url.set(host="127.0.0.1", port=await proxy.start())
    store = Store(proxied.render_as_string(hide_password=False))
    await store.upgrade()
    hub = Hub(store)
    try:
        drivers = await _drivers(hub)
        stop = asyncio.Event()
        players = [asyncio.create_task(_play(d, stop)) for d in drivers]
        try:
            await asyncio.wait_for(_cut_often(proxy, drivers), timeout=120)
        finally:
            stop.set()
            await asyncio.wait_for(asyncio.gather(*players), timeout=120)
        errors = [code for d in drivers for code in d.errors]
        assert set(errors) <= HONEST_ANSWERS, errors
        assert errors, "no cut reached an action in flight"
        for driver in drivers:
            if driver.runtime.status == "active":
                for _ in range(AFTER):
                    await asyncio.wait_for(driver.act_once(), timeout=60)
        for driver in drivers:
            await _check_log(store, driver)
    finally:
        await hub.close()
        await store.close()
        await proxy.close()
