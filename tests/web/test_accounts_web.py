"""Accounts in the browser (issue 19): a guest nickname protected with a password on the account
screen, signed out (the token stops working), signed in again on a second browser context where
its unfinished match resumes; the recovery code, shown once, gives a new password on another
context; the sign-out warning for a nickname without a password (and none with one); a
player's profile and a game's leaderboard render without a script error."""

from __future__ import annotations

import pytest
from playwright.async_api import expect
from web_pages import OpenTab, Tab, create, legal_count, match_id_of, sign_in, two_players, wait_version

PASSWORD = "correct horse battery"
WAIT_MS = 60_000


@pytest.fixture
def server_args() -> tuple[str, ...]:
    """Bots that think for a twentieth of a second."""
    return ("--bot-budget", "0.05")


async def see(tab: Tab, selector: str) -> None:
    """Wait for ``selector``; when it does not come, say what the page shows and last sent."""
    try:
        await tab.page.wait_for_selector(selector)
    except Exception as exc:
        says = await tab.page.inner_text("body")
        sent = "\n".join(str(frame) for frame in tab.sent[-8:])
        raise AssertionError(f"{tab.name}: no {selector}; the page says:\n{says}\nlast sent:\n{sent}") from exc


async def to_lobby(tab: Tab) -> None:
    await tab.page.click("nav a:text-is('← Lobby')")
    await tab.page.wait_for_selector("#open-title")


async def protect(tab: Tab, password: str) -> None:
    """From the lobby: the account screen, a first password (no old one asked)."""
    page = tab.page
    await page.click("#account-link")
    await page.wait_for_selector("#password-form")
    assert not await page.query_selector("#old-password")
    assert "not protected" in await page.inner_text("#password-state")
    await page.fill("#new-password", password)
    await page.fill("#new-password-again", password)
    await page.click("#set-password")
    await expect(page.locator("#account-notice")).to_contain_text("Password set", timeout=WAIT_MS)
    await expect(page.locator("#password-title")).to_have_text("Change your password")
    assert await page.query_selector("#old-password")  # changing it asks for the current one


async def sign_in_with_password(tab: Tab, nickname: str, password: str) -> None:
    page = tab.page
    await page.click("#mode-password")
    await page.fill("#signin-nickname", nickname)
    await page.fill("#signin-password", password)
    await page.click("#signin")


async def token_of(tab: Tab) -> str | None:
    return await tab.page.evaluate("localStorage.getItem('tavolo.token')")


async def test_protect_sign_out_and_resume_on_another_device(open_tab: OpenTab) -> None:
    alice = await open_tab("alice")
    page = alice.page
    await sign_in(alice, "alice")
    await protect(alice, PASSWORD)

    # an unfinished match against the computer
    await to_lobby(alice)
    await page.select_option("#new-game", "santorini")
    await page.select_option("#computer-level", "random")
    await page.click("#play-computer")
    match_id = await match_id_of(page)
    await page.wait_for_selector("#turn[data-status='active']")

    # protected: Sign out asks nothing, tells the server, and forgets the token
    await to_lobby(alice)
    token = await token_of(alice)
    assert token
    await page.click("#sign-out")
    await page.wait_for_selector("#nickname")
    assert not await page.query_selector("#sign-out-warning")
    assert await token_of(alice) is None
    assert alice.commands_sent("sign_out") == 1
    # the old token stops working: a browser that still had it is told so, and signed out
    stale = await open_tab("a stale copy")
    await stale.page.wait_for_selector("body[data-connection='open']")  # it said no hello: no token then
    await stale.page.evaluate("token => localStorage.setItem('tavolo.token', token)", token)
    await stale.page.reload()
    await stale.page.wait_for_selector("#identity-error, #me")
    assert not await stale.page.query_selector("#me"), "the token signed out still signs in"
    await expect(stale.page.locator("#identity-error")).to_contain_text("no longer signed in")
    await expect(stale.page.locator("#identity-error")).to_contain_text("session/bad_token")
    await stale.page.wait_for_selector("#nickname")
    assert await token_of(stale) is None

    # a second browser: a wrong password is told in words, the right one signs in
    phone = await open_tab("alice on her phone", width=390, height=844)
    await sign_in_with_password(phone, "alice", "not the password")
    await phone.page.wait_for_selector("p.error:has-text('do not match'):has-text('session/bad_password')")
    await phone.page.fill("#signin-password", PASSWORD)
    await phone.page.click("#signin")
    await phone.page.wait_for_selector("#me:text-is('alice')")
    assert await token_of(phone)

    # the unfinished match is there to resume, with alice's seat and the board
    await phone.page.click(f"#my-matches li[data-match='{match_id}'] a")
    await phone.page.wait_for_selector("#board-area #board")
    await expect(phone.page.locator("#role")).to_contain_text("You play alice")
    await expect(phone.page.locator("#turn")).to_have_attribute("data-status", "active")

    # a laptop signs in too; the phone lists both devices, itself marked, and revokes the laptop
    laptop = await open_tab("alice on a laptop")
    await sign_in_with_password(laptop, "alice", PASSWORD)
    await laptop.page.wait_for_selector("#me:text-is('alice')")
    await to_lobby(phone)
    await phone.page.click("#account-link")
    devices = phone.page.locator("#device-list li")
    await expect(devices).to_have_count(2)
    current = phone.page.locator("#device-list li[data-current='true']")
    await expect(current).to_contain_text("this device")
    await expect(current).to_contain_text("Chrome")
    other = phone.page.locator("#device-list li[data-current='false']")
    await other.locator("button.revoke").click()
    await other.locator("button:text-is('Cancel')").click()
    await other.locator("button.revoke").click()
    await other.locator("button.confirm-revoke").click()
    await expect(devices).to_have_count(1)
    await expect(phone.page.locator("#account-notice")).to_contain_text("is signed out")
    await laptop.page.reload()
    await laptop.page.wait_for_selector("#identity-error, #me")
    assert not await laptop.page.query_selector("#me"), "the revoked device still signs in"
    await expect(laptop.page.locator("#identity-error")).to_contain_text("session/bad_token")


