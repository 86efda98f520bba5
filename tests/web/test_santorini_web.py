"""Two players play a whole Santorini match with gods by clicks (the challenger's pick, the
choice of gods, placing workers, optional steps, Atlas's dome); a third page watches."""

from __future__ import annotations

import random
from pathlib import Path

from playwright.async_api import Page
from web_pages import (OpenTab, Tab, cell_labels, click_any, create, join, legal_count, sign_in, version,
                       fits_the_width, wait_version, whose_turn)

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
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    match_id = await create(alice, "santorini", {"gods": True})
    bob = await open_tab("bob", width=390, height=844)  # a phone
    await sign_in(bob, "bob")
    await join(bob, match_id)
    watcher = await open_tab("watcher", f"/#/watch/{match_id}")
    tabs = [alice, bob, watcher]
    for tab in tabs:
        await tab.page.wait_for_selector("#turn[data-status='active']")
    phases: set[str] = set()
    for now in range(MAX_ACTIONS):
        if await alice.page.get_attribute("#turn", "data-status") != "active":
            break
        phases.add(await alice.page.get_attribute("#phase", "data-phase") or "")
        await play_one(await whose_turn([alice, bob]), rng)
        for tab in tabs:
            await wait_version(tab.page, now + 1)
        assert await cell_labels(watcher.page) == await cell_labels(alice.page) == await cell_labels(bob.page)
        if now == 12:
            await bob.page.screenshot(path=artefacts / "santorini-phone.png", full_page=True)
            assert await fits_the_width(bob.page)
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
    await replay.goto(replay.url.replace("#/watch/", "#/replay/"))
    await replay.wait_for_selector("#replay-at[data-version='0']")
    await replay.click("#replay-end")
    await replay.wait_for_selector(f"#replay-at[data-version='{last}']")
    assert await cell_labels(replay) == final
    assert "Winner" in await replay.inner_text("#outcome")
