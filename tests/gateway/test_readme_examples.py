"""The README's terminal examples work when pasted: each client line is sent as written to a
real listener, and the answers are those the README shows (ids the server makes are elided
with "…" there)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from clients import LineClient

from service.app import create_app
from service.gateway.keys import LISTENERS
from service.settings import Settings

README = Path(__file__).resolve().parents[2] / "README.md"


def g13_example() -> list[tuple[str, str]]:
    """(direction, JSON text) of each line of the README's Eriantys group 13 example."""
    return [(m.group(1), m.group(2))
            for m in re.finditer(r"^\s+ada (->|<-) (\{.*\})$", README.read_text(), re.MULTILINE)]


async def test_the_g13_example_is_accepted_as_pasted(aiohttp_client: Any, database_url: str) -> None:
    client = await aiohttp_client(create_app(Settings.for_tests(database_url)))
    lines = g13_example()
    assert [d for d, _ in lines] == ["->", "<-", "->", "<-"]
    ada = await LineClient.connect(client.server.app[LISTENERS]["eriantys-g13"].port)
    try:
        for direction, text in lines:
            if direction == "->":
                await ada.send(text)
                continue
            shown = json.loads(text)
            got = json.loads(await ada.recv())
            while got["type"] == "PingSMSG":
                got = json.loads(await ada.recv())
            for key, value in shown.items():
                if not str(value).endswith("…"):
                    assert got[key] == value, (key, got)
    finally:
        await ada.close()
