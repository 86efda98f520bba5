"""Other players' names link to their profiles wherever the server says who they are (issue 20):
the seats of a match page (``state.seats[].player_id``), the lobby's finished matches
(``GET /api/matches`` ``player_ids``); a computer opponent on a profile and in the lobby's lists
reads "Bot (level)" (``GET /api/matches`` ``bots``), never its nickname."""

from __future__ import annotations

from playwright.async_api import expect
from web_pages import OpenTab, match_id_of, sign_in, two_players

WAIT_MS = 60_000


async def test_players_are_linked_in_seats_and_finished_matches(open_tab: OpenTab) -> None:
    alice, _, match_id = await two_players(open_tab, "santorini", {"gods": False})
    # alice's page links bob's seat to his profile (the server's player_id, not her own seat)
    link = alice.page.locator("#seats li[data-seat='1'] a.player-link")
    await expect(link).to_have_text("bob", timeout=WAIT_MS)
    player = await link.get_attribute("data-player")
    assert player and player.isdigit()
    await alice.page.click("#resign")
    await alice.page.click("#confirm-resign")
    await alice.page.wait_for_selector("#turn[data-status='finished']")
    await alice.page.goto(alice.page.url.split("#")[0] + "#/")
    row = alice.page.locator(f"#past-matches li[data-match='{match_id}']")
    await expect(row.locator("a.player-link")).to_have_count(2, timeout=WAIT_MS)
    await expect(row.locator(f"a.player-link[href='#/players/{player}']")).to_have_text("bob")
    await row.locator(f"a.player-link[href='#/players/{player}']").click()  # bob's own profile
    await expect(alice.page.locator("h1")).to_contain_text("bob", timeout=WAIT_MS)


async def test_a_bot_opponent_reads_bot_level_on_a_profile(open_tab: OpenTab) -> None:
    tab = await open_tab("carol")
    await sign_in(tab, "carol")
    page = tab.page
    await page.select_option("#new-game", "santorini")
    await page.select_option("#computer-level", "random")
    await page.click("#play-computer")
    match_id = await match_id_of(page)
    await page.wait_for_selector("#turn[data-status='active']")
    await page.click("#resign")
    await page.click("#confirm-resign")
    await page.wait_for_selector("#turn[data-status='finished']")
    await page.click("nav a[href='#/']")
    # the lobby's finished matches name the computer "Bot (level)" too, without a profile link
    row = page.locator(f"#past-matches li[data-match='{match_id}']")
    await expect(row.locator(".bot[data-bot='random']")).to_have_text("Bot (random)", timeout=WAIT_MS)
    assert "-bot-" not in await row.inner_text()
    assert await row.locator("a.player-link").count() == 1  # carol's own
    await page.click("#me")
    opponents = page.locator("#history-list li .opponents")
    await expect(opponents).to_have_text("against Bot (random)", timeout=WAIT_MS)
    assert "-bot-" not in await page.inner_text("#history")