async def test_a_recovery_code_gives_a_new_password(open_tab: OpenTab) -> None:
    erin = await open_tab("erin")
    await sign_in(erin, "erin")
    await protect(erin, PASSWORD)
    await erin.page.click("#get-recovery-code")
    await erin.page.wait_for_selector("#recovery-code-shown")
    code = await erin.page.input_value("#recovery-code-shown")
    assert len(code) >= 8
    assert "Store it now: it is shown once" in await erin.page.inner_text("#recovery-once")
    await erin.page.click("#copy-recovery-code")
    await erin.page.wait_for_selector("#recovery [role=status]")

    other = await open_tab("erin elsewhere")
    page = other.page
    await page.click("#mode-recovery")
    await page.fill("#signin-nickname", "erin")
    await page.fill("#recovery-code", "not-the-code")
    await page.fill("#recovery-password", "a new password")
    await page.click("#recover")
    await page.wait_for_selector("p.error:has-text('session/bad_recovery_code')")
    await page.fill("#recovery-code", code)
    await page.click("#recover")
    await page.wait_for_selector("#me:text-is('erin')")
    assert await token_of(other)

    # the new password is erin's now; the code was spent
    third = await open_tab("erin again")
    await sign_in_with_password(third, "erin", "a new password")
    await third.page.wait_for_selector("#me:text-is('erin')")


async def test_the_sign_out_warning_only_for_a_nickname_without_password(open_tab: OpenTab) -> None:
    carol = await open_tab("carol")
    page = carol.page
    await sign_in(carol, "carol")
    await page.click("#sign-out")
    warning = page.locator("#sign-out-warning")
    await expect(warning).to_contain_text("not protected: signing out loses it and its unfinished matches")
    await page.click("#sign-out-cancel")
    await expect(warning).to_have_count(0)
    await page.wait_for_selector("#me:text-is('carol')")
    assert carol.commands_sent("sign_out") == 0

    # "Protect it first" leads to the account screen; with a password, no warning
    await page.click("#sign-out")
    await page.click("#protect-first")
    await page.wait_for_url("**/#/account")
    await page.fill("#new-password", "aaaaaaaa")
    await page.fill("#new-password-again", "aaaaaaab")
    await page.click("#set-password")
    await see(carol, "#account-error:has-text('not the same')")  # checked in the page
    await page.fill("#new-password-again", "aaaaaaaa")
    await page.click("#set-password")
    await see(carol, "#account-error:has-text('cannot be used'):has-text('session/weak_password')")
    await page.fill("#new-password", PASSWORD)
    await page.fill("#new-password-again", PASSWORD)
    await page.click("#set-password")
    await page.wait_for_selector("#account-notice")
    await to_lobby(carol)
    await page.click("#sign-out")
    await page.wait_for_selector("#nickname")
    assert carol.commands_sent("sign_out") == 1

    # "Sign out anyway" signs an unprotected guest out
    dave = await open_tab("dave")
    await sign_in(dave, "dave")
    await dave.page.click("#sign-out")
    await dave.page.click("#sign-out-anyway")
    await dave.page.wait_for_selector("#nickname")
    assert await token_of(dave) is None
    assert dave.commands_sent("sign_out") == 1

    # signed out, the lobby still follows the open matches live: carol signs in again and opens one
    await sign_in_with_password(carol, "carol", PASSWORD)
    await page.wait_for_selector("#me:text-is('carol')")
    opened = await create(carol, "santorini", {"gods": False})
    await dave.page.wait_for_selector(f"#open-matches li[data-match='{opened}']")


