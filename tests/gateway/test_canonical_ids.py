"""Issue 25 over real connections: a canonical ``id`` the encoder cannot echo (above 64 bits,
or a lone surrogate) is answered ``protocol/bad_message`` without ``re``, and the connection
stays open and keeps working, over WebSocket and over canonical JSON lines on TCP."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import CanonicalClient, LineClient

from service.app import create_app
from service.gateway.keys import LISTENERS
from service.settings import Settings

#: the issue's reproductions, byte for byte
REPRODUCTIONS = ['{"type":"ping","id":18446744073709551616}', '{"type":"ping","id":"\\ud800"}']


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    settings = Settings.for_tests(database_url, listen={"canonical": 0})
    yield await aiohttp_client(create_app(settings))


def _no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.parametrize("frame", REPRODUCTIONS)
async def test_an_unechoable_id_over_websocket(client: Any, frame: str,
                                               caplog: pytest.LogCaptureFixture) -> None:
    alice = CanonicalClient(await client.ws_connect("/ws"))
    for _ in range(3):  # again and again: an answer each time, never a closed connection
        await alice.ws.send_str(frame)
        answer = await alice.next()
        assert answer["type"] == "error" and answer["code"] == "protocol/bad_message"
        assert "re" not in answer
    welcome = await alice.hello("alice")  # it keeps working
    assert welcome["player"]["nickname"] == "alice"
    assert (await alice.call({"type": "ping"}))["type"] == "pong"
    _no_tracebacks(caplog)


@pytest.mark.parametrize("frame", REPRODUCTIONS)
async def test_an_unechoable_id_over_canonical_tcp(client: Any, frame: str,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    line = await LineClient.connect(client.server.app[LISTENERS]["canonical"].port)
    try:
        for _ in range(3):
            await line.send(frame)
            answer = json.loads(await line.recv())
            assert answer["type"] == "error" and answer["code"] == "protocol/bad_message"
            assert "re" not in answer
        await line.send('{"type":"ping","id":9223372036854775807}')
        assert json.loads(await line.recv()) == {"type": "pong", "re": 9223372036854775807}
        await line.send('{"type":"hello","id":"h","nickname":"bob"}')
        welcome = json.loads(await line.recv())
        assert welcome["type"] == "welcome" and welcome["re"] == "h"
    finally:
        await line.close()
    _no_tracebacks(caplog)
