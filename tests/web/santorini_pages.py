"""A Santorini player's clicks, as Playwright steps (shared by the Santorini browser tests)."""

from __future__ import annotations

import random

from playwright.async_api import Page
from web_pages import Tab, click_any, legal_count, version


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


async def play_one(tab: Tab, rng: random.Random, gods: tuple[str, ...] = ()) -> None:
    """One action of a Santorini turn by clicks, whatever the phase (``gods``: the challenger's pick)."""
    page = tab.page
    now = await version(page)
    assert await legal_count(page) > 0
    phase = await page.get_attribute("#phase", "data-phase")
    if phase == "pick_gods":
        for god in gods:
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
        # past ``now``, not exactly now + 1: a bot may answer before the page has drawn our move
        await page.wait_for_selector(f"#board-area:not([data-version='{now}']), #chooser")
        if await page.query_selector("#chooser"):  # Atlas: a block or a dome
            await click_any(page, "#chooser [data-key^='choice-']", rng)
