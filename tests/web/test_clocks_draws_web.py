"""Clocks, draws by agreement and the rules screen in the browser (issue 20).

A match created with a clock shows each seat's time beside its name, counting down for the
seat to act; one of 5 seconds a move runs out and both pages show the end in words. A draw
offered in Dolphins & Foxes is declined (the offer disappears on both pages), then offered
again and accepted (both pages show the draw). Every game's rules screen renders (headings,
tables, text kept as text) and the match page's Rules link is reached by Tab.
"""

from __future__ import annotations

import json
import re
from urllib.request import urlopen

import pytest

from playwright.async_api import Page, expect
from playwright.async_api import TimeoutError as PlaywrightTimeout
from web_pages import OpenTab, Tab, join, match_id_of, sign_in

from service.tools.process import ServerProcess

WAIT_MS = 60_000


async def create_with_clock(tab: Tab, game: str, clock: str, seats: int | None = None) -> int:
    page = tab.page
    await page.select_option("#new-game", game)
    if seats is not None:
        await page.select_option("#opt-seats", str(seats))
    await page.select_option("#opt-clock", clock)
    await page.click("#create")
    return await match_id_of(page)


async def clocked_match(open_tab: OpenTab, clock: str, game: str = "santorini") -> tuple[Tab, Tab]:
    """alice creates a two-player match of ``game`` with ``clock``, bob joins: both see it start."""
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    match_id = await create_with_clock(alice, game, clock, seats=None if game == "santorini" else 2)
    bob = await open_tab("bob")
    await sign_in(bob, "bob")
    await join(bob, match_id)
    for tab in (alice, bob):
        await tab.page.wait_for_selector("#turn[data-status='active']")
    return alice, bob


def clock_of(page: Page, seat: int):  # noqa: ANN201 (a Playwright locator)
    return page.locator(f"#seats li[data-seat='{seat}'] .clock")


async def test_a_clock_counts_down_for_the_seat_to_act(open_tab: OpenTab) -> None:
    alice, bob = await clocked_match(open_tab, "total-5m-5s")
    for tab in (alice, bob):
        # alice (seat 0) places first: her time runs, bob's stands at the whole 5 minutes
        await expect(clock_of(tab.page, 0)).to_have_class(re.compile(r"\brunning\b"), timeout=WAIT_MS)
        await expect(clock_of(tab.page, 1)).to_have_text("5:00", timeout=WAIT_MS)
        await expect(clock_of(tab.page, 1)).not_to_have_class(re.compile(r"\brunning\b"))
    first = int(await clock_of(bob.page, 0).get_attribute("data-left") or 0)
    assert 280 <= first <= 300, first
    await expect(clock_of(bob.page, 0)).not_to_have_attribute("data-left", str(first), timeout=WAIT_MS)
    later = int(await clock_of(bob.page, 0).get_attribute("data-left") or 0)
    assert later < first
    assert re.fullmatch(r"4:\d\d", await clock_of(bob.page, 0).inner_text())
    assert "low" not in (await clock_of(bob.page, 0).get_attribute("class") or "")


@pytest.mark.parametrize("game", ["santorini", "eriantys", "renaissance"])
async def test_a_short_clock_runs_out_and_ends_the_match(open_tab: OpenTab, game: str) -> None:
    """Every game with clocks (real-time Dolphins & Foxes keeps its own inactivity rule): the
    first seat to act (Eriantys draws who starts) lets its 5 seconds run out; in Masters of
    Renaissance both keep their leaders at once, both clocks run from the start and fall
    together: a draw."""
    alice, bob = await clocked_match(open_tab, "move-5s", game)
    first = int(await bob.page.get_attribute("#seats li .clock.running", "data-seat") or -1)
    # five seconds is under 30: the running clock is shown as low
    await expect(clock_of(bob.page, first)).to_have_class(re.compile(r"\blow\b"), timeout=WAIT_MS)
    for tab in (alice, bob):
        await tab.page.wait_for_selector("#turn[data-status='finished']", timeout=WAIT_MS)
        await expect(tab.page.locator("#outcome")).to_contain_text("ran out of time")
    if game == "renaissance":
        for tab, other in ((alice, "bob"), (bob, "alice")):
            assert await tab.page.inner_text("#outcome") == f"A draw: you and {other} ran out of time at once."
        await expect(clock_of(alice.page, 1)).to_have_text("0:00")
    else:
        late, winner = (alice, bob) if first == 0 else (bob, alice)
        assert (await late.page.inner_text("#outcome")).startswith(f"{winner.name} wins")
        assert (await winner.page.inner_text("#outcome")).startswith("You win")
    await expect(clock_of(alice.page, first)).to_have_text("0:00")
    assert not await alice.page.query_selector("#resign")


