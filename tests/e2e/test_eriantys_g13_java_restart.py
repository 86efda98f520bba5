"""SIGKILL the server in the middle of a game played over the original g13 wire (Java
serialization), restart it, and finish: each player logs in again as the original client
does (login, AskIfGameCreatedMsg, GameStartedMsg, its next ready command) and is answered
with what makes it ask for the game's next step. No acknowledged action may be lost and
`matches replay` must pass. Runs on SQLite and on PostgreSQL with a real server process."""

from __future__ import annotations

import asyncio

import pytest
from clients import newest_match_replays
from eriantys_g13_java_client import JavaBot, JavaG13Client, short, start_game
from eriantys_g13_shared import killed_mid_game

pytestmark = pytest.mark.slow

NAME = "eriantys-g13-java"
NAMES = ("ada", "bruno", "carla")


async def log_in_again(port: int, name: str) -> JavaG13Client:
    client = await JavaG13Client.connect(port, name)
    assert await client.login() == "VALID"
    created = await client.call("AskIfGameCreatedMsg")
    assert created["MoveStatus"].name == "INVALID"  # a game exists: the client joins it
    started = await client.call("GameStartedMsg")
    assert short(started) == "AnsGameStartedMsg" and started["nickname"] == list(NAMES)
    return client


async def test_sigkill_mid_game_then_log_in_again_and_finish(database_url: str) -> None:
    async with killed_mid_game(database_url, NAME, start_game, JavaBot, NAMES) as (
            server, acknowledged):
        port = server.ports[NAME]
        back = [await log_in_again(port, name) for name in NAMES]
        after = [JavaBot(client, 50 + i) for i, client in enumerate(back)]
        ends = await asyncio.gather(*(bot.run() for bot in after))
        assert all(e["winner"] == ends[0]["winner"] for e in ends) and ends[0]["winner"]
        assert await server.terminate() == 0
    match = newest_match_replays(database_url)
    assert match["version"] >= acknowledged + sum(b.applied for b in after)
