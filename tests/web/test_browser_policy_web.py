"""The page under its Content-Security-Policy (issue 17): the headers come with the page, its
modules and the API; the lobby, a match and its board work with no policy violation at all
(every tab's console is watched too, see conftest.py), and the board's inline custom
properties, set through the CSSOM, still apply."""

from __future__ import annotations

import aiohttp
from web_pages import OpenTab, create, join, sign_in

SMALL = {"size": "4", "units": "1", "max_moves": "12"}
WATCH_VIOLATIONS = """() => {
  window.violations = [];
  document.addEventListener("securitypolicyviolation",
    (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
}"""


async def test_the_page_works_under_its_policy(open_tab: OpenTab, base_url: str) -> None:
    async with aiohttp.ClientSession() as session:
        for path in ("/", "/web/app.js", "/web/style.css", "/api/games", "/nowhere"):
            async with session.get(base_url + path) as response:
                policy = response.headers["Content-Security-Policy"]
                assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
                assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
                assert response.headers["X-Frame-Options"] == "DENY", path
    alice, bob = await open_tab("alice"), await open_tab("bob")
    for tab in (alice, bob):
        await tab.page.evaluate(WATCH_VIOLATIONS)
    await sign_in(alice, "alice")
    match_id = await create(alice, "dolphinfox", SMALL)
    await sign_in(bob, "bob")
    await join(bob, match_id)  # a hash route: the same document, still watched
    for tab in (alice, bob):
        await tab.page.wait_for_selector("#turn[data-status='active']")
        # the style the board asked for is applied (on the board shown now: a redraw, when
        # the ratings arrive, may replace the element found a moment before)
        await tab.page.wait_for_function(
            "() => { const b = document.querySelector('#board');"
            " return b !== null && getComputedStyle(b).getPropertyValue('--n').trim() === '4'; }")
        assert await tab.page.evaluate("window.violations") == []
