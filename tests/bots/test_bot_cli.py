"""The command line of bots: serve's bot settings, and `bot` against no server."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from service.cli import main


def test_serve_rejects_a_bad_bot_budget_with_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--bot-budget", "0", "--database-url", f"sqlite:///{tmp_path}/x.db"]) == 2
    assert "bot_budget" in capsys.readouterr().err
    assert not (tmp_path / "x.db").exists()


def test_bot_without_a_server_exits_1_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as free:  # a port nobody listens on
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    assert main(["bot", "--url", f"ws://127.0.0.1:{port}/ws", "--game", "santorini"]) == 1
    assert capsys.readouterr().err.startswith("tavolo bot: ")


def test_bot_refuses_a_level_it_cannot_play_from_outside(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["bot", "--game", "santorini", "--level", "mcts"])
    assert exited.value.code == 2
    assert "--level" in capsys.readouterr().err
