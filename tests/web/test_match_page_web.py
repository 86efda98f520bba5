"""The match page says what just happened and whose turn it is, and offers a way out (issue 20).

After every move: the board marks the last move (CSS classes on the squares it touched), the
always-visible log shows it in words (newest first, the server's ``said``), the opponent's page
announces it in its live region, and the tab title of the player to move says "(your turn)".
Resign (with a confirmation) ends the match on both pages; Leave gives a seat of a match not
started back; the seat list says when a claim over an away opponent becomes possible. Masters of Renaissance never names, on
another player's page, the leaders a player kept.
"""

from __future__ import annotations

import re

from playwright.async_api import Page, expect
from web_pages import (OpenTab, Tab, create, join, legal_count, sign_in, two_players_and_a_watcher, version,
                       wait_version, whose_turn)

YOUR_TURN = re.compile(r"^\(your turn\) ")
WAIT_MS = 60_000


async def newest_entry(page: Page) -> str:
    return await page.inner_text("#move-log li:first-child")


async def wait_title(page: Page, yours: bool) -> None:
    """The tab title says "(your turn)" exactly when ``yours`` (Playwright's expect polls
    from outside: the page's CSP forbids the eval a waiting function needs)."""
    if yours:
        await expect(page).to_have_title(YOUR_TURN, timeout=WAIT_MS)
    else:
        await expect(page).not_to_have_title(YOUR_TURN, timeout=WAIT_MS)


async def wait_announced(page: Page, start: str) -> None:
    """The live region read out a move starting with ``start``."""
    await expect(page.locator("#announcer")).to_have_text(re.compile("^" + re.escape(start)), timeout=WAIT_MS)


async def marked(page: Page, kind: str) -> list[tuple[int, int]]:
    """The squares of the board marked ``last-move`` or ``last-from``."""
    cells = await page.query_selector_all(f"#board .cell.{kind}")
    return [(int(await c.get_attribute("data-row") or -1), int(await c.get_attribute("data-col") or -1))
            for c in cells]


async def resign_ends_it(loser: Tab, winner: Tab, watcher: Tab | None = None) -> None:
    """Resign asks first; Cancel keeps playing; confirmed, every page shows the end."""
    await loser.page.click("#resign")
    await loser.page.wait_for_selector("#confirm")
    await loser.page.click("#confirm-cancel")
    await loser.page.wait_for_selector("#resign")
    assert await loser.page.get_attribute("#turn", "data-status") == "active"
    await loser.page.click("#resign")
    await loser.page.click("#confirm-resign")
    for tab in [loser, winner] + ([watcher] if watcher else []):
        await tab.page.wait_for_selector("#turn[data-status='finished']")
        assert "resigned" in await tab.page.inner_text("#outcome")
        assert not await tab.page.query_selector("#resign")
    assert "You win" in await winner.page.inner_text("#outcome")
    assert not YOUR_TURN.search(await loser.page.title())


async def test_santorini_last_move_log_title_and_resign(open_tab: OpenTab) -> None:
    alice, bob, watcher = await two_players_and_a_watcher(open_tab, "santorini", {"gods": False})
    # a match that opens takes the focus to its heading
    assert await watcher.page.evaluate("document.activeElement.id") == "match-heading"
    assert await alice.page.query_selector("#move-log-empty")
    await wait_title(alice.page, True)
    await wait_title(bob.page, False)

    # alice places her two workers: two clicks, one action
    assert await legal_count(alice.page) > 0
    await alice.page.click("#board .cell[data-row='0'][data-col='0']")
    await alice.page.click("#board .cell[data-row='4'][data-col='4']")
    for tab in (alice, bob, watcher):
        await wait_version(tab.page, 1)
    assert await newest_entry(alice.page) == \
        "You placed worker A on row 1, column 1 and worker B on row 5, column 5."
    for tab in (bob, watcher):
        assert await newest_entry(tab.page) == \
            "alice placed worker A on row 1, column 1 and worker B on row 5, column 5."
        assert sorted(await marked(tab.page, "last-move")) == [(0, 0), (4, 4)]
    await wait_announced(bob.page, "alice placed worker A")
    await wait_title(bob.page, True)
    await wait_title(alice.page, False)

    await legal_count(bob.page)
    await bob.page.click("#board .cell[data-row='2'][data-col='2']")
    await bob.page.click("#board .cell[data-row='2'][data-col='3']")
    await wait_version(alice.page, 2)
    await wait_title(alice.page, True)

    # alice moves worker A from row 1, column 1 to row 2, column 2: from and to are marked
    await legal_count(alice.page)
    await alice.page.click("#board .cell[data-row='0'][data-col='0']")  # select the worker
    await wait_version(alice.page, 3)
    await legal_count(alice.page)
    await alice.page.click("#board .cell[data-row='1'][data-col='1']")
    for tab in (alice, bob, watcher):
        await wait_version(tab.page, 4)
    assert await newest_entry(bob.page) == "alice moved worker A from row 1, column 1 to row 2, column 2."
    assert await marked(bob.page, "last-from") == [(0, 0)]
    assert await marked(bob.page, "last-move") == [(1, 1)]
    assert await bob.page.query_selector("#board .cell.last-move.slide-in .piece")  # the worker slides in
    entries = await watcher.page.eval_on_selector_all("#move-log li", "items => items.map(i => i.value)")
    assert entries == [4, 3, 2, 1]  # newest first

    # she builds: the built square is marked and the log says what was built, where
    await legal_count(alice.page)
    await alice.page.click("#board .cell[data-row='1'][data-col='2']")
    await wait_version(bob.page, 5)
    assert await newest_entry(bob.page) == "alice built level 1 on row 2, column 3."
    assert await marked(bob.page, "last-move") == [(1, 2)]
    assert await marked(bob.page, "last-from") == []
    await wait_title(bob.page, True)

    await resign_ends_it(bob, alice, watcher)


