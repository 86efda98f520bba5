"""Regenerate the generated parts of docs/protocols/eriantys-g13.md.

    python tests/eriantys_g13_docs.py

The message reference comes from the codec's tables; the example game is a real run of the
test client against a server on a fresh SQLite database.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from eriantys_g13_client import play_all, start_game  # noqa: E402

from service.protocol import eriantys_g13 as wire  # noqa: E402

DOC = HERE.parent / "docs" / "protocols" / "eriantys-g13.md"
ID = "7d5e1c2a-0b4f-4e8e-9c1d-2f3a4b5c6d7e"
PARENT = "0b7e3f60-1a2b-4c3d-8e9f-a0b1c2d3e4f5"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

CLIENT_SAMPLES: dict[str, dict[str, Any]] = {
    "LoginMsg": {"name": "ada"},
    "NewGameMsg": {"numPlayers": 2, "modExpert": True},
    "TurnDecidedMsg": {"card": "Quattro"},
    "CCMsg": {"card": 7},
    "CC1Msg": {"isl": 3, "stud": "Pink"},
    "CC3Msg": {"isl": 5},
    "CC5Msg": {"isl": 2},
    "CC7Msg": {"students": ["Green", "Red"], "entrancestud": ["Blue", "Blue"]},
    "CC9Msg": {"color": "Yellow"},
    "CC10Msg": {"entrancestud": ["Red"], "diningstud": ["Green"]},
    "CC11Msg": {"color": "Green"},
    "CC12Msg": {"color": "Blue"},
    **{f"MoveStudent{n}Msg": {"colour": "Red", "location": 123} for n in range(1, 5)},
    "NumStepMNMsg": {"steps": 2},
    "CloudMsg": {"cloud": 1},
}

SERVER_SAMPLES: dict[str, Any] = {
    "status": "VALID", "nicknames": ["ada", "bruno"], "numPlayers": 2, "modexp": True,
    "name": "ada", "dca": ["Uno", "Tre", "Dieci"], "generalBoard": "{…}",
    "playedCards": ["Due"], "nickname": ["bruno", "ada"], "characterCards": "[{…}, {…}, {…}]",
    "winner": ["ada"], "draw": False, "reason": "last_tower",
    "characterCard": {"number": 1, "name": "Monk", "cost": 1, "used": False,
                      "students": {"Green": 1, "Red": 0, "Yellow": 2, "Pink": 1, "Blue": 0}},
    "error": None, "clouds": [{"cloud": 0, "students": {"Green": 1, "Red": 0, "Yellow": 1,
                                                         "Pink": 0, "Blue": 1}, "taken": False}],
    "code": "rules/not_your_turn", "message": "it is not your turn",
}


def reference() -> str:
    lines = ["### Client → server", "", "```"]
    for kind in wire.CLIENT_MESSAGES:
        fields = CLIENT_SAMPLES.get(kind, {})
        lines.append(json.dumps({"type": kind, "identifier": ID, **fields}, ensure_ascii=False))
    lines += ["```", "", "### Server → client", "", "```"]
    for kind, names in wire.SERVER_MESSAGES.items():
        fields = {name: SERVER_SAMPLES[name] for name in names}
        parent = None if kind == "PingSMSG" else PARENT
        lines.append(json.dumps({"type": kind, "identifier": ID, "parentIdentifier": parent,
                                 **fields}, ensure_ascii=False))
    return "\n".join(lines + ["```"])


async def play_example() -> list[str]:
    from aiohttp.test_utils import TestServer

    from service.app import create_app
    from service.gateway.keys import LISTENERS
    from service.settings import Settings

    transcript: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Settings.for_tests(f"sqlite+aiosqlite:///{tmp}/example.db"))
        server = TestServer(app)
        await server.start_server()
        try:
            port = app[LISTENERS]["eriantys-g13"].port
            clients = await start_game(port, 2, expert=True, transcript=transcript)
            await play_all(clients, seed=13)
            for client in clients:
                await client.close()
        finally:
            await server.close()
    return transcript


def shorten(transcript: list[str]) -> str:
    first_board: Any = None
    out = []
    for entry in transcript:
        who, arrow, line = entry.split(" ", 2)
        message = json.loads(line)
        if "generalBoard" in message:
            if first_board is None:
                first_board = message["generalBoard"]
            message["generalBoard"] = "{…}"
        text = UUID.sub(lambda m: m.group(0)[:8], json.dumps(message, ensure_ascii=False))
        out.append(f"{who:5} {arrow} {text}")
    board = json.dumps(first_board, indent=1, ensure_ascii=False)
    return "\n".join(["```", *out, "```", "", "The first `generalBoard` of the game in full:",
                      "", "```json", board, "```"])


def replace(doc: str, marker: str, body: str) -> str:
    start, end = f"<!-- {marker}:start -->", f"<!-- {marker}:end -->"
    head, rest = doc.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


def main() -> None:
    doc = DOC.read_text()
    doc = replace(doc, "reference", reference())
    doc = replace(doc, "transcript", shorten(asyncio.run(play_example())))
    DOC.write_text(doc)
    print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
