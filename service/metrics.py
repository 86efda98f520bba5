"""Prometheus metrics of the service (``GET /metrics``), in the default registry.

A leaf module: it imports nothing of ours, so every layer may count here. Names follow the
Prometheus conventions (``_total`` counters, seconds, base units). The counters are declared
without a node; :func:`exposition` puts ``node="<id>"`` on every series when it is scraped
(one pass over the samples, no second registry), so a cluster's nodes can be summed or told
apart, and adds ``tavolo_node_info{node, cluster_bus_kind} 1``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prometheus_client import REGISTRY, Counter, Gauge, Histogram, Info, Metric, generate_latest
from prometheus_client.core import GaugeMetricFamily

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

MATCHES_CREATED = Counter("tavolo_matches_created_total", "Matches created, by game", ["game"])
MATCHES_FINISHED = Counter("tavolo_matches_finished_total",
                           "Matches finished, by game and the result's reason", ["game", "reason"])
MATCHES_ABORTED = Counter("tavolo_matches_aborted_total",
                          "Matches aborted, by game and by whom (admin, idle, inactive)",
                          ["game", "reason"])
HTTP_REQUESTS = Counter("tavolo_http_requests_total",
                        "HTTP requests answered, by method, route (its canonical path; "
                        "'unmatched' for no route) and status", ["method", "route", "status"])
HTTP_SECONDS = Histogram(
    "tavolo_http_request_seconds", "From an HTTP request's arrival to its answer, by method and "
    "route (a WebSocket's whole life on /ws)", ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
BOT_THINK_SECONDS = Histogram(
    "tavolo_bot_think_seconds", "Time a server bot took to choose a move (its worker's search, "
    "or the fallback), by game and level", ["game", "level"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32))
BOT_WORKER_CPU_SECONDS = Counter(
    "tavolo_bot_worker_cpu_seconds_total", "CPU seconds bot workers spent choosing moves, by "
    "game and level (measured in the worker and reported with each move; a search abandoned "
    "for a fallback is not counted)", ["game", "level"])
#: set where the version is known (gateway/http_metrics.py, from transfer.tavolo_version)
BUILD_INFO = Info("tavolo_build", "The version of Tavolo this node runs")
STORE_FAILING = Gauge("tavolo_store_failing",
                      "1 while the store fails (an episode: disk full, read-only, ...), else 0")
STORE_FAILURES = Counter("tavolo_store_failures_total",
                         "Store operations that failed, by cause (store/episodes.py)", ["cause"])


#: the statuses a live match is counted in (tavolo_live_matches_by_status)
LIVE_STATUSES = ("waiting", "active", "finished", "aborted")


class LiveMatchesByStatus:
    """``tavolo_live_matches_by_status{status}``: the matches this node runs (owns), by
    status, counted when scraped from ``source`` (the statuses of its runtimes; the app sets
    it). Every status has its series, at 0 when there is nothing to count."""

    def __init__(self) -> None:
        self.source: Callable[[], Iterable[str]] | None = None

    def collect(self) -> Iterator[Metric]:
        counts = dict.fromkeys(LIVE_STATUSES, 0)
        for status in (self.source() if self.source is not None else ()):
            counts[status] = counts.get(status, 0) + 1
        family = GaugeMetricFamily("tavolo_live_matches_by_status",
                                   "Matches this node runs, by status (waiting, active, ...)",
                                   labels=["status"])
        for status, count in counts.items():
            family.add_metric([status], count)
        yield family


LIVE_BY_STATUS = LiveMatchesByStatus()
REGISTRY.register(LIVE_BY_STATUS)  # type: ignore[arg-type]


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
