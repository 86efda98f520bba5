"""`python -m service ...` run in-process: db upgrade, matches list/show/replay, serve checks.

The CLI calls asyncio.run itself, so these tests are synchronous; data is made beforehand
with a small asyncio.run of Store and Hub on a SQLite file.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from service.cli import main
from service.games.registry import GAME_MODULES
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.store import PlayerRecord, Store


@dataclass(frozen=True)
class Saved:
    url: str
    path: Path
    finished: int
    active: int
    waiting: int
    board: str  # the seed board string of the active match


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


async def _move(runtime: MatchRuntime, who: PlayerRecord, seat: int) -> None:
    legal = runtime.game.legal_actions(runtime.state, seat)
    await runtime.act(who.id, runtime.game.dump_action(legal[0]))


async def _populate(url: str) -> tuple[int, int, int, str]:
    store = Store(url)
    try:
        await store.upgrade()
        hub = Hub(store)
        names = ["alice", "bob", "carol", "dave", "erin"]
        players = [(await hub.identify(nickname=n)).player for n in names]
        short, _ = await hub.quick_join("dolphinfox", players[0], {"max_moves": 1})
        await hub.quick_join("dolphinfox", players[1], {"max_moves": 1})
        await _move(short, players[0], 0)
        active, _ = await hub.quick_join("dolphinfox", players[2])
        await hub.quick_join("dolphinfox", players[3])
        await _move(active, players[2], 0)
        await _move(active, players[3], 1)
        waiting, _ = await hub.quick_join("dolphinfox", players[4])
        return short.id, active.id, waiting.id, active.game.board(active.state)
    finally:
        await store.close()


@pytest.fixture
def saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Saved:
    monkeypatch.chdir(tmp_path)  # a default tavolo.db, if ever made, lands here
    monkeypatch.delenv("TAVOLO_DATABASE_URL", raising=False)
    path = tmp_path / "cli.db"
    finished, active, waiting, board = asyncio.run(_populate(sqlite_url(path)))
    return Saved(sqlite_url(path), path, finished, active, waiting, board)


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def listed(capsys: pytest.CaptureFixture[str], url: str, *extra: str) -> list[dict[str, Any]]:
    code, out, _ = run_cli(capsys, "matches", "list", "--database-url", url, "--json", *extra)
    assert code == 0
    rows: list[dict[str, Any]] = json.loads(out)
    return rows


# --- db upgrade ----------------------------------------------------------------------------


def test_db_upgrade_creates_the_schema_and_is_idempotent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "fresh.db"
    for _ in range(2):
        code, out, _ = run_cli(capsys, "db", "upgrade", "--database-url", sqlite_url(path))
        assert code == 0 and "database at head" in out
    with closing(sqlite3.connect(path)) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert db.execute("SELECT count(*) FROM alembic_version").fetchone() == (1,)
    assert {"players", "matches", "seats", "actions", "alembic_version"} <= tables


# --- matches list --------------------------------------------------------------------------


def test_list_json_gives_every_match_newest_first(
    saved: Saved, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = listed(capsys, saved.url)
    assert [r["id"] for r in rows] == [saved.waiting, saved.active, saved.finished]
    picked = [{k: r[k] for k in ("id", "game", "status", "version", "players")} for r in rows]
    assert picked == [
        {"id": saved.waiting, "game": "dolphinfox", "status": "waiting", "version": 0,
         "players": ["erin", "F"]},
        {"id": saved.active, "game": "dolphinfox", "status": "active", "version": 2,
         "players": ["carol", "dave"]},
        {"id": saved.finished, "game": "dolphinfox", "status": "finished", "version": 1,
         "players": ["alice", "bob"]},
    ]


def test_list_text_has_a_header_and_a_row_per_match(
    saved: Saved, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "matches", "list", "--database-url", saved.url)
    assert code == 0
    header, *rows = out.splitlines()
    assert header.split() == ["id", "game", "status", "version", "players"]
    assert [row.split(None, 4) for row in rows] == [
        [str(saved.waiting), "dolphinfox", "waiting", "0", "erin, F"],
        [str(saved.active), "dolphinfox", "active", "2", "carol, dave"],
        [str(saved.finished), "dolphinfox", "finished", "1", "alice, bob"],
    ]


@pytest.mark.parametrize(("status", "which"), [
    ("waiting", "waiting"), ("active", "active"), ("finished", "finished"), ("aborted", None),
])
def test_list_status_filter(saved: Saved, capsys: pytest.CaptureFixture[str],
                            status: str, which: str | None) -> None:
    expected = [] if which is None else [getattr(saved, which)]
    assert [r["id"] for r in listed(capsys, saved.url, "--status", status)] == expected


def test_list_status_must_be_a_known_one(saved: Saved, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["matches", "list", "--database-url", saved.url, "--status", "bogus"])
    assert exited.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_list_game_filter_and_limit(saved: Saved, capsys: pytest.CaptureFixture[str]) -> None:
    everything = [saved.waiting, saved.active, saved.finished]
    assert [r["id"] for r in listed(capsys, saved.url, "--game", "dolphinfox")] == everything
    code, out, err = run_cli(capsys, "matches", "list", "--database-url", saved.url, "--json",
                             "--game", "no-such-game")
    assert (code, out) == (2, "") and "unknown game 'no-such-game'" in err  # not silently empty
    assert [r["id"] for r in listed(capsys, saved.url, "--limit", "1")] == [saved.waiting]
    rows = listed(capsys, saved.url, "--game", "dolphinfox", "--status", "active")
    assert [r["id"] for r in rows] == [saved.active]


def test_list_game_filter_keeps_other_games_out(
    saved: Saved, capsys: pytest.CaptureFixture[str]
) -> None:
    other = next((name for name in sorted(GAME_MODULES) if name != "dolphinfox"), None)
    if other is None:
        pytest.skip("only one game is registered")

    async def open_one() -> int:
        store = Store(saved.url)
        try:
            runtime, _ = await Hub(store).create(other)
            return runtime.id
        finally:
            await store.close()

    other_id = asyncio.run(open_one())
    assert [r["id"] for r in listed(capsys, saved.url, "--game", other)] == [other_id]
    assert other_id not in [r["id"] for r in listed(capsys, saved.url, "--game", "dolphinfox")]


def test_the_environment_names_the_database_when_no_flag_does(
    saved: Saved, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("TAVOLO_DATABASE_URL", saved.url)
    code, out, _ = run_cli(capsys, "matches", "list", "--json")
    assert code == 0 and len(json.loads(out)) == 3
    assert not (tmp_path / "tavolo.db").exists()
    empty = sqlite_url(tmp_path / "other.db")  # the flag still wins over the environment
    code, out, err = run_cli(capsys, "matches", "list", "--json", "--database-url", empty)
    assert code == 2 and out == "" and "other.db" in err  # read-only: never created
    assert not (tmp_path / "other.db").exists()


# --- matches show ------------------------------------------------------------------------


def test_show_text_has_seats_status_actions_and_the_board(
    saved: Saved, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "matches", "show", str(saved.active), "--database-url", saved.url)
    assert code == 0
    assert f"match {saved.active}" in out and "status active" in out and "version 2" in out
    assert "seat 0 [D]: carol" in out and "seat 1 [F]: dave" in out
    assert "#1 seat 0:" in out and "#2 seat 1:" in out
    size = 8
    rows = [saved.board[i:i + size] for i in range(0, len(saved.board), size)]
    for number, row in enumerate(rows, start=1):
        assert f"{number:>2} {row}" in out.splitlines()


def test_show_text_of_a_finished_match_has_its_result(
    saved: Saved, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "matches", "show", str(saved.finished),
                           "--database-url", saved.url)
    assert code == 0 and "status finished" in out and "result:" in out
    _, waiting_out, _ = run_cli(capsys, "matches", "show", str(saved.waiting),
                                "--database-url", saved.url)
    assert "seat 1 [F]: (empty)" in waiting_out and "no actions yet" in waiting_out


def test_show_json(saved: Saved, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "matches", "show", str(saved.active), "--json",
                           "--database-url", saved.url)
    assert code == 0
    detail = json.loads(out)
    assert (detail["id"], detail["status"], detail["version"]) == (saved.active, "active", 2)
    assert [(s["seat"], s["label"], s["nickname"]) for s in detail["seats"]] == [
        (0, "D", "carol"), (1, "F", "dave")]
    assert detail["view"]["board"] == saved.board
    assert [(a["seq"], a["seat"]) for a in detail["recent_actions"]] == [(1, 0), (2, 1)]


def test_show_of_a_missing_match_exits_1(saved: Saved, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "matches", "show", "9999", "--database-url", saved.url)
    assert code == 1 and out == "" and "no match 9999" in err


# --- matches replay ----------------------------------------------------------------------


@pytest.mark.parametrize("which", ["finished", "active", "waiting"])
def test_replay_of_an_intact_match_exits_0(
    saved: Saved, capsys: pytest.CaptureFixture[str], which: str
) -> None:
    match_id = getattr(saved, which)
    code, out, _ = run_cli(capsys, "matches", "replay", str(match_id), "--database-url", saved.url)
    assert code == 0 and "the snapshot matches" in out


def read_snapshot(path: Path, match_id: int) -> dict[str, Any]:
    with closing(sqlite3.connect(path)) as db:
        (text,) = db.execute("SELECT snapshot FROM matches WHERE id = ?", (match_id,)).fetchone()
    snapshot: dict[str, Any] = json.loads(text)
    return snapshot


def corrupt_snapshot(path: Path, match_id: int, key: str, value: Any) -> None:
    """Change the saved snapshot behind the service's back, as a careless operator might."""
    snapshot = {**read_snapshot(path, match_id), key: value}
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE matches SET snapshot = ? WHERE id = ?", (json.dumps(snapshot), match_id))


