"""Two players play a whole Santorini match with gods by clicks (the challenger's pick, the
choice of gods, placing workers, optional steps, Atlas's dome); a third page watches."""

from __future__ import annotations

import random
from pathlib import Path

from playwright.async_api import Page
from web_pages import (OpenTab, Tab, all_see, cell_labels, click_any, legal_count, phone_shot, replay_from_start,
                       replay_to_end, two_players_and_a_watcher, version, whose_turn)

GODS = ("ARTEMIS", "ATLAS")  # an optional second move, and a dome at any level
MAX_ACTIONS = 400


async def climb(page: Page, rng: random.Random) -> None:
    """Play to finish: move to the highest highlighted space, and build one level above the
    worker's own (a step to climb next turn); choose among equals at random."""
    step = await page.inner_text("#step")
    # a worker of yours is highlighted too (choosing it again switches workers); play the step
    targets = (await page.query_selector_all("#board .cell.target:not(.movable)")
               or await page.query_selector_all("#board .cell.target"))
    heights = [int(await t.get_attribute("data-height") or 0) for t in targets]
    if "move" in step:
        best = [t for t, height in zip(targets, heights) if height == max(heights)]
    else:
        acting = await page.query_selector("#board .cell.selected")
        wanted = int(await acting.get_attribute("data-height") or 0) + 1 if acting else 1
        best = [t for t, height in zip(targets, heights) if height + 1 == wanted] or targets
    await rng.choice(best).click()


async def play_one(tab: Tab, rng: random.Random) -> None:
    page = tab.page
    now = await version(page)
    assert await legal_count(page) > 0
    phase = await page.get_attribute("#phase", "data-phase")
    if phase == "pick_gods":
        for god in GODS:
            await page.click(f"#god-pick [data-god='{god}']")
        await page.click("#offer-gods")
    elif phase == "choose_god":
        await click_any(page, "#god-choose [data-key^='take-']", rng)
    elif phase == "place_workers":
        await click_any(page, "#board .cell.target", rng)
        await page.wait_for_selector("#board .cell.selected")
        await click_any(page, "#board .cell.target", rng)
    elif await page.query_selector("#skip") and rng.random() < 0.3:
        await page.click("#skip")
    else:
        await climb(page, rng)
        await page.wait_for_selector(f"#board-area[data-version='{now + 1}'], #chooser")
        if await page.query_selector("#chooser"):  # Atlas: a block or a dome
            await click_any(page, "#chooser [data-key^='choice-']", rng)


async def test_santorini_with_gods_by_clicks(open_tab: OpenTab, artefacts: Path) -> None:
    rng = random.Random(3)
    alice, bob, watcher = await two_players_and_a_watcher(open_tab, "santorini", {"gods": True})  # bob: a phone
    tabs = [alice, bob, watcher]
    phases: set[str] = set()
    for now in range(MAX_ACTIONS):
        if await alice.page.get_attribute("#turn", "data-status") != "active":
            break
        phases.add(await alice.page.get_attribute("#phase", "data-phase") or "")
        await play_one(await whose_turn([alice, bob]), rng)
        await all_see(tabs, now + 1, cell_labels)
        if now == 12:
            await phone_shot(bob, artefacts / "santorini-phone.png")
    assert phases == {"pick_gods", "choose_god", "place_workers", "play"}
    for tab in tabs:
        await tab.page.wait_for_selector("#outcome")
    await alice.page.screenshot(path=artefacts / "santorini.png", full_page=True)
    gods = await watcher.page.inner_text(".players")
    assert all(god.capitalize() in gods for god in GODS)
    assert "Winner" in await watcher.page.inner_text("#outcome")
    final = await cell_labels(watcher.page)
    last = await version(watcher.page)

    replay = watcher.page  # the same board, drawn from the saved log
    await replay_from_start(replay)
    await replay_to_end(replay, last)
    assert await cell_labels(replay) == final
    assert "Winner" in await replay.inner_text("#outcome")
