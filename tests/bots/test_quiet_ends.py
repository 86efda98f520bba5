"""Issue 25: a server-side bot whose match ends while it thinks (or while it waits for the
match's lock behind the action that ends it) is no fault: one INFO line, never a traceback,
never an ERROR record; and the bot leaves the ended match."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from clients import CanonicalClient
from test_thinking_off_the_loop import GatedExecutor

from service.app import create_app
from service.bots.policies import NoLegalAction
from service.bots.thinker import Thinker, process_pool
from service.games.dolphinfox import GAME as DOLPHINFOX
from service.gateway.keys import BOTS, HUB
from service.settings import Settings

#: the first move ends the match (a move limit of one)
ONE_MOVE = {"size": 4, "units": 1, "max_moves": 1}
WAIT = 30.0


@pytest.fixture
async def client(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    settings = Settings.for_tests(database_url, bot_budget=0.01, bot_pace=0.0)
    yield await aiohttp_client(create_app(settings))


def faults(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


async def until(condition: Any) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), WAIT)


async def bot_thinking(client: Any) -> tuple[Any, GatedExecutor, CanonicalClient, int]:
    """ada opens a one-move Dolphins & Foxes match against a random bot whose worker is held
    at the gate: (the bot seats, the gate, ada, the match id) once the bot is thinking."""
    bots = client.server.app[BOTS]
    bots.thinker.close()
    gated = GatedExecutor()
    bots.thinker = Thinker(gated, budget=0.01, grace=60)
    ada = CanonicalClient(await client.ws_connect("/ws"))
    await ada.hello("ada")
    created = await ada.call({"type": "create", "game": "dolphinfox", "options": ONE_MOVE,
                              "seat": 0, "bots": ["random"]})
    assert await asyncio.to_thread(gated.started.wait, WAIT)  # the bot is thinking
    return bots, gated, ada, created["result"]["match_id"]


async def test_the_match_ends_while_the_bot_thinks(client: Any,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    bots, gated, ada, match_id = await bot_thinking(client)
    move = (await ada.call({"type": "legal", "match_id": match_id}))["result"]["actions"][0]
    ack = await ada.call({"type": "act", "match_id": match_id, "action": move, "client_id": "a"})
    assert ack["type"] == "ack"  # ada's move ends the match
    gated.gate.set()  # the bot's move comes too late
    await until(lambda: not bots.drivers)  # and the bot leaves the ended match
    said = [r.getMessage() for r in caplog.records if r.name == "service.bots.seats"]
    assert said == [f"match {match_id} ended while the bot of seat 1 was thinking"]
    assert not faults(caplog)
    assert (await client.server.app[HUB].get(match_id)).version == 1


async def test_a_bot_queued_behind_the_final_action_reads_no_ended_position(
        client: Any, caplog: pytest.LogCaptureFixture) -> None:
    """The bot found its seat to act and waited for the match's lock; the action queued ahead
    of it ended the match. It used to read the ended position, and its worker (a real process
    here) raised NoLegalAction: a warning, a random move that raised again, a traceback."""
    bots, gated, _, match_id = await bot_thinking(client)
    driver = bots.drivers[(match_id, 1)]
    runtime = await client.server.app[HUB].get(match_id)
    bots.thinker = Thinker(process_pool(1), budget=0.01)  # the next move is thought in a process
    caplog.set_level(logging.INFO)
    move = DOLPHINFOX.dump_action(DOLPHINFOX.legal_actions(runtime.state, 0)[0])
    await runtime.lock.acquire()  # someone holds the match (a lookup, a commit)...
    try:
        final = asyncio.create_task(runtime.act(runtime.seats[0].player_id, move, "a"))
        await asyncio.sleep(0)  # ...ada's final move queues for it...
        assert 1 in runtime.to_act()  # ...the bot finds its seat to act, and queues behind her
        queued = asyncio.create_task(driver._move(runtime))
        await asyncio.sleep(0)
    finally:
        runtime.lock.release()
    assert (await asyncio.wait_for(final, WAIT)).version == 1 and runtime.over
    assert await asyncio.wait_for(queued, WAIT) is True  # nothing to play, and no exception
    gated.gate.set()
    await until(lambda: not bots.drivers)
    assert not faults(caplog)
    bots.thinker.close()


async def test_a_position_with_nothing_to_play_is_no_reason_to_play_at_random(
        caplog: pytest.LogCaptureFixture) -> None:
    state = DOLPHINFOX.setup(2, DOLPHINFOX.parse_options(ONE_MOVE), 3)
    DOLPHINFOX.apply(state, 0, DOLPHINFOX.legal_actions(state, 0)[0])
    thinker = Thinker(process_pool(1), budget=0.01)
    try:
        with pytest.raises(NoLegalAction):
            await thinker.choose("dolphinfox", DOLPHINFOX.dump_state(state), 1, "random")
    finally:
        thinker.close()
    assert not faults(caplog)  # no "no move in time" warning: the worker did not fail