def test_replay_of_a_corrupted_snapshot_exits_1_with_the_first_difference(
    saved: Saved, capsys: pytest.CaptureFixture[str]
) -> None:
    corrupt_snapshot(saved.path, saved.active, "moves", 99)
    code, out, _ = run_cli(capsys, "matches", "replay", str(saved.active), "--database-url", saved.url)
    assert code == 1  # the active match's snapshot is the one saved at its start (issue 23)
    assert ("replay differs" in out
            and "the snapshot saved at version 0: $.moves: replayed 0, saved 99" in out)
    code, _, _ = run_cli(capsys, "matches", "replay", str(saved.finished), "--database-url", saved.url)
    assert code == 0  # the other matches are untouched


def test_replay_names_a_moved_unit(saved: Saved, capsys: pytest.CaptureFixture[str]) -> None:
    units = read_snapshot(saved.path, saved.active)["units"]
    units[0] = [units[0][0], units[0][1] + 100, units[0][2]]
    corrupt_snapshot(saved.path, saved.active, "units", units)
    code, out, _ = run_cli(capsys, "matches", "replay", str(saved.active), "--database-url", saved.url)
    assert code == 1 and "$.units[0][1]" in out


def test_replay_of_a_missing_match_exits_1(saved: Saved, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "matches", "replay", "9999", "--database-url", saved.url)
    assert code == 1 and "no match 9999" in err


# --- serve ------------------------------------------------------------------------------------


def test_serve_rejects_an_unknown_dialect_with_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    url = sqlite_url(tmp_path / "never.db")
    code, _, err = run_cli(capsys, "serve", "--database-url", url, "--listen", "klingon=7777")
    assert code == 2
    assert "unknown dialect" in err and "klingon" in err and "dolphinfox" in err
    assert not (tmp_path / "never.db").exists() and not (tmp_path / "tavolo.db").exists()


@pytest.mark.parametrize("value", ["dolphinfox", "dolphinfox=x", "dolphinfox=70000", "=7002"])
def test_serve_rejects_a_malformed_listen_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--listen", value])
    assert exited.value.code == 2
    assert "--listen" in capsys.readouterr().err
