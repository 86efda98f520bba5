"""The cluster bus: what crosses nodes, over an existing engine (never a hand-made protocol).

A :class:`Bus` publishes bytes on a subject, delivers them to every subscriber of that subject
(or of a prefix above it) on every node, and carries a request to the one node that serves a
subject and its reply back (a command forwarded to a match's owner). Implementations:

=================  ==========================================================================
URL                implementation
=================  ==========================================================================
none / ""          :class:`~service.cluster.bus_memory.MemoryBus`: one node, in process
``redis://``       :class:`~service.cluster.bus_redis.RedisBus`: Redis pub/sub
``nats://``        :class:`~service.cluster.bus_nats.NatsBus`: NATS core
``postgresql://``  :class:`~service.cluster.bus_postgres.PostgresBus`: LISTEN/NOTIFY
=================  ==========================================================================

What every implementation guarantees (docs/cluster.md says what each engine adds):

- **Order**: per subject, the messages of one publisher (one :class:`Bus`) reach each
  subscription in the order they were published. A subscription's handler is called one
  message at a time, in that order; subscriptions do not wait for one another.
- **At most once**: a message reaches the subscriptions that exist (on the engine) when it is
  published. A node cut off from the engine misses what is published meanwhile; listeners
  catch up from the store by version, as a reconnecting client does.
- **Request/reply**: :meth:`Bus.request` returns the reply of the responder registered with
  :meth:`Bus.serve` (one per subject: a node serves its own command subject; where several
  serve one subject, the first reply wins), raises :class:`NoResponder` where the engine can tell that nobody serves
  the subject, :class:`RequestTimeout` when no reply came in time, :class:`RemoteError` when
  the responder failed. Responders start on requests in arrival order, each in its own task.

Subjects are dot-separated tokens of ``[A-Za-z0-9_-]`` (``tavolo.match.42.notice``), at most
:data:`MAX_SUBJECT` characters; a prefix subscription to ``tavolo.match`` receives every
subject below it (``tavolo.match.42.notice``), not ``tavolo.match`` itself.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("service.cluster.bus")

Handler = Callable[[str, bytes], Awaitable[None]]
Responder = Callable[[str, bytes], Awaitable[bytes]]

MAX_SUBJECT = 200
#: the largest payload any implementation carries (NATS's default max_payload is 1 MiB)
MAX_PAYLOAD = 512 * 1024
#: messages waiting for one subscription's handler before newer ones are dropped (and counted)
QUEUE_LIMIT = 10_000
SCHEMES = ("redis://", "nats://", "postgresql://")

_SUBJECT = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*")


class BusError(Exception):
    """Base of the bus's errors."""


class UnsupportedBus(BusError, ValueError):
    """The URL names no bus this build supports."""


class BusUnavailable(BusError):
    """The engine behind the bus cannot be reached (at open, or it went away)."""


class BusClosed(BusError):
    """The bus was closed."""


class NoResponder(BusError):
    """Nobody serves the subject of a request (where the engine can tell at once)."""


class RequestTimeout(BusError):
    """No reply came within the request's timeout."""


class RemoteError(BusError):
    """The responder failed; the message is its error's text."""


def check_subject(subject: str) -> str:
    """``subject`` if it is well formed; ValueError saying why otherwise."""
    if (not isinstance(subject, str) or len(subject) > MAX_SUBJECT
            or not _SUBJECT.fullmatch(subject)):
        raise ValueError(f"bad bus subject {subject!r}: dot-separated tokens of [A-Za-z0-9_-], "
                         f"at most {MAX_SUBJECT} characters")
    return subject


def check_payload(data: bytes) -> bytes:
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"bus payloads are bytes, not {type(data).__name__}")
    if len(data) > MAX_PAYLOAD:
        raise ValueError(f"bus payload of {len(data)} bytes is over the limit of {MAX_PAYLOAD}")
    return bytes(data)


