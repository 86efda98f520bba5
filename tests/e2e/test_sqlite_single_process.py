"""Issue 18: SQLite is single-process. A second `serve` on the same SQLite file refuses to
start with one line naming the process that serves it; once that process is gone (SIGKILL
too: the kernel drops its lock), a new `serve` starts."""

from __future__ import annotations

import asyncio
import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.store.exclusive import (SUFFIX, DatabaseInUse, ServeLock, ServeLockError,
                                     lock_for_serve, sqlite_file)
from service.tools.process import ServerProcess

pytestmark = pytest.mark.slow


async def second_serve(url: str) -> tuple[int, str, str]:
    """Run `serve` on ``url`` to its end (a refused one ends at once); exit code and output."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "service", "serve", "--database-url", url, "--host", "127.0.0.1",
        "--http-port", "0", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(process.communicate(), 60)
    except asyncio.TimeoutError:
        process.kill()
        await process.wait()
        raise AssertionError("the second serve did not refuse to start") from None
    return process.returncode or 0, out.decode(), err.decode()


async def test_a_second_serve_on_the_same_sqlite_file_refuses_naming_the_first(
        tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'one.db'}"
    first = await ServerProcess(url).start()
    try:
        assert first.process is not None
        code, out, err = await second_serve(url)
        assert code == 2, (out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert f"pid {first.process.pid}" in lines[0] and "one.db" in lines[0]
        assert "single-process" in lines[0]
        # the first server goes on serving, untouched
        assert first.process.returncode is None
    finally:
        await first.kill()
    # killed (no shutdown code ran): its lock went with it, a new server starts
    again = await ServerProcess(url).start()
    await again.kill()


async def test_another_sqlite_file_is_served_beside(tmp_path: Path) -> None:
    one = await ServerProcess(f"sqlite+aiosqlite:///{tmp_path / 'one.db'}").start()
    try:
        two = await ServerProcess(f"sqlite+aiosqlite:///{tmp_path / 'two.db'}").start()
        await two.kill()
    finally:
        await one.kill()


def test_the_lock_is_per_file_and_names_its_holder(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'x.db'}"
    held = lock_for_serve(url)
    assert held is not None
    try:
        assert (tmp_path / f"x.db{SUFFIX}").read_text().strip() == str(os.getpid())
        # a second descriptor is a second holder, even in this process
        with pytest.raises(DatabaseInUse, match=f"pid {os.getpid()}"):
            ServeLock(tmp_path / "x.db").acquire()
    finally:
        held.release()
    with ServeLock(tmp_path / "x.db").acquire():  # released: it can be taken again
        pass
    assert sqlite_file("postgresql+asyncpg://postgres@127.0.0.1/test") is None
    assert sqlite_file("sqlite+aiosqlite:///:memory:") is None
    assert lock_for_serve("postgresql+asyncpg://postgres@127.0.0.1/test") is None
    with pytest.raises(ServeLockError, match=f"the folder {tmp_path / 'missing'} of the SQLite "
                                             "database does not exist"):
        lock_for_serve(f"sqlite+aiosqlite:///{tmp_path / 'missing' / 'x.db'}")


@pytest.mark.parametrize(("code", "said"), [(errno.EROFS, "is on a read-only filesystem"),
                                            (errno.EACCES, "is not writable by this user")])
def test_a_folder_the_service_cannot_write_is_named_with_its_cause(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, said: str) -> None:
    """The kernel's refusal (a read-only mount, a folder of another user: neither can be made
    here as root) comes from os.open, as it would."""
    def refused(*args: object, **kwargs: object) -> int:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "open", refused)
    with pytest.raises(ServeLockError, match=f"the folder {tmp_path} of the SQLite database {said}"):
        lock_for_serve(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")


def test_serve_names_a_missing_folder_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "service", "serve", "--database-url",
                           f"sqlite+aiosqlite:///{tmp_path / 'nowhere' / 'x.db'}", "--http-port", "0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"tavolo serve: the folder {tmp_path / 'nowhere'} of the SQLite database does not exist: "
        "create it, or name a file in another folder"]
