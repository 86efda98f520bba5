"""/metrics after a server bot moved: its think time, and the CPU its worker process spent
choosing (measured in the worker, which the server's own process_cpu_seconds_total leaves out),
by game and level; and the fallback counter of a worker that gave no move."""

from __future__ import annotations

from collections.abc import AsyncIterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from clients import CanonicalClient
from prometheus_client.parser import text_string_to_metric_families

from service.app import create_app
from service.bots.thinker import Thinker
from service.games.registry import get_game
from service.settings import Settings

#: generous: the first move also starts the worker process, on a machine that may be busy
WAIT = 120.0


@pytest.fixture
async def client(aiohttp_client: Any, tmp_path: Path) -> AsyncIterator[Any]:
    settings = Settings.for_tests(f"sqlite:///{tmp_path / 'bots.db'}", listen={},
                                  bot_budget=0.05, bot_pace=0.0)
    yield await aiohttp_client(create_app(settings))


async def scraped(client: Any, name: str, **labels: str) -> float:
    response = await client.get("/metrics")
    assert response.status == 200
    found = [s.value for family in text_string_to_metric_families(await response.text())
             for s in family.samples
             if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())]
    assert len(found) == 1, (name, labels, found)
    return float(found[0])


async def test_a_bots_move_shows_its_think_time_and_worker_cpu(client: Any) -> None:
    cpu = "tavolo_bot_worker_cpu_seconds_total"
    think = "tavolo_bot_think_seconds_count"
    labels = {"game": "santorini", "level": "mcts"}
    cpu_before = await scraped(client, cpu, **labels)  # there from the start, at 0 or more
    think_before = await scraped(client, think, **labels)
    ada = CanonicalClient(await client.ws_connect("/ws"))
    await ada.hello("ada")
    created = await ada.call({"type": "create", "game": "santorini", "seat": 1, "bots": ["mcts"]})
    assert created["type"] == "ok", created
    moved = await ada.wait_for("update", timeout=WAIT, version=1)  # the bot's first move
    assert moved["status"] == "active"
    assert await scraped(client, think, **labels) >= think_before + 1
    assert await scraped(client, cpu, **labels) > cpu_before
    assert await scraped(client, cpu, game="santorini", level="random") >= 0


class BrokenExecutor(ThreadPoolExecutor):
    """A worker that fails every request."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_exception(RuntimeError("worker lost"))
        return future


async def test_a_worker_that_gives_no_move_is_a_counted_fallback(client: Any) -> None:
    game = get_game("dolphinfox")
    state = game.setup(2, game.parse_options(None), 3)
    seat = min(game.to_act(state))
    labels = {"game": "dolphinfox", "reason": "failed"}
    before = await scraped(client, "tavolo_bot_fallbacks_total", **labels)
    cpu_before = await scraped(client, "tavolo_bot_worker_cpu_seconds_total",
                               game="dolphinfox", level="mcts")
    thinker = Thinker(BrokenExecutor(1), budget=0.01)
    try:
        move = await thinker.choose("dolphinfox", game.dump_state(state), seat, "mcts")
    finally:
        thinker.close()
    game.apply(state, seat, game.parse_action(move))  # a legal move, played at random
    assert await scraped(client, "tavolo_bot_fallbacks_total", **labels) == before + 1
    assert await scraped(client, "tavolo_bot_worker_cpu_seconds_total", game="dolphinfox",
                         level="mcts") == cpu_before  # no worker reported any