async def test_dolphinfox_marks_the_move_it_tells(open_tab: OpenTab) -> None:
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    match_id = await create(alice, "dolphinfox", {"size": "6", "units": "2", "max_moves": "40"})
    bob = await open_tab("bob", width=390, height=844)
    await sign_in(bob, "bob")
    await join(bob, match_id)
    for tab in (alice, bob):
        await tab.page.wait_for_selector("#turn[data-status='active']")
        await wait_title(tab.page, True)  # both sides move at once: it is always your move
    for mover, other, side, unit in ((alice, bob, "Dolphins", "dolphin"), (bob, alice, "Foxes", "fox")):
        now = await version(mover.page)
        assert await legal_count(mover.page) > 0
        start = await mover.page.wait_for_selector("#board .cell.movable")
        await start.click()
        target = await mover.page.wait_for_selector("#board .cell.target")
        to = (int(await target.get_attribute("data-row") or 0), int(await target.get_attribute("data-col") or 0))
        frm = (int(await start.get_attribute("data-row") or 0), int(await start.get_attribute("data-col") or 0))
        await target.click()
        for tab in (mover, other):
            await wait_version(tab.page, now + 1)
            assert await marked(tab.page, "last-from") == [frm]
            assert await marked(tab.page, "last-move") == [to]
        where = f"from row {frm[0]}, column {frm[1]} to row {to[0]}, column {to[1]}"
        assert await newest_entry(mover.page) == f"You ({side}) moved a {unit} {where}."
        assert await newest_entry(other.page) == f"{mover.name} ({side}) moved a {unit} {where}."
        await wait_announced(other.page, f"{mover.name} ({side}) moved")
    # the status bar stays in view on a phone when the page scrolls down to the log
    await bob.page.eval_on_selector("#log", "e => e.scrollIntoView()")
    top = await bob.page.eval_on_selector("#status-bar", "e => e.getBoundingClientRect().top")
    assert 0 <= top < 5
    await resign_ends_it(alice, bob)


async def test_renaissance_log_never_names_another_players_kept_leaders(open_tab: OpenTab) -> None:
    alice, bob, watcher = await two_players_and_a_watcher(open_tab, "renaissance", {}, seats=2)
    kept: dict[str, list[str]] = {}
    for tab in (alice, bob):
        now = await version(watcher.page)
        await legal_count(tab.page)
        keys = [await b.get_attribute("data-key") for b in await tab.page.query_selector_all("[data-key^='keep-']")]
        kept[tab.name] = [k.removeprefix("keep-") for k in keys[:2] if k]
        for key in keys[:2]:
            await tab.page.click(f"[data-key='{key}']")
        for page in (alice.page, bob.page, watcher.page):
            await wait_version(page, now + 1)
        own = await newest_entry(tab.page)
        assert own.startswith("You kept leader ") and all(f"leader {n} (" in own for n in kept[tab.name])
        for other in [t for t in (alice, bob, watcher) if t is not tab]:
            assert await newest_entry(other.page) == f"{tab.name} kept two leaders."
    for tab, other in ((alice, "bob"), (bob, "alice"), (watcher, None)):
        log = await tab.page.inner_text("#move-log")
        hidden = kept["alice"] + kept["bob"] if other is None else kept[other]
        assert not any(re.search(rf"\bleader {n}\b", log) for n in hidden), log
    assert await alice.page.query_selector(".rn-player[data-seat='0'] .rn-leaders.last-move") is None  # bob moved last
    assert await alice.page.query_selector(".rn-player[data-seat='1'] .rn-leaders.last-move")
    await resign_ends_it(alice, bob, watcher)


