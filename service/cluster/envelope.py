"""Request/reply and ordered sending for engines that only publish (memory, Redis, NOTIFY).

Every message on such an engine is one envelope: a kind byte, then the kind's body::

    P payload                          a published message
    Q len(reply_to):u8 reply_to payload  a request; the reply goes to subject reply_to
    R payload                          a reply
    E utf-8 text                       a failed request: the responder's error

A requester listens on its own inbox (``_inbox.<bus id>``, a prefix subscription) and picks
each request's reply subject below it. NATS has all this natively and does not use it.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from abc import abstractmethod
from collections.abc import Awaitable, Callable

from service.cluster.bus import (Bus, BusError, BusUnavailable, Handler, NoResponder, RemoteError,
                                 RequestTimeout, Responder, Router, Subscription, check_payload,
                                 check_subject)

log = logging.getLogger("service.cluster.bus")

PUBLISH, REQUEST, REPLY, ERROR = b"P", b"Q", b"R", b"E"
#: messages flushed to the engine in one round trip at most
BATCH = 256

Flush = Callable[[list[tuple[str, bytes]]], Awaitable[list[int | None]]]


def request_envelope(reply_to: str, payload: bytes) -> bytes:
    raw = reply_to.encode("ascii")
    return REQUEST + bytes([len(raw)]) + raw + payload


def parse_request(envelope: bytes) -> tuple[str, bytes]:
    size = envelope[1]
    return envelope[2:2 + size].decode("ascii"), envelope[2 + size:]


class Outbox:
    """Sends in call order, many messages per round trip: ``send`` queues without awaiting,
    one task flushes what is queued (at most BATCH) and answers each sender."""

    def __init__(self, flush: Flush, kind: str) -> None:
        self._flush = flush
        self._kind = kind
        self._queue: list[tuple[str, bytes, asyncio.Future[int | None]]] = []
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"bus-out:{kind}")

    async def send(self, subject: str, envelope: bytes) -> int | None:
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._queue.append((subject, envelope, future))
        self._wake.set()
        return await future

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch, self._queue = self._queue[:BATCH], self._queue[BATCH:]
                await self._send(batch)

    async def _send(self, batch: list[tuple[str, bytes, asyncio.Future[int | None]]]) -> None:
        try:
            counts = await self._flush([(subject, env) for subject, env, _ in batch])
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the engine went away: every sender hears of it
            failure = BusUnavailable(f"the {self._kind} bus could not send: "
                                     f"{str(exc) or type(exc).__name__}")
            for _, _, future in batch:
                if not future.done():
                    future.set_exception(failure)
            return
        for (_, _, future), count in zip(batch, counts):
            if not future.done():
                future.set_result(count)

    async def close(self) -> None:
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        for _, _, future in self._queue:
            if not future.done():
                future.set_exception(BusUnavailable(f"the {self._kind} bus is closed"))
        self._queue = []


class EnvelopeBus(Bus):
    """A Bus over an engine that can only send an envelope to a subject (``_send``) and hand
    received envelopes to ``self.router``."""

    def __init__(self) -> None:
        super().__init__()
        self.router = Router()
        self.bus_id = uuid.uuid4().hex[:16]
        self._inbox: Subscription | None = None
        self._inbox_lock = asyncio.Lock()
        self._pending: dict[str, asyncio.Future[bytes]] = {}
        self._sequence = 0
        self._answering: set[asyncio.Task[None]] = set()

    @abstractmethod
    async def _send(self, subject: str, envelope: bytes) -> int | None:
        """Send one envelope; the number of engine subscribers that got it, None if unknown."""

    async def publish(self, subject: str, data: bytes) -> None:
        self._check_open()
        await self._send(check_subject(subject), PUBLISH + check_payload(data))

    async def subscribe(self, subject: str, handler: Handler) -> Subscription:
        return await super().subscribe(subject, _published_only(handler))

    async def subscribe_prefix(self, prefix: str, handler: Handler) -> Subscription:
        return await super().subscribe_prefix(prefix, _published_only(handler))

    async def serve(self, subject: str, responder: Responder) -> Subscription:
        async def on_request(subject: str, envelope: bytes) -> None:
            if envelope[:1] != REQUEST:
                return
            reply_to, payload = parse_request(envelope)
            task = asyncio.get_running_loop().create_task(
                self._answer(responder, subject, reply_to, payload))
            self._answering.add(task)
            task.add_done_callback(self._answering.discard)

        return await self._add(check_subject(subject), False, on_request)

    async def _answer(self, responder: Responder, subject: str, reply_to: str,
                      payload: bytes) -> None:
        try:
            reply = REPLY + check_payload(await responder(subject, payload))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the requester hears of it as RemoteError
            log.warning("bus responder on %s failed: %r", subject, exc)
            reply = ERROR + (str(exc) or type(exc).__name__).encode("utf-8", "replace")[:4096]
        try:
            await self._send(reply_to, reply)
        except BusError as exc:
            log.warning("bus reply on %s lost: %s", subject, exc)

    async def request(self, subject: str, data: bytes, timeout: float = 5.0) -> bytes:
        self._check_open()
        check_subject(subject)
        inbox = await self._ensure_inbox()
        self._sequence += 1
        reply_to = f"{inbox}.{self._sequence}"
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._pending[reply_to] = future
        try:
            if await self._send(subject, request_envelope(reply_to, check_payload(data))) == 0:
                raise NoResponder(f"nobody serves {subject} on the {self.kind} bus")
            return await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            raise RequestTimeout(f"no reply on {subject} within {timeout:g} s") from None
        finally:
            self._pending.pop(reply_to, None)

    async def _ensure_inbox(self) -> str:
        name = f"_inbox.{self.bus_id}"
        async with self._inbox_lock:
            if self._inbox is None:
                self._inbox = await self._add(name, True, self._on_reply)
        return name

    async def _on_reply(self, subject: str, envelope: bytes) -> None:
        future = self._pending.get(subject)
        if future is None or future.done():
            return  # a reply after its request's timeout
        if envelope[:1] == REPLY:
            future.set_result(envelope[1:])
        elif envelope[:1] == ERROR:
            future.set_exception(RemoteError(envelope[1:].decode("utf-8", "replace")))

    async def _stop_local(self) -> None:
        """Stop every local subscription and answer in flight (part of ``_close``)."""
        for task in list(self._answering):
            task.cancel()
        await asyncio.gather(*self._answering, return_exceptions=True)
        for sub in self.router.all():
            await sub.stop()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(BusUnavailable(f"the {self.kind} bus is closed"))


class OutboxBus(EnvelopeBus):
    """An EnvelopeBus over an engine that takes many envelopes per round trip (Redis,
    NOTIFY): every envelope goes out through one :class:`Outbox`, in call order, and
    ``_flush`` sends one batch of them."""

    def __init__(self) -> None:
        super().__init__()
        self._outbox = Outbox(self._flush, self.kind)

    @abstractmethod
    async def _flush(self, batch: list[tuple[str, bytes]]) -> list[int | None]:
        """Send ``batch`` in one round trip; per envelope, the engine subscribers that got
        it (None if unknown)."""

    async def _send(self, subject: str, envelope: bytes) -> int | None:
        self._check_open()
        return await self._outbox.send(subject, envelope)

    async def _stop_local(self) -> None:
        """Stop sending (what is still queued fails), then stop the local subscriptions."""
        await self._outbox.close()
        await super()._stop_local()


def _published_only(handler: Handler) -> Handler:
    async def unwrap(subject: str, envelope: bytes) -> None:
        if envelope[:1] == PUBLISH:
            await handler(subject, envelope[1:])
    return unwrap
