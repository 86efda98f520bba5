"""Claim appears when the server says a claim is possible, and not before (issue 20).

The server here runs in this test's process, so the game's claim grace can be made short
(180 s in Santorini) and the lifecycle sweeps often: the ``state`` message tells the grace
and, per away seat, how long the server has counted it away and when a claim becomes possible.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.async_api import expect
from web_pages import OpenTab, two_players

from service.app import create_app
from service.games.registry import get_game
from service.settings import Settings
from service.tools.databases import fresh_database

GRACE = 4.0
#: game -> (options, seats) of a two-player match
GAMES: dict[str, tuple[dict[str, str | bool], int | None]] = {
    "santorini": ({"gods": False}, None),
    "eriantys": ({}, 2),
    "renaissance": ({}, 2),
    "dolphinfox": ({"size": "6", "units": "2", "max_moves": "40"}, None),
}
WAIT_MS = 60_000


@pytest.fixture
async def server(tmp_path: Path, aiohttp_server: Any,
                 monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[SimpleNamespace]:
    """The app in this process (what ``open_tab`` needs of a server: its HTTP port)."""
    for game in GAMES:
        monkeypatch.setattr(type(get_game(game)), "abandon_grace", GRACE)
    url, cleanup = await fresh_database("sqlite", tmp_path)
    settings = Settings.for_tests(url, lifecycle_sweep_interval=0.2, listen={})
    running = await aiohttp_server(create_app(settings))
    try:
        yield SimpleNamespace(ports={"http": running.port})
    finally:
        await running.close()
        await cleanup()


@pytest.mark.parametrize("game", list(GAMES))
async def test_claim_shows_up_after_the_grace_and_wins(open_tab: OpenTab, game: str) -> None:
    options, seats = GAMES[game]
    alice, bob, match_id = await two_players(open_tab, game, options, seats)
    assert not await alice.page.query_selector("#claim")

    await bob.context.close()  # bob is gone
    away = alice.page.locator("#seats li[data-seat='1']")
    await expect(away).to_contain_text("away", timeout=WAIT_MS)
    # before the grace has passed the seat list says when, and there is nothing to click
    await expect(away).to_contain_text(re.compile(r"a claim is possible in \d+ s"), timeout=WAIT_MS)
    assert not await alice.page.query_selector("#claim")
    # the server's count reaches the grace: Claim appears, and the seat list says so
    await alice.page.wait_for_selector("#claim", timeout=WAIT_MS)
    await expect(away).to_contain_text("a claim is possible now", timeout=WAIT_MS)
    await alice.page.click("#claim")
    await alice.page.click("#confirm-claim")
    await alice.page.wait_for_selector("#turn[data-status='finished']", timeout=WAIT_MS)
    outcome = await alice.page.inner_text("#outcome")
    assert "You win" in outcome and "bob" in outcome, outcome
    assert not await alice.page.query_selector("#error:not(:empty)")
