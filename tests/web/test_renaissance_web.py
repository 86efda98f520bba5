"""Masters of Renaissance by clicks: two players set up (keep 2 of 4 leaders, the second seat's
starting resource into a depot), take from the market and place or discard each resource, buy
a card or run a production, and end their turns for two full rounds while a third page watches
and then replays the match; a solo game runs a few turns against Lorenzo, whose token shows."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import Page
from web_pages import (OpenTab, Tab, all_see, click_any, create, legal_count, phone_shot, replay_from_start,
                       replay_to_end, sign_in, two_players_and_a_watcher, version, wait_version, whose_turn)

MAX_ACTIONS = 120
#: what the watcher must see exactly like a player: the tray, the grid, the faith track, the stores
PUBLIC = """() => [
  ...[...document.querySelectorAll('#market [role=img]')].map(e => e.getAttribute('aria-label')),
  ...[...document.querySelectorAll('#dev-grid .dev')].map(e => e.dataset.deck + ' ' + e.getAttribute('aria-label')),
  document.querySelector('#faith-track').getAttribute('aria-label'),
  ...[...document.querySelectorAll('.rn-player .depot, .rn-player .strongbox')]
    .map(e => e.closest('.rn-player').dataset.seat + ' ' + e.getAttribute('aria-label').split(' — ')[0]).sort(),
]"""


@dataclass
class Seen:
    """Which kinds of moves the test has made by clicks."""

    kinds: set[str] = field(default_factory=set)


async def public(page: Page) -> list[str]:
    return list(await page.evaluate(PUBLIC))


async def answer_if_asked(page: Page, rng: random.Random, now: int) -> None:
    """A question pops up when one click could mean several moves: how to pay, how many to
    move (``now``: the version before the move)."""
    try:
        # past ``now``, not exactly now + 1: a bot may answer before the page has drawn our move
        await page.wait_for_selector(f"#board-area:not([data-version='{now}']), #chooser")
    except Exception as exc:
        raise AssertionError(f"no move and no choice; the page says: {await page.inner_text('#error')!r}, "
                             f"{await page.inner_text('#board')!r}") from exc
    if await page.query_selector("#chooser"):
        await click_any(page, "#chooser [data-key^='choice-']:not([data-key='choice-cancel'])", rng)


async def set_up(page: Page, rng: random.Random, seen: Seen) -> None:
    if await page.query_selector("[data-key^='keep-']"):
        keys = [await b.get_attribute("data-key") for b in await page.query_selector_all("[data-key^='keep-']")]
        for key in rng.sample(keys, 2):  # each click draws the page again
            await page.click(f"[data-key='{key}']")
        seen.kinds.add("leaders")
    else:  # a starting resource, then a depot for it
        await click_any(page, "[data-key^='bonus-']", rng)
        await click_any(page, "#my-board .depot.target", rng)
        seen.kinds.add("bonus")


async def place(page: Page, rng: random.Random, seen: Seen, keep: bool) -> None:
    """Place a resource from the market in a depot (when ``keep`` and there is room), else
    discard it."""
    if await page.query_selector("[data-key^='convert-']"):
        await click_any(page, "[data-key^='convert-']", rng)
        return
    await click_any(page, "#pending [data-key^='pending-']", rng)
    if keep and await page.query_selector("#my-board .depot.target"):
        await click_any(page, "#my-board .depot.target", rng)
        seen.kinds.add("place")
    else:
        await page.click("#discard")
        seen.kinds.add("discard")


async def main_action(page: Page, rng: random.Random, seen: Seen, invest: bool) -> None:
    """Buy a card or produce when ``invest`` and it is possible, else take from the market."""
    now = await version(page)
    if invest and await page.query_selector("#dev-grid .dev.target"):
        await click_any(page, "#dev-grid .dev.target", rng)
        await click_any(page, "#my-board .slot.target", rng)
        await answer_if_asked(page, rng, now)
        seen.kinds.add("buy")
    elif invest and await page.query_selector("#my-board .produce"):
        key = await click_any(page, "#my-board .produce", rng)
        if key == "produce-base":  # two inputs, then the output
            await click_any(page, "[data-key^='prod-in-']", rng)
            await click_any(page, "[data-key^='prod-in-']", rng)
        if not key.startswith("produce-slot"):
            await click_any(page, "[data-key^='prod-out-']", rng)
        await answer_if_asked(page, rng, now)
        seen.kinds.add("production")
    else:
        await click_any(page, "#market .arrow.target", rng)
        seen.kinds.add("market")


async def play_one(tab: Tab, rng: random.Random, seen: Seen, invest: bool, keep: bool = True) -> None:
    """One action of the page whose turn it is, by clicks."""
    page = tab.page
    assert await legal_count(page) > 0
    phase = await page.get_attribute("#phase", "data-phase")
    if "swap" not in seen.kinds and await page.query_selector("#my-board .depot.movable"):
        now = await version(page)  # a free move: a depot, then another depot
        await click_any(page, "#my-board .depot.movable", rng)
        await click_any(page, "#my-board .depot.target", rng)
        await answer_if_asked(page, rng, now)
        seen.kinds.add("swap")
    elif invest and "discard_leader" not in seen.kinds and await page.query_selector("[data-key^='discard-leader-']"):
        await click_any(page, "[data-key^='discard-leader-']", rng)  # a free move: +1 faith
        seen.kinds.add("discard_leader")
    elif phase == "setup":
        await set_up(page, rng, seen)
    elif await page.query_selector("#pending"):
        await place(page, rng, seen, keep)
    elif await page.get_attribute("#phase", "data-main") == "":
        await main_action(page, rng, seen, invest)
    else:
        await page.click("#end-turn")
        seen.kinds.add("end_turn")


async def turns(page: Page) -> int:
    return int(await page.get_attribute("#phase", "data-turns") or 0)


async def test_renaissance_two_players_two_rounds_by_clicks(open_tab: OpenTab, artefacts: Path) -> None:
    rng = random.Random(12)
    alice, bob, watcher = await two_players_and_a_watcher(open_tab, "renaissance", {}, seats=2)  # bob: a phone
    tabs = [alice, bob, watcher]
    seen = Seen()
    for now in range(MAX_ACTIONS):
        done = await turns(alice.page)
        if done >= 4 and ({"buy", "production"} & seen.kinds):
            break
        await play_one(await whose_turn([alice, bob]), rng, seen, invest=done >= 2)
        await all_see(tabs, now + 1, public)
        if now == 8:
            await phone_shot(bob, artefacts / "renaissance-phone.png")
    assert await turns(alice.page) >= 4  # two full rounds
    assert {"leaders", "bonus", "market", "place", "end_turn", "swap", "discard_leader"} <= seen.kinds, seen.kinds
    assert "1 leader in hand" in await bob.page.inner_text("#board-0")  # alice discarded one
    assert {"buy", "production"} & seen.kinds, seen.kinds
    await alice.page.screenshot(path=artefacts / "renaissance.png", full_page=True)

    final = await public(watcher.page)
    last = await version(watcher.page)
    replay = watcher.page  # the same board, drawn from the saved log
    await replay_from_start(replay)
    assert await replay.get_attribute("#phase", "data-phase") == "setup"
    await replay_to_end(replay, last)
    assert await public(replay) == final


async def test_renaissance_solo_against_lorenzo(open_tab: OpenTab, artefacts: Path) -> None:
    """Three turns played to grow, then every market resource thrown away (each discard moves
    the black cross) until Lorenzo wins: his tokens, the end and the scores are shown."""
    rng = random.Random(5)
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    await create(alice, "renaissance", {}, seats=1)
    page = alice.page
    await page.wait_for_selector("#turn[data-status='active']")
    assert await page.get_attribute("#lorenzo-token", "data-kind") == ""
    seen = Seen()
    tokens: set[str] = set()
    for _ in range(MAX_ACTIONS):
        if await page.get_attribute("#turn", "data-status") != "active":
            break
        now = await version(page)
        grow = await turns(page) < 3
        await play_one(alice, rng, seen, invest=grow, keep=grow)
        await wait_version(page, now + 1)
        tokens.add(await page.inner_text("#lorenzo-token"))
        if await turns(page) == 3 and not (artefacts / "renaissance-solo.png").exists():
            await page.screenshot(path=artefacts / "renaissance-solo.png", full_page=True)
    assert await page.get_attribute("#lorenzo-token", "data-kind") in ("discard_cards", "black_cross")
    assert len(tokens) > 2 and all(t.startswith("Last token:") for t in tokens)
    await page.wait_for_selector("#outcome")
    outcome = await page.inner_text("#outcome")  # Lorenzo won: his win, in words, not "No player wins"
    assert re.fullmatch(r"Lorenzo wins: (his black cross reached the end of the faith track|every development "
                        r"card of one colour is gone from the grid); points: you \d+\.", outcome), outcome
    assert not await page.query_selector("#pending")  # what was left to place is lost
    assert "lorenzo" in (await page.inner_text("#final-scores")).lower()
    assert "alice" in await page.inner_text("#final-scores")
    assert await page.query_selector("#rematch")
    await page.screenshot(path=artefacts / "renaissance-solo-end.png", full_page=True)
