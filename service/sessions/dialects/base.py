"""What every dialect conversation shares: error accounting, the heartbeat's plumbing,
and clean detach on close."""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from service import metrics
from service.errors import ProtocolError, ServiceError
from service.protocol.framing import FrameError, Framer
from service.sessions import logcontext
from service.sessions.budget import ConnectionBudget
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.sessions.peer import Peer

log = logging.getLogger(__name__)

#: a connection that sends this many bad frames in a row is closed
MAX_CONSECUTIVE_ERRORS = 20


class Conversation(ABC):
    """One client connection speaking one dialect. The transport feeds it frames in order."""

    dialect: str = "?"

    def __init__(self, hub: Hub, peer: Peer) -> None:
        self.hub = hub
        self.peer = peer
        self._bad_frames = 0
        #: what this connection may still cost (set by the transport; None: not counted)
        self.budget: ConnectionBudget | None = None
        self._attached: dict[int, MatchRuntime] = {}
        #: when the client last sent anything (heartbeats measure silence from here)
        self.last_heard = time.monotonic()
        self._heartbeat: asyncio.Task[None] | None = None

    async def on_open(self) -> None:
        """Called once when the connection is up (some dialects greet first)."""

    async def on_frame(self, frame: str | FrameError) -> None:
        """Handle one frame; map every service error to the dialect's error reply."""
        self.last_heard = time.monotonic()
        try:
            if isinstance(frame, FrameError):
                raise ProtocolError(frame.message, code=frame.code)
            await self.handle(frame)
            self._bad_frames = 0
            if self.budget is not None:
                self.budget.accepted()
        except ServiceError as exc:
            self._count_bad(exc)
            self._charge_rejected(exc)
            metrics.ERRORS.labels(exc.code).inc()
            self.reply_error(exc)
        except Exception:
            log.exception("%s: internal error on a frame", self.peer.name)
            metrics.ERRORS.labels("service/internal").inc()
            self.reply_error(ServiceError("internal error", code="service/internal"))

    def _count_bad(self, exc: ServiceError) -> None:
        if isinstance(exc, ProtocolError):
            self._bad_frames += 1
            if self._bad_frames >= MAX_CONSECUTIVE_ERRORS:
                log.info("%s: too many bad frames, closing", self.peer.name)
                self.peer.close()

    def _charge_rejected(self, exc: ServiceError) -> None:
        """A rejected frame costs the connection's budget (the store's faults and ours do
        not: the client did nothing wrong); too many in a row close it."""
        if self.budget is None or exc.code.startswith(("store/", "service/")):
            return
        if self.budget.rejected() and not self.peer.closing:
            log.info("%s: too many rejected frames in a row, closing", self.peer.name)
            self.peer.close()

    @abstractmethod
    async def handle(self, frame: str) -> None:
        """Handle one well-framed message (raise ServiceError to answer with an error)."""

    @abstractmethod
    def reply_error(self, exc: ServiceError) -> None:
        """Send the dialect's form of an error answer."""

    # --- heartbeat plumbing (each dialect keeps its own seed's rules) -------------------

    def keep_alive(self, beat: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run the dialect's heartbeat loop for as long as the connection lives."""
        self._heartbeat = asyncio.create_task(beat(), name=f"heartbeat {self.peer.name}")

    async def ping_while_heard(self, interval: float, limit: float, ping: Callable[[], None]) -> None:
        """A heartbeat loop: every ``interval`` s call ``ping``; drop the client once it has
        sent nothing for more than ``limit`` s."""
        while not self.peer.closing:
            await asyncio.sleep(interval)
            if self.silent_for() > self.relaxed(limit):
                self.drop(f"silent for more than {self.relaxed(limit)} s")
                return
            ping()

    def relaxed(self, seconds: float) -> float:
        """A heartbeat limit of the seed, scaled for hand testing (Settings.heartbeat_scale)."""
        return seconds * self.hub.heartbeat_scale

    @property
    def has_heartbeat(self) -> bool:
        """Whether this conversation runs its dialect's heartbeat (set up in ``on_open``)."""
        return self._heartbeat is not None

    def silent_for(self) -> float:
        return time.monotonic() - self.last_heard

    def drop(self, why: str) -> None:
        """Cut a client off that the heartbeat found gone."""
        log.info("%s: %s; dropping", self.peer.name, why)
        self.peer.drop()

    def dismiss(self) -> None:
        """Cut off a client whose player was banned (Hub.dismiss): it is detached from every
        match at once, so its seats are away and a stand-in may play them."""
        log.info("%s: the player was banned; closing", self.peer.name)
        for match_id in list(self._attached):
            self.detach(match_id)
        self.peer.drop()

    # --- attachment bookkeeping ----------------------------------------------------

    def attach(self, runtime: MatchRuntime, seat: int | None) -> None:
        logcontext.match_var.set(runtime.id)  # this connection's log lines name its match
        self._attached[runtime.id] = runtime
        runtime.attach(self, seat)  # type: ignore[arg-type]

    def detach(self, match_id: int) -> None:
        runtime = self._attached.pop(match_id, None)
        if runtime is not None:
            runtime.detach(self)  # type: ignore[arg-type]

    async def on_close(self) -> None:
        if self._heartbeat is not None:
            await _stop(self._heartbeat)
        for match_id in list(self._attached):
            self.detach(match_id)


async def _stop(task: asyncio.Task[None]) -> None:
    """Cancel a task and wait for it. On Python 3.11 ``asyncio.wait_for`` swallows a cancel
    that lands as its inner wait completes (a pong read just before the client's EOF): then
    the heartbeat went on to ping and wait out its timeout, holding the close for 15 s. So
    cancel again until it is done."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=0.1)
    if not task.cancelled() and task.exception() is not None:
        log.error("heartbeat failed", exc_info=task.exception())


@dataclass(frozen=True)
class Dialect:
    """A wire dialect: how to frame it and how to talk it."""

    name: str
    default_port: int | None
    framer: Callable[[], Framer]
    conversation: Callable[[Hub, Peer], Conversation]
    description: str = ""

    def info(self) -> dict[str, Any]:
        return {"name": self.name, "default_port": self.default_port, "description": self.description}
