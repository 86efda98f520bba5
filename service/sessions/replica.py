"""One match over several nodes: the owner writes, every other node that has clients of the
match keeps a copy that follows it (docs/cluster.md, "How a match runs on a cluster").

- **Own or follow.** A node that loads a match owns it if no other node does
  (:meth:`ClusterNode.own`); otherwise its runtime follows the owner. Either way it
  listens to the match's notice subject first and reads the store second, so no notice
  falls between the two.
- **Commands go to the owner.** A runtime that does not own its match carries every change
  (an action, a seat, an end, a stand-in, dialect data, a rematch vote) to the owner as one
  of :data:`OPS` over the bus; the owner runs it exactly as for its own clients and answers
  with the result or the error. An action comes back once the copy here has the version it
  made, so a client hears of its action before its acknowledgement, as on the owner.
- **Notices come from the owner.** After each commit the owner publishes what changed: an
  action (the copies play it, the rules being deterministic, and tell their listeners what
  each may see of it), or "the record changed" (the copies read it back and tell their
  listeners what differs). A copy that sees a version gap reads the missing actions from the
  store. Dialect notices cross from any node.
- **Presence is each node's own.** Every node publishes which seats are attached there and
  how many listeners it has; a node just loading a match says hello and the others answer.
- **Owners die.** Every second each node compares the members of the cluster with the owners
  its copies follow; a copy whose owner is gone (or that a command found without owner)
  tries to own the match, reads the store, and from then on writes it: its bots and stand-ins
  start here. The appender's version check stays the fence against an owner that lost its
  ownership without knowing it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from service.cluster.bus import Subscription
from service.cluster.node import ClusterNode, CommandTimeout, OwnerUnreachable
from service.errors import (BadNickname, Banned, MalformedAction, NicknameTaken, ProtocolError,
                            RulesError, ServiceError, SessionError, StoreError)
from service.sessions.budget import detached
from service.sessions.match import CLIENT_ID_MEMORY, STAND_INS, ActResult, MatchRuntime
from service.sessions.notices import Applied, DialectNotice, Notice, PresenceChanged
from service.store import MatchRecord

if TYPE_CHECKING:
    from service.sessions.hub import Hub

log = logging.getLogger(__name__)

#: seconds between two looks at the cluster's members (dead owners, gone presence)
WATCH_INTERVAL = 1.0
#: every this many looks, matches that bots play and no node owns are taken up here
ORPHAN_EVERY = 5
#: seconds one forwarded command may wait for its answer
COMMAND_TIMEOUT = 5.0
#: seconds a forwarded command keeps looking for an owner (one that died is replaced)
FORWARD_DEADLINE = 10.0
#: the answer of a node asked for a match it does not own (the asker looks again)
NOT_OWNER = "cluster/not_owner"
#: seconds a node that starts following a match waits for the owner to say who is attached
#: there (it answers every hello) before it goes on without knowing
HELLO_TIMEOUT = 2.0


# --- what the owner runs for another node ------------------------------------------------

async def _op_act(hub: Hub, runtime: MatchRuntime, *, player_id: int, action: Any,
                  client_id: str | None, seen_version: int | None) -> dict[str, Any]:
    result = await runtime.act(player_id, action, client_id, seen_version)
    return {"version": result.version, "duplicate": result.duplicate}


async def _op_end(hub: Hub, runtime: MatchRuntime, *, status: str, result: dict[str, Any],
                  only_if: list[str], at_version: int | None) -> None:
    await runtime.end(status, result, only_if=tuple(only_if), at_version=at_version)


async def _op_stand_in(hub: Hub, runtime: MatchRuntime, *, seat: int, level: str | None) -> None:
    await runtime.set_stand_in(seat, level)
    hub.announce(runtime)  # the owner's bots take the seat up


async def _op_dialect_data(hub: Hub, runtime: MatchRuntime, *, dialect: str, data: Any) -> None:
    await runtime.save_dialect_data(dialect, data)


async def _player(hub: Hub, player_id: int) -> Any:
    player = await hub.store.player_by_id(player_id)
    if player is None:
        raise SessionError(f"no player {player_id}", code="session/unknown_player")
    return player


async def _op_join(hub: Hub, runtime: MatchRuntime, *, player_id: int, seat: int | None,
                   invite: str | None) -> int:
    _, taken = await hub.join(runtime.id, await _player(hub, player_id), seat, invite=invite)
    return taken


async def _op_give_up_seat(hub: Hub, runtime: MatchRuntime, *, player_id: int) -> bool:
    return await hub.give_up_seat(runtime, player_id)


async def _op_rematch(hub: Hub, runtime: MatchRuntime, *, player_id: int) -> None:
    await hub.rematch(runtime.id, await _player(hub, player_id))


async def _op_draw(hub: Hub, runtime: MatchRuntime, *, seat: int, offer: bool) -> list[int]:
    return list(await hub.lifecycle.draw_seat(runtime, seat, offer=offer))


#: the changes a node that does not own a match asks its owner to make
OPS: dict[str, Callable[..., Awaitable[Any]]] = {
    "act": _op_act, "end": _op_end, "stand_in": _op_stand_in,
    "dialect_data": _op_dialect_data, "join": _op_join, "give_up_seat": _op_give_up_seat,
    "rematch": _op_rematch, "draw": _op_draw,
}
#: ops that may run twice without harm (an unanswered one is asked again); an action is
#: only with a client id (a duplicate is recognised)
IDEMPOTENT = frozenset({"end", "stand_in", "dialect_data", "join", "give_up_seat", "rematch",
                        "draw"})

_ERRORS_BY_CODE: dict[str, type[ServiceError]] = {
    cls.code: cls for cls in (NicknameTaken, BadNickname, Banned)}
_ERRORS_BY_AREA: dict[str, type[ServiceError]] = {
    "session": SessionError, "store": StoreError, "action": MalformedAction,
    "protocol": ProtocolError}


def error_from(data: dict[str, Any]) -> ServiceError:
    """The error the owner raised, as the same class, code, message and details here."""
    code, message = str(data["code"]), str(data["message"])
    details = dict(data.get("details") or {})
    area, _, reason = code.partition("/")
    if area == "rules":
        return RulesError(reason, message, **details)
    cls = _ERRORS_BY_CODE.get(code) or _ERRORS_BY_AREA.get(area, ServiceError)
    return cls(message, code=code, **details)


def _encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()


# --- one match ----------------------------------------------------------------------------

class MatchLink:
    """The cluster's side of one runtime on this node (service.sessions.match.MatchLink)."""

    def __init__(self, replication: Replication, match_id: int) -> None:
        self.replication = replication
        self.cluster = replication.cluster
        self.match_id = match_id
        self.runtime: MatchRuntime | None = None
        #: the node that owns the match, as far as this node knows (None: nobody, unknown)
        self.owner: str | None = None
        self.notices: Subscription | None = None
        self.serving: Subscription | None = None
        self._ready = asyncio.Event()
        self._promoting = asyncio.Lock()
        self._presence: tuple[frozenset[int], int] | None = None
        #: set when the owner's presence came (the answer to this node's hello)
        self.owner_presence = asyncio.Event()
        #: set (and replaced) whenever the owner changes: a command waiting for the answer
        #: of an owner that is gone stops waiting
        self._owner_changed = asyncio.Event()
        self.closed = False

    # --- what this node tells the others ---------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        message["n"] = self.cluster.node_id
        self.cluster.publish(self.match_id, _encode(message))

    def replicate(self, runtime: MatchRuntime, notice: Notice) -> None:
        if isinstance(notice, PresenceChanged):
            return  # each node says who is attached there (presence_changed)
        if isinstance(notice, DialectNotice):
            self._send({"k": "dialect", "dialect": notice.dialect, "kind": notice.kind,
                        "seat": notice.seat, "data": notice.data})
        elif not runtime.owned:
            return
        elif isinstance(notice, Applied):
            self._send({"k": "applied", "v": notice.version, "seat": notice.seat,
                        "action": notice.action})
        else:
            self._send({"k": "record"})

    def seats_changed(self, runtime: MatchRuntime) -> None:
        if runtime.owned:
            self._send({"k": "record"})

    def presence_changed(self, runtime: MatchRuntime, *, hello: bool = False) -> None:
        presence = runtime.local_presence()
        if presence == self._presence and not hello:
            return
        self._presence = presence
        seats, listeners = presence
        self._send({"k": "hello" if hello else "presence", "seats": sorted(seats),
                    "listeners": listeners})

    # --- what the other nodes tell this one -------------------------------------------

    async def on_notice(self, subject: str, data: bytes) -> None:
        message = json.loads(data)
        node = message.get("n")
        if node == self.cluster.node_id:
            return
        await self._ready.wait()
        runtime = self.runtime
        if runtime is None or self.closed:
            return
        kind = message.get("k")
        try:
            if kind in ("presence", "hello"):
                seats = frozenset(int(s) for s in message["seats"])
                if any(s < len(runtime.seats) and runtime.seats[s].player_id is None
                       for s in seats):  # seated there before its record reached here
                    async with runtime.following():
                        await runtime.catch_up()
                runtime.elsewhere(node, seats, int(message["listeners"]))
                if node == self.owner:
                    self.owner_presence.set()
                if kind == "hello":
                    self._presence = None  # every hello is answered, changed or not
                    self.presence_changed(runtime)
            elif kind == "dialect":
                runtime.publish(DialectNotice(message["dialect"], message["kind"],
                                              message["seat"], message.get("data") or {}),
                                local=True)
            elif runtime.owned:
                return  # only an owner's changes are followed, and this node owns it
            elif kind == "bye":  # the owner gave it up (it drains, or forgot the match)
                self.set_owner(None)
                # not in this handler's task: closing the subscription cancels it
                detached(self.promote(), name=f"take over match {self.match_id}")
            elif kind == "applied":
                self.set_owner(node)
                await self._follow_action(runtime, int(message["v"]), int(message["seat"]),
                                          message["action"])
            elif kind == "record":
                self.set_owner(node)
                async with runtime.following():
                    await runtime.catch_up()
        except ServiceError as exc:
            log.warning("match %s: could not follow %s from %s: %s", self.match_id, kind, node,
                        exc)

    async def _follow_action(self, runtime: MatchRuntime, seq: int, seat: int,
                             action: dict[str, Any]) -> None:
        async with runtime.following():
            if seq <= runtime.version:
                return  # had it already (read from the store)
            if seq == runtime.version + 1:
                try:
                    runtime.apply_saved(seq, seat, action)
                    return
                except Exception:
                    log.exception("match %s: action %s did not play here as on its owner; "
                                  "reading the match again", self.match_id, seq)
                    await self.replication.reread(runtime)
                    return
            await runtime.catch_up()  # missed some: the store has them

    async def on_command(self, subject: str, data: bytes) -> bytes:
        """A command another node forwarded to this one, the owner."""
        runtime = self.runtime
        if runtime is None or not runtime.owned or self.closed:
            return _encode({"error": {"code": NOT_OWNER, "message": "not the owner"}})
        message = json.loads(data)
        op = OPS.get(message.get("op", ""))
        if op is None:
            return _encode({"error": {"code": "protocol/unknown_op",
                                      "message": f"no op {message.get('op')!r}"}})
        try:
            result = await op(self.replication.hub, runtime, **message.get("args", {}))
        except ServiceError as exc:
            return _encode({"error": exc.to_dict()})
        return _encode({"ok": result})

    def set_owner(self, node: str | None) -> None:
        """The owner is ``node`` now (None: nobody); commands waiting on the one before
        stop (learning the owner where none was known interrupts nothing)."""
        if node != self.owner:
            previous, self.owner = self.owner, node
            if previous is not None:
                self._owner_changed.set()
                self._owner_changed = asyncio.Event()

    async def _ask_owner(self, payload: bytes) -> bytes:
        """The owner's answer, or CommandTimeout as soon as the owner changes (it died, or
        gave the match up: its answer will never come)."""
        changed = self._owner_changed
        asked = asyncio.ensure_future(self.cluster.command(self.match_id, payload,
                                                           COMMAND_TIMEOUT))
        moved = asyncio.ensure_future(changed.wait())
        try:
            await asyncio.wait({asked, moved}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            moved.cancel()
        if asked.done():
            return asked.result()
        asked.cancel()
        await asyncio.gather(asked, return_exceptions=True)
        raise CommandTimeout(f"match {self.match_id}: its owner changed while it was asked")

    # --- this node's runtime asks the owner -------------------------------------------

    async def act(self, runtime: MatchRuntime, player_id: int, raw_action: Any,
                  client_id: str | None, seen_version: int | None) -> ActResult:
        answer = await self.call(runtime, "act", player_id=player_id, action=raw_action,
                                 client_id=client_id, seen_version=seen_version)
        result = ActResult(int(answer["version"]), bool(answer["duplicate"]))
        if not runtime.owned:
            await runtime.reached(result.version)
        return result

    async def call(self, runtime: MatchRuntime, op: str, **args: Any) -> Any:
        """Run ``op`` where the match is owned: at the owner, or here once this node owns
        it (the owner is gone: this node takes the match over). An action without a client
        id is never sent twice: unanswered, its outcome is unknown, as when the store does
        not answer."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FORWARD_DEADLINE
        delay = 0.02
        payload = _encode({"op": op, "args": args})
        retry = op in IDEMPOTENT or args.get("client_id") is not None
        while True:
            if runtime.owned:
                return await OPS[op](self.replication.hub, runtime, **args)
            try:
                answer = json.loads(await self._ask_owner(payload))
            except OwnerUnreachable:
                answer = None
            except CommandTimeout:
                if not retry:
                    raise StoreError("the match's node did not confirm the action: it may or may "
                                     "not be applied; resend it with a client_id to learn which",
                                     code="store/unknown_outcome") from None
                answer = None
            if answer is not None and "ok" in answer:
                if op != "act":
                    async with runtime.following():
                        await runtime.catch_up()
                return answer["ok"]
            if answer is not None and answer["error"]["code"] != NOT_OWNER:
                raise error_from(answer["error"])
            if await self.promote():
                continue
            if loop.time() >= deadline:
                raise StoreError("the match's node does not answer; try again",
                                 code="store/unavailable")
            await asyncio.sleep(delay)
            delay = min(2 * delay, 0.5)

    # --- ownership ----------------------------------------------------------------------

    async def promote(self) -> bool:
        """Own the match if nobody does, and from then on write it here. True if owned."""
        runtime = self.runtime
        if runtime is None or self.closed:
            return False
        async with self._promoting:
            if runtime.owned:
                return True
            if not await self.cluster.own(self.match_id):
                self.set_owner(await self.cluster.owner_of(self.match_id))
                return False
            try:
                async with runtime.following():
                    await runtime.catch_up()
                saved = await runtime.store.recent_client_ids(self.match_id,
                                                              limit=CLIENT_ID_MEMORY)
            except BaseException:
                await self.cluster.release(self.match_id)
                raise
            runtime.restore_client_ids(saved)
            runtime.owned = True
            self.set_owner(self.cluster.node_id)
            await self.serve()
            log.info("match %s: taken over at version %s", self.match_id, runtime.version)
        self.replication.hub.announce(runtime)  # its bots and stand-ins play here now
        return True

    async def serve(self) -> None:
        if self.serving is None:
            self.serving = await self.cluster.serve_commands(self.match_id, self.on_command)

    async def demote(self) -> None:
        """This node lost the match (its ownership connection failed): stop writing it."""
        if self.runtime is not None:
            self.runtime.owned = False
        self.set_owner(None)
        serving, self.serving = self.serving, None
        if serving is not None:
            await serving.close()

    def start(self, runtime: MatchRuntime) -> None:
        self.runtime = runtime
        runtime.link = self
        self._ready.set()

    async def close(self) -> None:
        """The runtime left this node's memory: stop following it, give it up if owned."""
        self.closed = True
        self._ready.set()
        owned = self.runtime is not None and self.runtime.owned
        for sub in (self.notices, self.serving):
            if sub is not None:
                await sub.close()
        self.notices = self.serving = None
        if owned:
            await self.cluster.release(self.match_id)
            self._send({"k": "bye"})  # whoever follows it takes it over


# --- the node -------------------------------------------------------------------------------

class Replication:
    """Every match of one hub on a cluster (see the module's text)."""

    def __init__(self, hub: Hub, cluster: ClusterNode) -> None:
        self.hub = hub
        self.cluster = cluster
        self._watcher: asyncio.Task[None] | None = None
        self._lobby: Subscription | None = None
        cluster.on_lost(self._lost)
        hub.lobby_feed.tell_others = lambda: cluster.announce("lobby", cluster.node_id.encode())

    def start(self) -> None:
        self._watcher = asyncio.get_running_loop().create_task(self._watch(),
                                                               name="cluster watch")

    async def load(self, match_id: int) -> tuple[MatchRecord, MatchLink]:
        """Own or follow ``match_id`` and read it: listening starts before the read."""
        link = MatchLink(self, match_id)
        owned = await self.cluster.own(match_id)
        try:
            link.notices = await self.cluster.follow(match_id, link.on_notice)
            record = await self.hub.store.get_match(match_id)
            if record is None:
                raise SessionError(f"no match {match_id}", code="session/no_such_match")
        except BaseException:
            await link.close()
            if owned:
                await self.cluster.release(match_id)
            raise
        if owned:
            link.owner = self.cluster.node_id
        return record, link

    async def new(self, match_id: int) -> MatchLink:
        """A match this node just created: it owns it."""
        link = MatchLink(self, match_id)
        if not await self.cluster.own(match_id):
            raise StoreError(f"match {match_id} is owned by another node already",
                             code="store/unavailable")
        link.owner = self.cluster.node_id
        link.notices = await self.cluster.follow(match_id, link.on_notice)
        return link

    async def started(self, runtime: MatchRuntime, link: MatchLink, owned: bool) -> None:
        """``runtime`` is installed with ``link``: serve its commands if owned, say hello."""
        if owned:
            await link.serve()
            link.presence_changed(runtime, hello=True)
            return
        link.owner = await self.cluster.owner_of(runtime.id)
        link.presence_changed(runtime, hello=True)
        if link.owner is not None:  # who is attached at the owner: present() is right at once
            try:
                await asyncio.wait_for(link.owner_presence.wait(), HELLO_TIMEOUT)
            except TimeoutError:
                log.warning("match %s: its owner %s did not say who is attached there",
                            runtime.id, link.owner)

    def dropped(self, runtime: MatchRuntime) -> None:
        """The runtime left memory: stop following it, give it up if owned."""
        link = runtime.link
        if isinstance(link, MatchLink) and not link.closed:
            detached(link.close(), name=f"unfollow match {runtime.id}")

    async def reread(self, runtime: MatchRuntime) -> None:
        """The copy here went wrong: become the saved match again (listeners catch up by
        version, as after a restart). Call within ``runtime.following()``."""
        record = await self.hub.store.get_match(runtime.id)
        if record is not None:
            runtime.reload(record, [])

    def _lost(self, matches: frozenset[int]) -> None:
        for match_id in matches:
            runtime = self.hub.loaded(match_id)
            if runtime is not None and isinstance(runtime.link, MatchLink):
                runtime.owned = False
                detached(runtime.link.demote(), name=f"demote match {match_id}")

    async def _watch(self) -> None:
        self._lobby = await self.cluster.listen("lobby", self._lobby_changed)
        looks = 0
        while True:
            await asyncio.sleep(WATCH_INTERVAL)
            looks += 1
            try:
                await self.look()
                if looks % ORPHAN_EVERY == 0:
                    await self.adopt_orphans()
            except Exception:
                log.exception("cluster watch failed")

    async def _lobby_changed(self, subject: str, data: bytes) -> None:
        if data.decode() != self.cluster.node_id:
            self.hub.lobby_feed.changed_elsewhere()

    async def adopt_orphans(self) -> list[int]:
        """Load here the active matches that computer players play (bot seats, stand-ins)
        and no node owns (their owner died or drained, and no node with players of theirs
        took them over): their bots go on. Every node looks; ownership picks one."""
        store = self.hub.store
        playing = (set(await store.matches_with_bots())
                   | set(await store.matches_with_stand_ins(STAND_INS)))
        candidates = playing - {r.id for r in self.hub.live()}
        orphans = sorted(candidates - set(await self.cluster.owners(candidates))) \
            if candidates else []
        adopted = []
        for match_id in orphans:
            try:
                runtime = await self.hub.get(match_id)
            except ServiceError as exc:
                log.warning("match %s: its bots cannot go on here: %s", match_id, exc)
                continue
            if runtime.owned:
                adopted.append(match_id)
        if adopted:
            log.info("took up %d match(es) played by bots that no node owned: %s",
                     len(adopted), ", ".join(map(str, adopted)))
        return adopted

    async def look(self) -> None:
        """Forget the presence of nodes that left; take over the matches nobody owns (their
        owner left, or lost its ownership connection and so stopped writing)."""
        members = set(await self.cluster.members())
        if self.cluster.node_id not in members:
            return  # this node's own ownership connection is down: it can tell nothing
        linked = [r for r in self.hub.live()
                  if isinstance(r.link, MatchLink) and not r.link.closed]
        followed = [r for r in linked if not r.owned]
        # only the matches this node follows are asked about (none: no query)
        owners = await self.cluster.owners([r.id for r in followed]) if followed else {}
        for runtime in linked:
            for node in runtime.nodes_elsewhere():
                if node not in members:
                    runtime.elsewhere(node, None)
        for runtime in followed:
            link = runtime.link
            assert isinstance(link, MatchLink)
            owner = owners.get(runtime.id)
            link.set_owner(owner if owner in members else None)
            if link.owner is None:
                try:
                    await link.promote()
                except ServiceError as exc:
                    log.warning("match %s: could not take it over: %s", runtime.id, exc)

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            await asyncio.gather(self._watcher, return_exceptions=True)
        if self._lobby is not None:
            await self._lobby.close()
        for runtime in self.hub.live():
            if isinstance(runtime.link, MatchLink):
                await runtime.link.close()  # handed over: a follower takes it (bye)
                runtime.owned = False
        await self.cluster.flush()