async def test_leave_before_the_start_and_claim_when_the_opponent_is_away(open_tab: OpenTab) -> None:
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    match_id = await create(alice, "santorini", {"gods": False})
    await alice.page.wait_for_selector("#turn[data-status='waiting']")
    assert not await alice.page.query_selector("#resign")
    await alice.page.click("#leave")
    await alice.page.click("#confirm-leave")
    await alice.page.wait_for_url(re.compile(r"#/$"))
    origin = alice.page.url.split("#")[0].rstrip("/")
    detail = await (await alice.page.request.get(f"{origin}/api/matches/{match_id}")).json()
    assert all(seat["nickname"] is None for seat in detail["seats"])

    second = await create(alice, "santorini", {"gods": False})
    bob = await open_tab("bob")
    await sign_in(bob, "bob")
    await join(bob, second)
    await alice.page.wait_for_selector("#turn[data-status='active']")
    assert not await alice.page.query_selector("#claim") and not await alice.page.query_selector("#leave")
    await bob.context.close()  # bob is gone: alice may claim once the game's grace has passed
    await alice.page.wait_for_selector("#seats li[data-seat='1']:has-text('away')")
    # the state told the game's grace (Santorini: 180 s): the seat list says when a claim is
    # possible, and there is no Claim to click before (tests/web/test_claim_web.py: after it)
    await alice.page.wait_for_selector("#seats li[data-seat='1']:has-text('a claim is possible in about 3 min')")
    assert not await alice.page.query_selector("#claim")
    assert await alice.page.get_attribute("#turn", "data-status") == "active"


NOTIFICATIONS = """
window.__notes = [];
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", { get() { return window.__hidden; } });
const Real = window.Notification;
class Recorded {
  constructor(title, options) {
    window.__notes.push([title, (options || {}).body || ""]);
    document.documentElement.dataset.notes = String(window.__notes.length);
  }
  static get permission() { return Real.permission; }
  static requestPermission() { return Real.requestPermission(); }
}
window.Notification = Recorded;
"""


async def test_a_hidden_tab_is_notified_when_it_becomes_its_turn(open_tab: OpenTab) -> None:
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    match_id = await create(alice, "santorini", {"gods": False})
    await alice.page.wait_for_selector("#notify")  # offered, not asked: asking needs a click
    bob = await open_tab("bob")
    await bob.context.grant_permissions(["notifications"])
    await bob.context.add_init_script(NOTIFICATIONS)
    await bob.page.reload()
    await sign_in(bob, "bob")
    await join(bob, match_id)
    await bob.page.wait_for_selector("#turn[data-status='active']")
    assert not await bob.page.query_selector("#notify")  # already allowed
    await bob.page.evaluate("window.__hidden = true")
    await legal_count(alice.page)
    await alice.page.click("#board .cell[data-row='0'][data-col='0']")
    await alice.page.click("#board .cell[data-row='4'][data-col='4']")
    await bob.page.wait_for_selector("html[data-notes='1']", state="attached")
    title, body = (await bob.page.evaluate("window.__notes"))[0]
    assert title.startswith("Your turn") and body.startswith("alice placed worker A")
    # the offer is made once: clicked, it is never shown again (here the browser refuses)
    await alice.page.click("#notify")
    await alice.page.wait_for_selector("#notify", state="detached")
    await alice.page.reload()
    await alice.page.wait_for_selector("#turn[data-status='active']")
    assert not await alice.page.query_selector("#notify")


