"""/api/health names the node and the cluster it sees; every series of /metrics carries
``node="<id>"``, and ``tavolo_node_info`` says the node and its bus kind. Until the cluster
core is wired in, a node alone answers from its settings; once ``app[HUB].cluster`` exists,
from it."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient

from service import metrics
from service.app import create_app
from service.gateway.keys import HUB
from service.settings import Settings

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[[web.Application], Awaitable[Client]]


def settings(tmp_path: Path, **overrides: Any) -> Settings:
    return Settings.for_tests(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}", **overrides)


@pytest.fixture
async def client(aiohttp_client: MakeClient, tmp_path: Path) -> Client:
    return await aiohttp_client(create_app(settings(tmp_path, node_id="node-h")))


class FakeCluster:
    """What the cluster core puts at ``app[HUB].cluster`` (the attributes health reads)."""

    node_id = "core-node"
    bus_kind = "nats"

    def owned_count(self) -> int:
        return 3

    async def members(self) -> list[str]:
        return ["core-node", "a-node"]


async def test_health_of_a_node_alone(client: Client) -> None:
    response = await client.get("/api/health")
    assert response.status == 200
    body = await response.json()
    assert body["status"] == "ok" and body["node"] == "node-h"
    assert body["cluster"] == {"bus": "none", "members": ["node-h"], "owned_matches": 0}
    # alone, the node owns what it holds in memory
    hub = client.server.app[HUB]
    player = (await hub.identify(nickname="alice")).player
    await hub.quick_join("dolphinfox", player, None)
    body = await (await client.get("/api/health")).json()
    assert body["cluster"]["owned_matches"] == body["live_matches"] == 1


async def test_health_reads_the_cluster_once_it_is_there(client: Client) -> None:
    client.server.app[HUB].cluster = FakeCluster()  # type: ignore[attr-defined]
    body = await (await client.get("/api/health")).json()
    assert body["node"] == "core-node"
    assert body["cluster"] == {"bus": "nats", "members": ["a-node", "core-node"],
                               "owned_matches": 3}


async def test_health_answers_when_the_members_cannot_be_read(client: Client) -> None:
    class Lost(FakeCluster):
        async def members(self) -> list[str]:
            raise RuntimeError("ownership connection lost")

    client.server.app[HUB].cluster = Lost()  # type: ignore[attr-defined]
    response = await client.get("/api/health")
    assert response.status == 200
    assert (await response.json())["cluster"]["members"] == []


async def test_every_metric_series_carries_the_node(client: Client) -> None:
    metrics.ERRORS.labels(code="test/node_label").inc()
    response = await client.get("/metrics")
    assert response.status == 200
    text = await response.text()
    series = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert len(series) > 20
    unlabelled = [line for line in series if 'node="node-h"' not in line]
    assert not unlabelled, unlabelled[:5]
    assert re.search(r'^tavolo_errors_total\{code="test/node_label",node="node-h"\} [1-9]', text, re.M)
    assert re.search(r'^tavolo_live_matches\{node="node-h"\} 0\.0$', text, re.M)
    assert 'tavolo_node_info{cluster_bus_kind="none",node="node-h"} 1.0' in text


async def test_metrics_name_the_bus_kind_of_the_cluster(client: Client) -> None:
    class OnRedis(FakeCluster):
        bus_kind = "redis"

    client.server.app[HUB].cluster = OnRedis()  # type: ignore[attr-defined]
    text = await (await client.get("/metrics")).text()
    assert 'tavolo_node_info{cluster_bus_kind="redis",node="core-node"} 1.0' in text
    assert re.search(r'^tavolo_live_matches\{node="core-node"\} ', text, re.M)
