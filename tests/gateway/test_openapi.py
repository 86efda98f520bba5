"""The OpenAPI document describes every ``/api`` route as it behaves: schemathesis (every check,
``--checks all``) runs against a live server with it, the admin routes with the admin token
and the player routes with a player's token, and finds nothing."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from clients import CanonicalClient
from prometheus_client import REGISTRY

from service.app import create_app
from service.gateway.api_spec import OPERATIONS
from service.gateway.keys import HUB
from service.settings import Settings

ADMIN = "operator-secret-token"
#: examples per operation and phase: the whole run stays well under a minute
EXAMPLES = 6

#: operations whose schema-valid bodies may still break a rule no JSON Schema can say; for
#: them a 400 (with its code, nothing changed) is an expected answer to schema-valid data
RULES_BEYOND_THE_SCHEMA = {
    # a game's options, its seat range, known bot levels, no more bots than seats, and not
    # two different tokens in the body and the header
    "POST /api/matches": "options, seats and bots depend on the game",
    "POST /api/admin/matches": "options, seats and bots depend on the game",
    # service/store/nicknames.py: NFKC, no control characters, one script
    "POST /api/account/sign-in": "the nickname rules",
    "POST /api/admin/players/{player_id}/rename": "the nickname rules",
    # 8 to 128 characters, at least 4 different ones (sessions/accounts.py)
    "POST /api/account/recover": "the nickname and password rules",
    "POST /api/account/password": "the password rules",
}
EXPECTED = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]
#: run last, alone: they end the player's token (signed out, its device revoked, reset or
#: banned by an operator) or the saved match (aborted, deleted) the others read
RUN_LAST = ["POST /api/account/sign-out", "DELETE /api/account/devices/{device_id}",
            "POST /api/admin/players/{player_id}/reset", "POST /api/admin/players/{player_id}/ban",
            "POST /api/admin/matches/{match_id}/abort", "DELETE /api/admin/matches/{match_id}"]


async def guest(client: Any, nickname: str) -> str:
    ws = CanonicalClient(await client.ws_connect("/ws"))
    token = (await ws.hello(nickname))["token"]
    await ws.ws.close()
    return token


async def finished_match(app: Any) -> tuple[int, int]:
    """A public match played to its end: (its id, its first player's id)."""
    hub = app[HUB]
    mia, max_ = [(await hub.identify(nickname=n)).player for n in ("mia", "max")]
    runtime, _ = await hub.quick_join("dolphinfox", mia, {"max_moves": 1})
    await hub.quick_join("dolphinfox", max_, {"max_moves": 1})
    move = runtime.game.legal_actions(runtime.state, 0)[0]
    await runtime.act(mia.id, runtime.game.dump_action(move))
    assert runtime.status == "finished"
    return runtime.id, mia.id


#: operations that read the saved match and player (their ids fixed, the rest generated), so
#: real bodies are checked against the document too
READ_SAVED = {
    "GET /api/matches/{match_id}": {"match_id"},
    "GET /api/matches/{match_id}/at/{version}": {"match_id", "version"},
    "GET /api/matches/{match_id}/moves": {"match_id"},
    "GET /api/matches/{match_id}/export": {"match_id"},
    "GET /api/admin/matches/{match_id}/export": {"match_id"},
    "GET /api/players/{player_id}": {"player_id"},
    "GET /api/admin/players/{player_id}": {"player_id"},
}


def config(player_token: str, match_id: int, player_id: int) -> str:
    lines = ["[auth.openapi.admin]", f'bearer = "{ADMIN}"', "[auth.openapi.player]",
             f'bearer = "{player_token}"']
    ids = {"match_id": match_id, "player_id": player_id, "version": 1}
    for name, fixed in READ_SAVED.items():
        lines += ["[[operations]]", f'include-name = "{name}"',
                  "parameters = {" + ", ".join(f'"path.{p}" = {ids[p]}' for p in sorted(fixed)) + "}"]
    for name in RULES_BEYOND_THE_SCHEMA:
        lines += ["[[operations]]", f'include-name = "{name}"',
                  f"checks.positive_data_acceptance.expected-statuses = {EXPECTED}"]
    return "\n".join(lines) + "\n"


async def schemathesis(url: str, config_file: Path, *selection: str) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "schemathesis.cli", "--config-file", str(config_file), "run",
        url, "--checks", "all", "--max-examples", str(EXAMPLES), "--seed", "7", "--no-color",
        "--workers", "1", *selection, cwd=config_file.parent,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    output, _ = await asyncio.wait_for(process.communicate(), timeout=300)
    assert process.returncode == 0, output.decode()[-12_000:]


async def test_schemathesis_finds_nothing(aiohttp_client: Any, database_url: str,
                                          tmp_path: Path) -> None:
    client = await aiohttp_client(create_app(Settings.for_tests(database_url,
                                                                admin_token=ADMIN)))
    for n in range(3):  # players whose ids come before the token's owner
        await guest(client, f"early{n}")
    token = await guest(client, "ada")
    config_file = tmp_path / "schemathesis.toml"
    config_file.write_text(config(token, *await finished_match(client.server.app)))
    url = str(client.server.make_url("/api/openapi.json"))
    before = {name: answered(name) for name in READ_SAVED}
    await schemathesis(url, config_file, *[f"--exclude-name={n}" for n in RUN_LAST])
    await schemathesis(url, config_file, *[f"--include-name={n}" for n in RUN_LAST])
    missed = [n for n in READ_SAVED if answered(n) <= before[n]]
    assert missed == [], json.dumps(statuses(), indent=0)  # real bodies were checked too


def statuses() -> dict[str, float]:
    """Every route's answers by status (to tell why an operation never answered 200)."""
    return {f"{s.labels['method']} {s.labels['route']} {s.labels['status']}": s.value
            for metric in REGISTRY.collect() if metric.name == "tavolo_http_requests"
            for s in metric.samples if s.name.endswith("_total")}


def answered(operation: str) -> float:
    """How many times the server answered 200 to ``operation`` (``METHOD /path``)."""
    method, route = operation.split(" ")
    labels = {"method": method, "route": route, "status": "200"}
    return REGISTRY.get_sample_value("tavolo_http_requests_total", labels) or 0.0


async def test_every_api_route_is_described(aiohttp_client: Any, database_url: str) -> None:
    client = await aiohttp_client(create_app(Settings.for_tests(database_url,
                                                                admin_token=ADMIN)))
    routes = {(r.method, r.resource.canonical) for r in client.server.app.router.routes()
              if r.resource is not None and r.resource.canonical.startswith("/api")
              and r.method not in ("HEAD", "OPTIONS")}
    assert routes == set(OPERATIONS)


async def test_the_document_types_ids_bodies_and_tokens(aiohttp_client: Any,
                                                        database_url: str) -> None:
    client = await aiohttp_client(create_app(Settings.for_tests(database_url,
                                                                admin_token=ADMIN)))
    document = await (await client.get("/api/openapi.json")).json()
    paths = document["paths"]
    detail = paths["/api/matches/{match_id}"]["get"]
    match_id = next(p for p in detail["parameters"] if p["name"] == "match_id")
    assert match_id["schema"] == {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}
    assert detail["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/MatchDetail"}
    assert {"200", "400", "401", "404", "500", "503"} <= set(detail["responses"])
    assert detail["security"] == [{}, {"player": []}]
    create = paths["/api/matches"]["post"]
    assert create["security"] == [{"player": []}] and "201" in create["responses"]
    assert "200" not in create["responses"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            if path.startswith("/api/admin"):
                assert operation["security"] == [{"admin": []}], (method, path)
                assert {"401", "403", "429"} <= set(operation["responses"])
            if path.startswith("/api/account/") and path != "/api/account/sign-in" \
                    and path != "/api/account/recover":
                assert operation["security"] == [{"player": []}], (method, path)
    schemes = document["components"]["securitySchemes"]
    assert schemes["admin"]["scheme"] == schemes["player"]["scheme"] == "bearer"
    ratings = {p["name"]: p for p in paths["/api/ratings"]["get"]["parameters"]}
    assert ratings["game"]["required"] and "dolphinfox" in ratings["game"]["schema"]["enum"]
    assert ratings["players"]["schema"]["items"]["type"] == "integer"
