"""Accounts over the canonical protocol: protect a nickname with a password, sign in from
another device, recovery codes, devices, sign out, what wrong secrets cost, bans."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import CanonicalClient

from service.app import create_app
from service.gateway.keys import HUB, STORE
from service.settings import Settings

SMALL = {"size": 4, "units": 1, "max_moves": 12}
PASSWORD = "correct horse battery"


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(
        database_url, login_failures_free=2, login_wait_first=30.0, login_address_failures=50)))


async def connect(client: Any) -> CanonicalClient:
    return CanonicalClient(await client.ws_connect("/ws"))


async def protected(client: Any, nickname: str = "ada") -> CanonicalClient:
    first = await connect(client)
    welcome = await first.hello(nickname)
    assert welcome["player"]["password"] is False
    ok = await first.call({"type": "set_password", "password": PASSWORD})
    assert ok == {"type": "ok", "re": ok["re"], "result": {"password": True}}
    return first


async def test_a_protected_nickname_signs_in_on_another_device_and_resumes(client: Any) -> None:
    first = await protected(client)
    created = await first.call({"type": "create", "game": "dolphinfox", "options": SMALL})
    match_id = created["result"]["match_id"]
    laptop = await connect(client)
    welcome = await laptop.call({"type": "hello", "nickname": "ADA", "password": PASSWORD,
                                 "device": "laptop"})
    assert welcome["type"] == "welcome" and welcome["token"] != first.token
    assert welcome["player"]["protected"] and welcome["player"]["password"]
    assert [m["match_id"] for m in welcome["matches"]] == [match_id]
    resumed = await laptop.call({"type": "resume", "match_id": match_id})
    assert resumed["type"] == "ok" and resumed["result"]["seat"] == 0
    devices = (await laptop.call({"type": "devices"}))["result"]["devices"]
    assert [(d["label"], d["current"]) for d in devices] == [("first device", False),
                                                            ("laptop", True)]
    # the first device revokes the laptop: its token reaches nobody any more
    revoked = await first.call({"type": "revoke_device", "device_id": devices[1]["id"]})
    assert revoked["result"] == {"device_id": devices[1]["id"], "revoked": True}
    again = await (await connect(client)).call({"type": "hello", "token": welcome["token"]})
    assert again["code"] == "session/bad_token"
    unknown = await first.call({"type": "revoke_device", "device_id": devices[1]["id"]})
    assert unknown["code"] == "session/no_such_device"


async def test_wrong_passwords_cost_time_and_change_nothing(client: Any) -> None:
    await protected(client)
    other = await connect(client)
    for _ in range(2):  # login_failures_free
        wrong = await other.call({"type": "hello", "nickname": "ada", "password": "nope nope"})
        assert wrong["code"] == "session/bad_password"
    third = await other.call({"type": "hello", "nickname": "ada", "password": "nope nope"})
    assert third["code"] == "session/bad_password"  # the third counts, and the next waits
    waiting = await other.call({"type": "hello", "nickname": "ada", "password": PASSWORD})
    assert waiting["code"] == "session/throttled"
    assert 1 <= waiting["details"]["retry_after"] <= 30  # login_wait_first, not for ever
    store = client.server.app[STORE]
    player = await store.player_by_nickname("ada")
    credentials = await store.credentials(player.id)
    assert credentials.login_failures == 3 and len(await store.devices_of(player.id)) == 1
    await store.login_succeeded(player.id)  # the wait over (as if 30 s passed)
    right = await other.call({"type": "hello", "nickname": "ada", "password": PASSWORD})
    assert right["type"] == "welcome"
    assert (await store.credentials(player.id)).login_failures == 0


async def test_changing_a_password_needs_the_old_one(client: Any) -> None:
    first = await protected(client)
    refused = await first.call({"type": "set_password", "password": "another one!"})
    assert refused["code"] == "session/bad_password"
    weak = await first.call({"type": "set_password", "password": "short",
                             "old_password": PASSWORD})
    assert weak["code"] == "session/weak_password"
    changed = await first.call({"type": "set_password", "password": "another one!",
                                "old_password": PASSWORD})
    assert changed["result"] == {"password": True}
    old = await (await connect(client)).call({"type": "hello", "nickname": "ada",
                                              "password": PASSWORD})
    assert old["code"] == "session/bad_password"


async def test_a_recovery_code_works_once_and_sets_a_new_password(client: Any) -> None:
    first = await protected(client)
    code = (await first.call({"type": "recovery_code"}))["result"]["code"]
    assert len(code) == 29 and code.count("-") == 4
    phone = await connect(client)
    recovered = await phone.call({"type": "hello", "nickname": "ada",
                                  "recovery_code": code.lower().replace("-", " "),
                                  "password": "a brand new one"})
    assert recovered["type"] == "welcome" and recovered["token"]
    spent = await (await connect(client)).call({"type": "hello", "nickname": "ada",
                                                "recovery_code": code})
    assert spent["code"] == "session/bad_recovery_code"
    signed = await (await connect(client)).call({"type": "hello", "nickname": "ada",
                                                 "password": "a brand new one"})
    assert signed["type"] == "welcome"


async def test_sign_out_revokes_this_device_only(client: Any) -> None:
    first = await protected(client)
    token = first.token
    out = await first.call({"type": "sign_out"})
    assert out["result"] == {"signed_out": True}
    assert (await first.call({"type": "devices"}))["code"] == "session/not_identified"
    gone = await (await connect(client)).call({"type": "hello", "token": token})
    assert gone["code"] == "session/bad_token"
    back = await (await connect(client)).call({"type": "hello", "nickname": "ada",
                                               "password": PASSWORD})
    assert back["type"] == "welcome"


async def test_a_nickname_alone_cannot_set_a_password(client: Any) -> None:
    seed_player = await client.server.app[STORE].get_or_create_player("dora")
    dora = await connect(client)
    welcome = await dora.hello("dora")
    assert welcome["player"] == {"id": seed_player.id, "nickname": "dora", "protected": False,
                                 "password": False}
    refused = await dora.call({"type": "set_password", "password": PASSWORD})
    assert refused["code"] == "session/token_required"
    no_password = await (await connect(client)).call({"type": "hello", "nickname": "dora",
                                                      "password": PASSWORD})
    assert no_password["code"] == "session/bad_password"


async def test_a_banned_player_is_cut_off_and_their_match_ends(client: Any) -> None:
    alice, bob = await connect(client), await connect(client)
    await alice.hello("alice")
    await bob.hello("bob")
    created = await alice.call({"type": "create", "game": "dolphinfox", "options": SMALL})
    match_id = created["result"]["match_id"]
    await bob.call({"type": "join", "match_id": match_id})
    await alice.wait_for("state", status="active")
    hub, store = client.server.app[HUB], client.server.app[STORE]
    player = await store.player_by_nickname("bob")
    await hub.ban(player, "cheating", operator="test")
    ended = await alice.wait_for("ended")
    assert ended["outcome"]["reason"] == "banned" and ended["outcome"]["winners"] == [0]
    again = await (await connect(client)).call({"type": "hello", "token": bob.token})
    assert again["code"] == "session/banned" and "cheating" in again["message"]
    await hub.unban(player, operator="test")
    assert (await (await connect(client)).call({"type": "hello", "token": bob.token}))["type"] \
        == "welcome"