async def test_eriantys_names_the_island_it_marks(open_tab: OpenTab) -> None:
    alice, bob, watcher = await two_players_and_a_watcher(open_tab, "eriantys", {}, seats=2)
    for _ in range(2):  # each plays an assistant
        tab = await whose_turn([alice, bob])
        now = await version(tab.page)
        await legal_count(tab.page)
        await tab.page.click("#assistants .assistant.target")
        await wait_version(watcher.page, now + 1)
        said = await newest_entry(watcher.page)
        assert re.match(rf"{tab.name} played assistant \d+ \(Mother Nature up to \d steps?\)\.", said), said
        assert await watcher.page.query_selector(f".school[data-seat='{0 if tab is alice else 1}'] h3.last-move")
    tab = await whose_turn([alice, bob])
    other = bob if tab is alice else alice
    await wait_title(tab.page, True)
    await wait_title(other.page, False)
    now = await version(tab.page)
    await legal_count(tab.page)
    await tab.page.click(".school.mine button.student.movable")
    island = await tab.page.wait_for_selector("#islands .island.target")
    index = int(await island.get_attribute("data-island") or -1)
    await island.click()
    for page in (other.page, watcher.page):
        await wait_version(page, now + 1)
        said = await newest_entry(page)
        assert re.fullmatch(rf"{tab.name} moved an? \w+ student from the entrance to island {index + 1}\.", said), said
        marked_islands = await page.eval_on_selector_all("#islands .island.last-move", "els => els.map(e => e.dataset.island)")
        assert marked_islands == [str(index)]
    await resign_ends_it(other, tab, watcher)


async def test_no_motion_when_the_user_prefers_less(open_tab: OpenTab) -> None:
    """Under prefers-reduced-motion the last move is marked, but nothing moves or fades in."""
    alice, bob, watcher = await two_players_and_a_watcher(open_tab, "santorini", {"gods": False})
    await watcher.page.emulate_media(reduced_motion="reduce")
    await legal_count(alice.page)
    await alice.page.click("#board .cell[data-row='0'][data-col='0']")
    await alice.page.click("#board .cell[data-row='4'][data-col='4']")
    await wait_version(watcher.page, 1)
    moving = "els => els.map(e => [getComputedStyle(e).animationName, getComputedStyle(e, '::after').animationName])"
    assert await watcher.page.eval_on_selector_all("#board .cell.last-move", moving) == [["none", "none"]] * 2
    await watcher.page.emulate_media(reduced_motion="no-preference")
    assert await watcher.page.eval_on_selector_all("#board .cell.last-move", moving) == [["none", "last-border"]] * 2


async def offline(tab: Tab) -> None:
    """The page loses its connection and cannot get a new one until :func:`online`."""
    tab.outage = True  # Chromium logs each refused connection; only those are allowed
    await tab.context.set_offline(True)
    await tab.page.evaluate("window.tavolo.conn.ws && window.tavolo.conn.ws.close()")
    await tab.page.wait_for_selector("body[data-connection='reconnecting']")


async def online(tab: Tab) -> None:
    await tab.context.set_offline(False)
    await tab.page.wait_for_selector("body[data-connection='open']", timeout=WAIT_MS)
    tab.outage = False


async def test_moves_missed_while_away_are_logged_in_words(open_tab: OpenTab) -> None:
    """After a reconnect the server sends what a page missed (``caught_up``) with its words for
    that page: the log reads like the moves seen live, "You" included, never raw actions."""
    alice, bob, watcher = await two_players_and_a_watcher(open_tab, "santorini", {"gods": False})
    await legal_count(alice.page)
    await alice.page.click("#board .cell[data-row='0'][data-col='0']")
    await alice.page.click("#board .cell[data-row='4'][data-col='4']")
    for tab in (alice, bob, watcher):
        await wait_version(tab.page, 1)
    for tab in (alice, watcher):
        await offline(tab)
    await legal_count(bob.page)
    await bob.page.click("#board .cell[data-row='2'][data-col='2']")
    await bob.page.click("#board .cell[data-row='2'][data-col='3']")
    await wait_version(bob.page, 2)
    for tab in (alice, watcher):
        await online(tab)
        await wait_version(tab.page, 2)
        assert await newest_entry(tab.page) == \
            "bob placed worker C on row 3, column 3 and worker D on row 3, column 4."
        assert sorted(await marked(tab.page, "last-move")) == [(2, 2), (2, 3)]
    # alice's own move, caught up by her own page (a reload keeps the log of this page only)
    await legal_count(alice.page)
    await alice.page.click("#board .cell[data-row='0'][data-col='0']")  # select worker A
    await wait_version(bob.page, 3)
    await offline(bob)
    await legal_count(alice.page)
    await alice.page.click("#board .cell[data-row='1'][data-col='1']")
    await wait_version(alice.page, 4)
    await online(bob)
    await wait_version(bob.page, 4)
    assert await newest_entry(bob.page) == "alice moved worker A from row 1, column 1 to row 2, column 2."
    entries = await bob.page.eval_on_selector_all("#move-log li", "items => items.map(i => i.textContent)")
    assert all(e.endswith(".") and ":" not in e for e in entries), entries  # words, not "move: worker 0"