async def test_a_clock_that_runs_out_while_the_server_is_down_ends_the_match_after_the_restart(
        open_tab: OpenTab, server: ServerProcess) -> None:
    """The clock's reading and deadline are saved with the match: the server is killed with
    alice's 30 seconds running, her time runs out while it is down, and the server started
    again ends the match (alice ran out) for both pages, which reconnect by themselves."""
    alice, bob = await clocked_match(open_tab, "move-30s")
    port = server.ports["http"]
    for tab in (alice, bob):
        tab.outage = True  # Chromium logs each refused connection; only those are allowed
    await server.kill()
    for tab in (alice, bob):
        await tab.page.wait_for_selector("body[data-connection='reconnecting']")
        # killed before the time was up (30 s after the start: the pages saw the match active)
        assert await tab.page.get_attribute("#turn", "data-status") == "active"
    # the page counts down on its own: wait until alice's time is up, the server still down
    await expect(clock_of(bob.page, 0)).to_have_text("0:00", timeout=WAIT_MS)
    assert await bob.page.get_attribute("body", "data-connection") == "reconnecting"

    server.extra_args = ("--http-port", str(port))
    await server.start()
    for tab in (alice, bob):
        await tab.page.wait_for_selector("body[data-connection='open']", timeout=WAIT_MS)
        await tab.page.wait_for_selector("#turn[data-status='finished']", timeout=WAIT_MS)
        await expect(tab.page.locator("#outcome")).to_contain_text("ran out of time")
        tab.outage = False
    assert (await bob.page.inner_text("#outcome")).startswith("You win")
    assert (await alice.page.inner_text("#outcome")).startswith("bob wins")
    await expect(clock_of(alice.page, 0)).to_have_text("0:00")


async def quick_join(tab: Tab, game: str, clock: str) -> int:
    await tab.page.select_option("#new-game", game)
    await tab.page.select_option("#opt-clock", clock)
    await tab.page.click("#quick-join")
    return await match_id_of(tab.page)


async def test_quick_join_pairs_only_players_who_chose_the_same_clock(open_tab: OpenTab) -> None:
    alice, bob, carol = [await open_tab(name) for name in ("alice", "bob", "carol")]
    for tab in (alice, bob, carol):
        await sign_in(tab, tab.name)
    waiting = await quick_join(alice, "santorini", "move-1d")  # nobody waits: a new match
    await alice.page.wait_for_selector("#turn[data-status='waiting']")
    # the lobby shows the waiting match's clock to the others
    row = carol.page.locator(f"#open-matches li[data-match='{waiting}']")
    await expect(row.locator(".match-clock")).to_have_text(" · clock 1 day a move", timeout=WAIT_MS)
    other = await quick_join(carol, "santorini", "none")  # another clock: not alice's match
    assert other != waiting
    assert await quick_join(bob, "santorini", "move-1d") == waiting
    for tab in (alice, bob):
        await tab.page.wait_for_selector("#turn[data-status='active']")
        await expect(clock_of(tab.page, 0)).to_have_class(re.compile(r"\brunning\b"), timeout=WAIT_MS)
    assert not await carol.page.query_selector("#seats .clock")


async def draw_offer(offering: Tab, other: Tab, offerer: str) -> None:
    """``offering`` offers a draw (confirmed); ``other`` sees it offered by ``offerer``."""
    await offering.page.click("#offer-draw")
    await offering.page.click("#confirm-draw")
    await offering.page.wait_for_selector("#draw-offered")
    await expect(other.page.locator("#draw-offer-text")).to_have_text(f"{offerer} offers a draw.", timeout=WAIT_MS)


async def test_a_draw_is_declined_then_agreed_in_dolphins_and_foxes(open_tab: OpenTab) -> None:
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    await alice.page.select_option("#new-game", "dolphinfox")
    assert not await alice.page.query_selector("#opt-clock")  # real time: no clock to choose
    await alice.page.click("#create")
    match_id = await match_id_of(alice.page)
    bob = await open_tab("bob")
    await sign_in(bob, "bob")
    await join(bob, match_id)
    for tab in (alice, bob):
        await tab.page.wait_for_selector("#turn[data-status='active']")

    # an offer asks first; Cancel sends nothing
    await alice.page.click("#offer-draw")
    await alice.page.click("#confirm-cancel")
    await alice.page.wait_for_selector("#offer-draw")
    assert alice.commands_sent("offer_draw") == 0

    await draw_offer(alice, bob, "alice")
    await bob.page.click("#decline-draw")
    for tab in (alice, bob):
        await tab.page.wait_for_selector("#offer-draw")
        assert not await tab.page.query_selector("#draw-offer, #draw-offered")

    await draw_offer(bob, alice, "bob")
    await alice.page.click("#accept-draw")
    for tab in (alice, bob):
        await tab.page.wait_for_selector("#turn[data-status='finished']")
        await expect(tab.page.locator("#outcome")).to_have_text("A draw, by agreement.")
        assert not await tab.page.query_selector("#offer-draw")


