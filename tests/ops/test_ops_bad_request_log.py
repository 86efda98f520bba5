"""A request aiohttp cannot parse is the client's fault, answered 400: one INFO line naming the
client and the reason, not an ERROR with a traceback (issue 21)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from service.app import create_app
from service.logs import AIOHTTP_SERVER, BadRequestFilter
from service.settings import Settings


@pytest.fixture
def quiet_bad_requests() -> Iterator[None]:
    """The filter ``serve`` installs (service.logs.configure_logging), for this test only."""
    server, installed = logging.getLogger(AIOHTTP_SERVER), BadRequestFilter()
    server.addFilter(installed)
    yield
    server.removeFilter(installed)


async def test_a_malformed_header_is_one_info_line(
        aiohttp_client: Any, database_url: str, caplog: pytest.LogCaptureFixture,
        quiet_bad_requests: None) -> None:
    client = await aiohttp_client(create_app(Settings.for_tests(database_url)))
    caplog.set_level(logging.INFO, logger=AIOHTTP_SERVER)
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(64), 30)
    writer.close()
    assert answer.split(b" ", 2)[1] == b"400", answer
    lines = [r for r in caplog.records if r.name == AIOHTTP_SERVER]
    assert lines, "the bad request was not logged"
    assert all(r.levelno == logging.INFO and r.exc_info is None for r in lines), \
        [(r.levelname, r.getMessage()) for r in lines]
    said = lines[-1].getMessage()
    assert "bad request: 400" in said and "Invalid header token" in said, said
    assert "\n" not in said


def test_other_errors_keep_their_level_and_traceback() -> None:
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        import sys
        record = logging.LogRecord(AIOHTTP_SERVER, logging.ERROR, __file__, 1,
                                   "Error handling request", (), sys.exc_info())
    assert BadRequestFilter().filter(record)
    assert record.levelno == logging.ERROR and record.exc_info is not None