def client_library(module: str, kind: str, package: str) -> Any:
    """``module`` imported, for the ``kind`` bus; BusUnavailable naming ``package`` (what to
    install) when it is missing. Engines' client libraries load only when their bus opens."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise BusUnavailable(f"the {kind} bus needs the '{package}' package "
                             f"(pip install {package})") from None


def engine_address(url: str) -> str:
    """The ``host:port`` part of an engine's ``url``, without credentials (for messages)."""
    rest = url.split("://", 1)[-1]
    return rest.rsplit("@", 1)[-1].split("/", 1)[0]


def under(prefix: str, subject: str) -> bool:
    """True when ``subject`` lies strictly below ``prefix``."""
    return subject.startswith(prefix) and subject[len(prefix):len(prefix) + 1] == "."


@dataclass(eq=False)
class Subscription:
    """One handler on one subject (or every subject below a prefix), fed in order by one task."""

    subject: str
    prefix: bool
    handler: Handler
    _unsubscribe: Callable[[Subscription], Awaitable[None]]
    limit: int = QUEUE_LIMIT
    dropped: int = 0
    _queue: asyncio.Queue[tuple[str, bytes]] = field(default_factory=asyncio.Queue)
    _task: asyncio.Task[None] | None = None
    closed: bool = False

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"bus:{self.subject}")

    def matches(self, subject: str) -> bool:
        return under(self.subject, subject) if self.prefix else subject == self.subject

    def deliver(self, subject: str, data: bytes) -> None:
        """Queue one message for the handler (never blocks; past the limit it is dropped)."""
        if self.closed:
            return
        if self._queue.qsize() >= self.limit:
            self.dropped += 1
            if self.dropped == 1 or self.dropped % 1000 == 0:
                log.warning("bus subscription %s is %d messages behind: %d dropped",
                            self.subject, self.limit, self.dropped)
            return
        self._queue.put_nowait((subject, data))

    async def _run(self) -> None:
        while not self.closed:
            subject, data = await self._queue.get()
            if self.closed:  # closed while this one waited: nothing more is delivered
                return
            try:
                await self.handler(subject, data)
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad message must not end the subscription
                log.exception("bus handler for %s failed on %s", self.subject, subject)

    async def close(self) -> None:
        """Unsubscribe; messages still queued are not delivered."""
        if self.closed:
            return
        self.closed = True
        await self._unsubscribe(self)
        await self.stop()

    async def stop(self) -> None:
        self.closed = True
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        if task is not asyncio.current_task():  # a handler may close its own subscription
            await asyncio.gather(task, return_exceptions=True)


class Router:
    """The local subscriptions of a bus, by exact subject and by prefix."""

    def __init__(self) -> None:
        self.exact: dict[str, list[Subscription]] = {}
        self.prefixes: dict[str, list[Subscription]] = {}

    def add(self, sub: Subscription) -> bool:
        """Add ``sub``; True when it is the first local one on its subject (the engine needs it)."""
        table = self.prefixes if sub.prefix else self.exact
        subs = table.setdefault(sub.subject, [])
        subs.append(sub)
        return len(subs) == 1

    def remove(self, sub: Subscription) -> bool:
        """Remove ``sub``; True when it was the last local one (the engine can forget it)."""
        table = self.prefixes if sub.prefix else self.exact
        subs = table.get(sub.subject, [])
        if sub in subs:
            subs.remove(sub)
        if subs:
            return False
        table.pop(sub.subject, None)
        return True

    def deliver_exact(self, subject: str, data: bytes) -> None:
        for sub in self.exact.get(subject, ()):
            sub.deliver(subject, data)

    def deliver_prefix(self, prefix: str, subject: str, data: bytes) -> None:
        for sub in self.prefixes.get(prefix, ()):
            sub.deliver(subject, data)

    def deliver_all(self, subject: str, data: bytes) -> None:
        """Every local subscription that ``subject`` matches (engines without prefixes)."""
        self.deliver_exact(subject, data)
        for prefix, subs in self.prefixes.items():
            if under(prefix, subject):
                for sub in subs:
                    sub.deliver(subject, data)

    def all(self) -> list[Subscription]:
        return [s for table in (self.exact, self.prefixes) for subs in table.values() for s in subs]


