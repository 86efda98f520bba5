"""A real server process: JSON log lines name the dialect and peer; a database the server
cannot use stops it with one line and exit status 2, never a traceback."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest
from clients import LineClient

from service.tools.process import ServerProcess

pytestmark = pytest.mark.slow


async def test_json_logs_name_the_dialect_and_peer_of_a_connection(database_url: str) -> None:
    server = await ServerProcess(database_url, extra_args=("--log-format", "json")).start()
    try:
        client = await LineClient.connect(server.ports["dolphinfox"])
        for _ in range(20):  # twenty bad lines in a row: the server logs and hangs up
            await client.send("XYZ nonsense")
        assert await client.closed()
        await client.close()
    finally:
        assert await server.terminate() == 0  # and its output is read to the end
    lines = [json.loads(text) for text in server.output if text.strip()]
    closing = next(line for line in lines if "too many bad frames" in str(line["message"]))
    assert closing["dialect"] == "dolphinfox" and "dolphinfox tcp" in str(closing["peer"])
    assert server.tracebacks == 0


async def _serve_exit(url: str) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "service", "serve", "--database-url", url, "--http-port", "0",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 60)
    return process.returncode or 0, (out + err).decode()


async def test_serve_on_an_unusable_database_is_one_line(database_url: str) -> None:
    url = (database_url.rsplit("/", 1)[0] + "/tavolo_missing_db"
           if database_url.startswith("postgresql") else "mysql://root@127.0.0.1/tavolo")
    code, text = await _serve_exit(url)
    lines = [line for line in text.splitlines() if line.strip()]
    assert code == 2 and "Traceback" not in text
    assert lines[-1].startswith("tavolo"), lines
    assert ("does not exist" if "missing" in url else "unsupported database") in lines[-1]