async def test_santorini_offers_no_draw(open_tab: OpenTab) -> None:
    alice, _ = await clocked_match(open_tab, "none")
    assert not await alice.page.query_selector("#seats .clock")  # no clock chosen, none shown
    assert await alice.page.query_selector("#resign")
    assert not await alice.page.query_selector("#offer-draw")


async def test_every_rules_screen_renders(open_tab: OpenTab, base_url: str) -> None:
    with urlopen(f"{base_url}/api/games") as answer:  # noqa: S310 (the test's own server)
        games = [g["name"] for g in json.load(answer)]
    tab = await open_tab("reader")
    for game in games:  # the lobby links to every game's rules
        await tab.page.wait_for_selector(f"#games a.rules-link[data-rules='{game}']")
    for game in games:
        await tab.page.goto(f"{base_url}/#/rules/{game}")
        await tab.page.wait_for_selector("#rules h2")
        await expect(tab.page.locator("#rules-heading")).to_be_focused()
        assert await tab.page.locator("#rules h3").count() > 0
        if game != "dolphinfox":  # its page has no table
            assert await tab.page.locator("#rules table th").count() > 0
        assert await tab.page.locator("#rules li").count() > 0
        assert await tab.page.locator("#rules code").count() > 0
    # text stays text: "C<x>S" of the Dolphins & Foxes page is shown as written
    await tab.page.goto(f"{base_url}/#/rules/dolphinfox")
    await expect(tab.page.locator("#rules")).to_contain_text("C<x>S")
    assert not await tab.page.query_selector("#rules x, #rules script")


async def test_the_rules_link_of_a_match_is_reached_by_tab(open_tab: OpenTab) -> None:
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    await create_with_clock(alice, "santorini", "move-1d")
    page = alice.page
    await expect(page.locator("#match-heading")).to_be_focused(timeout=WAIT_MS)
    await expect(page.locator("#goal")).to_contain_text("onto the third level")  # the server's goal
    # Tab until the link has the focus, then Enter. A redraw (the ratings arriving, an update)
    # may take the focus back at any moment, between two presses or before the Enter: then
    # Tab on from wherever it went, however many presses that takes.
    for _ in range(60):
        if await page.evaluate("document.activeElement.classList.contains('rules-link')"):
            await page.keyboard.press("Enter")
            try:
                await page.wait_for_url(re.compile(r"#/rules/santorini$"), timeout=WAIT_MS / 3)
                break
            except PlaywrightTimeout:  # the focus had gone before the Enter
                continue
        await page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached the rules link, or Enter on it never opened the rules")
    await page.wait_for_selector("#rules h2")
    await expect(page.locator("#rules-heading")).to_have_text("Rules of Santorini")


MARKDOWN_SAMPLE = """# Title <b>not bold</b>

A paragraph with **bold**, *italic*, `a <code>` and [a link](https://example.org/x),
[a script](javascript:alert(1)), [another game](santorini.md) and <img src=x onerror=alert(1)>.

- one
  - nested _em_
- two

| a | b |
|---|---|
| 1 | <i>2</i> |
"""


async def test_the_markdown_renderer_keeps_text_as_text(open_tab: OpenTab) -> None:
    tab = await open_tab("reader")
    await tab.page.wait_for_selector("#games")
    html = await tab.page.evaluate(
        """async (source) => {
            const { markdown } = await import("/web/markdown.js");
            const box = document.createElement("div");
            box.append(...markdown(source));
            return box.innerHTML;
        }""", MARKDOWN_SAMPLE)
    assert html.startswith("<h2>Title &lt;b&gt;not bold&lt;/b&gt;</h2>"), html
    assert "<strong>bold</strong>" in html and "<em>italic</em>" in html
    assert "<code>a &lt;code&gt;</code>" in html
    assert '<a href="https://example.org/x" rel="noopener noreferrer" target="_blank">a link</a>' in html
    assert ", a script, " in html and "javascript" not in html  # the words stay, the address goes
    assert '<a href="#/rules/santorini">another game</a>' in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and "<img" not in html
    assert "<ul><li>one<ul><li>nested <em>em</em></li></ul></li><li>two</li></ul>" in html
    assert "<thead><tr><th scope=\"col\">a</th><th scope=\"col\">b</th></tr></thead>" in html
    assert "<td>&lt;i&gt;2&lt;/i&gt;</td>" in html
