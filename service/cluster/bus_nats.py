"""The bus over NATS core (not JetStream): subjects, prefix wildcards and request/reply are
the engine's own.

NATS delivers a message to every subscription whose interest exists when the server routes
it, in the order one connection published (per publisher connection, per subject); nothing is
stored (at most once). nats-py reconnects by itself and re-registers every subscription; what
is published while a node is cut off is lost to it. A request nobody serves fails at once
(the server's no-responders status). A prefix subscription is the wildcard ``prefix.>``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from service.cluster.bus import (Bus, BusError, BusUnavailable, NoResponder, RemoteError,
                                 RequestTimeout, Responder, Subscription, check_payload,
                                 check_subject, client_library, engine_address)

log = logging.getLogger("service.cluster.bus")

ERROR_HEADER = "Tavolo-Error"
CONNECT_TIMEOUT = 10.0


class NatsBus(Bus):
    kind = "nats"

    def __init__(self, client: Any) -> None:
        super().__init__()
        self._client = client
        self._engine_subs: dict[Subscription, Any] = {}
        self._answering: set[asyncio.Task[None]] = set()

    @classmethod
    async def connect(cls, url: str, *, name: str = "tavolo") -> NatsBus:
        nats = client_library("nats", cls.kind, "nats-py")

        async def quiet(exc: Exception) -> None:
            log.warning("nats bus: %s", str(exc) or type(exc).__name__)

        where = engine_address(url)
        # nats-py retries a first connection for ever when reconnects are unbounded: the
        # first one is tried by hand, so an engine that is down is one clear error
        try:
            await _reachable(where)
            client = await asyncio.wait_for(
                nats.connect(url, name=f"{name}-bus", connect_timeout=5, allow_reconnect=True,
                             max_reconnect_attempts=-1, reconnect_time_wait=0.5, error_cb=quiet),
                CONNECT_TIMEOUT)
        except Exception as exc:
            raise BusUnavailable(f"NATS at {where} is unreachable: "
                                 f"{str(exc) or type(exc).__name__}") from None
        return cls(client)

    async def publish(self, subject: str, data: bytes) -> None:
        self._check_open()
        subject, data = check_subject(subject), check_payload(data)
        try:
            await self._client.publish(subject, data)
        except BusError:
            raise
        except Exception as exc:
            raise BusUnavailable(f"the nats bus could not send: "
                                 f"{str(exc) or type(exc).__name__}") from exc

    async def _subscribe(self, sub: Subscription) -> None:
        async def on_message(msg: Any) -> None:
            sub.deliver(msg.subject, msg.data)

        wildcard = sub.subject + ".>" if sub.prefix else sub.subject
        self._engine_subs[sub] = await self._client.subscribe(wildcard, cb=on_message)
        await self._registered()

    async def _unsubscribe(self, sub: Subscription) -> None:
        engine_sub = self._engine_subs.pop(sub, None)
        if engine_sub is not None and not self.closed:
            await engine_sub.unsubscribe()

    async def serve(self, subject: str, responder: Responder) -> Subscription:
        async def on_request(msg: Any) -> None:
            task = asyncio.get_running_loop().create_task(self._answer(responder, msg))
            self._answering.add(task)
            task.add_done_callback(self._answering.discard)

        self._check_open()
        sub = Subscription(check_subject(subject), False, _never, self._unsubscribe)
        self._engine_subs[sub] = await self._client.subscribe(subject, cb=on_request)
        await self._registered()
        return sub

    async def _registered(self) -> None:
        """A PING round trip: the server has the subscriptions sent before it.

        The round trip runs in a task of its own that a caller's cancellation does not
        reach: nats-py keeps the flush's future in its queue of PONGs awaited, and a future
        cancelled there stops its reading task for good at the next PONG (nats-py 2.16:
        InvalidStateError in _process_pong), leaving a node deaf on the bus."""
        flush = asyncio.ensure_future(self._client.flush(timeout=10))
        try:
            await asyncio.shield(flush)
        except asyncio.CancelledError:
            flush.add_done_callback(lambda f: f.cancelled() or f.exception())
            raise
        except Exception as exc:
            raise BusUnavailable(f"the nats bus could not subscribe: "
                                 f"{str(exc) or type(exc).__name__}") from None

    async def _answer(self, responder: Responder, msg: Any) -> None:
        if not msg.reply:
            return
        headers: dict[str, str] | None = None
        try:
            reply = check_payload(await responder(msg.subject, msg.data))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the requester hears of it as RemoteError
            log.warning("bus responder on %s failed: %r", msg.subject, exc)
            reply, headers = b"", {ERROR_HEADER: (str(exc) or type(exc).__name__)[:1024]
                                   .replace("\r", " ").replace("\n", " ")}
        try:
            await self._client.publish(msg.reply, reply, headers=headers)
        except Exception as exc:
            log.warning("bus reply on %s lost: %s", msg.subject, exc)

    async def request(self, subject: str, data: bytes, timeout: float = 5.0) -> bytes:
        self._check_open()
        from nats import errors
        subject, data = check_subject(subject), check_payload(data)
        try:
            msg = await self._client.request(subject, data, timeout=timeout)
        except errors.NoRespondersError:
            raise NoResponder(f"nobody serves {subject} on the nats bus") from None
        except errors.TimeoutError:
            raise RequestTimeout(f"no reply on {subject} within {timeout:g} s") from None
        except BusError:
            raise
        except Exception as exc:
            raise BusUnavailable(f"the nats bus could not send: "
                                 f"{str(exc) or type(exc).__name__}") from exc
        if msg.headers and ERROR_HEADER in msg.headers:
            raise RemoteError(msg.headers[ERROR_HEADER])
        return bytes(msg.data)

    async def _close(self) -> None:
        for task in list(self._answering):
            task.cancel()
        await asyncio.gather(*self._answering, return_exceptions=True)
        for sub in list(self._engine_subs):
            await sub.stop()
        self._engine_subs.clear()
        try:
            await self._client.close()
        except Exception as exc:  # closing a client whose server went away
            log.warning("nats bus: close: %s", exc)


async def _never(subject: str, data: bytes) -> None:
    """The handler of a serve subscription, whose messages never pass through its queue."""



async def _reachable(where: str) -> None:
    """Open and close a TCP connection to ``host:port`` (OSError if nothing listens)."""
    host, _, port = where.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    _, writer = await asyncio.wait_for(asyncio.open_connection(host, int(port or 4222)), 5)
    writer.close()
