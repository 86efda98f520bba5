"""Match ownership in PostgreSQL: one node runs a match's writer at a time.

A node owns a match while it holds a session advisory lock on one connection kept for the
purpose: ``pg_try_advisory_lock(LOCK_SPACE, match_id)``, in the two-key form whose first key
is Tavolo's own space (nothing else that takes advisory locks in the database can collide).
PostgreSQL releases a session's locks when its connection ends, so a node that dies (its
process killed, its machine gone: the server notices the closed socket, or TCP keepalive
gives up on it, ~4 s) releases all its matches at once, and another node's ``try_own`` wins.

The connection's ``application_name`` is ``tavolo-node:<node id>``, so any node reads who owns
what from ``pg_locks`` joined with ``pg_stat_activity`` (:meth:`Ownership.owners`) and which
nodes are up (:meth:`Ownership.members`), with no table of our own to keep in step.

When the ownership connection fails (closed under it, or a heartbeat unanswered), the node
has lost every match it owned: ``lost`` is set and each ``on_lost`` callback is called once
with the matches; from then on the node must not write (the appender's version check is the
fence if it tried). Open a new :class:`Ownership` to own matches again.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Collection
from typing import Any

log = logging.getLogger("service.cluster.ownership")

#: the first key of every Tavolo ownership lock ("Tavo"); the second is the match id
LOCK_SPACE = 0x5461766F
APPLICATION_PREFIX = "tavolo-node:"
#: seconds between heartbeats on the ownership connection (a failed one means lost)
HEARTBEAT = 2.0
#: a heartbeat unanswered this long (at least) is a lost connection; short enough to stop
#: writing soon after the server gave the matches up, long enough for a busy machine
HEARTBEAT_TIMEOUT = 5.0
_NODE_ID = re.compile(r"[A-Za-z0-9_.-]{1,40}")
_MAX_MATCH = 2**31 - 1

LostCallback = Callable[[frozenset[int]], None]

_OWNERS = """
SELECT l.objid::bigint AS match_id, a.application_name AS name
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.classid = $1::oid
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
"""

_MEMBERS = """
SELECT DISTINCT application_name AS name FROM pg_stat_activity
WHERE datname = current_database() AND application_name LIKE 'tavolo-node:%'
"""


class OwnershipLost(RuntimeError):
    """The ownership connection failed: this node owns nothing any more."""


class OwnershipUnavailable(RuntimeError):
    """The ownership connection could not be opened."""


def check_node_id(node_id: str) -> str:
    if not isinstance(node_id, str) or not _NODE_ID.fullmatch(node_id):
        raise ValueError(f"bad node id {node_id!r}: 1-40 characters of [A-Za-z0-9_.-]")
    return node_id


def check_match_id(match_id: int) -> int:
    if (isinstance(match_id, bool) or not isinstance(match_id, int)
            or not 0 < match_id <= _MAX_MATCH):
        raise ValueError(f"bad match id {match_id!r}: a positive 32-bit integer")
    return match_id


def asyncpg_dsn(url: str) -> str:
    """``url`` as asyncpg takes it (SQLAlchemy's ``postgresql+asyncpg://`` accepted)."""
    scheme, _, rest = url.partition("://")
    if scheme.lower() not in ("postgresql", "postgres", "postgresql+asyncpg"):
        raise ValueError(f"match ownership needs PostgreSQL, not {scheme or url!r}")
    return f"postgresql://{rest}"


class Ownership:
    """The matches this node owns, held as advisory locks on one connection."""

    def __init__(self, connection: Any, node_id: str, heartbeat: float = HEARTBEAT) -> None:
        self.node_id = node_id
        self.lost = asyncio.Event()
        self._connection = connection
        self._owned: set[int] = set()
        self._lock = asyncio.Lock()  # the connection: one query at a time
        self._changing = asyncio.Lock()  # what this node owns: one change at a time
        self._callbacks: list[LostCallback] = []
        self._closing = False
        connection.add_termination_listener(self._on_terminated)
        self._heartbeat = asyncio.get_running_loop().create_task(
            self._beat(heartbeat), name=f"ownership:{node_id}")

    @classmethod
    async def open(cls, url: str, node_id: str, *, heartbeat: float = HEARTBEAT) -> Ownership:
        """Connect the ownership connection of node ``node_id`` to the database at ``url``."""
        import asyncpg
        check_node_id(node_id)
        settings = {"application_name": APPLICATION_PREFIX + node_id,
                    # a node whose machine vanished (no FIN, no RST) stops sending heartbeats:
                    # the server probes its idle socket after 2 s, drops the session (and its
                    # locks) after 2 unanswered probes 1 s apart, ~4 s in all
                    "tcp_keepalives_idle": "2", "tcp_keepalives_interval": "1",
                    "tcp_keepalives_count": "2", "tcp_user_timeout": "4000"}
        dsn = asyncpg_dsn(url)
        try:
            connection = await asyncpg.connect(dsn, timeout=10, server_settings=settings)
        except Exception as exc:
            where = dsn.split("://", 1)[-1].rsplit("@", 1)[-1]
            raise OwnershipUnavailable(f"PostgreSQL at {where} is unreachable: "
                                       f"{str(exc) or type(exc).__name__}") from None
        return cls(connection, node_id, heartbeat)

    def on_lost(self, callback: LostCallback) -> None:
        """Call ``callback(matches)`` once when ownership is lost (at once if it is already)."""
        if self.lost.is_set():
            callback(frozenset())
        else:
            self._callbacks.append(callback)

    def owned(self) -> frozenset[int]:
        return frozenset(self._owned)

    def owns(self, match_id: int) -> bool:
        return match_id in self._owned

    async def try_own(self, match_id: int) -> bool:
        """Own ``match_id`` if no other node does; True when this node owns it now."""
        check_match_id(match_id)
        # one change at a time: two asks at once must not take the (re-entrant) lock twice,
        # or one release would leave it held
        async with self._changing:
            if match_id in self._owned:
                return True
            got = await self._query("SELECT pg_try_advisory_lock($1, $2)", LOCK_SPACE, match_id)
            if self.lost.is_set():
                raise OwnershipLost(f"node {self.node_id} lost its ownership connection")
            if got:
                self._owned.add(match_id)
            return bool(got)

    async def release(self, match_id: int) -> bool:
        """Give ``match_id`` up (another node may own it next); False if not owned here."""
        check_match_id(match_id)
        if self.lost.is_set() or self._closing:
            raise OwnershipLost(f"node {self.node_id} owns nothing: its ownership connection "
                                "is lost or closed")
        async with self._changing:
            if match_id not in self._owned:
                return False
            self._owned.discard(match_id)
            await self._query("SELECT pg_advisory_unlock($1, $2)", LOCK_SPACE, match_id)
            return True

    async def owners(self, among: Collection[int] | None = None) -> dict[int, str]:
        """Every owned match of the cluster (or of ``among``) and the id of the node that
        owns it."""
        if among is None:
            rows = await self._query(_OWNERS, LOCK_SPACE, fetch=True)
        else:
            ids = [check_match_id(m) for m in among]
            rows = await self._query(_OWNERS + " AND l.objid = ANY($2::oid[])", LOCK_SPACE, ids,
                                     fetch=True) if ids else []
        return {row["match_id"]: row["name"][len(APPLICATION_PREFIX):] for row in rows
                if (row["name"] or "").startswith(APPLICATION_PREFIX)}

    async def owner_of(self, match_id: int) -> str | None:
        """The id of the node that owns ``match_id``, or None."""
        return (await self.owners([match_id])).get(match_id)

    async def database_key(self) -> str:
        """A name of this database that every node over it reads alike (its name and oid,
        in subject-safe characters): the nodes' subjects on a shared bus carry it."""
        row = (await self._query("SELECT current_database() AS name, oid FROM pg_database "
                                 "WHERE datname = current_database()", fetch=True))[0]
        return re.sub(r"[^A-Za-z0-9_-]", "_", f"{row['name']}-{row['oid']}")

    async def members(self) -> list[str]:
        """The ids of the nodes whose ownership connection is up, this one included."""
        rows = await self._query(_MEMBERS, fetch=True)
        return sorted(row["name"][len(APPLICATION_PREFIX):] for row in rows)

    async def _query(self, sql: str, *args: Any, fetch: bool = False,
                     timeout: float = 10.0) -> Any:
        if self._closing:
            raise OwnershipLost(f"node {self.node_id}'s ownership is closed")
        if self.lost.is_set():
            raise OwnershipLost(f"node {self.node_id} lost its ownership connection")
        async with self._lock:
            try:
                if fetch:
                    return await self._connection.fetch(sql, *args, timeout=timeout)
                return await self._connection.fetchval(sql, *args, timeout=timeout)
            except Exception as exc:
                if self._connection.is_closed() or isinstance(exc, (OSError, asyncio.TimeoutError)):
                    self._lose(f"{str(exc) or type(exc).__name__}")
                    raise OwnershipLost(f"node {self.node_id} lost its ownership connection: "
                                        f"{str(exc) or type(exc).__name__}") from exc
                raise

    async def _beat(self, every: float) -> None:
        while not self.lost.is_set():
            await asyncio.sleep(every)
            try:
                # unanswered this long: this node can no longer tell that it owns anything
                await self._query("SELECT 1", timeout=max(2 * every, HEARTBEAT_TIMEOUT))
            except OwnershipLost:
                return
            except Exception as exc:  # any other failure of the connection is a loss too
                self._lose(f"heartbeat: {str(exc) or type(exc).__name__}")
                return

    def _on_terminated(self, connection: Any) -> None:
        if not self._closing:
            self._lose("the connection was closed")

    def _lose(self, reason: str) -> None:
        if self.lost.is_set():
            return
        matches, self._owned = frozenset(self._owned), set()
        self.lost.set()
        if not self._closing:
            log.error("node %s lost its ownership connection (%s): %d matches lost",
                      self.node_id, reason, len(matches))
        if not self._connection.is_closed():
            self._connection.terminate()
        for callback in self._callbacks:
            try:
                callback(matches)
            except Exception:  # every callback hears of it, whatever one of them does
                log.exception("an owner_lost callback failed")

    async def close(self) -> None:
        """Give up every match at once (the connection closes) and stop the heartbeat; a
        close is not a loss (no callback), and the object owns nothing after it."""
        self._closing = True
        self._heartbeat.cancel()
        await asyncio.gather(self._heartbeat, return_exceptions=True)
        self._owned.clear()
        if not self._connection.is_closed():
            await self._connection.close(timeout=5)
