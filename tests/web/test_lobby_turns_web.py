"""The lobby lists the signed-in player's matches waiting for their move (issue 20): from the
``welcome`` (``your_turn``) when the lobby opens, and as moves come in while it is open."""

from __future__ import annotations

from playwright.async_api import expect
from web_pages import OpenTab, legal_count, two_players, wait_version

WAIT_MS = 60_000


async def test_your_turn_list_in_the_lobby(open_tab: OpenTab) -> None:
    alice, bob, match_id = await two_players(open_tab, "santorini", {"gods": False})
    row = f"#your-turn li[data-match='{match_id}']"

    # alice's turn: her lobby lists the match, bob's does not
    await alice.page.click("nav a:text-is('← Lobby')")
    await alice.page.wait_for_selector(row)
    await expect(alice.page.locator("#your-turn-title")).to_have_text("Your turn (1)")
    await bob.page.click("nav a:text-is('← Lobby')")
    await bob.page.wait_for_selector("#your-turn-none")
    assert not await bob.page.query_selector(row)

    # from the list to the match: she moves; back in the lobby it is not her turn any more
    await alice.page.click(f"{row} a")
    await legal_count(alice.page)
    await alice.page.click("#board .cell[data-row='0'][data-col='0']")
    await alice.page.click("#board .cell[data-row='4'][data-col='4']")
    await wait_version(alice.page, 1)
    await alice.page.click("nav a:text-is('← Lobby')")
    await alice.page.wait_for_selector("#your-turn-none")
    # bob's lobby, open all along, hears the move: now it is his turn
    await bob.page.wait_for_selector(row, timeout=WAIT_MS)
    assert "move 2" in await bob.page.inner_text(row)

    # bob plays from there; alice's open lobby lists the match again, live
    await bob.page.click(f"{row} a")
    await legal_count(bob.page)
    await bob.page.click("#board .cell[data-row='2'][data-col='2']")
    await bob.page.click("#board .cell[data-row='2'][data-col='3']")
    await wait_version(bob.page, 2)
    await alice.page.wait_for_selector(row, timeout=WAIT_MS)
    assert "your turn" in await alice.page.inner_text(f"#my-matches li[data-match='{match_id}']")
