"""``tavolo matches list/show/replay/export`` read a read-only copy of a SQLite database (a
backup: the file mode 0444 in a folder mode 0555) and write nothing beside it (issue 21).

The commands run in a child process. Root may write anything whatever the modes say, so as
root the child runs without the capabilities that let it (``setpriv``), as an operator would."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.sessions.hub import Hub
from service.store import Store

#: what lets root write a file or folder its mode says it may not
OVERRIDES = "-dac_override,-dac_read_search,-fowner"


def as_operator() -> list[str]:
    """The command prefix that runs a child bound by file modes."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: file modes cannot bind the child")
    return [setpriv, "--bounding-set", OVERRIDES, "--"]


def tavolo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*as_operator(), sys.executable, "-m", "service", *args],
                          capture_output=True, text=True, timeout=120, check=False)


async def finished_match(url: str) -> int:
    store = Store(url)
    try:
        await store.upgrade()
        hub = Hub(store)
        ada, bob = [(await hub.identify(nickname=n)).player for n in ("ada", "bob")]
        runtime, _ = await hub.quick_join("dolphinfox", ada, {"max_moves": 1})
        await hub.quick_join("dolphinfox", bob, {"max_moves": 1})
        legal = runtime.game.legal_actions(runtime.state, 0)
        await runtime.act(ada.id, runtime.game.dump_action(legal[0]))
        assert runtime.status == "finished"
        return runtime.id
    finally:
        await store.close()


@pytest.fixture
def backup(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    live = tmp_path / "live.db"
    match_id = asyncio.run(finished_match(f"sqlite+aiosqlite:///{live}"))
    folder = tmp_path / "backups"
    folder.mkdir()
    copy = folder / "tavolo.db"
    shutil.copyfile(live, copy)
    copy.chmod(0o444)
    folder.chmod(0o555)
    try:
        yield copy, match_id
    finally:
        folder.chmod(0o755)


def test_every_reading_command_works_on_a_read_only_copy(backup: tuple[Path, int]) -> None:
    copy, match_id = backup
    before = copy.read_bytes()
    url = f"sqlite:///{copy}"
    listing = tavolo("matches", "list", "--json", "--database-url", url)
    assert listing.returncode == 0, listing.stderr
    assert [(m["id"], m["status"]) for m in json.loads(listing.stdout)] == [(match_id, "finished")]
    assert "read-only" in listing.stderr
    show = tavolo("matches", "show", str(match_id), "--database-url", url)
    assert show.returncode == 0 and "finished" in show.stdout, show.stderr
    replay = tavolo("matches", "replay", str(match_id), "--database-url", url)
    assert replay.returncode == 0 and "the snapshot matches" in replay.stdout, replay.stderr + replay.stdout
    export = tavolo("matches", "export", str(match_id), "--database-url", url)
    assert export.returncode == 0, export.stderr
    document = json.loads(export.stdout)
    assert document["match_id"] == match_id and len(document["actions"]) == 1
    assert sorted(p.name for p in copy.parent.iterdir()) == ["tavolo.db"]  # no -wal, no -shm
    assert copy.read_bytes() == before and stat.S_IMODE(copy.stat().st_mode) == 0o444


def test_a_write_to_a_read_only_copy_is_one_line(backup: tuple[Path, int]) -> None:
    copy, match_id = backup
    abort = tavolo("matches", "abort", str(match_id), "--database-url", f"sqlite:///{copy}")
    assert abort.returncode != 0 and "Traceback" not in abort.stderr
    assert len(abort.stderr.strip().splitlines()) <= 2, abort.stderr
