from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from service.store import create_engine, is_sqlite_url, normalise_url


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("sqlite:///x.db", "sqlite+aiosqlite:///x.db"),
        ("sqlite:////abs/x.db", "sqlite+aiosqlite:////abs/x.db"),
        ("sqlite://", "sqlite+aiosqlite://"),
        ("sqlite+aiosqlite:///x.db", "sqlite+aiosqlite:///x.db"),
        ("postgresql://u:p@h:5432/db", "postgresql+asyncpg://u:p@h:5432/db"),
        ("postgres://u@h/db", "postgresql+asyncpg://u@h/db"),
        ("postgresql+asyncpg://u@h/db", "postgresql+asyncpg://u@h/db"),
    ],
)
def test_normalise_url(given: str, expected: str) -> None:
    assert normalise_url(given) == expected


def test_normalise_url_rejects_non_urls() -> None:
    with pytest.raises(ValueError):
        normalise_url("tavolo.db")


def test_is_sqlite_url() -> None:
    assert is_sqlite_url("sqlite:///x.db")
    assert not is_sqlite_url("postgres://u@h/db")


async def test_sqlite_connections_get_the_pragmas(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'p.db'}")
    try:
        async with engine.connect() as connection:
            pragma = (lambda name: connection.execute(text(f"PRAGMA {name}")))  # noqa: E731
            assert (await pragma("journal_mode")).scalar() == "wal"
            assert (await pragma("foreign_keys")).scalar() == 1
            assert (await pragma("busy_timeout")).scalar() >= 1000
            assert (await pragma("synchronous")).scalar() == 2  # FULL: survives an OS crash
    finally:
        await engine.dispose()


async def test_a_setting_may_lower_sqlite_durability_to_normal(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'p.db'}", sqlite_synchronous="NORMAL")
    try:
        async with engine.connect() as connection:
            assert (await connection.execute(text("PRAGMA synchronous"))).scalar() == 1
    finally:
        await engine.dispose()
    with pytest.raises(ValueError):
        create_engine(f"sqlite:///{tmp_path / 'q.db'}", sqlite_synchronous="FULL; DROP")  # type: ignore[arg-type]
