"""Accounts over HTTP (/api/account/...) and what operators do to players over the admin API
(/api/admin/players/{id}/reset|rename|ban|unban, /api/admin/log)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import CanonicalClient

from service.app import create_app
from service.settings import Settings

ADMIN = "operator-secret-token"
AS_ADMIN = {"Authorization": f"Bearer {ADMIN}"}
PASSWORD = "correct horse battery"


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(
        database_url, admin_token=ADMIN, login_failures_free=1, login_wait_first=60.0)))


async def guest(client: Any, nickname: str) -> tuple[int, str]:
    ws = CanonicalClient(await client.ws_connect("/ws"))
    welcome = await ws.hello(nickname)
    await ws.ws.close()
    return welcome["player"]["id"], welcome["token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_protect_sign_in_devices_and_sign_out(client: Any) -> None:
    player_id, token = await guest(client, "ada")
    assert (await client.post("/api/account/password", json={"password": PASSWORD})).status == 401
    protect = await client.post("/api/account/password", json={"password": PASSWORD},
                                headers=bearer(token))
    assert protect.status == 200 and await protect.json() == {"password": True}
    signed = await client.post("/api/account/sign-in",
                               json={"nickname": "Ada", "password": PASSWORD, "device": "phone"})
    body = await signed.json()
    assert signed.status == 200 and body["player"] == {
        "id": player_id, "nickname": "ada", "protected": True, "password": True}
    account = await (await client.get("/api/account", headers=bearer(body["token"]))).json()
    assert [(d["label"], d["current"]) for d in account["devices"]] == [
        ("first device", False), ("phone", True)]
    assert account["current_device"] == account["devices"][1]["id"]
    out = await client.post("/api/account/sign-out", headers=bearer(body["token"]))
    assert out.status == 200 and await out.json() == {"signed_out": True}
    gone = await client.get("/api/account", headers=bearer(body["token"]))
    assert gone.status == 401 and (await gone.json())["error"]["code"] == "session/bad_token"
    first = await client.get("/api/account", headers=bearer(token))
    assert first.status == 200  # the other device is untouched
    revoked = await client.delete(f"/api/account/devices/{account['devices'][0]['id']}",
                                  headers=bearer(token))
    assert revoked.status == 200
    assert (await client.get("/api/account", headers=bearer(token))).status == 401


async def test_wrong_passwords_are_401_then_429_with_retry_after(client: Any) -> None:
    _, token = await guest(client, "bob")
    await client.post("/api/account/password", json={"password": PASSWORD}, headers=bearer(token))
    for status in (401, 401):  # login_failures_free = 1: the second wrong one sets a wait
        wrong = await client.post("/api/account/sign-in",
                                  json={"nickname": "bob", "password": "not it at all"})
        assert wrong.status == status
        assert (await wrong.json())["error"]["code"] == "session/bad_password"
    waits = await client.post("/api/account/sign-in", json={"nickname": "bob", "password": PASSWORD})
    assert waits.status == 429 and 1 <= int(waits.headers["Retry-After"]) <= 60
    assert (await waits.json())["error"]["code"] == "session/throttled"
    bad = await client.post("/api/account/sign-in", json={"nickname": "bob"})
    assert bad.status == 400 and (await bad.json())["error"]["code"] == "protocol/bad_message"


async def test_a_recovery_code_over_http(client: Any) -> None:
    _, token = await guest(client, "cleo")
    code = (await (await client.post("/api/account/recovery-code",
                                     headers=bearer(token))).json())["code"]
    recovered = await client.post("/api/account/recover", json={
        "nickname": "cleo", "code": code, "password": PASSWORD})
    assert recovered.status == 200 and (await recovered.json())["player"]["password"] is True
    again = await client.post("/api/account/recover", json={"nickname": "cleo", "code": code})
    assert again.status == 401
    assert (await again.json())["error"]["code"] == "session/bad_recovery_code"


async def test_operators_reset_rename_ban_and_log(client: Any) -> None:
    player_id, token = await guest(client, "dora")
    await client.post("/api/account/password", json={"password": PASSWORD}, headers=bearer(token))
    assert (await client.post(f"/api/admin/players/{player_id}/reset")).status == 401
    reset = await client.post(f"/api/admin/players/{player_id}/reset", json={"by": "sam"},
                              headers=AS_ADMIN)
    code = (await reset.json())["recovery_code"]
    assert reset.status == 200
    assert (await client.get("/api/account", headers=bearer(token))).status == 401
    old = await client.post("/api/account/sign-in", json={"nickname": "dora", "password": PASSWORD})
    assert old.status == 401  # the password went with the reset
    back = await client.post("/api/account/recover", json={"nickname": "dora", "code": code,
                                                           "password": "a new password"})
    assert back.status == 200
    renamed = await client.post(f"/api/admin/players/{player_id}/rename",
                                json={"nickname": "Dorothy"}, headers=AS_ADMIN)
    assert await renamed.json() == {"player_id": player_id, "nickname": "Dorothy"}
    ban = await client.post(f"/api/admin/players/{player_id}/ban", json={"reason": "spam"},
                            headers=AS_ADMIN)
    assert ban.status == 200
    refused = await client.post("/api/account/sign-in",
                                json={"nickname": "dorothy", "password": "a new password"})
    assert refused.status == 403 and (await refused.json())["error"]["code"] == "session/banned"
    detail = await (await client.get(f"/api/admin/players/{player_id}", headers=AS_ADMIN)).json()
    assert detail["banned"]["reason"] == "spam"
    await client.post(f"/api/admin/players/{player_id}/unban", headers=AS_ADMIN)
    log = await (await client.get(f"/api/admin/log?player_id={player_id}", headers=AS_ADMIN)).json()
    assert [e["what"] for e in log] == ["unban", "ban", "rename", "reset"]
    assert log[-1]["operator"] == "sam (admin API from 127.0.0.1)"
    missing = await client.post("/api/admin/players/999/ban", json={"reason": "x"},
                                headers=AS_ADMIN)
    assert missing.status == 404
    no_reason = await client.post(f"/api/admin/players/{player_id}/ban", json={},
                                  headers=AS_ADMIN)
    assert no_reason.status == 400


async def test_no_secret_reaches_the_log(client: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Every line Tavolo and aiohttp log while a player protects, signs in, fails, gets and
    spends a recovery code and is reset holds none of the secrets (nor their hashes). (SQL
    statement logging, SQLAlchemy's own debugging aid that an operator must switch on, shows
    the parameters of every statement: hashes included.)"""
    import hashlib
    import logging

    caplog.set_level(logging.DEBUG)
    player_id, token = await guest(client, "erin")
    await client.post("/api/account/password", json={"password": PASSWORD}, headers=bearer(token))
    signed = await (await client.post("/api/account/sign-in", json={
        "nickname": "erin", "password": PASSWORD})).json()
    await client.post("/api/account/sign-in", json={"nickname": "erin", "password": "wrong one!"})
    code = (await (await client.post("/api/account/recovery-code",
                                     headers=bearer(token))).json())["code"]
    recovered = await (await client.post("/api/account/recover", json={
        "nickname": "erin", "code": code, "password": "the next password"})).json()
    reset = await (await client.post(f"/api/admin/players/{player_id}/reset",
                                     headers=AS_ADMIN)).json()
    secrets = [PASSWORD, "wrong one!", "the next password", token, signed["token"], code,
               recovered["token"], reset["recovery_code"], ADMIN]
    secrets += [hashlib.sha256(s.encode()).hexdigest() for s in secrets]
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records
                       if r.name.startswith(("service", "aiohttp")))
    assert "erin" in logged or "player" in logged  # the flows were logged at all
    leaked = [s for s in secrets if s in logged]
    assert leaked == []
