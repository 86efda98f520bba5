"""/metrics of a test app: HTTP requests by route (the canonical path) and status, live matches
by status counted at scrape time, build info, bot think time, every dialect's and game's series
from the start; and every metric the shipped Grafana dashboard and Prometheus alert rules use
exists there, with the labels they group by."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml
from aiohttp import web
from aiohttp.test_utils import TestClient
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from service.app import create_app
from service.bots.policies import LEVELS
from service.bots.thinker import Thinker
from service.games.registry import all_games, get_game
from service.gateway.keys import HUB
from service.sessions.dialects import CANONICAL, DIALECTS
from service.settings import Settings
from service.transfer import tavolo_version

REPO = Path(__file__).resolve().parents[2]
DASHBOARD = REPO / "deploy" / "grafana-dashboard.json"
ALERTS = REPO / "deploy" / "prometheus-alerts.yml"
#: series Prometheus makes itself, not the service
PROMETHEUS_OWN = {"up"}
#: PromQL words that look like metric names in the expressions
PROMQL_WORDS = {"sum", "max", "min", "avg", "count", "rate", "increase", "irate", "by", "on",
                "without", "group_left", "group_right", "histogram_quantile", "le", "and",
                "or", "unless", "label_values"}

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[[web.Application], Awaitable[Client]]
Series = dict[str, list[dict[str, str]]]


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
async def client(aiohttp_client: MakeClient, tmp_path: Path) -> Client:
    settings = Settings.for_tests(f"sqlite:///{tmp_path / 'metrics.db'}", listen={})
    return await aiohttp_client(create_app(settings))


async def scrape(client: Client) -> Series:
    """Sample name -> the label sets of its samples."""
    response = await client.get("/metrics")
    assert response.status == 200
    series: Series = {}
    for family in text_string_to_metric_families(await response.text()):
        for s in family.samples:
            series.setdefault(s.name, []).append(dict(s.labels) | {"value": str(s.value)})
    return series


def value(series: Series, name: str, **labels: str) -> float:
    found = [float(s["value"]) for s in series.get(name, [])
             if all(s.get(k) == v for k, v in labels.items())]
    assert len(found) == 1, (name, labels, series.get(name))
    return found[0]


async def test_http_requests_are_counted_by_route_and_status_never_by_raw_url(
        client: Client) -> None:
    route = "/api/matches/{match_id}"
    before = sample("tavolo_http_requests_total", method="GET", route=route, status="404")
    for match_id in (9991, 9992):
        assert (await client.get(f"/api/matches/{match_id}")).status == 404
    assert (await client.get("/api/no/such/route")).status == 404
    assert (await client.get("/api/health")).status == 200
    series = await scrape(client)
    assert value(series, "tavolo_http_requests_total", method="GET", route=route,
                 status="404") == before + 2
    assert value(series, "tavolo_http_requests_total", method="GET", route="unmatched",
                 status="404") >= 1
    assert value(series, "tavolo_http_requests_total", method="GET", route="/api/health",
                 status="200") >= 1
    assert value(series, "tavolo_http_request_seconds_count", method="GET", route=route) >= 2
    routes = {s["route"] for s in series["tavolo_http_requests_total"]}
    assert not any(re.search(r"/\d", r) or "no/such" in r for r in routes), routes
    assert all(s["node"] for s in series["tavolo_http_requests_total"])


async def test_live_matches_by_status_are_counted_when_scraped(client: Client) -> None:
    hub = client.server.app[HUB]
    series = await scrape(client)
    assert value(series, "tavolo_live_matches_by_status", status="waiting") == 0
    alice = (await hub.identify(nickname="alice")).player
    bob = (await hub.identify(nickname="bob")).player
    carol = (await hub.identify(nickname="carol")).player
    await hub.quick_join("dolphinfox", alice)
    await hub.quick_join("dolphinfox", bob)  # starts it
    await hub.quick_join("dolphinfox", carol)  # a second one, waiting
    series = await scrape(client)
    assert value(series, "tavolo_live_matches_by_status", status="waiting") == 1
    assert value(series, "tavolo_live_matches_by_status", status="active") == 1
    assert value(series, "tavolo_live_matches_by_status", status="finished") == 0


async def test_build_info_and_every_dialect_and_game_series_from_the_start(client: Client) -> None:
    series = await scrape(client)
    assert value(series, "tavolo_build_info", version=tavolo_version()) == 1
    for dialect in (CANONICAL.name, *DIALECTS):
        for transport in ("tcp", "ws"):
            assert value(series, "tavolo_connections", dialect=dialect, transport=transport) >= 0
    for game in all_games():
        assert value(series, "tavolo_matches_created_total", game=game.name) >= 0
        assert value(series, "tavolo_matches_aborted_total", game=game.name, reason="idle") >= 0
        for level in LEVELS:
            assert value(series, "tavolo_bot_think_seconds_count", game=game.name,
                         level=level) >= 0


async def test_bot_think_time_is_measured() -> None:
    game = get_game("santorini")
    state = game.setup(2, game.parse_options(None), 5)
    seat = min(game.to_act(state))
    before = sample("tavolo_bot_think_seconds_count", game="santorini", level="random")
    with ThreadPoolExecutor(1) as executor:
        thinker = Thinker(executor, budget=0.01)
        move = await thinker.choose("santorini", game.dump_state(state), seat, "random")
    game.apply(state, seat, game.parse_action(move))  # a legal move
    assert sample("tavolo_bot_think_seconds_count", game="santorini", level="random") == before + 1


def expressions() -> list[tuple[str, str]]:
    """(where, PromQL) of every query of the dashboard and every alert rule."""
    found: list[tuple[str, str]] = []
    dashboard = json.loads(DASHBOARD.read_text())
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            found.append((f"panel {panel['title']!r}", target["expr"]))
    for variable in dashboard["templating"]["list"]:
        found.append((f"variable {variable['name']}", variable["definition"]))
    for group in yaml.safe_load(ALERTS.read_text())["groups"]:
        for rule in group["rules"]:
            found.append((f"alert {rule['alert']}", rule["expr"]))
    return found


#: a Grafana variable's query: the values of a label of a metric
LABEL_VALUES = re.compile(r"label_values\((\w+)\s*,\s*(\w+)\)")


def names_in(expr: str) -> set[str]:
    bare = LABEL_VALUES.sub(r"\1", expr)
    bare = re.sub(r'"[^"]*"', '""', bare)  # no words from label values
    bare = re.sub(r"\{[^}]*\}", "{}", bare)  # nor from label matchers
    bare = re.sub(r"\b(by|on|without|group_left|group_right)\s*\([^)]*\)", "", bare)
    words = set(re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*", bare))
    return {w for w in words if w not in PROMQL_WORDS and not re.fullmatch(r"\d*[smhd]", w)}


def grouped_by(expr: str) -> set[str]:
    """The labels ``expr`` groups or matches by (and a variable's label)."""
    groups = re.findall(r"\b(?:by|on|group_left|group_right)\s*\(([^)]*)\)", expr)
    return {label.strip() for group in groups for label in group.split(",") if label.strip()} | {
        label for _, label in LABEL_VALUES.findall(expr)}


def test_the_dashboard_is_well_formed() -> None:
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["schemaVersion"] >= 36 and dashboard["uid"] and dashboard["title"]
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for panel in dashboard["panels"]:
        grid = panel["gridPos"]
        assert 0 <= grid["x"] < 24 and grid["x"] + grid["w"] <= 24 and grid["h"] > 0
        if panel["type"] != "row":
            assert panel["targets"] and panel["datasource"]["uid"] == "${DS_PROMETHEUS}"
            refs = [t["refId"] for t in panel["targets"]]
            assert len(refs) == len(set(refs))
    for group in yaml.safe_load(ALERTS.read_text())["groups"]:
        for rule in group["rules"]:
            assert set(rule) <= {"alert", "expr", "for", "labels", "annotations"}
            assert rule["labels"]["severity"] in ("critical", "warning", "info")
            assert rule["annotations"]["summary"]


async def test_every_metric_of_the_dashboard_and_the_alerts_exists_at_metrics(
        client: Client) -> None:
    await client.get("/api/health")  # an HTTP request counted
    await client.get("/api/matches/999999")  # an error answered (tavolo_errors_total)
    series = await scrape(client)
    checked = 0
    for where, expr in expressions():
        assert names_in(expr), (where, expr)
        names = names_in(expr) - PROMETHEUS_OWN
        if not names:
            continue  # Prometheus's own series (the scrape's up)
        missing = sorted(n for n in names if n not in series)
        assert not missing, f"{where} uses {missing}, not at /metrics"
        labels = {k for n in names for s in series[n] for k in s} - {"value"}
        assert grouped_by(expr) <= labels, f"{where} groups by {grouped_by(expr) - labels}"
        checked += 1
    assert checked >= 25


def test_the_expression_parser_finds_names_and_nothing_else() -> None:
    expr = ('histogram_quantile(0.95, sum by (le, route) (rate(tavolo_http_request_seconds_bucket'
            '{node=~"$node", route!="/ws"}[5m]))) / 2^30 * on (node) group_left (x) tavolo_y')
    assert names_in(expr) == {"tavolo_http_request_seconds_bucket", "tavolo_y"}
    assert grouped_by(expr) == {"le", "route", "node", "x"}
    assert names_in("label_values(tavolo_node_info, node)") == {"tavolo_node_info"}
    assert grouped_by("label_values(tavolo_node_info, node)") == {"node"}
