"""The bus over Redis pub/sub (the choice of Colyseus and lichess).

Redis delivers a PUBLISH to every connection subscribed at that moment, in the order the
server executes the PUBLISH commands; this bus sends all of a node's messages through one
connection, pipelined in call order, so per subject one node's messages arrive in order.
Nothing is stored: a subscriber whose connection drops misses what is published until
redis-py reconnects it (and resubscribes, which it does by itself). PUBLISH answers how many
subscribers got the message, so a request nobody serves fails at once (NoResponder).
Subscriptions map to SUBSCRIBE (a subject) and PSUBSCRIBE ``prefix.*`` (a prefix).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from service.cluster.bus import BusUnavailable, Subscription, client_library, engine_address
from service.cluster.envelope import OutboxBus

log = logging.getLogger("service.cluster.bus")

#: wait after a failed read from the subscriber connection before trying again
RETRY_PAUSE = 0.5
#: how long a SUBSCRIBE may wait for the server's confirmation
CONFIRM_TIMEOUT = 10.0


class RedisBus(OutboxBus):
    kind = "redis"

    def __init__(self, client: Any, sender: Any, pubsub: Any) -> None:
        super().__init__()
        self._client = client
        self._sender = sender
        self._pubsub = pubsub
        self._reader: asyncio.Task[None] | None = None
        self._confirming: dict[tuple[str, str], asyncio.Future[None]] = {}

    @classmethod
    async def connect(cls, url: str, *, name: str = "tavolo") -> RedisBus:
        aioredis = client_library("redis.asyncio", cls.kind, "redis")
        client = aioredis.from_url(url, client_name=f"{name}-bus", socket_connect_timeout=5)
        # one connection for everything the node sends: order on the wire is call order
        sender = aioredis.from_url(url, client_name=f"{name}-bus-out", socket_connect_timeout=5,
                                   max_connections=1)
        try:
            await client.ping()
            await sender.ping()
        except Exception as exc:
            await client.aclose()
            await sender.aclose()
            raise BusUnavailable(f"Redis at {engine_address(url)} is unreachable: {exc}") from None
        bus = cls(client, sender, client.pubsub())
        # a channel of its own keeps the subscriber connection open before any subscription
        await bus._pubsub.subscribe(f"_bus.{bus.bus_id}")
        bus._reader = asyncio.get_running_loop().create_task(bus._read(), name="bus-in:redis")
        return bus

    async def _flush(self, batch: list[tuple[str, bytes]]) -> list[int | None]:
        async with self._sender.pipeline(transaction=False) as pipe:
            for subject, envelope in batch:
                pipe.publish(subject, envelope)
            return list(await pipe.execute())

    async def _subscribe(self, sub: Subscription) -> None:
        kind, channel = (("psubscribe", sub.subject + ".*") if sub.prefix
                         else ("subscribe", sub.subject))
        if not self.router.add(sub):
            # the channel is subscribed, or about to be: wait for the server's word as well
            pending = self._confirming.get((kind, channel))
            if pending is not None:
                await asyncio.wait_for(asyncio.shield(pending), CONFIRM_TIMEOUT)
            return
        confirmed = asyncio.get_running_loop().create_future()
        self._confirming[(kind, channel)] = confirmed
        try:
            await getattr(self._pubsub, kind)(channel)
            # the server's confirmation: from here on, every PUBLISH reaches this subscription
            await asyncio.wait_for(confirmed, CONFIRM_TIMEOUT)
        except Exception as exc:
            self.router.remove(sub)
            raise BusUnavailable(f"the redis bus could not subscribe: "
                                 f"{str(exc) or type(exc).__name__}") from None
        finally:
            self._confirming.pop((kind, channel), None)

    async def _unsubscribe(self, sub: Subscription) -> None:
        if self.router.remove(sub) and not self.closed:
            if sub.prefix:
                await self._pubsub.punsubscribe(sub.subject + ".*")
            else:
                await self._pubsub.unsubscribe(sub.subject)

    async def _read(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the connection dropped: redis-py reconnects on the next read
                log.warning("redis bus: subscriber connection failed (%s); reconnecting", exc)
                await asyncio.sleep(RETRY_PAUSE)
                continue
            if message is not None:
                self._dispatch(message)

    def _dispatch(self, message: dict[str, Any]) -> None:
        channel = message["channel"].decode()
        confirmed = self._confirming.get((message["type"], channel))
        if confirmed is not None and not confirmed.done():
            confirmed.set_result(None)
        elif message["type"] == "message":
            self.router.deliver_exact(channel, message["data"])
        elif message["type"] == "pmessage":
            prefix = message["pattern"].decode()[:-2]
            self.router.deliver_prefix(prefix, channel, message["data"])

    async def _close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)
        await self._stop_local()
        await self._pubsub.aclose()
        await self._client.aclose()
        await self._sender.aclose()
