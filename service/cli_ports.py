"""``serve`` checks its ports before it migrates or announces anything: a port another process
holds is one line naming the port and the listener, not a database error after five
"listening" lines."""

from __future__ import annotations

import errno
import socket


class PortBusy(Exception):
    """A port ``serve`` needs is taken (or may not be bound here)."""


def _addresses(host: str, port: int) -> list[tuple[int, tuple[object, ...]]]:
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise PortBusy(f"cannot listen on host {host!r}: {exc.strerror}") from None
    return [(family, address) for family, _, _, _, address in found]


def _try_bind(family: int, address: tuple[object, ...], reuse_port: bool) -> None:
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # as asyncio binds a server: SO_REUSEADDR, and SO_REUSEPORT where the listeners share
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port and hasattr(socket, "SO_REUSEPORT"):
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        if family == socket.AF_INET6:
            probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        probe.bind(address)


def check_ports(host: str, ports: dict[str, int], *, reuse_port: bool = False) -> None:
    """Raise PortBusy naming the first of ``ports`` (listener name -> port) that cannot be
    bound on ``host``: ``port 8080 (http) on 0.0.0.0 is already in use``."""
    for name, port in ports.items():
        for family, address in _addresses(host, port):
            try:
                _try_bind(family, address, reuse_port)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    why = "is already in use (another process listens there)"
                elif exc.errno == errno.EACCES:
                    why = "may not be bound by this user (ports below 1024 need privileges)"
                elif exc.errno == errno.EADDRNOTAVAIL:
                    why = "is on an address this machine does not have"
                else:
                    why = f"cannot be bound: {exc.strerror or exc}"
                raise PortBusy(f"port {port} ({name}) on {address[0]} {why}") from None
