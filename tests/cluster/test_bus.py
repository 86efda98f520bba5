"""The bus on every engine (in-process, Redis, NATS, PostgreSQL LISTEN/NOTIFY), between
separate connections as separate nodes would hold them. No timing assertions: every wait is
for an event, with a generous timeout."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable

import pytest

from service.cluster.bus import (MAX_PAYLOAD, Bus, BusClosed, BusUnavailable, NoResponder,
                                 RemoteError, RequestTimeout, Subscription, UnsupportedBus,
                                 bus_kind, open_bus)

WAIT = 30.0

OpenBus = Callable[[], Awaitable[Bus]]


class Inbox:
    """What one subscription received, with a way to wait for a count."""

    def __init__(self) -> None:
        self.got: list[tuple[str, bytes]] = []
        self._changed = asyncio.Event()

    async def __call__(self, subject: str, data: bytes) -> None:
        self.got.append((subject, data))
        self._changed.set()

    async def wait_for(self, count: int) -> list[tuple[str, bytes]]:
        async def enough() -> None:
            while len(self.got) < count:
                self._changed.clear()
                await self._changed.wait()
        await asyncio.wait_for(enough(), WAIT)
        return self.got


def numbered(n: int, size: int) -> bytes:
    """Message n, ``size`` bytes long, its number first."""
    head = f"{n:08d}:".encode()
    return (head + b"x" * size)[:max(size, len(head))]


async def test_every_message_reaches_every_subscriber_once_in_order(nodes: OpenBus,
                                                                    subject: str) -> None:
    publisher = await nodes()
    inboxes = [Inbox() for _ in range(3)]
    for inbox in inboxes:
        await (await nodes()).subscribe(f"{subject}.match.7", inbox)
    # sizes of Tavolo's notices, and two past NOTIFY's 8000 bytes (sent in chunks there)
    sizes = [1000, 4096, 2500, 20_000, 1, 9000] * 20
    sent = [numbered(n, size) for n, size in enumerate(sizes)]
    for data in sent:
        await publisher.publish(f"{subject}.match.7", data)
    for inbox in inboxes:
        got = await inbox.wait_for(len(sent))
        assert [data for _, data in got] == sent
        assert {s for s, _ in got} == {f"{subject}.match.7"}


async def test_concurrent_publishes_keep_call_order_per_subject(nodes: OpenBus,
                                                                subject: str) -> None:
    publisher, listener = await nodes(), await nodes()
    inboxes = {n: Inbox() for n in range(3)}
    for n, inbox in inboxes.items():
        await listener.subscribe(f"{subject}.m{n}", inbox)
    # calls that are not awaited one by one: the bus keeps the order they were made in
    await asyncio.gather(*(publisher.publish(f"{subject}.m{i % 3}", numbered(i, 1500))
                           for i in range(300)))
    for n, inbox in inboxes.items():
        got = await inbox.wait_for(100)
        assert [data[:8] for _, data in got] == [f"{i:08d}".encode() for i in range(n, 300, 3)]


async def test_a_prefix_subscription_gets_every_subject_below_it_only(nodes: OpenBus,
                                                                     subject: str) -> None:
    publisher, listener = await nodes(), await nodes()
    below, exact = Inbox(), Inbox()
    await listener.subscribe_prefix(f"{subject}.match", below)
    await listener.subscribe(f"{subject}.match.1.notice", exact)
    for name in ("match", "matches.1", "match.1.notice", "match.2.presence", "other.match.3",
                 "match.1.notice"):
        await publisher.publish(f"{subject}.{name}", name.encode())
    assert [s for s, _ in await below.wait_for(3)] == [
        f"{subject}.match.1.notice", f"{subject}.match.2.presence", f"{subject}.match.1.notice"]
    assert [d for _, d in await exact.wait_for(2)] == [b"match.1.notice", b"match.1.notice"]
    # a marker after everything else: nothing more came to either
    await publisher.publish(f"{subject}.match.end", b"end")
    await below.wait_for(4)
    assert len(below.got) == 4 and len(exact.got) == 2


async def test_a_closed_subscription_gets_nothing_more(nodes: OpenBus, subject: str) -> None:
    publisher, listener = await nodes(), await nodes()
    first, second = Inbox(), Inbox()
    sub = await listener.subscribe(f"{subject}.s", first)
    await listener.subscribe(f"{subject}.s", second)
    await publisher.publish(f"{subject}.s", b"1")
    await first.wait_for(1)
    await sub.close()
    await publisher.publish(f"{subject}.s", b"2")
    assert [d for _, d in await second.wait_for(2)] == [b"1", b"2"]
    assert [d for _, d in first.got] == [b"1"]


async def test_a_failing_handler_does_not_end_its_subscription(nodes: OpenBus,
                                                               subject: str) -> None:
    publisher, listener = await nodes(), await nodes()
    inbox = Inbox()

    async def picky(subject_: str, data: bytes) -> None:
        if data == b"bad":
            raise RuntimeError("a handler's bug")
        await inbox(subject_, data)

    await listener.subscribe(f"{subject}.p", picky)
    for data in (b"a", b"bad", b"b"):
        await publisher.publish(f"{subject}.p", data)
    assert [d for _, d in await inbox.wait_for(2)] == [b"a", b"b"]


async def test_request_reaches_the_responder_and_its_reply_comes_back(nodes: OpenBus,
                                                                      subject: str) -> None:
    requester, owner = await nodes(), await nodes()

    async def echo(subject_: str, data: bytes) -> bytes:
        if data == b"fail":
            raise ValueError("no such match")
        return subject_.encode() + b"|" + data

    await owner.serve(f"{subject}.node.b.cmd", echo)
    big = numbered(0, 30_000)
    assert await requester.request(f"{subject}.node.b.cmd", b"hi", timeout=WAIT) == \
        f"{subject}.node.b.cmd|hi".encode()
    replies = await asyncio.gather(*(requester.request(f"{subject}.node.b.cmd", b"%d" % i,
                                                       timeout=WAIT) for i in range(50)))
    assert [r.rsplit(b"|", 1)[1] for r in replies] == [b"%d" % i for i in range(50)]
    assert (await requester.request(f"{subject}.node.b.cmd", big, timeout=WAIT)).endswith(big)
    with pytest.raises(RemoteError, match="no such match"):
        await requester.request(f"{subject}.node.b.cmd", b"fail", timeout=WAIT)


async def test_a_request_without_a_reply_times_out(nodes: OpenBus, subject: str) -> None:
    requester, owner = await nodes(), await nodes()
    never = asyncio.Event()

    async def stuck(subject_: str, data: bytes) -> bytes:
        await never.wait()
        return b""

    await owner.serve(f"{subject}.stuck", stuck)
    with pytest.raises(RequestTimeout):
        await requester.request(f"{subject}.stuck", b"x", timeout=0.5)


async def test_a_request_nobody_serves_fails(nodes: OpenBus, subject: str) -> None:
    requester = await nodes()
    # PostgreSQL's NOTIFY cannot tell that nobody listens: there it is a timeout
    expected = RequestTimeout if requester.kind == "postgresql" else NoResponder
    with pytest.raises(expected):
        await requester.request(f"{subject}.nobody", b"x", timeout=0.5)


async def test_bad_subjects_and_payloads_are_refused(nodes: OpenBus, subject: str) -> None:
    bus = await nodes()
    for bad in ("", "a..b", "a.*", "a.>", "a b", ".a", "a.", "x" * 201, "é"):
        with pytest.raises(ValueError, match="bad bus subject"):
            await bus.publish(bad, b"x")
        with pytest.raises(ValueError, match="bad bus subject"):
            await bus.subscribe(bad, Inbox())
    with pytest.raises(ValueError, match="over the limit"):
        await bus.publish(f"{subject}.big", b"x" * (MAX_PAYLOAD + 1))
    with pytest.raises(TypeError):
        await bus.publish(f"{subject}.text", "text")  # type: ignore[arg-type]


async def test_a_closed_bus_refuses_everything(bus_url: str, subject: str) -> None:
    bus = await open_bus(bus_url)
    await bus.close()
    await bus.close()  # idempotent
    with pytest.raises(BusClosed):
        await bus.publish(f"{subject}.x", b"x")
    with pytest.raises(BusClosed):
        await bus.subscribe(f"{subject}.x", Inbox())
    with pytest.raises(BusClosed):
        await bus.request(f"{subject}.x", b"x")


def test_the_url_picks_the_implementation_and_other_schemes_are_refused() -> None:
    assert bus_kind(None) == bus_kind("") == "memory"
    assert bus_kind("redis://127.0.0.1:6379/0") == "redis"
    assert bus_kind("nats://127.0.0.1:4222") == "nats"
    assert bus_kind("postgresql+asyncpg://postgres@127.0.0.1/test") == "postgresql"
    for url in ("kafka://127.0.0.1:9092", "amqp://guest@127.0.0.1", "127.0.0.1:6379", "mqtt://x"):
        with pytest.raises(UnsupportedBus) as caught:
            bus_kind(url)
        text = str(caught.value)
        assert "\n" not in text and "unsupported cluster bus URL" in text and "redis://" in text


async def test_open_bus_refuses_an_unsupported_url_before_connecting() -> None:
    with pytest.raises(UnsupportedBus, match="kafka"):
        await open_bus("kafka://127.0.0.1:9092")


@pytest.mark.parametrize("url", ["redis://127.0.0.1:1/0", "nats://127.0.0.1:1",
                                 "postgresql://postgres@127.0.0.1:1/test"])
async def test_an_unreachable_engine_is_one_clear_error(url: str) -> None:
    with pytest.raises(BusUnavailable) as caught:
        await open_bus(url)
    assert "unreachable" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("url,module,package", [("redis://127.0.0.1:1/0", "redis.asyncio", "redis"),
                                                ("nats://127.0.0.1:1", "nats", "nats-py")])
async def test_a_missing_client_library_names_its_package(
        monkeypatch: pytest.MonkeyPatch, url: str, module: str, package: str) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # importing it now fails, as if not installed
    with pytest.raises(BusUnavailable) as caught:
        await open_bus(url)
    assert str(caught.value).endswith(f"needs the '{package}' package (pip install {package})")


async def test_the_in_process_bus_is_the_single_node_default() -> None:
    bus: Bus = await open_bus(None)
    try:
        inbox = Inbox()
        await bus.subscribe("tavolo.match.1.notice", inbox)
        await bus.publish("tavolo.match.1.notice", b"v1")
        assert await inbox.wait_for(1) == [("tavolo.match.1.notice", b"v1")]
        assert bus.kind == "memory"
    finally:
        await bus.close()


async def test_a_handler_may_close_its_own_subscription(nodes: OpenBus, subject: str) -> None:
    publisher, listener = await nodes(), await nodes()
    seen, other = Inbox(), Inbox()
    holder: list[Subscription] = []

    async def once(subject_: str, data: bytes) -> None:
        await seen(subject_, data)
        await holder[0].close()

    holder.append(await listener.subscribe(f"{subject}.once", once))
    await listener.subscribe(f"{subject}.once", other)
    for data in (b"1", b"2", b"3"):
        await publisher.publish(f"{subject}.once", data)
    assert [d for _, d in await other.wait_for(3)] == [b"1", b"2", b"3"]
    assert [d for _, d in seen.got] == [b"1"] and holder[0].closed
