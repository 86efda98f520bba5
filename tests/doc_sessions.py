"""Playing the documentation's example sessions against a real server: the canonical session of
docs/protocol.md over the WebSocket and the Dolphins & Foxes terminal session of the README
over TCP (tests/test_repo_docs.py), with the match seed the documents name.

Elisions in the documents: ``...`` in JSON (``[...]``, ``{...}``, ``,...,``) stands for what is
left out; a string ending in ``...`` is the start of the real one; tokens and resume keys
(``"q0Zb..."``, ``CPK 2Cw6-lq3...``) are whatever the server issued, and a client line that
quotes one (``"<bob's token>"``, ``PCJ 2Cw6-lq3...``) sends the real one."""

from __future__ import annotations

import json
import re
import secrets
import types
from pathlib import Path
from typing import Any

import pytest
from clients import CanonicalClient, LineClient

ROOT = Path(__file__).resolve().parents[1]
#: stands for an elided JSON value
ANY = "\u2026any"
#: the seed the documents' Dolphins & Foxes sessions were played with
SEED_NOTE = re.compile(r"seed (\d+)")


def pin_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The next matches are set up from ``seed`` (the hub draws it from ``secrets``)."""
    from service.sessions import hub

    monkeypatch.setattr(hub, "secrets", types.SimpleNamespace(
        randbits=lambda bits: seed, token_hex=secrets.token_hex))


def block_after(text: str, marker: str) -> str:
    """The first fenced code block after ``marker`` in ``text`` (its lines, fences left out)."""
    rest = text.split(marker, 1)[1]
    return rest.split("```", 2)[1].split("\n", 1)[1]


def parse_elided(text: str) -> Any:
    """The JSON of a documented message, its elisions made ANY (see the module docs)."""
    text = re.sub(r",\.\.\.(?=[,}\]])", "", text)
    text = text.replace("{...}", json.dumps(ANY)).replace("[...]", json.dumps(ANY))
    return json.loads(text)


def fits(expected: Any, actual: Any, key: str = "") -> bool:
    """Whether ``actual`` is what the document shows: the keys it shows (a dict may hold more),
    lists element by element, ``...`` strings as prefixes, tokens as anything."""
    if expected == ANY or key == "token":
        return True
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and fits(v, actual[k], k) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(actual) == len(expected) and all(
            fits(e, a) for e, a in zip(expected, actual))
    if isinstance(expected, str) and expected.endswith("..."):
        return isinstance(actual, str) and actual.startswith(expected[:-3])
    return bool(expected == actual)


# --- docs/protocol.md: the canonical session -----------------------------------------------

LINE = re.compile(r"^(\w+)\s+(→|←) (\{.*\})$")
DROP = re.compile(r"^\((\w+)'s connection drops; (\w+) gets (\{.*\})\)$")


class CanonicalSession:
    """Plays the lines of the canonical example, one client per name."""

    def __init__(self, connect: Any) -> None:
        self.connect = connect
        self.clients: dict[str, CanonicalClient] = {}
        self.tokens: dict[str, str] = {}

    async def client(self, name: str) -> CanonicalClient:
        if name not in self.clients:
            self.clients[name] = CanonicalClient(await self.connect())
        return self.clients[name]

    async def send(self, name: str, text: str) -> None:
        for other, token in self.tokens.items():
            text = text.replace(f"<{other}'s token>", token)
        await (await self.client(name)).send(json.loads(text))

    async def expect(self, name: str, expected: Any) -> dict[str, Any]:
        """The first message to ``name`` that fits ``expected`` (others are kept)."""
        client = await self.client(name)
        got = next((m for m in client.inbox if fits(expected, m)), None)
        if got is not None:
            client.inbox.remove(got)
        while got is None:
            try:
                message = await client.next()
            except TimeoutError:
                raise AssertionError(f"{name} expected {expected}; got {client.inbox}") from None
            if message.get("type") == "welcome" and message.get("token"):
                self.tokens[name] = message["token"]  # for "<name's token>" later
            if fits(expected, message):
                got = message
            else:
                client.inbox.append(message)
        return got

    async def drop(self, name: str) -> None:
        await self.clients.pop(name).ws.close()

    async def play_to_the_end(self, players: list[str], match_id: int) -> None:
        """Each player in turn makes its first legal move until the match is over."""
        for _ in range(500):  # far more moves than a 4x4 match with max_moves 12 takes
            for name in players:
                client = await self.client(name)
                legal = await client.call({"type": "legal", "match_id": match_id})
                result = legal.get("result", {})
                if legal["type"] == "error" or not result.get("actions"):
                    return
                acked = await client.call({
                    "type": "act", "match_id": match_id, "client_id": secrets.token_hex(8),
                    "version": result["version"], "action": result["actions"][0]})
                assert acked["type"] == "ack", acked
        raise AssertionError("the match did not end")

    async def run(self, lines: list[str]) -> int:
        """Plays every line; the number of lines played."""
        played = 0
        for line in (raw.strip() for raw in lines):
            if match := LINE.match(line):
                name, arrow, text = match.groups()
                if arrow == "→":
                    await self.send(name, text)
                else:
                    await self.expect(name, parse_elided(text))
            elif match := DROP.match(line):
                await self.drop(match.group(1))
                await self.expect(match.group(2), parse_elided(match.group(3)))
            elif line.startswith("... play on until"):
                await self.play_to_the_end(sorted(self.clients), 1)
            else:
                raise AssertionError(f"a line the test cannot play: {line!r}")
            played += 1
        return played


# --- the README: Dolphins & Foxes from a terminal ------------------------------------------

def columns(block: str) -> list[list[str]]:
    """The rows of a two-column terminal session (``$ nc ...`` heads each column)."""
    lines = block.rstrip("\n").split("\n")
    split = lines[0].index("$", lines[0].index("$") + 1)
    return [[row[:split].strip(), row[split:].strip()] for row in lines[1:]]


def is_server_line(line: str) -> bool:
    """Seed 002's header: the first letter is the sender; C (controller) and B (board) are
    the server's."""
    return line[:1] in ("C", "B")


