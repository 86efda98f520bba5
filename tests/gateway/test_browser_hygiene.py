"""Issue 17, browser hygiene over a real app: what every response tells the browser, JSON-only
bodies on the routes that change something, and the admin token throttled per address."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient
from clients import CanonicalClient

from service.app import create_app
from service.gateway.admin_throttle import ADMIN_THROTTLE, AdminThrottle
from service.gateway.keys import HUB
from service.settings import Settings

Client = TestClient[web.Request, web.Application]
MakeClient = Callable[[web.Application], Awaitable[Client]]
ADMIN = "admin-token-of-sixteen-or-more"
AUTH = {"Authorization": f"Bearer {ADMIN}"}
WRONG = {"Authorization": "Bearer not-the-admin-token"}


@pytest.fixture
async def client(aiohttp_client: MakeClient, database_url: str) -> Client:
    settings = Settings.for_tests(database_url, admin_token=ADMIN, admin_auth_failures=3,
                                  admin_lockout_first=30.0, admin_lockout_max=100.0)
    return await aiohttp_client(create_app(settings))


async def signed_in(client: Client, nickname: str) -> CanonicalClient:
    player = CanonicalClient(await client.ws_connect("/ws"))
    await player.hello(nickname)
    return player


def check_headers(response: Any, host: str) -> None:
    policy = dict(part.strip().split(" ", 1) for part in
                  response.headers["Content-Security-Policy"].split(";"))
    assert policy["default-src"] == policy["script-src"] == policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == policy["base-uri"] == policy["object-src"] == "'none'"
    assert policy["form-action"] == "'self'"
    assert policy["connect-src"] == f"'self' ws://{host} wss://{host}"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


async def test_every_response_carries_the_browser_headers(client: Client) -> None:
    host = f"{client.host}:{client.port}"
    ada = await signed_in(client, "ada")
    for method, path, body, status in [
            ("GET", "/", None, 200), ("GET", "/web/app.js", None, 200),
            ("GET", "/web/style.css", None, 200), ("GET", "/api/games", None, 200),
            ("GET", "/api/matches/999", None, 404), ("GET", "/no/such/page", None, 404),
            ("PUT", "/api/games", None, 405), ("GET", "/api/admin/players", None, 401),
            ("POST", "/api/matches", {"game": "nope", "token": ada.token}, 404),
            ("GET", "/api/openapi.json", None, 200)]:
        response = await client.request(method, path, json=body)
        assert response.status == status, (method, path, await response.text())
        check_headers(response, host)
    handshake = await client.session.get(client.make_url("/ws"), headers={
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
    assert handshake.status == 101
    assert "frame-ancestors 'none'" in handshake.headers["Content-Security-Policy"]
    handshake.close()


async def test_a_bad_host_header_adds_no_websocket_source(client: Client) -> None:
    response = await client.get("/", headers={"Host": "evil.example; script-src *"})
    policy = response.headers["Content-Security-Policy"]
    assert "connect-src 'self'" in policy and "evil" not in policy and "*" not in policy


async def test_a_text_plain_body_creates_no_match(client: Client) -> None:
    """The reproduction: any page could POST a text/plain body (a simple request, no preflight)
    and create matches for its visitors."""
    ada = await signed_in(client, "ada")
    body = f'{{"game": "dolphinfox", "token": "{ada.token}"}}'
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                         "application/json-seq", None):
        headers = {"Content-Type": content_type} if content_type else {}
        refused = await client.post("/api/matches", data=body.encode(), headers=headers)
        assert refused.status == 415, content_type
        error = (await refused.json())["error"]
        assert error["code"] == "http/unsupported_media_type" and "application/json" in error["message"]
    assert await client.server.app[HUB].store.list_matches() == []
    created = await client.post("/api/matches", data=body,
                                headers={"Content-Type": "application/json; charset=utf-8"})
    assert created.status == 201


async def test_admin_routes_take_json_bodies_only_and_bodiless_deletes(client: Client) -> None:
    ada = await signed_in(client, "ada")
    match_id = (await ada.call({"type": "create", "game": "dolphinfox"}))["result"]["match_id"]
    refused = await client.post(f"/api/admin/matches/{match_id}/abort", data="x",
                                headers={**AUTH, "Content-Type": "text/plain"})
    assert refused.status == 415
    assert (await client.server.app[HUB].store.get_match(match_id)).status == "waiting"
    refused = await client.delete(f"/api/admin/matches/{match_id}", data="{}",
                                  headers={**AUTH, "Content-Type": "text/plain"})
    assert refused.status == 415
    assert await client.server.app[HUB].store.get_match(match_id) is not None
    deleted = await client.delete(f"/api/admin/matches/{match_id}", headers=AUTH)  # no body
    assert deleted.status == 200 and await client.server.app[HUB].store.get_match(match_id) is None


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_wrong_admin_tokens_lock_the_address_out_for_longer_each_time(
        client: Client, caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    client.server.app[ADMIN_THROTTLE].clock = clock
    assert (await client.get("/api/admin/players", headers=AUTH)).status == 200
    caplog.set_level(logging.WARNING, logger="service.sessions.throttle")
    for _ in range(3):  # admin_auth_failures
        assert (await client.get("/api/admin/players", headers=WRONG)).status == 401
    assert not caplog.records
    assert (await client.get("/api/admin/players", headers=WRONG)).status == 401  # the 4th
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "4 wrong tokens from 127.0.0.1; refused for 30 s" in caplog.records[0].getMessage()
    for headers in (WRONG, AUTH, {}):  # locked out: not even the right token is tried
        locked = await client.get("/api/admin/players", headers=headers)
        assert locked.status == 429 and locked.headers["Retry-After"] == "30"
        assert (await locked.json())["error"]["code"] == "admin/throttled"
    refused = await client.post("/api/admin/matches", json={"game": "dolphinfox"}, headers=AUTH)
    assert refused.status == 429  # every admin route
    clock.now += 31
    assert (await client.get("/api/admin/players", headers=WRONG)).status == 401
    locked = await client.get("/api/admin/players", headers=AUTH)
    assert locked.status == 429 and locked.headers["Retry-After"] == "60"  # twice as long
    clock.now += 61
    assert (await client.get("/api/admin/players", headers=AUTH)).status == 200  # cleared
    for _ in range(3):
        assert (await client.get("/api/admin/players", headers=WRONG)).status == 401
    assert (await client.get("/api/admin/players", headers=AUTH)).status == 200


def test_the_throttle_grows_to_its_longest_counts_each_address_and_forgives() -> None:
    clock = FakeClock()
    throttle = AdminThrottle(allowed=2, first_lockout=5, max_lockout=40, addresses=2, clock=clock)
    for _ in range(3):
        throttle.failed("10.0.0.1")
    assert throttle.retry_after("10.0.0.1") == 5 and throttle.retry_after("10.0.0.2") is None
    for wait, lockout in [(6, 10), (11, 20), (21, 40), (41, 40)]:  # doubled, up to the longest
        clock.now += wait
        throttle.failed("10.0.0.1")
        assert throttle.retry_after("10.0.0.1") == lockout
    clock.now += 40 + 41  # the lockout, then longer than the longest without a wrong token
    throttle.failed("10.0.0.1")
    assert throttle.retry_after("10.0.0.1") is None  # forgiven: counted from one again
    throttle.failed("10.0.0.1")
    throttle.failed("10.0.0.1")
    assert throttle.retry_after("10.0.0.1") == 5
    throttle.failed("10.0.0.2")
    throttle.failed("10.0.0.3")  # two addresses are remembered: the least recent is forgotten
    assert throttle.retry_after("10.0.0.1") is None
