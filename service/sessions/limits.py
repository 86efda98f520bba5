"""Bounded creation: how fast one connection, and one address, may make players and matches.

Each client connection runs its conversation inside :func:`client_scope`, which puts its
address and its own buckets in a context variable; the hub charges that client whenever
something is created on its behalf, whatever the dialect. Work done by no client (tests
calling the hub, rematches, bots) is not charged.
"""

from __future__ import annotations

import time
from contextvars import ContextVar
from dataclasses import dataclass, field

from service.errors import SessionError

KINDS = ("player", "match")


@dataclass(frozen=True)
class Rate:
    """A token bucket: ``burst`` at once, refilled at ``per_minute``."""

    burst: int
    per_minute: float


@dataclass(frozen=True)
class CreationLimits:
    per_connection: dict[str, Rate] = field(default_factory=lambda: {
        "player": Rate(10, 10), "match": Rate(10, 10)})
    per_address: dict[str, Rate] = field(default_factory=lambda: {
        "player": Rate(60, 60), "match": Rate(60, 60)})
    #: addresses remembered at most (the least recently charged are forgotten first)
    addresses: int = 10_000


class Bucket:
    __slots__ = ("rate", "tokens", "at")

    def __init__(self, rate: Rate) -> None:
        self.rate = rate
        self.tokens = float(rate.burst)
        self.at = time.monotonic()

    def available(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.rate.burst, self.tokens + (now - self.at) * self.rate.per_minute / 60)
        self.at = now
        return self.tokens >= 1

    def take(self) -> None:
        self.tokens -= 1


@dataclass(slots=True)
class Client:
    """One connection: where it comes from and what it may still create (a kind's bucket is
    made when the connection first creates one: until then it would only sit there full)."""

    address: str
    buckets: dict[str, Bucket] = field(default_factory=dict)


_current: ContextVar[Client | None] = ContextVar("tavolo_client", default=None)


class ClientScope:
    """``with``: ``client`` is the current client inside the block. (A class rather than a
    generator-based context manager: a connection holds it for its whole life, and the
    generator's frame cost some 300 bytes more per open connection.)"""

    __slots__ = ("client", "_reset")

    def __init__(self, client: Client) -> None:
        self.client = client

    def __enter__(self) -> Client:
        self._reset = _current.set(self.client)
        return self.client

    def __exit__(self, *exc_info: object) -> None:
        _current.reset(self._reset)


class CreationLimiter:
    def __init__(self, limits: CreationLimits | None = None) -> None:
        self.limits = limits or CreationLimits()
        self._addresses: dict[str, dict[str, Bucket]] = {}

    def client_scope(self, address: str | None) -> ClientScope:
        """Charge what is created inside this block (one connection's life) to ``address``."""
        return ClientScope(Client(address or "?"))

    def charge(self, kind: str) -> None:
        """Count one creation of ``kind`` for the current client; SessionError
        ``session/rate_limited`` (and nothing counted) when it is over a limit."""
        client = _current.get()
        if client is None:
            return
        buckets = [b for b in (self._own(client, kind), self._address(client.address).get(kind)) if b]
        if not all(bucket.available() for bucket in buckets):
            raise SessionError(f"too many new {kind}s from this client; try again later",
                               code="session/rate_limited")
        for bucket in buckets:
            bucket.take()

    def _own(self, client: Client, kind: str) -> Bucket | None:
        bucket = client.buckets.get(kind)
        if bucket is None and (rate := self.limits.per_connection.get(kind)) is not None:
            bucket = client.buckets[kind] = Bucket(rate)
        return bucket

    def _address(self, address: str) -> dict[str, Bucket]:
        buckets = self._addresses.pop(address, None)
        if buckets is None:
            buckets = {k: Bucket(r) for k, r in self.limits.per_address.items()}
            while len(self._addresses) >= self.limits.addresses:
                del self._addresses[next(iter(self._addresses))]
        self._addresses[address] = buckets  # most recent last
        return buckets


def current_address() -> str | None:
    """The address of the client on whose behalf the hub works now (None: no client)."""
    client = _current.get()
    return None if client is None else client.address
