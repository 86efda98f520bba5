"""Match ownership over the real PostgreSQL: two nodes (two ownership connections) race for
matches, and a node whose connection is killed (pg_terminate_backend, as a dead process's
socket would close) loses every match at once to the other. No timing assertions."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import asyncpg
import pytest

from service.cluster.ownership import (LOCK_SPACE, Ownership, OwnershipLost,
                                       OwnershipUnavailable, asyncpg_dsn)

WAIT = 30.0

OpenNode = Callable[[str], Awaitable[Ownership]]


@pytest.fixture
async def node(postgres_url: str) -> AsyncIterator[OpenNode]:
    opened: list[Ownership] = []

    async def open_node(node_id: str) -> Ownership:
        ownership = await Ownership.open(postgres_url, node_id, heartbeat=0.5)
        opened.append(ownership)
        return ownership

    try:
        yield open_node
    finally:
        for ownership in opened:
            await ownership.close()


@pytest.fixture
async def admin(postgres_url: str) -> AsyncIterator[asyncpg.Connection]:
    connection = await asyncpg.connect(asyncpg_dsn(postgres_url))
    try:
        yield connection
    finally:
        await connection.close()


async def until(condition: Callable[[], Awaitable[bool]]) -> None:
    async def poll() -> None:
        while not await condition():
            await asyncio.sleep(0.05)
    await asyncio.wait_for(poll(), WAIT)


async def test_two_nodes_racing_for_a_match_exactly_one_wins(node: OpenNode) -> None:
    a, b = await node("node-a"), await node("node-b")
    for match_id in range(1, 41):
        won = await asyncio.gather(a.try_own(match_id), b.try_own(match_id))
        assert sorted(won) == [False, True], (match_id, won)
    assert a.owned() | b.owned() == frozenset(range(1, 41))
    assert not a.owned() & b.owned()
    expected = {m: "node-a" for m in a.owned()} | {m: "node-b" for m in b.owned()}
    assert await a.owners() == await b.owners() == expected
    assert await a.members() == await b.members() == ["node-a", "node-b"]
    # asking again changes nothing: the owner keeps it (once), the other still cannot
    for match_id in range(1, 41):
        owner, other = (a, b) if a.owns(match_id) else (b, a)
        assert await owner.try_own(match_id) and not await other.try_own(match_id)


async def test_a_killed_ownership_connection_frees_every_match_and_fires_owner_lost(
        node: OpenNode, admin: asyncpg.Connection) -> None:
    a, b = await node("node-a"), await node("node-b")
    lost: list[frozenset[int]] = []
    a.on_lost(lost.append)
    for match_id in (3, 4, 5):
        assert await a.try_own(match_id)
        assert not await b.try_own(match_id)
    assert await b.owner_of(4) == "node-a"

    killed = await admin.fetchval(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE application_name = 'tavolo-node:node-a' AND datname = current_database()")
    assert killed
    await asyncio.wait_for(a.lost.wait(), WAIT)
    assert lost == [frozenset({3, 4, 5})]
    assert a.owned() == frozenset()
    with pytest.raises(OwnershipLost):
        await a.try_own(6)

    async def b_owns_all() -> bool:
        return all([await b.try_own(m) for m in (3, 4, 5)])
    await until(b_owns_all)
    assert await b.owners() == {3: "node-b", 4: "node-b", 5: "node-b"}
    assert await b.members() == ["node-b"]


async def test_release_lets_another_node_own_and_the_first_own_again(node: OpenNode) -> None:
    a, b = await node("node-a"), await node("node-b")
    assert await a.try_own(7) and await a.try_own(7)  # the second ask takes no second lock
    assert not await b.try_own(7)
    assert await a.release(7)
    assert not await a.release(7)  # not owned any more: nothing to give up
    assert a.owned() == frozenset()
    assert await b.try_own(7)
    assert not await a.try_own(7)
    assert await b.release(7)
    assert await a.try_own(7)
    assert await a.owner_of(7) == "node-a"


async def test_asking_twice_at_once_takes_one_lock_that_one_release_frees(
        node: OpenNode) -> None:
    a, b = await node("node-a"), await node("node-b")
    assert await asyncio.gather(*(a.try_own(8) for _ in range(5))) == [True] * 5
    assert await a.release(8)
    assert await b.try_own(8)


async def test_closing_a_node_frees_its_matches_without_a_loss(node: OpenNode) -> None:
    a, b = await node("node-a"), await node("node-b")
    lost: list[frozenset[int]] = []
    a.on_lost(lost.append)
    assert await a.try_own(11) and await a.try_own(12)
    await a.close()
    assert await b.try_own(11) and await b.try_own(12)
    assert lost == [] and not a.lost.is_set()
    with pytest.raises(OwnershipLost):
        await a.try_own(13)


async def test_other_advisory_locks_do_not_collide_with_ownership(
        node: OpenNode, admin: asyncpg.Connection) -> None:
    a = await node("node-a")
    # the one-key form and another space, on the same number: different locks
    assert await admin.fetchval("SELECT pg_try_advisory_lock(21)")
    assert await admin.fetchval("SELECT pg_try_advisory_lock($1, 21)", LOCK_SPACE + 1)
    assert await a.try_own(21)
    assert await a.owners() == {21: "node-a"}
    # and ownership is the lock in Tavolo's space: another session cannot take it
    assert not await admin.fetchval("SELECT pg_try_advisory_lock($1, 21)", LOCK_SPACE)


async def test_bad_input_is_refused_and_changes_nothing(node: OpenNode, postgres_url: str) -> None:
    a = await node("node-a")
    for bad in (0, -1, 2**31, "1", True, 1.0):
        with pytest.raises(ValueError, match="bad match id"):
            await a.try_own(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="bad match id"):
            await a.release(bad)  # type: ignore[arg-type]
    assert a.owned() == frozenset() and await a.owners() == {}
    for bad_id in ("", "a b", "x" * 41, "é"):
        with pytest.raises(ValueError, match="bad node id"):
            await Ownership.open(postgres_url, bad_id)
    with pytest.raises(ValueError, match="needs PostgreSQL"):
        await Ownership.open("sqlite+aiosqlite:///x.db", "node-z")
    with pytest.raises(OwnershipUnavailable, match="unreachable"):
        await Ownership.open("postgresql://postgres@127.0.0.1:1/test", "node-z")


async def test_a_silent_network_loses_ownership_by_heartbeat_and_frees_the_matches(
        postgres_url: str, node: OpenNode) -> None:
    """The ownership connection passes through a link that stops carrying anything (no
    close, no reset): the heartbeat goes unanswered, the node treats its matches as lost and
    drops its connection, and the other node can own them."""
    from sqlalchemy.engine import make_url
    from netfault import FreezableProxy

    parsed = make_url(postgres_url)
    proxy = await FreezableProxy(parsed.host or "127.0.0.1", parsed.port or 5432).start()
    try:
        a = await Ownership.open(parsed.set(host="127.0.0.1", port=proxy.port)
                                 .render_as_string(hide_password=False), "node-a", heartbeat=0.5)
        b = await node("node-b")
        lost: list[frozenset[int]] = []
        a.on_lost(lost.append)
        assert await a.try_own(31) and await a.try_own(32)
        proxy.freeze()
        await asyncio.wait_for(a.lost.wait(), WAIT)
        assert lost == [frozenset({31, 32})] and a.owned() == frozenset()
        with pytest.raises(OwnershipLost):
            await a.release(31)

        async def b_owns_both() -> bool:
            return await b.try_own(31) and await b.try_own(32)
        await until(b_owns_both)
        await a.close()
    finally:
        await proxy.close()
