"""Every log line names its node: ``node=<id>`` after the level in text, ``"node"`` in JSON;
and `serve` configures it so, from ``--node-id`` (or ``<hostname>-<pid>``)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator

import pytest

from service.logs import configure_logging, handler_for
from service.sessions import logcontext


@pytest.fixture
def logger() -> Iterator[logging.Logger]:
    found = logging.getLogger("tavolo.test.node")
    found.setLevel(logging.INFO)
    found.propagate = False
    yield found
    found.handlers.clear()
    found.propagate = True


def test_text_lines_carry_the_node_after_the_level(logger: logging.Logger) -> None:
    stream = io.StringIO()
    logger.addHandler(handler_for("text", stream, node="node-a"))
    logger.warning("hello %s", "there")
    line = stream.getvalue().strip()
    assert line.split(" ")[2:5] == ["WARNING", "node=node-a", "tavolo.test.node:"], line
    assert line.endswith("hello there")


async def test_json_lines_carry_the_node_with_the_context(logger: logging.Logger) -> None:
    stream = io.StringIO()
    logger.addHandler(handler_for("json", stream, node="tavolo-2"))

    async def in_a_match() -> None:
        logcontext.match_var.set(7)
        logger.info("moved")

    await asyncio.create_task(in_a_match())
    logger.error("outside")
    inside, outside = (json.loads(line) for line in stream.getvalue().splitlines())
    assert (inside["node"], inside["match"], inside["message"]) == ("tavolo-2", 7, "moved")
    assert (outside["node"], outside["match"], outside["level"]) == ("tavolo-2", None, "ERROR")


def test_a_handler_without_a_node_says_so(logger: logging.Logger) -> None:
    stream = io.StringIO()
    logger.addHandler(handler_for("text", stream))
    logger.info("x")
    assert " INFO node=- tavolo.test.node: x" in stream.getvalue()


def test_configure_logging_puts_the_node_on_every_logger(capsys: pytest.CaptureFixture[str],
                                                         ) -> None:
    root = logging.getLogger()
    saved, level = list(root.handlers), root.level
    try:
        configure_logging("INFO", "json", "worker-3")
        logging.getLogger("service.anything").info("one")
        logging.getLogger("aiohttp.access").info("two")
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in saved:
            root.addHandler(handler)
        root.setLevel(level)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["logger"], r["node"]) for r in lines] == [
        ("service.anything", "worker-3"), ("aiohttp.access", "worker-3")]
