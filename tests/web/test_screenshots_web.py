"""Every game's match page a few moves in, at 1280x800 (alice) and 390x844 (bob, a phone):
the last move marked, the log in words, the status bar in view. The pictures go to
``$TAVOLO_SCREENSHOTS`` (docs/screenshots/ keeps a set) or the test's artefacts; each page must
fit its width and show its status bar at the top of the window once scrolled to the board.

Moves are the page's own: a legal action the page was given, sent through the page's ``act``
(what its clicks call), so every game gets a few moves without a click script of its own."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from playwright.async_api import Page
from web_pages import OpenTab, Tab, fits_the_width, two_players_and_a_watcher, version, wait_version

#: game, options, seats, moves to play before the pictures
TABLES = [
    ("santorini", {"gods": True}, None, 9),
    ("dolphinfox", {"size": "8", "units": "4", "max_moves": "40"}, None, 6),
    ("eriantys", {}, 2, 9),
    ("renaissance", {}, 2, 7),
]

#: a part of the phone's page pictured on its own: game -> (selector, name)
PARTS = {
    "eriantys": (".school.mine", "school"),
    "dolphinfox": ("#df-legend", "legend"),
    "renaissance": ("#rn-legend", "legend"),
}


LANES = """lanes => lanes.map(l => [l.dataset.color, l.querySelector('.lane-name').textContent,
    Number(l.querySelector('.lane-count').textContent), l.querySelectorAll('.lane-students .student').length])"""
TRACK = """track => [track.scrollWidth <= track.clientWidth,
    [...track.querySelectorAll('svg.faith-piece')].map(p => Math.round(p.getBoundingClientRect().top))]"""


async def legible(game: str, page: Page) -> None:
    """What a phone's page says in words beside its pictures: Eriantys's dining lanes named with
    their counts, Renaissance's faith track in rows (no sideways scroll) and its legend, the
    Dolphins & Foxes legend."""
    if game == "eriantys":
        lanes = await page.eval_on_selector_all(".school.mine .dining .table", LANES)
        assert [lane[0] for lane in lanes] == ["green", "red", "yellow", "pink", "blue"]
        assert all(colour == name and count == drawn for colour, name, count, drawn in lanes), lanes
    elif game == "renaissance":
        fits, tops = await page.eval_on_selector("#faith-track", TRACK)
        assert fits and len(tops) == 3 and tops[0] < tops[1] < tops[2], (fits, tops)
        legend = await page.inner_text("#rn-legend")
        assert all(word in legend for word in ("coin", "servant", "shield", "stone", "faith")), legend
    elif game == "dolphinfox":
        legend = await page.inner_text("#df-legend")
        assert "water: the Dolphins' home" in legend and "land: the Foxes' home" in legend, legend


async def mover(tabs: list[Tab]) -> Tab:
    """A page whose seat is to act and has its legal actions."""
    for tab in tabs:
        if await tab.page.query_selector("#turn.mine") and await tab.page.query_selector(
                "#board-area:not([data-legal='']):not([data-legal='0'])"):
            return tab
    raise AssertionError("nobody can move")


async def one_move(tabs: list[Tab], rng: random.Random) -> None:
    now = await version(tabs[0].page)
    for tab in tabs:  # not our turn, or our legal actions are in
        await tab.page.wait_for_selector("#turn:not(.mine), #board-area:not([data-legal='']):not([data-legal='0'])")
    tab = await mover(tabs[now % 2:] + tabs[:now % 2])  # both may move in Dolphins & Foxes: take turns
    await tab.page.evaluate("""(pick) => {
        const screen = window.tavolo.screen;
        const legal = screen.legal.filter((a) => a.type !== 'end_turn' && a.type !== 'skip');
        const choices = legal.length ? legal : screen.legal;
        screen.act(choices[Math.floor(pick * choices.length)]);
    }""", rng.random())
    for other in tabs:
        await wait_version(other.page, now + 1)


@pytest.mark.parametrize(("game", "options", "seats", "moves"), TABLES, ids=[t[0] for t in TABLES])
async def test_match_page_pictures(open_tab: OpenTab, artefacts: Path, game: str, options: dict[str, str | bool],
                                   seats: int | None, moves: int) -> None:
    where = Path(os.environ.get("TAVOLO_SCREENSHOTS") or artefacts)
    where.mkdir(parents=True, exist_ok=True)
    alice, bob, watcher = await two_players_and_a_watcher(open_tab, game, options, seats=seats)
    await watcher.context.close()
    for tab in (alice, bob):  # still pictures: the marks without their animations
        await tab.page.emulate_media(reduced_motion="reduce")
    rng = random.Random(20)
    for _ in range(moves):
        await one_move([alice, bob], rng)
    for tab, size in ((alice, "1280x800"), (bob, "390x844")):
        page = tab.page
        await page.wait_for_selector("#move-log li")
        assert await page.query_selector(".last-move, .last-from"), f"{game}: no last move marked"
        assert await fits_the_width(page)
        await page.evaluate("document.activeElement && document.activeElement.blur()")
        if tab is bob:  # the phone: scrolled to the board, the status bar stays on top
            await page.eval_on_selector("#board-area", "e => e.scrollIntoView()")
            top = await page.eval_on_selector("#status-bar", "e => e.getBoundingClientRect().top")
            assert 0 <= top < 5
        await page.screenshot(path=where / f"{game}-{size}.png", animations="disabled")
        # the game's goal in one sentence, over the board
        assert len(await page.inner_text("#goal")) > 40
    await legible(game, bob.page)
    # the parts the pictures above leave out of the window, on the phone: the school with its
    # labelled dining lanes, the legends
    part = PARTS.get(game)
    if part:
        selector, name = part
        await bob.page.eval_on_selector(selector, "e => e.scrollIntoView({block: 'center'})")
        await bob.page.locator(selector).screenshot(path=where / f"{game}-{name}-390x844.png", animations="disabled")
