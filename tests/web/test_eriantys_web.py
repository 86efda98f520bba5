"""Three players play a whole round of expert Eriantys by clicks: assistant cards, students to
the dining room and to islands, Mother Nature, clouds, the Monk, whose choice takes two
clicks (a student on the card, then an island), and the Jester (a swap built click by click)."""

from __future__ import annotations

import random
from pathlib import Path

from playwright.async_api import Page

from web_pages import (OpenTab, Tab, click_any, create, join, legal_count, sign_in, version, wait_version,
                       fits_the_width, whose_turn)

CHARACTERS = ("monk", "magic_mailman", "jester")


async def play_character(page: Page, rng: random.Random, character: str) -> None:
    await page.click(f"#char-{character} .use")
    if character == "monk":  # a student on the card, then an island
        await click_any(page, "[data-key^='pick-color-']", rng)
        await click_any(page, "#islands .island.target", rng)
    else:  # the jester: a student of the card for one of the entrance, then confirm
        await click_any(page, "[data-key^='swap-a-']", rng)
        await click_any(page, "[data-key^='swap-b-']", rng)
        await page.click("#swaps-done")


async def play_one(tab: Tab, rng: random.Random, to_play: list[str]) -> str | None:
    """One action by clicks; the character it played, if it did."""
    page = tab.page
    assert await legal_count(page) > 0
    usable = [c for c in to_play if await page.query_selector(f"#char-{c} .use:not([disabled])")]
    if await page.query_selector("#assistants .assistant.target"):
        await click_any(page, "#assistants .assistant.target", rng)
    elif usable:
        await play_character(page, rng, usable[0])
        return usable[0]
    elif await page.query_selector(".school.mine button.student.movable"):
        await click_any(page, ".school.mine button.student.movable", rng)
        await click_any(page, "#islands .island.target, #my-dining.target", rng)
    elif await page.query_selector("#islands .island.target"):
        await click_any(page, "#islands .island.target", rng)
    elif await page.query_selector("#clouds .cloud.target"):
        await click_any(page, "#clouds .cloud.target", rng)
    else:
        await page.click("#end-turn")
    return None


async def test_eriantys_three_players_expert_a_full_round(open_tab: OpenTab, artefacts: Path) -> None:
    rng = random.Random(4)
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    options: dict[str, str | bool] = {"expert": True, **{f"characters-{c}": True for c in CHARACTERS}}
    match_id = await create(alice, "eriantys", options, seats=3)
    players = [alice]
    for name, width in (("bob", 1280), ("carol", 390)):  # carol plays on a phone
        tab = await open_tab(name, width=width, height=844)
        await sign_in(tab, name)
        await join(tab, match_id)
        players.append(tab)
    for tab in players:
        await tab.page.wait_for_selector("#turn[data-status='active']")
    to_play = ["monk", "jester"]
    while await alice.page.get_attribute("#phase", "data-round") == "1":
        now = await version(alice.page)
        played = await play_one(await whose_turn(players), rng, to_play)
        for tab in players:
            await wait_version(tab.page, now + 1)
        if played:
            to_play.remove(played)
            await alice.page.screenshot(path=artefacts / f"eriantys-{played}.png", full_page=True)
    assert not to_play
    assert await fits_the_width(players[2].page)
    for character in ("monk", "jester"):  # each used once: it costs one more
        assert "2 coins" in await alice.page.inner_text(f"#char-{character} strong")
    for tab in players:
        assert await tab.page.get_attribute("#phase", "data-round") == "2"
        assert await tab.page.get_attribute("#phase", "data-phase") == "planning"
