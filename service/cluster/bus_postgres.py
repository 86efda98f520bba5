"""The bus over PostgreSQL LISTEN/NOTIFY: no engine beyond the database the cluster has.

Every message goes on one channel (``tavolo_bus``, per database) as text: the subject, the
message's id, its chunk number and count, and the envelope in base64. NOTIFY carries less
than 8000 bytes, so a larger envelope is cut into chunks sent in one transaction and put
together again by each listener. PostgreSQL delivers the notifications of a transaction
together, in the order sent, and transactions in commit order, to every session listening
when they commit; this bus sends a node's messages through one connection, batched in call
order, so per subject one node's messages arrive in order. Nothing is kept for a listener
that was not connected (at most once). Every node receives every message and keeps what its
subscriptions match. A request nobody serves can only time out (NOTIFY cannot tell).
"""

from __future__ import annotations

import asyncio
import base64
import logging
from typing import Any

from service.cluster.bus import BusUnavailable, Subscription
from service.cluster.envelope import OutboxBus
from service.cluster.ownership import asyncpg_dsn

log = logging.getLogger("service.cluster.bus")

CHANNEL = "tavolo_bus"
#: base64 characters per NOTIFY (the whole payload stays under PostgreSQL's 8000 bytes)
CHUNK = 7600
#: partly received messages kept at most (a transaction's chunks arrive together, so few)
PARTIAL_LIMIT = 1000
RETRY_PAUSE = 0.5


def notifications(subject: str, message_id: str, envelope: bytes) -> list[str]:
    """The NOTIFY payloads that carry one envelope."""
    text = base64.b64encode(envelope).decode("ascii")
    pieces = [text[i:i + CHUNK] for i in range(0, len(text), CHUNK)] or [""]
    return [f"{subject} {message_id} {n} {len(pieces)} {piece}" for n, piece in enumerate(pieces)]


class PostgresBus(OutboxBus):
    kind = "postgresql"

    def __init__(self, dsn: str, name: str, sender: Any) -> None:
        super().__init__()
        self._dsn = dsn
        self._name = name
        self._sender = sender
        self._listener: Any = None
        self._partial: dict[str, list[str | None]] = {}
        self._reconnecting: asyncio.Task[None] | None = None
        self._sent = 0

    @classmethod
    async def connect(cls, url: str, *, name: str = "tavolo") -> PostgresBus:
        dsn = asyncpg_dsn(url)
        bus = cls(dsn, name, await _connect(dsn, f"{name}-bus-out"))
        try:
            await bus._listen()
        except BaseException:
            await bus._sender.close()
            raise
        return bus

    async def _listen(self) -> None:
        listener = await _connect(self._dsn, f"{self._name}-bus")
        await listener.add_listener(CHANNEL, self._on_notify)
        listener.add_termination_listener(self._on_terminated)
        self._listener = listener

    def _on_terminated(self, connection: Any) -> None:
        if self.closed or self._reconnecting is not None:
            return
        log.warning("postgresql bus: listening connection lost; reconnecting")
        self._reconnecting = asyncio.get_running_loop().create_task(self._relisten())

    async def _relisten(self) -> None:
        try:
            while not self.closed:
                try:
                    await self._listen()
                    return
                except BusUnavailable as exc:
                    log.warning("postgresql bus: %s", exc)
                    await asyncio.sleep(RETRY_PAUSE)
        finally:
            self._reconnecting = None

    def _on_notify(self, connection: Any, pid: int, channel: str, payload: str) -> None:
        try:
            subject, message_id, index, count, piece = payload.split(" ", 4)
            envelope = self._assemble(message_id, int(index), int(count), piece)
        except ValueError:
            log.warning("postgresql bus: a notification not of this bus on %s", channel)
            return
        if envelope is not None:
            self.router.deliver_all(subject, envelope)

    def _assemble(self, message_id: str, index: int, count: int, piece: str) -> bytes | None:
        if count == 1:
            return base64.b64decode(piece)
        parts = self._partial.setdefault(message_id, [None] * count)
        parts[index] = piece
        if any(part is None for part in parts):
            if len(self._partial) > PARTIAL_LIMIT:
                self._partial.pop(next(iter(self._partial)))
            return None
        del self._partial[message_id]
        return base64.b64decode("".join(part for part in parts if part is not None))

    async def _flush(self, batch: list[tuple[str, bytes]]) -> list[int | None]:
        rows: list[tuple[str, str]] = []
        for subject, envelope in batch:
            self._sent += 1
            rows += [(CHANNEL, text) for text in
                     notifications(subject, f"{self.bus_id}.{self._sent}", envelope)]
        if self._sender.is_closed():
            self._sender = await _connect(self._dsn, f"{self._name}-bus-out")
        async with self._sender.transaction():
            await self._sender.executemany("SELECT pg_notify($1, $2)", rows)
        return [None] * len(batch)

    async def _subscribe(self, sub: Subscription) -> None:
        self.router.add(sub)

    async def _unsubscribe(self, sub: Subscription) -> None:
        self.router.remove(sub)

    async def _close(self) -> None:
        if self._reconnecting is not None:
            self._reconnecting.cancel()
            await asyncio.gather(self._reconnecting, return_exceptions=True)
        await self._stop_local()
        for connection in (self._listener, self._sender):
            if connection is not None and not connection.is_closed():
                await connection.close(timeout=5)


async def _connect(dsn: str, application_name: str) -> Any:
    import asyncpg
    try:
        return await asyncpg.connect(dsn, timeout=10,
                                     server_settings={"application_name": application_name[:63]})
    except Exception as exc:
        where = dsn.split("://", 1)[-1].rsplit("@", 1)[-1]
        raise BusUnavailable(f"PostgreSQL at {where} is unreachable: "
                             f"{str(exc) or type(exc).__name__}") from None
