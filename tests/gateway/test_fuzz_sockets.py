"""A short fuzz run over real sockets against a real server process, every dialect we own
(group 27's has its own): hostile frames cut at random bytes never give ``service/internal``
and never print a traceback in the server log."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from service.tools.fuzz import FuzzTally, fuzz_tcp
from service.tools.limits import unlimited_args
from service.tools.process import ServerProcess

DIALECTS = ("canonical", "santorini", "eriantys-g13", "dolphinfox")
FRAMES = 400


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[ServerProcess]:
    # one address plays every fuzz client: the creation limits would answer most frames
    process = await ServerProcess(database_url, dialects=DIALECTS, extra_args=unlimited_args()).start()
    try:
        yield process
    finally:
        await process.terminate()


async def test_fuzzed_frames_on_every_dialect_give_no_internal_error(server: ServerProcess) -> None:
    tallies = await asyncio.gather(*(fuzz_tcp(server.ports[name], name, FRAMES, seed=i)
                                     for i, name in enumerate(DIALECTS)))
    total = FuzzTally()
    for tally in tallies:
        total.add(tally)
    assert total.frames == FRAMES * len(DIALECTS)
    assert total.answers > total.frames / 2  # the server answered, it did not just hang up
    assert total.internal == 0, total.samples
    assert server.tracebacks == 0, "\n".join(server.output[-60:])
