"""A person plays a whole Santorini match against a server bot by clicks (the seat chosen in the
create form), then starts one with "Play against the computer"; bots show as bots in the seats
and the lobby. A private match: its invitation link is shown to its creator, the match is never
in the open list, and the link lets a second person in and a third one watch; errors in words."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from santorini_pages import play_one
from web_pages import PLAY_URL, OpenTab, Tab, create, match_id_of, sign_in, version

from service.store import Store
from service.tools.process import ServerProcess

MAX_ACTIONS = 200
SMALL = {"size": "4", "units": "1", "max_moves": "12"}


@pytest.fixture
def server_args() -> tuple[str, ...]:
    """Bots that think for a twentieth of a second."""
    return ("--bot-budget", "0.05")


async def play_to_the_end(tab: Tab, rng: random.Random) -> None:
    page = tab.page
    for _ in range(MAX_ACTIONS):
        await page.wait_for_selector("#turn.mine, #turn[data-status='finished']")
        if await page.get_attribute("#turn", "data-status") == "finished":
            return
        now = await version(page)
        await play_one(tab, rng)
        await page.wait_for_selector(f"#board-area:not([data-version='{now}'])")
    raise AssertionError(f"no end after {MAX_ACTIONS} actions")


async def test_a_person_plays_santorini_against_a_bot(open_tab: OpenTab, artefacts: Path) -> None:
    alice = await open_tab("alice")
    page = alice.page
    await sign_in(alice, "alice")
    await page.select_option("#new-game", "santorini")
    await page.select_option("#opt-other-1", "mcts")
    await page.screenshot(path=artefacts / "lobby-bots.png", full_page=True)
    match_id = await create(alice, "santorini", {"gods": False})
    await page.wait_for_selector("#turn[data-status='active']")  # the bot took the free seat at once
    assert "Bot (mcts)" in await page.inner_text("#seats .seat[data-seat='1']")
    await play_to_the_end(alice, random.Random(11))
    await page.screenshot(path=artefacts / "santorini-bot.png", full_page=True)
    outcome = await page.inner_text("#outcome")
    assert re.match(r"(You win|Bot \(mcts\) wins): ", outcome), outcome  # the game's words for the end
    for where in ("#seats", "#move-log", "#outcome"):
        assert "-bot-" not in await page.inner_text(where)  # never the bot's nickname

    # "Play against the computer": the match starts at once with a bot of the chosen level
    await page.goto(page.url.split("#")[0] + "#/")
    await page.select_option("#new-game", "dolphinfox")
    # the levels as a person picks them: weakest first, medium offered, the old alias last
    levels = await page.eval_on_selector_all("#computer-level option", "os => os.map(o => [o.value, o.textContent])")
    assert [value for value, _ in levels] == ["easy", "medium", "hard", "random", "mcts"], levels
    assert dict(levels)["mcts"] == "mcts (the old name of hard)"
    assert await page.input_value("#computer-level") == "medium"
    await page.select_option("#computer-level", "random")
    await page.click("#play-computer")
    assert await match_id_of(page) > match_id
    await page.wait_for_selector("#turn[data-status='active']")
    assert "Bot (random)" in await page.inner_text("#seats")

    # a waiting three-player match with a bot and a free seat: the lobby shows the bot as one
    await page.goto(page.url.split("#")[0] + "#/")
    await page.select_option("#new-game", "eriantys")
    await page.select_option("#opt-seats", "3")
    await page.select_option("#opt-other-2", "random")
    waiting = await create(alice, "eriantys", {})
    await page.goto(page.url.split("#")[0] + "#/")
    listed = await page.wait_for_selector(f"#open-matches li[data-match='{waiting}']")
    seats = await listed.inner_text()
    assert "alice" in seats and "Bot (random)" in seats and "·free·" in seats


async def errors_in_words(tab: Tab, match_id: int) -> None:
    """A bad nickname, a nickname held by a token player, a private match watched without its
    code: each is told in words, with its code."""
    page = tab.page
    await page.fill("#nickname", "car\u200bol")
    await page.press("#nickname", "Enter")
    await page.wait_for_selector("p.error:has-text('cannot be used'):has-text('session/bad_nickname')")
    await page.fill("#nickname", "alice")
    await page.press("#nickname", "Enter")
    await page.wait_for_selector("p.error:has-text('belongs to someone else'):has-text('session/nickname_taken')")
    await page.goto(page.url.split("#")[0] + f"#/watch/{match_id}")
    await page.wait_for_selector("p.error:has-text('only through its invitation link'):has-text('session/no_such_match')")


async def test_a_private_match_is_joined_and_watched_through_its_link(open_tab: OpenTab, artefacts: Path) -> None:
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    await alice.page.check("#opt-private")
    match_id = await create(alice, "dolphinfox", SMALL)
    link = await alice.page.input_value("#invite-link")
    assert f"#/join/{match_id}/" in link
    await alice.page.click("#copy-invite")
    await alice.page.wait_for_selector("#invitation [role=status]")
    await alice.page.screenshot(path=artefacts / "private-invitation.png")

    carol = await open_tab("carol")
    await errors_in_words(carol, match_id)
    bob = await open_tab("bob")
    await sign_in(bob, "bob")
    await bob.page.wait_for_selector("#open-matches")
    assert not await bob.page.query_selector(f"#open-matches li[data-match='{match_id}']")

    await bob.page.goto(link)  # bob is signed in: the page joins at once
    await bob.page.wait_for_url(PLAY_URL)
    assert await match_id_of(bob.page) == match_id
    for tab in (alice, bob):
        await tab.page.wait_for_selector("#turn[data-status='active']")
    assert not await alice.page.query_selector("#invitation")  # no seat left to offer

    # the match is full: the link offers to watch, with the code
    await carol.page.goto(link)
    await sign_in(carol, "carol")
    await carol.page.click("#invite-watch")
    await carol.page.wait_for_selector("#turn[data-status='active']")
    assert "You are watching." in await carol.page.inner_text("#role")


async def test_a_player_without_a_token_claims_its_nickname(open_tab: OpenTab, server: ServerProcess) -> None:
    """A player first seen on a dialect without tokens signs in by nickname, then keeps the
    nickname for this browser: a reload still knows it, anyone else is refused it."""
    store = Store(server.database_url)
    try:
        await store.get_or_create_player("dora")  # as the seed dialects make their players
    finally:
        await store.close()
    dora = await open_tab("dora")
    await sign_in(dora, "dora")
    await dora.page.click("#claim")
    await dora.page.wait_for_selector("#me:text-is('dora')")
    await dora.page.wait_for_selector("#claim", state="detached")
    await dora.page.reload()
    await dora.page.wait_for_selector("#me:text-is('dora')")
    other = await open_tab("other")
    await other.page.fill("#nickname", "dora")
    await other.page.press("#nickname", "Enter")
    await other.page.wait_for_selector("p.error:has-text('session/nickname_taken')")
