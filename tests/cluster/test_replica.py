"""Matches over several nodes in one test process: three apps over one PostgreSQL database
and the NATS bus, each its own node (service/sessions/replica.py). Players on different
nodes play one match; a watcher on a third node sees every version once and in order; a
command on a node that does not own the match is carried to its owner; an owner that leaves
is replaced by a node that follows the match."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from clients import CanonicalClient, play_everywhere

from service.app import create_app
from service.gateway.keys import HUB
from service.settings import Settings

pytestmark = pytest.mark.postgres

Node = Any  # an aiohttp test client of one app
StartNode = Callable[[str], Awaitable[Node]]


@pytest.fixture
async def start_node(aiohttp_client: Any, postgres_url: str, nats_url: str
                     ) -> AsyncIterator[StartNode]:
    started: list[Node] = []

    async def start(node_id: str) -> Node:
        settings = Settings.for_tests(postgres_url, cluster_bus=nats_url, node_id=node_id)
        started.append(await aiohttp_client(create_app(settings)))
        return started[-1]

    yield start
    for node in started:  # before the database is dropped
        await node.close()


async def player(node: Node, nickname: str) -> CanonicalClient:
    client = CanonicalClient(await node.ws_connect("/ws"))
    await client.hello(nickname)
    return client


async def table(a: Node, b: Node, **options: Any) -> tuple[CanonicalClient, CanonicalClient, int,
                                                          dict[str, Any]]:
    """ann on node a opens a Santorini match (with ``options``), bob on node b joins it:
    (ann, bob, the match id, the started state as bob sees it)."""
    ann, bob = await player(a, "ann"), await player(b, "bob")
    created = await ann.call({"type": "create", "game": "santorini", "seats": 2,
                              **({"options": options} if options else {})})
    match_id = created["result"]["match_id"]
    joined = await bob.call({"type": "join", "match_id": match_id})
    assert joined["type"] == "ok", joined
    return ann, bob, match_id, await bob.wait_for("state", status="active")


def runtime(node: Node, match_id: int) -> Any:
    return node.server.app[HUB].loaded(match_id)


async def test_players_on_two_nodes_play_and_a_third_node_watches(start_node: StartNode) -> None:
    a, b, c = [await start_node(name) for name in ("a", "b", "c")]
    ann, bob = await player(a, "ann"), await player(b, "bob")
    created = await ann.call({"type": "create", "game": "santorini", "seats": 2})
    match_id = created["result"]["match_id"]
    joined = await bob.call({"type": "join", "match_id": match_id})
    assert joined["type"] == "ok", joined
    latest = await ann.wait_for("state", status="active")
    assert runtime(a, match_id).owned and not runtime(b, match_id).owned

    watcher = CanonicalClient(await c.ws_connect("/ws"))
    await watcher.hello(None)
    watched = await watcher.call({"type": "watch", "match_id": match_id})
    assert watched["type"] == "ok", watched
    seen = [(await watcher.wait_for("state"))["version"]]

    latest = await play_everywhere([ann, bob], match_id, latest, random.Random(7).choice)
    assert latest["status"] == "finished"
    while seen[-1] < latest["version"]:
        seen.append((await watcher.wait_for("update"))["version"])
    assert seen == list(range(seen[0], latest["version"] + 1))  # each version once, in order
    for node in (b, c):
        copy = runtime(node, match_id)
        assert copy.version == latest["version"] and copy.status == "finished"
        assert not copy.owned
    saved = await a.server.app[HUB].store.get_match(match_id)
    assert saved is not None and saved.version == latest["version"]


async def test_a_rule_error_from_the_owner_reaches_the_player_elsewhere(start_node: StartNode) -> None:
    a, b = await start_node("a"), await start_node("b")
    ann, bob, match_id, state = await table(a, b)
    mover = [ann, bob][state["to_act"][0]]
    waiter = bob if mover is ann else ann
    legal = (await mover.call({"type": "legal", "match_id": match_id}))["result"]["actions"]
    refused = await waiter.call({"type": "act", "match_id": match_id, "version": state["version"],
                                 "action": legal[0], "client_id": "w1"})
    assert refused["type"] == "error" and refused["code"] == "rules/not_your_turn", refused
    bad = await bob.call({"type": "act", "match_id": match_id, "action": {"type": "fly"},
                          "client_id": "b1"})
    assert bad["type"] == "error" and bad["code"] == "action/malformed", bad
    stale = await mover.call({"type": "act", "match_id": match_id, "action": legal[0],
                              "version": state["version"] + 5, "client_id": "m1"})
    assert stale["type"] == "error" and stale["code"] == "session/bad_version", stale
    assert runtime(a, match_id).version == state["version"]


async def test_the_owner_leaves_and_a_follower_takes_the_match_over(start_node: StartNode) -> None:
    a, b = await start_node("a"), await start_node("b")
    ann, bob, match_id, latest = await table(a, b)
    latest = await play_everywhere([ann, bob], match_id, latest, random.Random(3).choice, moves=3)
    await a.close()  # node a shuts down: it hands the match over
    copy = runtime(b, match_id)
    for _ in range(600):
        if copy.owned:
            break
        await asyncio.sleep(0.1)
    assert copy.owned, "node b did not take the match over"
    ann2 = CanonicalClient(await b.ws_connect("/ws"))  # ann's client comes back on node b
    await ann2.hello(token=ann.token)
    resumed = await ann2.call({"type": "resume", "match_id": match_id, "since": latest["version"]})
    assert resumed["type"] == "ok" and resumed["result"]["version"] == latest["version"], resumed
    await ann2.wait_for("state")
    latest = await play_everywhere([ann2, bob], match_id, latest, random.Random(4).choice)
    assert latest["status"] == "finished"
    saved = await b.server.app[HUB].store.get_match(match_id)
    assert saved is not None and saved.status == "finished" and saved.version == latest["version"]


async def until(check: Callable[[], bool], what: str, seconds: float = 60.0) -> None:
    """Wait for ``check()`` (an event another node causes), at most ``seconds``."""
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


async def test_two_nodes_load_one_match_at_once_and_exactly_one_owns_it(
        start_node: StartNode) -> None:
    a, b = await start_node("a"), await start_node("b")
    ann = await player(a, "ann")
    match_id = (await ann.call({"type": "create", "game": "santorini", "seats": 2}))["result"]["match_id"]
    await a.close()  # nobody owns it now
    c, d = await start_node("c"), await start_node("d")
    for _ in range(5):
        got = await asyncio.gather(c.server.app[HUB].get(match_id), d.server.app[HUB].get(match_id),
                                   b.server.app[HUB].get(match_id))
        assert sum(r.owned for r in got) == 1, [r.owned for r in got]
        owner = next(n for n, r in zip((c, d, b), got) if r.owned)
        for node in (c, d, b):
            node.server.app[HUB].forget(match_id)  # the owner gives it up: race again
        await until(lambda: owner.server.app[HUB].cluster.owned_count() == 0, "released")


async def test_a_node_that_loses_its_database_connection_stops_writing(
        start_node: StartNode, postgres_url: str) -> None:
    import asyncpg

    from service.cluster.ownership import asyncpg_dsn
    a, b = await start_node("a"), await start_node("b")
    ann, bob, match_id, latest = await table(a, b)
    latest = await play_everywhere([ann, bob], match_id, latest, random.Random(1).choice, moves=2)
    admin = await asyncpg.connect(asyncpg_dsn(postgres_url))
    try:
        assert await admin.fetchval(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = 'tavolo-node:a' AND datname = current_database()")
    finally:
        await admin.close()
    copy_a, copy_b = runtime(a, match_id), runtime(b, match_id)
    await until(lambda: not copy_a.owned, "node a stops writing")
    # a node takes the match over (b, or a again once its connection is back: whoever asks
    # first), and the match goes on through both
    await until(lambda: copy_a.owned or copy_b.owned, "a node takes the match over")
    latest = await play_everywhere([ann, bob], match_id, latest, random.Random(2).choice)
    assert latest["status"] == "finished"
    assert copy_a.version == copy_b.version == latest["version"]
    assert copy_a.owned != copy_b.owned  # exactly one writer


async def test_the_lobby_of_every_node_hears_of_a_match_opened_on_another(
        start_node: StartNode) -> None:
    a, b = await start_node("a"), await start_node("b")
    watcher = await player(b, "lobbywatcher")
    subscribed = await watcher.call({"type": "lobby", "subscribe": True})
    assert subscribed["type"] == "ok" and subscribed["result"]["matches"] == []
    ann = await player(a, "ann")
    match_id = (await ann.call({"type": "create", "game": "eriantys", "seats": 3}))["result"]["match_id"]
    pushed = await watcher.wait_for("lobby")
    assert [m["match_id"] for m in pushed["matches"]] == [match_id]
    bob = await player(b, "bob")
    assert (await bob.call({"type": "quick_join", "game": "eriantys", "seats": 3}))["result"]["match_id"] \
        == match_id  # quick_join on b finds the match a owns, and a seats bob
    while True:
        pushed = await watcher.wait_for("lobby")
        seated = [s["nickname"] for s in pushed["matches"][0]["seats"]]
        if "bob" in seated:
            break
    assert runtime(a, match_id).seat_of(runtime(b, match_id).seats[1].player_id) == 1


async def test_a_match_of_bots_goes_on_when_its_node_leaves(start_node: StartNode) -> None:
    a, b = await start_node("a"), await start_node("b")
    hub_a = a.server.app[HUB]
    owner = (await hub_a.identify(nickname="botowner")).player
    created, _ = await hub_a.create("eriantys", {"expert": True}, seats=4, owner=owner,
                                    bots=["random"] * 4)
    match_id = created.id
    await a.close()  # it drains at once: no node follows the match, nobody is connected
    store = b.server.app[HUB].store
    saved = await store.get_match(match_id)
    assert saved is not None and saved.status == "active"  # 4 random bots play long games
    await until(lambda: runtime(b, match_id) is not None and runtime(b, match_id).owned,
                "node b takes the bots' match up", seconds=90)
    copy = runtime(b, match_id)
    await until(lambda: copy.version > saved.version or copy.over, "the bots play on node b")


async def test_players_on_two_nodes_agree_to_a_rematch(start_node: StartNode) -> None:
    a, b = await start_node("a"), await start_node("b")
    ann, bob, match_id, latest = await table(a, b, gods=False)
    latest = await play_everywhere([ann, bob], match_id, latest, random.Random(8).choice)
    assert latest["status"] == "finished"
    first = await bob.call({"type": "rematch", "match_id": match_id})  # carried to node a
    assert first["type"] == "ok" and first["result"]["agreed"] == [1], first
    assert (await ann.wait_for("rematch", match_id=match_id))["agreed"] == [1]
    second = await ann.call({"type": "rematch", "match_id": match_id})
    new_id = second["result"]["new_match_id"]
    assert new_id is not None and new_id != match_id, second
    told = await bob.wait_for("rematch", match_id=match_id, new_match_id=new_id)
    assert told["agreed"] == [0, 1]
    resumed = await bob.call({"type": "resume", "match_id": new_id})
    assert resumed["type"] == "ok" and resumed["result"]["seat"] == 1, resumed
    assert (await bob.wait_for("state", match_id=new_id))["status"] == "active"


async def test_a_claim_on_one_node_puts_a_stand_in_on_the_owner(start_node: StartNode) -> None:
    a, b = await start_node("a"), await start_node("b")
    for node in (a, b):
        node.server.app[HUB].lifecycle.clock = lambda: 1e9  # far in the future: grace passed
    ann, bob, cid = await player(a, "ann"), await player(b, "bob"), await player(b, "cid")
    match_id = (await ann.call({"type": "create", "game": "eriantys", "seats": 3,
                                "options": {"expert": False}}))["result"]["match_id"]
    for other in (bob, cid):
        await other.call({"type": "join", "match_id": match_id})
    await cid.wait_for("state", status="active")
    await ann.ws.close()  # ann is away: her node tells the others
    copy_b = runtime(b, match_id)
    await until(lambda: not copy_b.present(0), "node b sees ann away")
    lifecycle_b = b.server.app[HUB].lifecycle
    lifecycle_b.clock = lambda: 0.0
    lifecycle_b._note_away()  # the sweep notes her away from t=0 ...
    lifecycle_b.clock = lambda: 1e9  # ... and now the grace has long passed
    claimed = await bob.call({"type": "claim", "match_id": match_id})
    assert claimed["type"] == "ok", claimed
    stand_in = await cid.wait_for("stand_in", match_id=match_id)
    assert stand_in["seat"] == 0 and stand_in["level"]
    owner = runtime(a, match_id)
    assert owner.owned and owner.stand_ins() == {0: stand_in["level"]}
    assert copy_b.stand_ins() == owner.stand_ins()
