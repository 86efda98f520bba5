"""Three players play a whole round of expert Eriantys by clicks: assistant cards, students to
the dining room and to islands, Mother Nature, clouds, and the Monk, whose choice takes two
clicks (a student on the card, then an island)."""

from __future__ import annotations

import random
from pathlib import Path

from web_pages import (OpenTab, Tab, click_any, create, join, legal_count, sign_in, version, wait_version,
                       whose_turn)

CHARACTERS = ("monk", "magic_mailman", "jester")


async def play_one(tab: Tab, rng: random.Random, use_monk: bool) -> bool:
    """One action by clicks; True when it was the Monk."""
    page = tab.page
    assert await legal_count(page) > 0
    if await page.query_selector("#assistants .assistant.target"):
        await click_any(page, "#assistants .assistant.target", rng)
    elif use_monk and await page.query_selector("#char-monk .use:not([disabled])"):
        await page.click("#char-monk .use")
        await click_any(page, "[data-key^='pick-color-']", rng)
        await click_any(page, "#islands .island.target", rng)
        return True
    elif await page.query_selector(".school.mine button.student.movable"):
        await click_any(page, ".school.mine button.student.movable", rng)
        await click_any(page, "#islands .island.target, #my-dining.target", rng)
    elif await page.query_selector("#islands .island.target"):
        await click_any(page, "#islands .island.target", rng)
    elif await page.query_selector("#clouds .cloud.target"):
        await click_any(page, "#clouds .cloud.target", rng)
    else:
        await page.click("#end-turn")
    return False


async def test_eriantys_three_players_expert_a_full_round(open_tab: OpenTab, artefacts: Path) -> None:
    rng = random.Random(4)
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    options: dict[str, str | bool] = {"expert": True, **{f"characters-{c}": True for c in CHARACTERS}}
    match_id = await create(alice, "eriantys", options, seats=3)
    players = [alice]
    for name in ("bob", "carol"):
        tab = await open_tab(name)
        await sign_in(tab, name)
        await join(tab, match_id)
        players.append(tab)
    for tab in players:
        await tab.page.wait_for_selector("#turn[data-status='active']")
    monk_played = shot = False
    while await alice.page.get_attribute("#phase", "data-round") == "1":
        now = await version(alice.page)
        monk_played |= await play_one(await whose_turn(players), rng, use_monk=not monk_played)
        for tab in players:
            await wait_version(tab.page, now + 1)
        if monk_played and not shot:
            await alice.page.screenshot(path=artefacts / "eriantys.png", full_page=True)
            shot = True
    assert monk_played
    assert "2 coins" in await alice.page.inner_text("#char-monk strong")  # used once: +1
    for tab in players:
        assert await tab.page.get_attribute("#phase", "data-round") == "2"
        assert await tab.page.get_attribute("#phase", "data-phase") == "planning"