class TerminalSession:
    """Plays a two-column session: each column one TCP client, rows in order, left first."""

    def __init__(self, clients: list[LineClient]) -> None:
        self.clients = clients
        self.keys: dict[int, str] = {}

    async def cell(self, column: int, line: str) -> None:
        client = self.clients[column]
        if not is_server_line(line):
            if line.startswith("PCJ ") and line.endswith("..."):
                line = f"PCJ {self.keys[column]}"
            await client.send(line)
            return
        got = await client.recv()
        if line.startswith("CPK "):
            assert got.startswith("CPK "), (line, got)
            self.keys[column] = got.split(" ", 1)[1]
        elif line.endswith("..."):
            assert got.startswith(line[:-3]), (line, got)
        else:
            assert got == line, (line, got)

    async def run(self, rows: list[list[str]]) -> None:
        """Left cell, then right; when both send in a row, the left one's answer (the next
        row's left cell) comes before the right one sends, as when typed."""
        done: set[tuple[int, int]] = set()
        for r, row in enumerate(rows):
            for column, line in enumerate(row):
                if (r, column) in done or not line:
                    continue
                await self.cell(column, line)
                done.add((r, column))
                both_send = all(cell and not is_server_line(cell) for cell in row)
                if column == 0 and both_send and r + 1 < len(rows) \
                        and is_server_line(rows[r + 1][0]):
                    await self.cell(0, rows[r + 1][0])
                    done.add((r + 1, 0))


# --- docs/protocols/dolphinfox.md: players and a viewer, line by line ----------------------

SEED_LINE = re.compile(r"^(\w+)\s+(→|←) (.+)$")


class LineSession:
    """Plays ``name → line`` / ``name ← line`` over TCP, one client per name; a line
    ``(name's connection drops; ...)`` hangs that client up (its next line connects again)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.clients: dict[str, LineClient] = {}
        self.keys: dict[str, str] = {}

    async def client(self, name: str) -> LineClient:
        if name not in self.clients:
            self.clients[name] = await LineClient.connect(self.port)
        return self.clients[name]

    async def line(self, name: str, arrow: str, text: str) -> None:
        client = await self.client(name)
        if arrow == "→":
            if text.startswith("PCJ ") and text.endswith("..."):
                text = f"PCJ {self.keys[name]}"
            await client.send(text)
            return
        got = await client.recv()
        if text.startswith("CPK "):
            assert got.startswith("CPK "), (name, text, got)
            self.keys[name] = got.split(" ", 1)[1]
        elif text.endswith("..."):
            assert got.startswith(text[:-3]), (name, text, got)
        else:
            assert got == text, (name, text, got)

    async def run(self, lines: list[str]) -> int:
        played = 0
        for raw in lines:
            line = raw.strip()
            if match := SEED_LINE.match(line):
                await self.line(*match.groups())
            elif match := re.match(r"^\((\w+)'s connection drops", line):
                await self.clients.pop(match.group(1)).close()
            else:
                raise AssertionError(f"a line the test cannot play: {line!r}")
            played += 1
        return played

    async def close(self) -> None:
        for client in self.clients.values():
            await client.close()
