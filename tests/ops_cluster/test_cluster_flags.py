"""Issue 18, the operating side: `serve`'s cluster flags and settings, and the refusals that
stop it before it starts (exit status 2, one line on stderr, nothing served)."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import pytest

from service import cli
from service.cli_workers import (
    check_cluster,
    fixed_ports,
    without_parent_flags,
    worker_commands,
    worker_node_id,
)
from service.cluster.ownership import check_node_id
from service.settings import Settings, bus_kind_of, default_node_id, node_id_of

POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run `serve` with ``argv``: it must exit 2 with one line on stderr and print nothing."""
    code = cli.main(["serve", "--host", "127.0.0.1", "--http-port", "0", *argv])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("tavolo serve: ")
    return lines[0]


def sqlite(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'one.db'}"


def test_an_unsupported_bus_url_is_refused_in_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    line = refused(capsys, "--database-url", POSTGRES, "--cluster-bus", "kafka://broker:9092")
    assert "unsupported cluster bus URL 'kafka'" in line and "nats://" in line
    assert not (tmp_path / "one.db").exists()


def test_the_bus_comes_from_the_environment_too(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVOLO_CLUSTER_BUS", "amqp://rabbit")
    assert "unsupported cluster bus URL 'amqp'" in refused(capsys, "--database-url", POSTGRES)


def test_a_bus_on_sqlite_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    line = refused(capsys, "--database-url", sqlite(tmp_path),
                   "--cluster-bus", "nats://127.0.0.1:4222")
    assert "--cluster-bus needs PostgreSQL" in line and "single-process" in line
    assert not (tmp_path / "one.db").exists()  # refused before anything was created


def test_workers_on_sqlite_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    line = refused(capsys, "--database-url", sqlite(tmp_path), "--workers", "2")
    assert "--workers 2 needs PostgreSQL" in line and "single-process" in line
    assert not (tmp_path / "one.db").exists()


def test_workers_without_a_bus_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(capsys, "--database-url", POSTGRES, "--workers", "3")
    assert "--workers 3 needs --cluster-bus" in line


def test_a_bad_node_id_and_zero_workers_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert "bad node id" in refused(capsys, "--database-url", POSTGRES, "--node-id", "no spaces")
    assert "bad node id" in refused(capsys, "--database-url", POSTGRES, "--node-id", "x" * 41)
    assert "at least 1" in refused(capsys, "--database-url", POSTGRES, "--workers", "0")


def test_settings_read_the_cluster_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVOLO_CLUSTER_BUS", "nats://nats:4222")
    monkeypatch.setenv("TAVOLO_NODE_ID", "node-a")
    settings = Settings()
    assert (settings.cluster_bus, settings.node_id, settings.reuse_port) == (
        "nats://nats:4222", "node-a", False)
    assert node_id_of(settings) == "node-a" and bus_kind_of(settings) == "nats"
    monkeypatch.setenv("TAVOLO_CLUSTER_BUS", "")
    assert Settings().cluster_bus is None and bus_kind_of(Settings()) == "none"


def test_the_default_node_id_is_host_and_pid_cut_to_the_rule(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert node_id_of(Settings()) == default_node_id()
    assert default_node_id().endswith(f"-{os.getpid()}")
    monkeypatch.setattr(socket, "gethostname", lambda: "a very/long host name " * 4)
    made = default_node_id(4_194_304)
    assert check_node_id(made) == made and len(made) == 40 and made.endswith("-4194304")
    monkeypatch.setattr(socket, "gethostname", lambda: "")
    assert default_node_id(7) == "node-7"


def test_the_cluster_checks_accept_what_they_should() -> None:
    assert check_cluster(Settings(database_url=POSTGRES), 1) == "none"
    on_bus = Settings(database_url=POSTGRES, cluster_bus="redis://127.0.0.1:6379/0")
    assert check_cluster(on_bus, 4) == "redis"
    assert check_cluster(Settings(database_url="sqlite+aiosqlite:///x.db"), 1) == "none"


def test_workers_get_the_parent_command_line_with_their_own_id_and_fixed_ports() -> None:
    argv = ["serve", "--workers", "2", "--node-id", "base", "--cluster-bus", "nats://n:4222",
            "--workers=2", "--node-id=other", "--log-format", "json"]
    assert without_parent_flags(argv) == ["serve", "--cluster-bus", "nats://n:4222",
                                          "--log-format", "json"]
    settings = Settings(database_url=POSTGRES, host="127.0.0.1", http_port=0)
    flags = fixed_ports(settings, {"santorini": 0, "dolphinfox": 7002})
    http, santorini = int(flags[1]), int(flags[3].split("=")[1])
    assert http > 0 and santorini > 0 and flags[4:] == ["--listen", "dolphinfox=7002"]
    workers = worker_commands(argv, settings, {"dolphinfox": 7002}, 2, "b" * 40)
    assert [w.node_id for w in workers] == ["b" * 38 + "-1", "b" * 38 + "-2"]
    for worker in workers:
        assert worker.command[:3] == [sys.executable, "-m", "service"]
        assert "--workers" not in worker.command and "--workers=2" not in worker.command
        assert worker.command[-2:] == ["--node-id", worker.node_id]
        assert worker.command.count("--node-id") == 1
        assert "reuse_port=true" in worker.command and "dolphinfox=7002" in worker.command
    assert workers[0].command[:-1] == workers[1].command[:-1]  # the same ports for both
    assert worker_node_id("n", 12) == "n-12"
