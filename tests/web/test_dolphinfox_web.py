"""Two players play Dolphins & Foxes by clicks, a third page watches every move, the players
rematch, and the replay steps back to the start."""

from __future__ import annotations

import random
import re
from pathlib import Path

from playwright.async_api import ElementHandle

from web_pages import OpenTab, Tab, click_any, create, join, legal_count, sign_in, version, wait_version

MAX_MOVES = 24


async def board(tab: Tab) -> str:
    return await tab.page.get_attribute("#board", "data-board") or ""


async def move_by_clicks(tab: Tab, rng: random.Random) -> bool:
    """Click one of your units, then one of its highlighted squares. False: no move possible."""
    if await legal_count(tab.page) == 0:
        return False
    await click_any(tab.page, "#board .cell.movable", rng)
    await click_any(tab.page, "#board .cell.target", rng)
    return True


async def create_refused(tab: Tab) -> None:
    """Bad options: the error is shown in words and nothing is created."""
    await tab.page.select_option("#new-game", "dolphinfox")
    await tab.page.fill("#opt-size", "5")
    await tab.page.click("#create")
    error = await tab.page.wait_for_selector("p.error[role=alert]:has-text('options/invalid')")
    assert "even" in await error.inner_text()
    assert tab.page.url.endswith("/") or tab.page.url.endswith("#/")


async def square(cell: ElementHandle) -> tuple[int, int]:
    return int(await cell.get_attribute("data-row") or 0), int(await cell.get_attribute("data-col") or 0)


async def move_by_keyboard(tab: Tab) -> None:
    """Tab to a unit, Enter, arrow keys to a highlighted square, Enter: no mouse at all."""
    page = tab.page
    assert await legal_count(page) > 0
    await page.focus("#board .cell.movable")
    await page.keyboard.press("Enter")
    here = await page.wait_for_selector("#board .cell.selected")
    target = await page.wait_for_selector("#board .cell.target")
    row, col = await square(here)
    to_row, to_col = await square(target)
    keys = (["ArrowDown"] * (to_row - row) + ["ArrowUp"] * (row - to_row)
            + ["ArrowRight"] * (to_col - col) + ["ArrowLeft"] * (col - to_col))
    for key in keys:
        await page.keyboard.press(key)
    assert await page.evaluate("document.activeElement.classList.contains('target')")
    await page.keyboard.press("Enter")


async def test_dolphinfox_match_watch_rematch_and_replay(open_tab: OpenTab, artefacts: Path) -> None:
    rng = random.Random(5)
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    await create_refused(alice)
    match_id = await create(alice, "dolphinfox", {"size": "6", "units": "2", "max_moves": str(MAX_MOVES)})
    bob = await open_tab("bob")
    await sign_in(bob, "bob")
    await join(bob, match_id)
    watcher = await open_tab("watcher", f"/#/watch/{match_id}")
    await watcher.page.wait_for_selector("#turn[data-status='active']")
    start = await board(watcher)
    players = [alice, bob]
    seen = [start]
    await move_by_keyboard(alice)
    for tab in (alice, bob, watcher):
        await wait_version(tab.page, 1)
    seen.append(await board(watcher))
    while await alice.page.get_attribute("#turn", "data-status") == "active":
        now = await version(alice.page)
        mover = players[now % 2]
        if not await move_by_clicks(mover, rng) and not await move_by_clicks(players[(now + 1) % 2], rng):
            raise AssertionError("nobody can move")
        for tab in (alice, bob, watcher):
            await wait_version(tab.page, now + 1)
        assert await board(watcher) == await board(alice) == await board(bob)
        seen.append(await board(watcher))
        if len(seen) == 6:
            await alice.page.screenshot(path=artefacts / "dolphinfox.png", full_page=True)
    assert len(seen) - 1 == await version(watcher.page) <= MAX_MOVES
    for tab in (alice, bob, watcher):
        await tab.page.wait_for_selector("#outcome")
    outcome = await watcher.page.inner_text("#outcome")
    assert re.match(r"((alice|bob) \((Dolphins|Foxes)\) wins|Draw): ", outcome), outcome

    # the replay: from the end, step back by keyboard and by button to the very start
    replay = watcher.page
    await replay.goto(replay.url.replace("#/watch/", "#/replay/"))
    await replay.wait_for_selector("#replay-at[data-version='0']")
    assert await board(watcher) == start
    await replay.click("#replay-end")
    last = len(seen) - 1
    await replay.wait_for_selector(f"#replay-at[data-version='{last}']")
    assert await board(watcher) == seen[-1]
    await replay.focus("#replay-slider")
    await replay.keyboard.press("ArrowLeft")
    await replay.wait_for_selector(f"#replay-at[data-version='{last - 1}']")
    assert await board(watcher) == seen[-2]
    await replay.click("#replay-back")
    await replay.wait_for_selector(f"#replay-at[data-version='{last - 2}']")
    assert await board(watcher) == seen[-3]
    await replay.click("#replay-start")
    await replay.wait_for_selector("#replay-at[data-version='0']")
    assert await board(watcher) == start

    # rematch: both ask, both land in the new match, which starts at once
    await alice.page.click("#rematch")
    await alice.page.wait_for_selector("#rematch-votes")
    await bob.page.click("#rematch")
    for tab in (alice, bob):
        await tab.page.wait_for_url(f"**/#/play/{match_id + 1}")
        await tab.page.wait_for_selector("#turn[data-status='active']")
