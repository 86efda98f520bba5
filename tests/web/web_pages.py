"""What a person does in the Tavolo page, as Playwright steps (shared by the browser tests)."""

from __future__ import annotations

import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import BrowserContext, ConsoleMessage, Page, WebSocket

PLAY_URL = re.compile(r"#/play/(\d+)$")
#: what Chromium itself logs when the server is down (not the page's code)
OUTAGE_NOISE = re.compile(r"net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE|CONNECTION_CLOSED|INTERNET_DISCONNECTED)")


@dataclass
class Tab:
    page: Page
    context: BrowserContext
    name: str
    errors: list[str] = field(default_factory=list)
    outage: bool = False
    #: the WebSocket frames the page sent
    sent: list[str | bytes] = field(default_factory=list)

    def on_websocket(self, socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: self.sent.append(payload))

    def commands_sent(self, kind: str) -> int:
        return sum(f'"type":"{kind}"' in str(frame) for frame in self.sent)

    def on_console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        if self.outage and OUTAGE_NOISE.search(message.text):
            return
        self.errors.append(f"{self.name} console: {message.text}")

    def on_page_error(self, error: Exception) -> None:
        self.errors.append(f"{self.name} page error: {error}")




#: the squares' labels ("row 1, column 2: level 1, worker A of ...") less what the seat to
#: act may do there (": Move here"), which only its own page says
LABELS_WITHOUT_CHOICES = "cells => cells.map(c => c.getAttribute('aria-label').split(': ').slice(0, 2).join(': '))"
OpenTab = Callable[..., Awaitable[Tab]]


async def sign_in(tab: Tab, nickname: str) -> None:
    page = tab.page
    await page.fill("#nickname", nickname)
    await page.press("#nickname", "Enter")
    try:
        await page.wait_for_selector(f"#me:text-is('{nickname}')")
    except Exception as exc:
        says = await page.inner_text("body")
        raise AssertionError(f"{tab.name} could not sign in; the page says:\n{says}") from exc


async def create(tab: Tab, game: str, options: dict[str, str | bool], seats: int | None = None,
                 clock: str | None = None) -> int:
    """Fill the new-match form (``clock``: a choice of its Clock list) and create; returns the
    new match id."""
    page = tab.page
    await page.select_option("#new-game", game)
    if seats is not None:
        await page.select_option("#opt-seats", str(seats))
    if clock is not None:
        await page.select_option("#opt-clock", clock)
    for name, value in options.items():
        if isinstance(value, bool):
            await page.set_checked(f"#opt-{name}", value)
        else:
            await page.fill(f"#opt-{name}", value)
    await page.click("#create")
    return await match_id_of(page)


async def match_id_of(page: Page) -> int:
    await page.wait_for_url(PLAY_URL)
    found = PLAY_URL.search(page.url)
    assert found
    return int(found[1])


async def join(tab: Tab, match_id: int) -> None:
    """Join from the live list of open matches."""
    await tab.page.click(f"#open-matches li[data-match='{match_id}'] button:text-is('Join')")
    assert await match_id_of(tab.page) == match_id


async def version(page: Page) -> int:
    return int(await page.get_attribute("#board-area", "data-version") or -1)


async def wait_version(page: Page, wanted: int) -> None:
    await page.wait_for_selector(f"#board-area[data-version='{wanted}']")


async def legal_count(page: Page) -> int:
    """Wait until the page has its legal actions for the position shown; how many there are."""
    await page.wait_for_selector("#board-area:not([data-legal=''])")
    return int(await page.get_attribute("#board-area", "data-legal") or 0)


async def click_any(page: Page, selector: str, rng: random.Random) -> str:
    """Click one of the elements matching ``selector`` at random; return its data-key."""
    elements = await page.query_selector_all(selector)
    assert elements, f"nothing matches {selector}"
    chosen = rng.choice(elements)
    key = await chosen.get_attribute("data-key") or ""
    if key:  # by its key: a redraw meanwhile (ratings arriving, say) replaces the element
        await page.locator(f'[data-key="{key}"]').first.click()
    else:
        await chosen.click()
    return key


async def cell_labels(page: Page) -> list[str]:
    """What every square of the board says (the accessible labels): a board compares by these."""
    return await page.eval_on_selector_all("#board .cell", LABELS_WITHOUT_CHOICES)


async def fits_the_width(page: Page) -> bool:
    """Nothing sticks out sideways: the page reads without scrolling left and right."""
    return bool(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


async def whose_turn(tabs: list[Tab]) -> Tab:
    """The page that says it is its turn."""
    for tab in tabs:
        if await tab.page.query_selector("#turn.mine"):
            return tab
    raise AssertionError("no page says it is its turn")


async def two_players(open_tab: OpenTab, game: str, options: dict[str, str | bool],
                      seats: int | None = None, clock: str | None = None,
                      **bob_screen: int) -> tuple[Tab, Tab, int]:
    """alice creates a match and bob joins it (``bob_screen``: width and height of his page);
    both see it start. (alice, bob, the match id)."""
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    match_id = await create(alice, game, options, seats=seats, clock=clock)
    bob = await open_tab("bob", **bob_screen)
    await sign_in(bob, "bob")
    await join(bob, match_id)
    for tab in (alice, bob):
        await tab.page.wait_for_selector("#turn[data-status='active']")
    return alice, bob, match_id


async def two_players_and_a_watcher(open_tab: OpenTab, game: str, options: dict[str, str | bool],
                                    seats: int | None = None, clock: str | None = None,
                                    ) -> tuple[Tab, Tab, Tab]:
    """alice creates a match, bob joins it on a phone, a third page watches; all see it start."""
    alice, bob, match_id = await two_players(open_tab, game, options, seats, clock, width=390,
                                             height=844)
    watcher = await open_tab("watcher", f"/#/watch/{match_id}")
    await watcher.page.wait_for_selector("#turn[data-status='active']")
    return alice, bob, watcher


async def replay_from_start(page: Page) -> None:
    """Turn a page watching a match into its replay, at version 0."""
    await page.goto(page.url.replace("#/watch/", "#/replay/"))
    await page.wait_for_selector("#replay-at[data-version='0']")


async def replay_to_end(page: Page, last: int) -> None:
    """Jump the replay to its last version, ``last``."""
    await page.click("#replay-end")
    await page.wait_for_selector(f"#replay-at[data-version='{last}']")


async def all_see(tabs: list[Tab], wanted: int, picture: Callable[[Page], Awaitable[list[str]]]) -> None:
    """Every page reaches version ``wanted`` and draws the same ``picture`` of the board."""
    for tab in tabs:
        await wait_version(tab.page, wanted)
    pictures = [await picture(tab.page) for tab in tabs]
    assert all(p == pictures[0] for p in pictures), pictures


async def phone_shot(tab: Tab, path: Path) -> None:
    """Screenshot of a page on a phone, which must fit the width."""
    await tab.page.screenshot(path=path, full_page=True)
    assert await fits_the_width(tab.page)
