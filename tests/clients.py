"""Small real clients for tests and benchmarks: a line client over TCP and a canonical WS client."""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
from typing import Any

import aiohttp

#: how long an answer may take: a ceiling for a loaded machine (a CI runner shared with
#: others), never a wait; every wait here ends at its event (a message, a line, a close)
TIMEOUT = 60.0


class TcpClient:
    """One TCP connection of a test client, whatever it speaks: its streams, waiting for the
    server to close it, and closing it."""

    #: how long ``closed`` waits for each read by default (a subclass may wait longer)
    timeout = TIMEOUT

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def closed(self, timeout: float | None = None) -> bool:
        """True once the server has closed the connection (reads until EOF)."""
        while True:
            data = await asyncio.wait_for(self.reader.read(65536),
                                          self.timeout if timeout is None else timeout)
            if not data:
                return True

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass


class LineClient(TcpClient):
    """One TCP connection speaking a line protocol."""

    @classmethod
    async def connect(cls, port: int, host: str = "127.0.0.1") -> LineClient:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer)

    async def send(self, line: str) -> None:
        self.writer.write(line.encode() + b"\n")
        await self.writer.drain()

    async def recv(self, timeout: float = TIMEOUT) -> str:
        line = await asyncio.wait_for(self.reader.readline(), timeout)
        if not line:
            raise ConnectionError("closed by the server")
        return line.decode().rstrip("\n")

    async def expect(self, prefix: str, timeout: float = TIMEOUT) -> str:
        line = await self.recv(timeout)
        assert line.startswith(prefix), f"expected {prefix!r}, got {line!r}"
        return line


class CanonicalClient:
    """A canonical-protocol client over a WebSocket; keeps messages it did not ask for."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.inbox: list[dict[str, Any]] = []
        self.token: str | None = None

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(message))

    async def next(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        message = await asyncio.wait_for(self.ws.receive(), timeout)
        if message.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"websocket {message.type.name}")
        return json.loads(message.data)

    async def wait_for(self, kind: str, timeout: float = TIMEOUT, **match: Any) -> dict[str, Any]:
        """The first message of ``kind`` (with the given fields), from the inbox or the wire."""
        def fits(m: dict[str, Any]) -> bool:
            return m.get("type") == kind and all(m.get(k) == v for k, v in match.items())

        for i, message in enumerate(self.inbox):
            if fits(message):
                return self.inbox.pop(i)
        while True:
            message = await self.next(timeout)
            if fits(message):
                return message
            self.inbox.append(message)

    async def call(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a command and return its answer (ok/ack/welcome/pong or error)."""
        cid = next(self.ids)
        await self.send({**message, "id": cid})
        for i, seen in enumerate(self.inbox):
            if seen.get("re") == cid:
                return self.inbox.pop(i)
        while True:
            answer = await self.next()
            if answer.get("re") == cid:
                return answer
            self.inbox.append(answer)

    async def hello(self, nickname: str | None = None, token: str | None = None) -> dict[str, Any]:
        answer = await self.call({"type": "hello", "nickname": nickname, "token": token})
        assert answer["type"] == "welcome", answer
        self.token = answer.get("token") or token
        return answer


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m service ARGS`` in a child process (the operator's view of the database)."""
    return subprocess.run([sys.executable, "-m", "service", *args], capture_output=True,
                          text=True, timeout=60, check=False)


def newest_match_replays(database_url: str) -> dict[str, Any]:
    """The operator's check after a test game: the newest match is finished and
    ``matches replay`` reproduces its snapshot from the log. Returns the listed match."""
    listing = run_cli("matches", "list", "--json", "--database-url", database_url)
    match: dict[str, Any] = json.loads(listing.stdout)[0]
    assert match["status"] == "finished", match
    replay = run_cli("matches", "replay", str(match["id"]), "--database-url", database_url)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    assert "snapshot matches" in replay.stdout
    return match


async def canonical_table(ws_connect: Any, game: str, nicknames: list[str],
                          options: dict[str, Any] | None = None
                          ) -> tuple[list[CanonicalClient], int, dict[str, Any]]:
    """Canonical players (one per nickname) seated in a new match of ``game``, started.
    Returns the players, the match id and the first state seen by the first player."""
    players = []
    for nickname in nicknames:
        player = CanonicalClient(await ws_connect("/ws"))
        await player.hello(nickname)
        players.append(player)
    create = {"type": "create", "game": game, "seats": len(players),
              **({"options": options} if options else {})}
    match_id = (await players[0].call(create))["result"]["match_id"]
    for other in players[1:]:
        assert (await other.call({"type": "join", "match_id": match_id}))["type"] == "ok"
    return players, match_id, await players[0].wait_for("state", status="active")


async def play_by_legal(players: list[CanonicalClient], match_id: int, latest: dict[str, Any],
                        choose: Any, limit: int = 3000) -> dict[str, Any]:
    """Let the seat to act pick ``choose(legal actions)`` until the match is finished; the
    last update (as the first player saw it)."""
    for played in range(limit):
        if latest["status"] == "finished":
            return latest
        seat = latest["to_act"][0]
        legal = (await players[seat].call({"type": "legal", "match_id": match_id}))["result"]
        action = choose(legal["actions"])
        ack = await players[seat].call({"type": "act", "match_id": match_id, "action": action,
                                        "client_id": f"c{played}", "version": latest["version"]})
        assert ack["type"] == "ack", (action, ack)
        latest = await players[0].wait_for("update", version=ack["version"])
    raise AssertionError("the game did not end")


async def watch_live(ws_connect: Any, hub: Any, game: str) -> tuple[CanonicalClient, Any, dict[str, Any]]:
    """A canonical spectator of the live match of ``game``: (spectator, runtime, its first state)."""
    runtime = next(r for r in hub.live() if r.game.name == game)
    spectator = CanonicalClient(await ws_connect("/ws"))
    watched = await spectator.call({"type": "watch", "match_id": runtime.id})
    assert watched["result"]["seat"] is None
    state = await spectator.wait_for("state")
    assert state["game"] == game and state["you"] is None
    return spectator, runtime, state


async def play_everywhere(players: list[CanonicalClient], match_id: int, latest: dict[str, Any],
                          choose: Any, moves: int = 3000) -> dict[str, Any]:
    """The seat to act plays ``choose(legal actions)`` until the match ends (or ``moves``
    were made). Every player waits for each version on its own connection before anyone
    looks again: in a cluster each may be on another node, whose copy of the match follows
    the owner's. The last update (as the last player saw it)."""
    for _ in range(moves):
        if latest["status"] == "finished":
            break
        mover = players[latest["to_act"][0]]
        legal = (await mover.call({"type": "legal", "match_id": match_id}))["result"]["actions"]
        ack = await mover.call({"type": "act", "match_id": match_id, "action": choose(legal),
                                "client_id": f"v{latest['version']}", "version": latest["version"]})
        assert ack["type"] == "ack", ack
        for player in players:
            latest = await player.wait_for("update", version=ack["version"])
    return latest
