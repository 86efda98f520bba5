"""Small operator fixes (issue 21): the Docker build context, log settings from TAVOLO_*
variables (flags win), health checks off the INFO access log, a busy port named before
anything happens, no traceback for a closed pipe, results in words, an unknown game named."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import pytest

from service import cli
from service.cli import log_options
from service.inspection import result_in_words
from service.sessions.hub import Hub
from service.store import Store
from service.tools.process import ServerProcess

REPO = Path(__file__).resolve().parents[2]


# --- .dockerignore -----------------------------------------------------------------------


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern (Go's filepath.Match, plus ``**`` for any directories)."""
    out = ""
    parts = pattern.strip("/").split("/")
    for i, part in enumerate(parts):
        if part == "**":
            out += "(?:[^/]+/)*"
            continue
        piece = ""
        for char in part:
            piece += {"*": "[^/]*", "?": "[^/]"}.get(char, re.escape(char) if char not in "[]" else char)
        out += piece + ("/" if i < len(parts) - 1 else "")
    return re.compile(out + r"\Z")


def ignored(path: str, patterns: list[str]) -> bool:
    """Docker leaves ``path`` out when it or a directory above it matches (no ``!`` here)."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(_pattern_regex(p).match(prefix) for p in patterns for prefix in prefixes)


def dockerignore() -> list[str]:
    lines = (REPO / ".dockerignore").read_text().splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert not any(p.startswith("!") for p in patterns)  # ignored() does not do exceptions
    return patterns


@pytest.mark.parametrize("path", [
    ".venv/bin/python", ".git/HEAD", "tavolo.db", "tavolo.db-wal", "data/other.db",
    "service/__pycache__/app.cpython-311.pyc", "service/games/x.pyc", ".pytest_cache/v/x",
    ".hypothesis/examples/x", "tests/ops/test_ops_cli_fixes.py", "tavolo.egg-info/PKG-INFO",
    "benchmarks/cluster_load.py", ".coverage",
])
def test_the_build_context_leaves_out(path: str) -> None:
    assert ignored(path, dockerignore())


def test_the_build_context_keeps_what_the_image_copies() -> None:
    patterns = dockerignore()
    copied = [source for line in (REPO / "Dockerfile").read_text().splitlines()
              if line.startswith("COPY ") for source in line.split()[1:-1]]
    assert {"pyproject.toml", "alembic.ini", "service", "migrations"} <= set(copied)
    for source in copied:
        assert not ignored(source, patterns), source
        files = [p for p in (REPO / source).rglob("*") if p.is_file()] if (REPO / source).is_dir() else []
        for file in files:
            relative = file.relative_to(REPO).as_posix()
            if "__pycache__" not in relative and not relative.endswith(".pyc"):
                assert not ignored(relative, patterns), relative


# --- log settings --------------------------------------------------------------------------


def _args(level: str | None = None, log_format: str | None = None) -> argparse.Namespace:
    return argparse.Namespace(log_level=level, log_format=log_format)


def test_log_settings_come_from_flags_then_variables_then_defaults(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVOLO_LOG_LEVEL", raising=False)
    monkeypatch.delenv("TAVOLO_LOG_FORMAT", raising=False)
    assert log_options(_args()) == ("INFO", "text")
    monkeypatch.setenv("TAVOLO_LOG_LEVEL", "debug")
    monkeypatch.setenv("TAVOLO_LOG_FORMAT", "json")
    assert log_options(_args()) == ("DEBUG", "json")
    assert log_options(_args("WARNING", "text")) == ("WARNING", "text")
    monkeypatch.setenv("TAVOLO_LOG_FORMAT", "xml")
    with pytest.raises(ValueError, match="TAVOLO_LOG_FORMAT='xml'"):
        log_options(_args())


def test_a_bad_log_variable_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TAVOLO_LOG_LEVEL", "LOUD")
    code = cli.main(["serve", "--database-url", f"sqlite:///{tmp_path / 'x.db'}"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "TAVOLO_LOG_LEVEL='LOUD'" in err[0]
    assert not (tmp_path / "x.db").exists()


async def _get(port: int, *paths: str) -> None:
    async with aiohttp.ClientSession() as session:
        for path in paths:
            async with session.get(f"http://127.0.0.1:{port}{path}") as response:
                assert response.status == 200, path


async def test_json_logs_from_the_environment_and_health_checks_off_the_info_log(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TAVOLO_LOG_FORMAT", "json")
    monkeypatch.setenv("TAVOLO_LOG_LEVEL", "INFO")
    server = await ServerProcess(f"sqlite:///{tmp_path / 'a.db'}").start()
    try:
        await _get(server.ports["http"], "/api/health", "/api/health", "/api/games")
    finally:
        assert await server.terminate() == 0
    lines = [json.loads(text) for text in server.output if text.strip()]  # every line JSON
    access = [line["message"] for line in lines if line["logger"] == "aiohttp.access"]
    assert any("GET /api/games" in message for message in access), access
    assert not any("/api/health" in message for message in access), access
    assert server.tracebacks == 0


async def test_the_log_level_flag_wins_over_the_variable(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    monkeypatch.setenv("TAVOLO_LOG_LEVEL", "WARNING")
    monkeypatch.delenv("TAVOLO_LOG_FORMAT", raising=False)
    server = await ServerProcess(f"sqlite:///{tmp_path / 'b.db'}",
                                 extra_args=("--log-level", "DEBUG")).start()
    try:
        await _get(server.ports["http"], "/api/health")
    finally:
        assert await server.terminate() == 0
    health = [text for text in server.output if "GET /api/health" in text]
    assert health and all(" DEBUG " in text for text in health), health


# --- a busy port ---------------------------------------------------------------------------


@contextmanager
def busy_port() -> Iterator[int]:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


@pytest.mark.parametrize("listener", ["http", "santorini"])
def test_a_busy_port_is_named_before_anything_happens(listener: str, tmp_path: Path) -> None:
    database = tmp_path / "busy.db"
    with busy_port() as port:
        where = (["--http-port", str(port)] if listener == "http"
                 else ["--http-port", "0", "--listen", f"santorini={port}"])
        others = [arg for name in ("dolphinfox", "eriantys-g13", "eriantys-g27", "renaissance",
                                   "eriantys-g13-java") for arg in ("--listen", f"{name}=0")]
        done = subprocess.run(
            [sys.executable, "-m", "service", "serve", "--database-url", f"sqlite:///{database}",
             "--host", "127.0.0.1", *where, *others, *(["--listen", "santorini=0"]
                                                       if listener == "http" else [])],
            capture_output=True, text=True, timeout=120)
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1, lines
    assert f"port {port} ({listener}) on 127.0.0.1 is already in use" in lines[0]
    assert not database.exists()  # nothing migrated, nothing announced


# --- output cut short ----------------------------------------------------------------------


def _into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    read, write = os.pipe()
    os.close(read)  # nobody reads: the first write fails, whatever its size
    try:
        return subprocess.run([sys.executable, "-m", "service", *args], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)


def test_a_closed_pipe_ends_quietly() -> None:
    done = _into_a_closed_pipe("schema", "canonical")
    assert done.returncode == 1 and done.stderr == ""


async def _saved_matches(url: str) -> tuple[int, int]:
    """A finished match (bob resigned) and an aborted one."""
    store = Store(url)
    await store.upgrade()
    try:
        hub = Hub(store)
        alice = (await hub.identify(nickname="alice")).player
        bob = (await hub.identify(nickname="bob")).player
        played, _ = await hub.quick_join("dolphinfox", alice)
        await hub.quick_join("dolphinfox", bob)
        await hub.lifecycle.resign(played.id, bob.id)
        waiting, _ = await hub.quick_join("santorini", alice)
        await hub.lifecycle.abort(waiting.id, by="admin")
        return played.id, waiting.id
    finally:
        await store.close()


def test_matches_list_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pipe.db'}"
    asyncio.run(_saved_matches(url))
    done = _into_a_closed_pipe("matches", "list", "--database-url", url)
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines() == [f"reading {url.replace('sqlite:', 'sqlite+aiosqlite:')}"]


# --- matches show and list -----------------------------------------------------------------


def test_matches_show_prints_the_result_in_words(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'show.db'}"
    finished, aborted = asyncio.run(_saved_matches(url))
    assert cli.main(["matches", "show", str(finished), "--database-url", url]) == 0
    out = capsys.readouterr().out
    result = next(line for line in out.splitlines() if line.startswith("result:"))
    assert result.startswith("result: alice (seat 0) won: resigned"), result
    assert "{" not in result
    assert cli.main(["matches", "show", str(aborted), "--database-url", url]) == 0
    assert "result: aborted by admin" in capsys.readouterr().out


def test_results_in_words() -> None:
    class Seat:
        def __init__(self, seat: int, nickname: str | None) -> None:
            self.seat, self.nickname = seat, nickname

    class Record:
        status = "finished"
        seats = [Seat(0, "ann"), Seat(1, "bo"), Seat(2, None)]
        result: dict[str, object] = {}

    record = Record()
    record.result = {"winners": [0, 1], "draw": False, "reason": "most points"}
    assert result_in_words(record) == "ann (seat 0) and bo (seat 1) won together: most points"
    record.result = {"winners": [], "draw": True, "reason": "stalemate"}
    assert result_in_words(record) == "a draw: stalemate"


def test_matches_list_of_an_unknown_game_says_so(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'list.db'}"
    asyncio.run(_saved_matches(url))
    assert cli.main(["matches", "list", "--game", "chess", "--database-url", url]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown game 'chess'" in err[0] and "santorini" in err[0]
    assert cli.main(["matches", "list", "--game", "santorini", "--database-url", url]) == 0
    assert "santorini" in capsys.readouterr().out