async def place_workers(tab: Tab, cells: tuple[tuple[int, int], tuple[int, int]], then: int) -> None:
    await legal_count(tab.page)
    for row, col in cells:
        await tab.page.click(f"#board .cell[data-row='{row}'][data-col='{col}']")
    await wait_version(tab.page, then)


async def test_profile_and_leaderboard_pages(open_tab: OpenTab) -> None:
    alice, bob, match_id = await two_players(open_tab, "santorini", {"gods": False})
    # each seat links to its player's profile where the page knows the player (its own seat)
    me = await alice.page.evaluate("window.tavolo.player.id")
    await alice.page.wait_for_selector(f"#seats a[href='#/players/{me}']")
    # both place their workers (a match where a side never acted is not rated), then alice resigns
    await place_workers(alice, ((0, 0), (4, 4)), 1)
    await place_workers(bob, ((2, 2), (2, 3)), 2)
    await alice.page.click("#resign")
    await alice.page.click("#confirm-resign")
    await alice.page.wait_for_selector("#turn[data-status='finished']")

    await to_lobby(alice)
    await alice.page.click("#me")
    page = alice.page
    await expect(page.locator("#profile-name")).to_have_text("alice")
    await expect(page.locator("#member-since")).to_contain_text("Member since")
    row = page.locator("#profile-games tr[data-game='santorini']")
    await expect(row).to_contain_text("Santorini")
    played = [await c.inner_text() for c in await row.locator("td").all()][:4]
    assert played == ["1", "0", "1", "0"], played  # played, won, lost, drawn
    await expect(row.locator(".rating-cell")).to_contain_text("provisional")
    listed = page.locator(f"#history-list li[data-match='{match_id}']")
    await expect(listed).to_contain_text("Lost")
    await expect(listed.locator(".opponents")).to_contain_text("bob")
    await expect(listed.locator(".rated")).to_contain_text("rated −")

    # the opponent's name leads to their profile, the match to its replay
    await listed.locator(".opponents a").click()
    await expect(page.locator("#profile-name")).to_have_text("bob")
    await expect(page.locator(f"#history-list li[data-match='{match_id}'] .rated")).to_contain_text("rated +")
    await page.click(f"#history-list li[data-match='{match_id}'] .replay-link")
    await page.wait_for_selector("#replay-at[data-version='0']")

    # the leaderboards: one per game, picked from a list, provisional ratings on request
    await page.goto(page.url.split("#")[0] + "#/leaderboards/santorini")
    await expect(page.locator("#leaderboard")).to_contain_text("Nobody has an established rating")
    await page.check("#leaderboard-provisional")
    ranked = page.locator("#leaderboard tbody tr")
    await expect(ranked).to_have_count(2)
    await expect(ranked.nth(0)).to_contain_text("bob")  # the winner first
    await expect(ranked.nth(1).locator("a")).to_have_attribute("href", f"#/players/{me}")
    await page.select_option("#leaderboard-game", "dolphinfox")
    await page.wait_for_url("**/#/leaderboards/dolphinfox")
    await expect(page.locator("#leaderboard")).to_contain_text("Nobody")
    assert not await page.query_selector("p.error:not(:empty)")

    # a rated player's rating shows beside their name: in the open matches and the match page
    await page.click("nav a:text-is('← Lobby')")
    waiting = await create(alice, "santorini", {"gods": False})
    await expect(page.locator("#seats .seat[data-seat='0'] .rating.provisional")).to_have_count(1)
    await page.click("nav a:text-is('← Lobby')")
    await expect(page.locator(f"#open-matches li[data-match='{waiting}'] .rating")).to_have_count(1)
