"""What the sessions see of the cluster: own a match, carry a command to its owner, publish
and follow its notices, and who is up.

A :class:`ClusterNode` joins a bus (:func:`~service.cluster.bus.open_bus`) and the
ownership connection (:class:`~service.cluster.ownership.Ownership`) under one node id.
:func:`alone` is the node that runs by itself (SQLite, or PostgreSQL without a bus): it owns
every match it asks for and never publishes, so the single-node path pays nothing.

Subjects, one match ``<id>`` each, under the database's key (``<db>``: its name and oid,
so clusters over different databases can share one bus; docs/cluster.md):

- ``tavolo.<db>.match.<id>.cmd``: served by the match's owner; a command forwarded to it.
- ``tavolo.<db>.match.<id>.notice``: what changed, published by the owner in version order,
  and each node's presence (who is attached there), published by that node.

When the ownership connection is lost the node owns nothing: every ``on_lost`` callback
hears which matches it had, and a new connection is opened in the background (with
backoff); until it is up :meth:`ClusterNode.own` answers False.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection
from typing import Any

from service.cluster.bus import (Bus, BusError, Handler, NoResponder, RequestTimeout,
                                 Responder, Subscription, bus_kind, open_bus)
from service.cluster.ownership import Ownership, OwnershipLost, OwnershipUnavailable
from service.cluster.ownership_local import LocalOwnership

log = logging.getLogger("service.cluster.node")

LostCallback = Callable[[frozenset[int]], None]

#: seconds between attempts to open a lost ownership connection again (doubling)
REOPEN_FIRST_DELAY = 0.2
REOPEN_MAX_DELAY = 5.0


class OwnerUnreachable(BusError):
    """Nobody serves the match's commands (the owner is gone, or none yet)."""


class CommandTimeout(BusError):
    """The owner did not answer in time: the command may or may not have run."""