class Bus(ABC):
    """Publish, subscribe, request/reply; see the module's text for the guarantees."""

    #: the implementation's short name ("memory", "redis", "nats", "postgresql")
    kind: str = "bus"

    def __init__(self) -> None:
        self.closed = False

    @abstractmethod
    async def publish(self, subject: str, data: bytes) -> None:
        """Send ``data`` to every subscription of ``subject`` on every node."""

    @abstractmethod
    async def _subscribe(self, sub: Subscription) -> None:
        """Make the engine deliver ``sub``'s messages (``sub`` is started already)."""

    @abstractmethod
    async def _unsubscribe(self, sub: Subscription) -> None:
        """Stop the engine delivering ``sub``'s messages."""

    @abstractmethod
    async def serve(self, subject: str, responder: Responder) -> Subscription:
        """Answer every request on ``subject`` with what ``responder`` returns."""

    @abstractmethod
    async def request(self, subject: str, data: bytes, timeout: float = 5.0) -> bytes:
        """The reply of the responder that serves ``subject``."""

    @abstractmethod
    async def _close(self) -> None:
        """Release the engine's connections."""

    async def subscribe(self, subject: str, handler: Handler) -> Subscription:
        """Call ``handler(subject, data)`` for every message published on ``subject``."""
        return await self._add(check_subject(subject), False, handler)

    async def subscribe_prefix(self, prefix: str, handler: Handler) -> Subscription:
        """Call ``handler(subject, data)`` for every message on any subject below ``prefix``."""
        return await self._add(check_subject(prefix), True, handler)

    async def _add(self, subject: str, prefix: bool, handler: Handler) -> Subscription:
        self._check_open()
        sub = Subscription(subject, prefix, handler, self._unsubscribe)
        sub.start()
        try:
            await self._subscribe(sub)
        except BaseException:
            await sub.stop()
            raise
        return sub

    def _check_open(self) -> None:
        if self.closed:
            raise BusClosed(f"the {self.kind} bus is closed")

    async def close(self) -> None:
        """Stop every subscription and release the engine (idempotent)."""
        if self.closed:
            return
        self.closed = True
        await self._close()

    async def __aenter__(self) -> Bus:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


#: URL scheme -> implementation
_KINDS = {"redis": "redis", "rediss": "redis", "nats": "nats", "tls": "nats",
          "postgresql": "postgresql", "postgres": "postgresql", "postgresql+asyncpg": "postgresql"}


def bus_kind(url: str | None) -> str:
    """The implementation ``url`` picks ("memory" for None or ""); UnsupportedBus if none.
    Connects nothing: for checking a flag at start."""
    if not url:
        return "memory"
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    kind = _KINDS.get(scheme)
    if kind is None:
        shown = scheme or url[:40]
        raise UnsupportedBus(f"unsupported cluster bus URL {shown!r}: expected one of "
                             f"{', '.join(SCHEMES)} (or none for a single node)")
    return kind


async def open_bus(url: str | None, *, name: str = "tavolo") -> Bus:
    """The bus named by ``url`` (None or "" for the in-process one), connected.

    ``name`` labels the bus's connections on the engine (a node's id). Raises
    :class:`UnsupportedBus` for a URL of another scheme and :class:`BusUnavailable` when the
    engine cannot be reached; both carry a one-line message.
    """
    kind = bus_kind(url)
    if kind == "memory" or url is None:
        from service.cluster.bus_memory import MemoryBus
        return MemoryBus()
    if kind == "redis":
        from service.cluster.bus_redis import RedisBus
        return await RedisBus.connect(url, name=name)
    if kind == "nats":
        from service.cluster.bus_nats import NatsBus
        return await NatsBus.connect(url, name=name)
    from service.cluster.bus_postgres import PostgresBus
    return await PostgresBus.connect(url, name=name)
