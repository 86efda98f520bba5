"""Prometheus metrics of the service (``GET /metrics``), in the default registry.

A leaf module: it imports nothing of ours, so every layer may count here. Names follow the
Prometheus conventions (``_total`` counters, seconds, base units). The counters are declared
without a node; :func:`exposition` puts ``node="<id>"`` on every series when it is scraped
(one pass over the samples, no second registry), so a cluster's nodes can be summed or told
apart, and adds ``tavolo_node_info{node, cluster_bus_kind} 1``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prometheus_client import REGISTRY, Counter, Gauge, Histogram, Metric, generate_latest

ACTIONS = Counter("tavolo_actions_applied_total", "Actions applied and saved, by game", ["game"])
ACK_SECONDS = Histogram(
    "tavolo_ack_seconds", "From an action's arrival at its match to its durable acknowledgement",
    ["game"], buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
COMMIT_BATCH = Histogram("tavolo_commit_batch_size", "Appends saved by one group commit",
                         buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256))
COMMIT_SECONDS = Histogram(
    "tavolo_commit_seconds", "Duration of one group commit (statements and the commit)",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5))
LIVE_MATCHES = Gauge("tavolo_live_matches", "Matches held in memory by the hub")
CONNECTIONS = Gauge("tavolo_connections", "Open client connections", ["dialect", "transport"])
ERRORS = Counter("tavolo_errors_total", "Errors answered to clients, by code", ["code"])
SLOW_CLIENTS = Counter("tavolo_slow_clients_dropped_total",
                       "Clients dropped because their outbox filled up (they did not read)")
BOT_FALLBACKS = Counter(
    "tavolo_bot_fallbacks_total",
    "Bot moves played at random instead of by the bot's level, by game and why "
    "(loop: the loop guard stepped in; timeout or failed: the worker gave no move)",
    ["game", "reason"])

STORE_FAILING = Gauge("tavolo_store_failing",
                      "1 while the store fails (an episode: disk full, read-only, ...), else 0")
STORE_FAILURES = Counter("tavolo_store_failures_total",
                         "Store operations that failed, by cause (store/episodes.py)", ["cause"])


NODE_INFO = "tavolo_node_info"


class NodeLabelled:
    """A collector that yields ``registry``'s families with ``node`` on every sample, and the
    node's info gauge; what :func:`generate_latest` is given instead of the registry."""

    def __init__(self, node: str, bus_kind: str, registry: Any = REGISTRY) -> None:
        self.node, self.bus_kind, self.registry = node, bus_kind, registry

    def collect(self) -> Iterator[Metric]:
        for family in self.registry.collect():
            labelled = Metric(family.name, family.documentation, family.type, family.unit)
            labelled.samples = [s._replace(labels={"node": self.node, **s.labels})
                                for s in family.samples]
            yield labelled
        info = Metric(NODE_INFO, "This node, and the kind of its cluster bus (none: alone)",
                      "gauge")
        info.add_sample(NODE_INFO, {"node": self.node, "cluster_bus_kind": self.bus_kind}, 1.0)
        yield info


def exposition(node: str, bus_kind: str, registry: Any = REGISTRY) -> bytes:
    """The text exposition of ``registry``, every series labelled ``node``."""
    return generate_latest(NodeLabelled(node, bus_kind, registry))  # type: ignore[arg-type]
