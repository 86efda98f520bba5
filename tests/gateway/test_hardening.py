"""Regression tests of issue 8 (hardening) over real connections: every bad input gets the
dialect's error answer with a stable code, and the connection lives on."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import CanonicalClient, LineClient

from service.app import create_app
from service.gateway.keys import LISTENERS
from service.settings import Settings

UID = "0b9e4c7e-5f0d-4a3e-9a51-4f1c3b7d2a10"
DEEP = "[" * 3000 + "]" * 3000


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    yield await aiohttp_client(create_app(Settings.for_tests(database_url)))


async def canonical(client: Any) -> CanonicalClient:
    return CanonicalClient(await client.ws_connect("/ws"))


async def line_client(client: Any, dialect: str) -> LineClient:
    return await LineClient.connect(client.server.app[LISTENERS][dialect].port)


async def test_d1_deep_nesting_is_a_bad_frame_on_canonical(client: Any) -> None:
    alice = await canonical(client)
    await alice.ws.send_str(DEEP)
    answer = await alice.next()
    assert answer["type"] == "error" and answer["code"] == "protocol/bad_json"
    assert (await alice.call({"type": "ping"}))["type"] == "pong"  # still connected


async def test_d1_deep_nesting_is_answered_on_g13(client: Any) -> None:
    g13 = await line_client(client, "eriantys-g13")
    await g13.send(DEEP)
    answer = json.loads(await g13.recv())
    assert answer["type"] == "ErrorMsg" and answer["code"] == "protocol/bad_json"
    await g13.send(json.dumps({"type": "PingCMSG", "identifier": UID}))
    assert json.loads(await g13.recv())["type"] == "PingSMSG"
    await g13.close()


async def test_d2_a_boolean_id_gets_an_error_without_re(client: Any) -> None:
    alice = await canonical(client)
    await alice.ws.send_str('{"type":"nope","id":true}')
    answer = await alice.next()
    assert answer["type"] == "error" and answer["code"] == "protocol/bad_message"
    assert "re" not in answer
    assert (await alice.call({"type": "ping"}))["type"] == "pong"


@pytest.mark.parametrize("field,value", [("color", ["Red"]), ("color", {"Red": 1})])
async def test_d3_a_list_or_object_for_a_colour_is_a_bad_colour(client: Any, field: str,
                                                               value: Any) -> None:
    g13 = await line_client(client, "eriantys-g13")
    await g13.send(json.dumps({"type": "LoginMsg", "identifier": UID, "name": "ada"}))
    assert json.loads(await g13.recv())["status"] == "VALID"
    await g13.send(json.dumps({"type": "CC9Msg", "identifier": UID, field: value}))
    answer = json.loads(await g13.recv())
    assert answer["type"] == "ErrorMsg" and answer["code"] == "protocol/bad_colour"
    assert answer["parentIdentifier"] == UID
    await g13.send(json.dumps({"type": "TurnDecidedMsg", "identifier": UID, "card": ["Uno"]}))
    assert json.loads(await g13.recv())["code"] == "protocol/bad_card"
    await g13.close()
