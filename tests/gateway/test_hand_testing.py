"""Hand testing and logs: ``heartbeat_scale`` relaxes the seed heartbeats so a person can type a
session with nc; JSON log lines name the match, dialect and peer of the task that logged."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import Any

import pytest
from santorini_client import SantoriniClient

from service.app import create_app
from service.gateway.keys import HUB, LISTENERS
from service.logs import handler_for
from service.sessions import logcontext
from service.sessions.dialects.santorini import SantoriniConversation
from service.settings import Settings


@pytest.mark.parametrize("scale, dropped", [(1.0, True), (1000.0, False)])
async def test_the_scale_decides_whether_a_silent_client_is_dropped(
        aiohttp_client: Any, database_url: str, monkeypatch: pytest.MonkeyPatch,
        scale: float, dropped: bool) -> None:
    monkeypatch.setattr(SantoriniConversation, "ping_interval", 0.05)
    monkeypatch.setattr(SantoriniConversation, "pong_timeout", 0.02)
    client = await aiohttp_client(create_app(Settings.for_tests(database_url, heartbeat_scale=scale)))
    assert client.server.app[HUB].heartbeat_scale == scale
    port = client.server.app[LISTENERS]["santorini"].port
    silent = await SantoriniClient.connect(port, auto_pong=False)
    if dropped:
        assert await silent.closed(timeout=5)
        return
    # the pong wait is now 20 s: the silent client outlives a whole join of another one
    other = await SantoriniClient.connect(port)
    assert (await other.join("handtyped", 2))["validNick"] is True
    assert not silent.task.done() and silent.pings == 1


async def test_json_log_lines_carry_match_dialect_and_peer() -> None:
    stream = io.StringIO()
    logger = logging.getLogger("tavolo.test.json")
    logger.addHandler(handler_for("json", stream))
    logger.setLevel(logging.INFO)

    async def connection() -> None:
        logcontext.dialect_var.set("santorini")
        logcontext.peer_var.set("santorini tcp ('127.0.0.1', 5000)")
        logcontext.match_var.set(42)
        logger.info("moved %s", "up")

    try:
        await asyncio.create_task(connection())
        logger.info("outside")
    finally:
        logger.handlers.clear()
    inside, outside = (json.loads(line) for line in stream.getvalue().splitlines())
    assert inside["message"] == "moved up" and inside["level"] == "INFO"
    assert (inside["match"], inside["dialect"]) == (42, "santorini") and "5000" in inside["peer"]
    assert (outside["match"], outside["dialect"], outside["peer"]) == (None, None, None)
