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
from playwright.async_api import Page, expect
from web_pages import OpenTab, Tab, fits_the_width, sign_in, two_players, two_players_and_a_watcher, version, wait_version

#: game, options, seats, clock (a choice of the form's list; None: the game has none), moves to
#: play before the pictures
TABLES = [
    ("santorini", {"gods": True}, None, "total-5m-5s", 9),
    ("dolphinfox", {"size": "8", "units": "4", "max_moves": "40"}, None, None, 6),
    ("eriantys", {}, 2, "total-30m-20s", 9),
    ("renaissance", {}, 2, "move-1d", 7),
]

#: the games whose pictures show a draw offered by alice, waiting for bob's answer
DRAW_OFFERED = {"eriantys"}

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


def pictures_folder(artefacts: Path) -> Path:
    where = Path(os.environ.get("TAVOLO_SCREENSHOTS") or artefacts)
    where.mkdir(parents=True, exist_ok=True)
    return where


@pytest.mark.parametrize(("game", "options", "seats", "clock", "moves"), TABLES, ids=[t[0] for t in TABLES])
async def test_match_page_pictures(open_tab: OpenTab, artefacts: Path, game: str, options: dict[str, str | bool],
                                   seats: int | None, clock: str | None, moves: int) -> None:
    where = pictures_folder(artefacts)
    alice, bob, watcher = await two_players_and_a_watcher(open_tab, game, options, seats=seats, clock=clock)
    await watcher.context.close()
    for tab in (alice, bob):  # still pictures: the marks without their animations
        await tab.page.emulate_media(reduced_motion="reduce")
    rng = random.Random(20)
    for _ in range(moves):
        await one_move([alice, bob], rng)
    if game in DRAW_OFFERED:  # after the moves: a move answers an offer
        await alice.page.click("#offer-draw")
        await alice.page.click("#confirm-draw")
        await alice.page.wait_for_selector("#draw-offered")
        await expect(bob.page.locator("#draw-offer-text")).to_have_text("alice offers a draw.")
    for tab in (alice, bob):  # each seat's clock beside its name, and the ways out
        await expect(tab.page.locator("#seats .clock")).to_have_count(0 if clock is None else 2)
        # the running clock also in the status bar, which stays in view on a phone
        await expect(tab.page.locator("#status-bar #turn-clocks .clock.running")).to_have_count(0 if clock is None else 1)
        assert await tab.page.query_selector("#resign")
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


async def test_lobby_and_rules_pictures(open_tab: OpenTab, artefacts: Path) -> None:
    """The lobby with a match waiting for your move and an open match with its clock (alice, at
    1280x800), the replay's controls, and a game's rules screen on a phone and a desktop."""
    where = pictures_folder(artefacts)
    alice, bob, match_id = await two_players(open_tab, "santorini", {"gods": True}, clock="total-5m-5s",
                                             width=390, height=844)
    carol = await open_tab("carol")
    await sign_in(carol, "carol")
    await carol.page.select_option("#new-game", "eriantys")
    await carol.page.select_option("#opt-clock", "move-1d")
    await carol.page.click("#create")
    await carol.page.wait_for_selector("#turn[data-status='waiting']")
    page = alice.page
    await page.click("nav a[href='#/']")
    await expect(page.locator("#your-turn li")).to_have_count(1)  # alice places first
    await expect(page.locator("#open-matches .match-clock")).to_have_text(" · clock 1 day a move")
    await page.evaluate("document.activeElement && document.activeElement.blur()")
    await page.screenshot(path=where / "lobby-1280x800.png", animations="disabled")
    # the replay's controls: SVG icons beside their words (the media symbols were empty boxes)
    await page.goto(page.url.split("#")[0] + f"#/replay/{match_id}")
    await page.wait_for_selector("#replay-start svg.icon path")
    assert [(await page.inner_text(f"#replay-{b}")).strip() for b in ("start", "back", "forward", "end")] == [
        "Start", "Back", "Forward", "End"]
    await page.locator(".replay-controls").screenshot(path=where / "replay-controls.png", animations="disabled")
    for tab, size in ((alice, "1280x800"), (bob, "390x844")):
        await tab.page.goto(tab.page.url.split("#")[0] + "#/rules/santorini")
        await tab.page.wait_for_selector("#rules h3")
        assert await fits_the_width(tab.page)
        await tab.page.evaluate("document.activeElement && document.activeElement.blur()")
        await tab.page.screenshot(path=where / f"rules-{size}.png", animations="disabled")
