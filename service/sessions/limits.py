"""Bounded creation: how fast one connection, and one address, may make players and matches.

Each client connection runs its conversation inside :func:`client_scope`, which puts its
address and its own buckets in a context variable; the hub charges that client whenever
something is created on its behalf, whatever the dialect. Work done by no client (tests
calling the hub, rematches, bots) is not charged.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
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


@dataclass
class Client:
    """One connection: where it comes from and what it may still create."""

    address: str
    buckets: dict[str, Bucket]


_current: ContextVar[Client | None] = ContextVar("tavolo_client", default=None)


class CreationLimiter:
    def __init__(self, limits: CreationLimits | None = None) -> None:
        self.limits = limits or CreationLimits()
        self._addresses: dict[str, dict[str, Bucket]] = {}

    @contextlib.contextmanager
    def client_scope(self, address: str | None) -> Iterator[Client]:
        """Charge what is created inside this block (one connection's life) to ``address``."""
        client = Client(address or "?", {k: Bucket(r) for k, r in self.limits.per_connection.items()})
        reset = _current.set(client)
        try:
            yield client
        finally:
            _current.reset(reset)

    def charge(self, kind: str) -> None:
        """Count one creation of ``kind`` for the current client; SessionError
        ``session/rate_limited`` (and nothing counted) when it is over a limit."""
        client = _current.get()
        if client is None:
            return
        buckets = [b for b in (client.buckets.get(kind), self._address(client.address).get(kind)) if b]
        if not all(bucket.available() for bucket in buckets):
            raise SessionError(f"too many new {kind}s from this client; try again later",
                               code="session/rate_limited")
        for bucket in buckets:
            bucket.take()

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
