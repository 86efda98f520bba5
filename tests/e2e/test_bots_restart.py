"""Real server processes: a match of bots goes on after a SIGKILL and a restart, with nobody
connected; a person against a bot resumes too; and `tavolo bot` plays against a running server."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import pytest
from clients import CanonicalClient, newest_match_replays, run_cli

from service.tools.process import ServerProcess

pytestmark = pytest.mark.slow

FAST = ("--bot-budget", "0.02", "--bot-pace", "0")


def server_for(database_url: str) -> ServerProcess:
    return ServerProcess(database_url, dialects=(), extra_args=FAST)


async def watch_until(session: aiohttp.ClientSession, server: ServerProcess, match_id: int,
                      version: int) -> dict[str, Any]:
    """Watch the match until it reaches ``version`` or ends; the last state or update."""
    watcher = CanonicalClient(await session.ws_connect(f"http://127.0.0.1:{server.ports['http']}/ws"))
    answer = await watcher.call({"type": "watch", "match_id": match_id})
    assert answer["type"] == "ok", answer
    seen = await watcher.wait_for("state")
    while seen["version"] < version and seen["status"] == "active":
        seen = await watcher.wait_for("update", timeout=60)
    await watcher.ws.close()
    return seen


async def test_a_match_of_bots_goes_on_after_a_kill_and_a_restart(database_url: str) -> None:
    server = await server_for(database_url).start()
    try:
        async with aiohttp.ClientSession() as session:
            base = f"http://127.0.0.1:{server.ports['http']}"
            ada = CanonicalClient(await session.ws_connect(f"{base}/ws"))
            await ada.hello("ada")  # a match of bots is a signed-in player's (or an operator's)
            async with session.post(f"{base}/api/matches", json={
                    "game": "santorini", "bots": ["mcts", "mcts"], "sit": False,
                    "token": ada.token}) as r:
                created = await r.json()
            await ada.ws.close()
            assert created["status"] == "active", created
            match_id = created["match_id"]
            assert (await watch_until(session, server, match_id, 6))["version"] >= 6
            await server.kill()
            before = json.loads(run_cli("matches", "show", str(match_id), "--json",
                                        "--database-url", database_url).stdout)
            assert before["status"] == "active"
            await server.start()  # nobody connects: the bots resume on their own
            assert any("bots resumed 1 match" in line for line in server.output)
            end = await watch_until(session, server, match_id, 10**9)
            assert end["status"] == "finished" and end["version"] > before["version"]
        assert await server.terminate() == 0
    finally:
        await server.kill()
    newest_match_replays(database_url)


async def test_a_person_resumes_against_a_bot_after_a_restart(database_url: str) -> None:
    server = await server_for(database_url).start()
    try:
        async with aiohttp.ClientSession() as session:
            ws_url = f"http://127.0.0.1:{server.ports['http']}/ws"
            ada = CanonicalClient(await session.ws_connect(ws_url))
            await ada.hello("ada")
            created = await ada.call({"type": "create", "game": "eriantys", "seats": 2,
                                      "bots": ["mcts"]})
            match_id = created["result"]["match_id"]
            await play(ada, match_id, actions=6)
            token = ada.token
            await server.kill()
            await server.start()
            ada = CanonicalClient(await session.ws_connect(f"http://127.0.0.1:{server.ports['http']}/ws"))
            welcome = await ada.hello(token=token)
            assert [m["match_id"] for m in welcome["matches"]] == [match_id]
            await ada.call({"type": "resume", "match_id": match_id})
            await play(ada, match_id, actions=10_000)
        assert await server.terminate() == 0
    finally:
        await server.kill()
    newest_match_replays(database_url)


async def play(player: CanonicalClient, match_id: int, *, actions: int) -> None:
    """Play the first legal action ``actions`` times, or until the match is over."""
    done = 0
    while done < actions:
        listed = (await player.call({"type": "legal", "match_id": match_id}))["result"]
        if listed["actions"]:
            answer = await player.call({"type": "act", "match_id": match_id, "client_id": f"a{done}",
                                        "action": listed["actions"][0], "version": listed["version"]})
            done += answer["type"] == "ack"
            continue
        update = await player.wait_for("update", timeout=60)
        if update["status"] == "finished":
            return


async def test_the_bot_command_plays_against_a_running_server(database_url: str) -> None:
    server = await server_for(database_url).start()
    try:
        url = f"ws://127.0.0.1:{server.ports['http']}/ws"
        both = await asyncio.to_thread(run_cli, "bot", "--url", url, "--game", "santorini",
                                       "--matches", "2", "--parallel", "2", "--seed", "3")
        assert both.returncode == 0, both.stdout + both.stderr
        assert "2 match(es) finished" in both.stdout
        against = await asyncio.to_thread(run_cli, "bot", "--url", url, "--game", "eriantys",
                                          "--seats", "3", "--against", "mcts", "--seed", "4")
        assert against.returncode == 0, against.stdout + against.stderr
        assert "1 match(es) finished" in against.stdout
        refused = await asyncio.to_thread(run_cli, "bot", "--url", url, "--game", "chess")
        assert refused.returncode == 1 and "session/unknown_game" in refused.stderr
        assert await server.terminate() == 0
    finally:
        await server.kill()
    listing = json.loads(run_cli("matches", "list", "--json", "--database-url", database_url).stdout)
    assert [m["status"] for m in listing] == ["finished"] * 3
    newest_match_replays(database_url)
