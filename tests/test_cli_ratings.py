"""``tavolo ratings rebuild [--check]`` on a SQLite file (the rebuild itself is tested on both
databases in tests/store/test_store_ratings.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from service.sessions.ratings import judge
from service.store import Store
from tests.sessions.test_ratings import win
from tests.store.test_store_ratings import finished, people
from tests.test_cli import run_cli, sqlite_url


async def _populate(url: str) -> list[int]:
    store = Store(url)
    try:
        await store.upgrade()
        a, b, c = await people(store, "ann", "ben", "cy")
        for players, winner in (([a, b], 0), ([b, c], 1), ([c, a], 0)):
            await store.take_in_match(await finished(store, players, win(winner)), judge)
        return [a, b, c]
    finally:
        await store.close()


@pytest.fixture
def rated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[int]]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TAVOLO_DATABASE_URL", raising=False)
    path = tmp_path / "ratings.db"
    return path, asyncio.run(_populate(sqlite_url(path)))


def test_check_passes_on_ratings_as_saved(rated: tuple[Path, list[int]],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = rated
    code, out, err = run_cli(capsys, "ratings", "rebuild", "--check",
                             "--database-url", sqlite_url(path))
    assert code == 0 and out == ""
    assert "3 match(es) taken in, 3 rated; 0 difference(s)" in err


def test_check_finds_a_tampered_rating_and_rebuild_repairs_it(
        rated: tuple[Path, list[int]], capsys: pytest.CaptureFixture[str]) -> None:
    path, (_, ben, _) = rated
    with closing(sqlite3.connect(path)) as db:
        saved = db.execute("SELECT mu, sigma FROM ratings WHERE player_id = ?", (ben,)).fetchone()
        db.execute("UPDATE ratings SET mu = 99 WHERE player_id = ?", (ben,))
        db.commit()
    url = sqlite_url(path)
    code, out, _ = run_cli(capsys, "ratings", "rebuild", "--check", "--database-url", url)
    assert code == 1 and f"player {ben} in eriantys: saved Standing(mu=99.0" in out
    with closing(sqlite3.connect(path)) as db:  # --check wrote nothing
        assert db.execute("SELECT mu FROM ratings WHERE player_id = ?", (ben,)).fetchone() == (99,)
    code, _, err = run_cli(capsys, "ratings", "rebuild", "--database-url", url)
    assert code == 0 and "ratings rewritten" in err
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT mu, sigma FROM ratings WHERE player_id = ?",
                          (ben,)).fetchone() == saved
    code, _, _ = run_cli(capsys, "ratings", "rebuild", "--check", "--database-url", url)
    assert code == 0


def test_rebuild_needs_an_existing_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "ratings", "rebuild", "--database-url",
                           sqlite_url(tmp_path / "none.db"))
    assert code == 2 and "no database file" in err
