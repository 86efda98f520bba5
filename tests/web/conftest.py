"""Browser tests: a real server process, Debian's Chromium driven by Playwright.

Screenshots go to ``$TAVOLO_ARTEFACTS`` (default: the test's tmp directory). Every tab's
console is watched: any error there fails the test, except the browser's own
"connection refused" lines while a test has deliberately stopped the server.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, async_playwright
from web_pages import OpenTab, Tab

from service.tools.databases import fresh_database, postgres_required
from service.tools.process import ServerProcess

CHROMIUM = os.environ.get("TAVOLO_CHROMIUM", "/usr/bin/chromium")
ARTEFACTS_ENV = "TAVOLO_ARTEFACTS"
#: how long one step may wait for the page: generous, since a server bot's search is a fixed
#: amount of work done in a low-priority worker, which a loaded machine (the suite in parallel)
#: can starve for many seconds
STEP_TIMEOUT_MS = 60_000

pytestmark = pytest.mark.slow


@pytest.fixture
def server_args() -> tuple[str, ...]:
    """More arguments of ``serve`` (a test module overrides this fixture to change them)."""
    return ()


@pytest.fixture
async def server(tmp_path: Path, server_args: tuple[str, ...]) -> AsyncIterator[ServerProcess]:
    url, cleanup = await fresh_database("sqlite", tmp_path)
    process = await ServerProcess(url, dialects=(), extra_args=server_args).start()
    try:
        yield process
    finally:
        await process.terminate()
        await cleanup()


@pytest.fixture
def base_url(server: ServerProcess) -> str:
    return f"http://127.0.0.1:{server.ports['http']}"


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    if not Path(CHROMIUM).exists():
        message = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
        if postgres_required():  # CI: .ci/run installs it, so its absence is a failure
            pytest.fail(message)
        pytest.skip(message)
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM,
                                                    args=["--no-sandbox", "--headless"])
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def open_tab(browser: Browser, server: ServerProcess) -> AsyncIterator[OpenTab]:
    """Open a page in a fresh browser context (its own localStorage: its own player)."""
    tabs: list[Tab] = []

    async def open_(name: str, path: str = "/", width: int = 1280, height: int = 800) -> Tab:
        context = await browser.new_context(viewport={"width": width, "height": height})
        page = await context.new_page()
        page.set_default_timeout(STEP_TIMEOUT_MS)
        tab = Tab(page, context, name)
        page.on("console", tab.on_console)
        page.on("pageerror", tab.on_page_error)
        page.on("websocket", tab.on_websocket)
        await page.goto(f"http://127.0.0.1:{server.ports['http']}{path}")
        tabs.append(tab)
        return tab

    yield open_
    problems = [error for tab in tabs for error in tab.errors]
    for tab in tabs:
        await tab.context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def artefacts(tmp_path: Path) -> Path:
    where = Path(os.environ.get(ARTEFACTS_ENV) or tmp_path / "artefacts")
    where.mkdir(parents=True, exist_ok=True)
    return where