class ClusterNode:
    """One node of a cluster (or, from :func:`alone`, a node by itself)."""

    def __init__(self, node_id: str, bus: Bus, ownership: Any, *,
                 database_url: str | None = None, space: str = "local") -> None:
        self.node_id = node_id
        #: the first tokens of every subject of this cluster
        self.prefix = f"tavolo.{space}"
        self.bus = bus
        self.bus_kind = bus.kind
        #: False for a node alone: every match is its own, nothing crosses to other nodes
        self.clustered = database_url is not None
        self._ownership = ownership
        self._database_url = database_url
        self._callbacks: list[LostCallback] = []
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._sender: asyncio.Task[None] | None = None
        self._reopening: asyncio.Task[None] | None = None
        self._closed = False
        if self.clustered:
            ownership.on_lost(self._lost)
            self._sender = asyncio.get_running_loop().create_task(self._send_forever(),
                                                                  name="cluster publisher")

    @classmethod
    async def join(cls, bus_url: str, database_url: str, node_id: str) -> ClusterNode:
        """Join the cluster of the nodes over ``database_url`` and the bus at ``bus_url``."""
        bus_kind(bus_url)  # an unsupported URL is refused before anything connects
        bus = await open_bus(bus_url, name=node_id)
        try:
            ownership = await Ownership.open(database_url, node_id)
            space = await ownership.database_key()
        except BaseException:
            await bus.close()
            raise
        return cls(node_id, bus, ownership, database_url=database_url, space=space)

    def command_subject(self, match_id: int) -> str:
        return f"{self.prefix}.match.{match_id}.cmd"

    def notice_subject(self, match_id: int) -> str:
        return f"{self.prefix}.match.{match_id}.notice"

    # --- ownership --------------------------------------------------------------------

    async def own(self, match_id: int) -> bool:
        """Own ``match_id`` unless another node does; True when this node owns it now."""
        try:
            return bool(await self._ownership.try_own(match_id))
        except OwnershipLost:
            return False

    def owns(self, match_id: int) -> bool:
        return bool(self._ownership.owns(match_id)) and not self._ownership.lost.is_set()

    def owned_count(self) -> int:
        return len(self._ownership.owned())

    async def release(self, match_id: int) -> None:
        try:
            await self._ownership.release(match_id)
        except OwnershipLost:
            pass  # lost already: nothing is held

    async def owner_of(self, match_id: int) -> str | None:
        try:
            return await self._ownership.owner_of(match_id)  # type: ignore[no-any-return]
        except OwnershipLost:
            return None

    async def owners(self, among: Collection[int] | None = None) -> dict[int, str]:
        """Every owned match of the cluster (or of ``among``) and its owner's node id (empty
        when the ownership connection is down)."""
        try:
            return await self._ownership.owners(among)  # type: ignore[no-any-return]
        except OwnershipLost:
            return {}

    async def members(self) -> list[str]:
        """The node ids whose ownership connection is up (this one included while it is)."""
        try:
            return await self._ownership.members()  # type: ignore[no-any-return]
        except OwnershipLost:
            return []

    def on_lost(self, callback: LostCallback) -> None:
        """``callback(matches)`` each time this node loses its ownership connection."""
        self._callbacks.append(callback)

    def _lost(self, matches: frozenset[int]) -> None:
        for callback in self._callbacks:
            try:
                callback(matches)
            except Exception:
                log.exception("an ownership-lost callback failed")
        if not self._closed and self._reopening is None:
            self._reopening = asyncio.get_running_loop().create_task(
                self._reopen(), name="ownership reopen")

    async def _reopen(self) -> None:
        assert self._database_url is not None
        delay = REOPEN_FIRST_DELAY
        while not self._closed:
            try:
                ownership = await Ownership.open(self._database_url, self.node_id)
            except OwnershipUnavailable as exc:
                log.warning("node %s: ownership connection still down (%s)", self.node_id, exc)
                await asyncio.sleep(delay)
                delay = min(2 * delay, REOPEN_MAX_DELAY)
                continue
            self._ownership = ownership
            ownership.on_lost(self._lost)
            log.info("node %s: ownership connection open again", self.node_id)
            break
        self._reopening = None

    # --- commands and notices ---------------------------------------------------------

    async def serve_commands(self, match_id: int, responder: Responder) -> Subscription:
        return await self.bus.serve(self.command_subject(match_id), responder)

    async def command(self, match_id: int, data: bytes, timeout: float) -> bytes:
        """The owner's answer to ``data``. OwnerUnreachable: nobody serves the match (the
        command did not run); CommandTimeout: no answer in time (it may have run)."""
        try:
            return await self.bus.request(self.command_subject(match_id), data, timeout=timeout)
        except NoResponder as exc:
            raise OwnerUnreachable(str(exc)) from None
        except RequestTimeout as exc:
            raise CommandTimeout(str(exc)) from None

    async def follow(self, match_id: int, handler: Handler) -> Subscription:
        return await self.bus.subscribe(self.notice_subject(match_id), handler)

    def publish(self, match_id: int, data: bytes) -> None:
        """Queue a notice of ``match_id`` for every other node; never blocks. The queue is
        sent in order by one task (the bus keeps one publisher's order per subject)."""
        self.announce(f"match.{match_id}.notice", data)

    def announce(self, topic: str, data: bytes) -> None:
        """Queue ``data`` on this cluster's ``topic`` (``lobby``, ``match.<id>.notice``),
        in order with the notices; never blocks."""
        if self.clustered and not self._closed:
            self._outbox.put_nowait((f"{self.prefix}.{topic}", data))

    async def listen(self, topic: str, handler: Handler) -> Subscription:
        """``handler(subject, data)`` for every message on this cluster's ``topic``."""
        return await self.bus.subscribe(f"{self.prefix}.{topic}", handler)

    async def _send_forever(self) -> None:
        while True:
            subject, data = await self._outbox.get()
            try:
                await self.bus.publish(subject, data)
            except Exception as exc:  # followers see the gap at the next notice and catch up
                log.warning("node %s: a notice on %s was not sent: %s", self.node_id, subject, exc)
            finally:
                self._outbox.task_done()

    async def flush(self) -> None:
        """Wait until every queued notice was handed to the bus."""
        if self._sender is not None and not self._sender.done():
            await self._outbox.join()

    async def close(self) -> None:
        if self._closed:
            return
        await self.flush()
        self._closed = True
        for task in (self._sender, self._reopening):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        await self._ownership.close()
        await self.bus.close()


async def alone(node_id: str = "local") -> ClusterNode:
    """A node that runs by itself: it owns whatever it asks for; nothing leaves the process."""
    return ClusterNode(node_id, await open_bus(None), LocalOwnership(node_id))
