"""The documentation stands on its own inside the repository, the Docker files and the
README's Docker section agree with the dialects' ports, and the Dolphins & Foxes example
sessions of docs/protocol.md, docs/protocols/dolphinfox.md and the README play as written
with the seed they name."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from clients import LineClient
from doc_sessions import (
    CanonicalSession, LineSession, TerminalSession, block_after, columns, pin_seed,
)

from service.app import create_app
from service.gateway.keys import LISTENERS
from service.sessions.dialects import DIALECTS
from service.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
PORTS = sorted({8080, *(d.default_port for d in DIALECTS.values() if d.default_port)})


@pytest.mark.parametrize("page", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_stays_inside_the_repository(page: Path) -> None:
    text = page.read_text()
    assert not re.search(r"(\.\./)+shared/|`shared/|/work/", text), "names a file outside the repo"
    for target in re.findall(r"\]\(([^)#\s]+)", text):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        resolved = (page.parent / target).resolve()
        assert resolved.is_relative_to(ROOT) and resolved.exists(), target


def test_the_dockerfile_exposes_every_port_and_checks_health() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    exposed = re.search(r"^EXPOSE (.+)$", dockerfile, re.MULTILINE)
    assert exposed and sorted(map(int, exposed.group(1).split())) == PORTS
    assert re.search(r"^HEALTHCHECK .*\n?.*/api/health", dockerfile, re.MULTILINE)


def test_compose_publishes_every_port_and_the_readme_says_so() -> None:
    compose = (ROOT / "docker-compose.yml").read_text()
    # the single service publishes them, and the cluster profile's HAProxy the same ones
    # (tests/ops_cluster/test_compose_cluster.py checks that one)
    published = sorted({int(p) for p in re.findall(r'- "(\d+):\1"', compose)})
    assert published == PORTS and "/api/health" in compose
    section = (ROOT / "README.md").read_text().split("## Docker", 1)[1].split("\n## ", 1)[0]
    assert all(str(port) in section for port in PORTS) and "docker compose up" in section


def test_the_image_takes_every_setting_from_the_environment() -> None:
    """A flag in the image's command would win over the TAVOLO_* variables the README's Docker
    section tells operators to pass (tests/test_cli_settings.py: every setting has both)."""
    command = re.search(r'^CMD (\[.+\])$', (ROOT / "Dockerfile").read_text(), re.MULTILINE)
    assert command and json.loads(command.group(1)) == ["python", "-m", "service", "serve"]
    readme = (ROOT / "README.md").read_text()
    docker = readme.split("## Docker", 1)[1].split("\n## ", 1)[0]
    assert "TAVOLO_LOG_FORMAT=json" in docker and "bare `serve`" in docker
    configuration = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    assert "TAVOLO_LOG_LEVEL" in configuration and "--<setting-name>" in configuration


# --- the Dolphins & Foxes example sessions, played with the seed their documents name -------

def seed_named(text: str) -> int:
    found = re.search(r"played with seed (\d+)", text)
    assert found, "the example says which match seed it was played with"
    return int(found.group(1))


async def test_the_protocol_example_session_plays_as_written(
        aiohttp_client: Any, database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "docs" / "protocol.md").read_text().split("## Example session", 1)[1]
    pin_seed(monkeypatch, seed_named(text.split("```", 1)[0]))
    client = await aiohttp_client(create_app(Settings.for_tests(database_url)))
    lines = text.split("```", 2)[1].strip("\n").split("\n")
    session = CanonicalSession(lambda: client.ws_connect("/ws"))
    assert await session.run(lines) == len(lines) > 20


async def test_the_readme_terminal_session_plays_as_written(
        aiohttp_client: Any, database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (ROOT / "README.md").read_text()
    marker = "A session from a terminal"
    pin_seed(monkeypatch, seed_named(readme.split(marker, 1)[1].split("```", 1)[0]))
    client = await aiohttp_client(create_app(Settings.for_tests(database_url)))
    port = client.server.app[LISTENERS]["dolphinfox"].port
    players = [await LineClient.connect(port), await LineClient.connect(port)]
    try:
        rows = columns(block_after(readme, marker))
        assert len(rows) >= 6
        await TerminalSession(players).run(rows)
    finally:
        for player in players:
            await player.close()


async def test_the_dolphinfox_example_session_plays_as_written(
        aiohttp_client: Any, database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "docs" / "protocols" / "dolphinfox.md").read_text()
    text = text.split("## Example session", 1)[1]
    pin_seed(monkeypatch, seed_named(text.split("```", 1)[0]))
    client = await aiohttp_client(create_app(Settings.for_tests(database_url)))
    session = LineSession(client.server.app[LISTENERS]["dolphinfox"].port)
    lines = text.split("```", 2)[1].strip("\n").split("\n")
    try:
        assert await session.run(lines) == len(lines) > 20
    finally:
        await session.close()
