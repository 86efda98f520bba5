"""Bounded connections: per address, per network (/24 or /64) and in total per listener, and a
reserve of file descriptors kept free for the process (the store, logs, new matches' work).

A connection over a limit is closed at once, before any conversation starts; near the
descriptor limit the TCP listeners pause accepting instead (clients wait in the backlog). Refusals
are logged as one summary line per listener every LOG_EVERY seconds, never one per connection.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import resource
import time
from collections import Counter

log = logging.getLogger(__name__)

LOG_EVERY = 10.0
#: seconds a close handshake may take (a WebSocket close frame answered, a TCP client's
#: queued output flushed) before the connection is cut; shutdown waits no longer per phase
CLOSE_TIMEOUT = 2.0


class DescriptorBudget:
    """The connections the whole process may hold open: the descriptor limit minus what was
    open at start and a reserve."""

    def __init__(self, reserve: int) -> None:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        limit = soft if soft != resource.RLIM_INFINITY else 1 << 20
        self.capacity = max(limit - _open_descriptors() - reserve, 0)
        self.open = 0
        self._freed = asyncio.Event()

    async def room(self) -> None:
        """Return once one more connection fits (TCP listeners pause here)."""
        while self.open >= self.capacity:
            self._freed.clear()
            await self._freed.wait()

    def release(self) -> None:
        self.open -= 1
        self._freed.set()


def _open_descriptors() -> int:
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:  # not Linux: assume a few
        return 16


def network_of(address: str) -> str:
    """The network an address is counted in: its /24 for IPv4 (an IPv4-mapped IPv6 address
    too), its /64 for IPv6; anything else (a Unix socket, "?") is its own."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


def network_share(total: int, share: float) -> int:
    """The connections one network may hold of a listener's ``total``: at least one."""
    return max(1, int(total * share))


class ConnectionGate:
    """The connections of one listener: at most ``per_address`` from one address, at most
    ``per_network`` from one /24 or /64 (None: no such limit), ``total`` in all, and none
    past the process's descriptor ``budget``.

    A gate whose connections came through another gate's socket (a WebSocket is an upgraded
    connection of the HTTP port, counted there) has no ``budget``: its connections hold no
    descriptor of their own."""

    def __init__(self, name: str, *, per_address: int, total: int,
                 budget: DescriptorBudget | None, per_network: int | None = None) -> None:
        self.name = name
        self.per_address = per_address
        self.per_network = per_network
        self.total = total
        self.budget = budget
        self._by_address: Counter[str] = Counter()
        self._by_network: Counter[str] = Counter()
        self._refused: Counter[str] = Counter()
        self._logged_at = 0.0

    def admit(self, address: str) -> bool:
        """Count a new connection in, or False (and count the refusal) when over a limit."""
        reason = self._over(address)
        if reason is not None:
            self._refuse(reason)
            return False
        self._by_address[address] += 1
        self._by_network[network_of(address)] += 1
        if self.budget is not None:
            self.budget.open += 1
        return True

    def release(self, address: str) -> None:
        for counter, key in ((self._by_address, address), (self._by_network, network_of(address))):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]
        if self.budget is not None:
            self.budget.release()

    @property
    def open(self) -> int:
        """Connections open through this gate now."""
        return sum(self._by_address.values())

    def out_of_descriptors(self) -> None:
        """The process ran out of descriptors anyway (something else holds them): counted
        and logged like a refusal, once per LOG_EVERY seconds."""
        self._refuse("accept failed: out of file descriptors")

    def _over(self, address: str) -> str | None:
        if self.budget is not None and self.budget.open >= self.budget.capacity:
            return "near the file descriptor limit"
        if self.open >= self.total:
            return f"{self.total} connections open"
        if self._by_address[address] >= self.per_address:
            return f"{self.per_address} connections from one address"
        if self.per_network is not None and self._by_network[network_of(address)] >= self.per_network:
            return f"{self.per_network} connections from one network (/24 or /64)"
        return None

    def _refuse(self, reason: str) -> None:
        self._refused[reason] += 1
        now = time.monotonic()
        if now - self._logged_at >= LOG_EVERY:
            summary = ", ".join(f"{n} ({why})" for why, n in self._refused.items())
            log.warning("%s: refused connections: %s", self.name, summary)
            self._refused.clear()
            self._logged_at = now


class AcceptErrorFilter:
    """An event-loop exception handler that turns asyncio's "socket.accept() out of system
    resource" (one traceback per failed accept, thousands a second at the descriptor limit;
    the HTTP listener is asyncio's) into one summary line every LOG_EVERY seconds. Anything
    else goes to the handler that was there before."""

    MESSAGE = "socket.accept() out of system resource"

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.previous = loop.get_exception_handler()
        self.count = 0
        self._logged_at = 0.0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        if context.get("message") != self.MESSAGE:
            if self.previous is not None:
                self.previous(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        self.count += 1
        now = time.monotonic()
        if now - self._logged_at >= LOG_EVERY:
            log.warning("accept failed %d time(s): out of file descriptors (%s)",
                        self.count, context.get("exception"))
            self.count, self._logged_at = 0, now

    def install(self) -> None:
        self.loop.set_exception_handler(self)

    def remove(self) -> None:
        self.loop.set_exception_handler(self.previous)
