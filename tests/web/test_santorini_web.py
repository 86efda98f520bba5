"""Two players play a whole Santorini match with gods by clicks (the challenger's pick, the
choice of gods, placing workers, optional steps, Atlas's dome); a third page watches."""

from __future__ import annotations

import random
import re
from pathlib import Path

from santorini_pages import play_one
from web_pages import (OpenTab, all_see, cell_labels, phone_shot, replay_from_start, replay_to_end,
                       two_players_and_a_watcher, version, whose_turn)

GODS = ("ARTEMIS", "ATLAS")  # an optional second move, and a dome at any level
MAX_ACTIONS = 400


async def test_santorini_with_gods_by_clicks(open_tab: OpenTab, artefacts: Path) -> None:
    rng = random.Random(3)
    alice, bob, watcher = await two_players_and_a_watcher(open_tab, "santorini", {"gods": True})  # bob: a phone
    tabs = [alice, bob, watcher]
    phases: set[str] = set()
    for now in range(MAX_ACTIONS):
        if await alice.page.get_attribute("#turn", "data-status") != "active":
            break
        phases.add(await alice.page.get_attribute("#phase", "data-phase") or "")
        await play_one(await whose_turn([alice, bob]), rng, GODS)
        await all_see(tabs, now + 1, cell_labels)
        if now == 12:
            await phone_shot(bob, artefacts / "santorini-phone.png")
    assert phases == {"pick_gods", "choose_god", "place_workers", "play"}
    assert alice.commands_sent("act") > 0 and bob.commands_sent("act") > 0
    assert alice.commands_sent("legal") == bob.commands_sent("legal") == 0  # pushed with updates
    for tab in tabs:
        await tab.page.wait_for_selector("#outcome")
    await alice.page.screenshot(path=artefacts / "santorini.png", full_page=True)
    gods = await watcher.page.inner_text(".players")
    assert all(god.capitalize() in gods for god in GODS)
    outcome = await watcher.page.inner_text("#outcome")
    assert re.match(r"(alice|bob) wins: ", outcome), outcome
    final = await cell_labels(watcher.page)
    last = await version(watcher.page)

    replay = watcher.page  # the same board, drawn from the saved log
    await replay_from_start(replay)
    await replay_to_end(replay, last)
    assert await cell_labels(replay) == final
    assert "Winner" in await replay.inner_text("#outcome")
