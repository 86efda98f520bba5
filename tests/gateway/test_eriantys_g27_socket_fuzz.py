"""A short fuzz run over a real g27 socket: mutated original-client frames and random bytes, in
registration and in a game. Every one gets the dialect's answer (the request again) or nothing;
no ``service/internal``, no traceback in the server log, and the connection stays usable."""

from __future__ import annotations

import gzip
import json
import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from eriantys_g27_client import G27Client, join_game

from service.app import create_app
from service.gateway.keys import LISTENERS
from service.protocol import eriantys_g27 as wire
from service.protocol.eriantys_g27 import Message
from service.settings import Settings
from service.tools.limits import UNLIMITED

RECORDING = Path(__file__).parent.parent / "protocol" / "test_eriantys_g27_o2e.jsonl.gz"
FRAMES = 400


@pytest.fixture
async def server(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    # a fuzz run sends little but rejected frames: the frame budgets would hold it back
    settings = Settings.for_tests(database_url, **UNLIMITED)
    yield (await aiohttp_client(create_app(settings))).server.app


def client_frames() -> list[str]:
    with gzip.open(RECORDING, "rt") as lines:
        return [r["text"] for r in map(json.loads, lines) if r.get("dir") == "C>S"]


def mutant(rng: random.Random, samples: list[str]) -> bytes:
    """A recorded client frame cut, spliced or stuffed; or plain random bytes in a frame."""
    text = rng.choice(samples)
    roll = rng.random()
    if roll < 0.2:
        return wire.LengthFramer().encode("".join(chr(rng.randrange(32, 0x2FF)) for _ in range(40)))
    if roll < 0.3:
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
        return len(data).to_bytes(2, "big") + data
    at = rng.randrange(len(text))
    junk = rng.choice(["[" * 500, "\u00b2", "9" * 5000, '"', "null", "[\"MONK\"]", "2.0", "{}", ""])
    return wire.LengthFramer().encode(text[:at] + junk + text[at + rng.randrange(8):])


async def fuzz(client: G27Client, rng: random.Random, samples: list[str]) -> None:
    for n in range(FRAMES // 2):
        await client.send_raw(mutant(rng, samples))
        if n % 10 == 9:  # a good frame now and then: 20 bad ones in a row close the link
            await client.send(Message("PING"))


async def test_fuzzed_frames_never_reach_internal_errors(
        server: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    port = server[LISTENERS]["eriantys-g27"].port
    rng, samples = random.Random(2704), client_frames()
    lone = await G27Client.connect(port, "lone")  # still registering
    await fuzz(lone, rng, samples)
    players = await join_game(port, 2, expert=True, prefix="f")  # and in a game
    await fuzz(players[0], rng, samples)
    for client in (lone, *players):
        await client.send(Message("PING"))
        while (await client.recv()).type != "PONG":  # whatever the fuzz got played meanwhile
            pass
    bad = [r for r in caplog.records if r.exc_info or "internal" in r.getMessage()]
    assert bad == []
    refused = [r for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) > FRAMES // 2  # the fuzz did reach the conversations
    for client in (lone, *players):
        await client.close()
