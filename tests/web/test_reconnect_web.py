"""The server is killed in the middle of a match and started again: the pages notice, reconnect
by themselves with back-off, catch up, and play on without a reload. A move clicked while the
server was down is sent after the reconnect and applied once."""

from __future__ import annotations

import random

from service.tools.process import ServerProcess
from test_dolphinfox_web import board, move_by_clicks
from web_pages import OpenTab, create, join, sign_in, wait_version


async def test_pages_resume_after_the_server_is_killed(open_tab: OpenTab, server: ServerProcess) -> None:
    rng = random.Random(8)
    alice = await open_tab("alice")
    await sign_in(alice, "alice")
    match_id = await create(alice, "dolphinfox", {"size": "8", "units": "3", "max_moves": "200"})
    bob = await open_tab("bob")
    await sign_in(bob, "bob")
    await join(bob, match_id)
    watcher = await open_tab("watcher", f"/#/watch/{match_id}")
    tabs = [alice, bob, watcher]
    for turn in range(4):
        assert await move_by_clicks([alice, bob][turn % 2], rng)
        for tab in tabs:
            await wait_version(tab.page, turn + 1)

    port = server.ports["http"]
    for tab in tabs:
        tab.outage = True  # Chromium logs each refused connection; only those are allowed
    await server.kill()
    for tab in tabs:
        await tab.page.wait_for_selector("body[data-connection='reconnecting']")
        assert "reconnecting" in await tab.page.inner_text("#connection")
    assert await move_by_clicks(alice, rng)  # clicked while the server is down: kept, sent later

    server.extra_args = ("--http-port", str(port))
    await server.start()
    for tab in tabs:
        await tab.page.wait_for_selector("body[data-connection='open']", timeout=30_000)
        await wait_version(tab.page, 5)
        tab.outage = False
    assert await board(watcher) == await board(alice) == await board(bob)
    for turn in range(5, 9):
        assert await move_by_clicks([alice, bob][turn % 2], rng)
        for tab in tabs:
            await wait_version(tab.page, turn + 1)
    assert await board(watcher) == await board(alice) == await board(bob)
    assert "bob — F · here" in await watcher.page.inner_text("#seats")
    await bob.context.close()  # bob leaves: the others see his seat away
    for tab in (alice, watcher):
        await tab.page.wait_for_selector("#seats li[data-seat='1'].away")
        assert "bob — F · away" in await tab.page.inner_text("#seats")

    # a new visit: the browser remembers alice, and her unfinished match is there to resume
    await alice.page.goto(f"http://127.0.0.1:{port}/")
    await alice.page.wait_for_selector("#me:text-is('alice')")
    await alice.page.click(f"#my-matches li[data-match='{match_id}'] a")
    await wait_version(alice.page, 9)
    assert "You play alice (D)" in await alice.page.inner_text("#role")
