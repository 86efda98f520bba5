"""The operator side of the HTTP API on a real app and database (SQLite and PostgreSQL):
export, move list, JSON errors with the protocols' codes, OpenAPI, JSON Schema, /metrics."""

from __future__ import annotations

import json
import re

import pytest
from prometheus_client import REGISTRY
from test_http import Client, client, get_json, hub_of, play, started  # noqa: F401

from clients import CanonicalClient
from service.bots.policies import LEVELS
from service.transfer import import_match


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_export_is_the_whole_match_and_imports_as_a_proven_copy(client: Client) -> None:
    hub = hub_of(client)
    runtime, alice, bob = await started(hub, "alice", "bob")
    await play(runtime, [alice, bob], 4)
    live = await client.get(f"/api/matches/{runtime.id}/export")
    assert live.status == 409  # the seed of a live match would show what is still hidden
    refusal = await live.json()
    assert refusal["error"]["code"] == "session/match_not_over"
    assert str(runtime.seed) not in json.dumps(refusal)
    await hub.lifecycle.resign(runtime.id, bob.id)
    response = await client.get(f"/api/matches/{runtime.id}/export")
    assert response.status == 200 and "attachment" in response.headers["Content-Disposition"]
    doc = await response.json()
    assert doc["version"] == 4 and [a["seq"] for a in doc["actions"]] == [1, 2, 3, 4]
    assert [s["nickname"] for s in doc["seats"]] == ["alice", "bob"] and doc["seed"] == runtime.seed
    copy, difference = await import_match(hub.store, doc, bot_levels=LEVELS)
    assert difference is None and copy.version == 4
    moves = await get_json(client, f"/api/matches/{runtime.id}/moves")
    assert [m["seq"] for m in moves] == [1, 2, 3, 4] and "(alice)" in moves[0]["text"]


@pytest.mark.parametrize("path, status, code", [
    ("/api/matches/99999", 404, "session/no_such_match"),
    ("/api/matches/99999/export", 404, "session/no_such_match"),
    ("/api/matches/x", 400, "protocol/bad_message"),
    ("/api/matches?status=lost", 400, "protocol/bad_message"),
    ("/api/nothing/here", 404, "http/not_found"),
    ("/api/games/chess/actions.schema.json", 404, "session/unknown_game"),
])
async def test_errors_are_json_with_the_protocol_codes(client: Client, path: str, status: int,
                                                       code: str) -> None:
    before = sample("tavolo_errors_total", code=code)
    response = await client.get(path)
    assert response.status == status and response.content_type == "application/json"
    body = await response.json()
    assert body["error"]["code"] == code and body["error"]["message"]
    if not code.startswith("http/"):
        assert sample("tavolo_errors_total", code=code) == before + 1


async def test_a_version_past_the_end_is_json_404(client: Client) -> None:
    runtime, _, _ = await started(hub_of(client), "ann", "ben")
    response = await client.get(f"/api/matches/{runtime.id}/at/5")
    assert response.status == 404
    assert (await response.json())["error"]["code"] == "session/no_such_version"


async def test_a_wrong_method_is_json_405(client: Client) -> None:
    response = await client.delete("/api/games")
    assert response.status == 405 and (await response.json())["error"]["code"] == "http/method_not_allowed"


async def test_openapi_lists_every_api_route(client: Client) -> None:
    document = await get_json(client, "/api/openapi.json")
    assert document["openapi"].startswith("3.")
    routes = {(path, method) for path, ops in document["paths"].items() for method in ops}
    for expected in [("/api/health", "get"), ("/api/matches", "post"),
                     ("/api/matches/{match_id}/export", "get"),
                     ("/api/matches/{match_id}/at/{version}", "get"), ("/api/openapi.json", "get")]:
        assert expected in routes
    export = document["paths"]["/api/matches/{match_id}/export"]["get"]
    assert export["parameters"][0]["name"] == "match_id" and export["summary"].startswith("The whole")
    schemas = document["components"]["schemas"]
    assert {"ExportDocument", "ExportedSeat", "NewMatch"} <= set(schemas)
    body = document["paths"]["/api/matches"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"]["$ref"] == "#/components/schemas/NewMatch"
    assert "game" in schemas["NewMatch"]["required"]


async def test_json_schemas_of_the_canonical_messages_and_each_game(client: Client) -> None:
    canonical = await get_json(client, "/api/schema/canonical.json")
    assert {"hello", "act", "create"} <= set(re.findall(r'"const": "(\w+)"', json.dumps(canonical)))
    games = await get_json(client, "/api/games")
    for game in games:
        schema = await get_json(client, f"/api/games/{game['name']}/actions.schema.json")
        assert schema["title"].endswith("actions")


async def test_metrics_count_actions_connections_and_errors(client: Client) -> None:
    hub = hub_of(client)
    applied = sample("tavolo_actions_applied_total", game="dolphinfox")
    acks = sample("tavolo_ack_seconds_count", game="dolphinfox")
    batches = sample("tavolo_commit_batch_size_count")
    runtime, alice, bob = await started(hub, "cara", "dan")
    await play(runtime, [alice, bob], 3)
    ws = CanonicalClient(await client.ws_connect("/ws"))
    await ws.ws.send_str("{not json")
    await ws.wait_for("error")
    response = await client.get("/metrics")
    assert response.status == 200 and response.content_type == "text/plain"
    text = await response.text()
    assert sample("tavolo_actions_applied_total", game="dolphinfox") == applied + 3
    assert sample("tavolo_ack_seconds_count", game="dolphinfox") == acks + 3
    assert sample("tavolo_commit_batch_size_count") >= batches + 3
    assert sample("tavolo_connections", dialect="canonical", transport="ws") >= 1
    assert re.search(r'tavolo_errors_total\{code="protocol/[a-z_]+",node="[^"]+"\} [1-9]', text)
    assert sample("tavolo_live_matches") >= 1
    await ws.ws.close()


async def test_an_unexpected_failure_is_json_500_without_details(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(match_id: int) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(hub_of(client).store, "get_match", broken)
    response = await client.get("/api/matches/1")
    assert response.status == 500
    assert await response.json() == {"error": {"code": "service/internal", "message": "internal error"}}
