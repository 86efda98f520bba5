"""The operator commands of the CLI: export, import, time travel, schemas, and one clear line
(exit 2, no traceback) for every bad flag, URL or database."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest
from test_cli import Saved, run_cli, saved, sqlite_url  # noqa: F401  (saved is a fixture)

from service.bots.policies import LEVELS
from service.cli import build_parser, main, serve_settings
from service.settings import Settings


def test_export_then_import_proves_the_copy_by_replay(
        saved: Saved, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "match.json"
    code, _, err = run_cli(capsys, "matches", "export", str(saved.active), "-o", str(target),
                           "--database-url", saved.url)
    assert code == 0 and "reading" in err and str(target) in err
    doc = json.loads(target.read_text())
    assert doc["match_id"] == saved.active and doc["version"] == len(doc["actions"]) == 2
    assert {"game", "options", "seed", "seats", "result", "tavolo"} <= set(doc)
    code, out, _ = run_cli(capsys, "matches", "import", str(target), "--database-url", saved.url)
    assert code == 0 and "the snapshot matches" in out
    new_id = int(out.split("imported as match ")[1].split()[0])
    code, out, _ = run_cli(capsys, "matches", "export", str(new_id), "--database-url", saved.url)
    again = json.loads(out)
    assert again["actions"] == [{**a, "at": again["actions"][i]["at"]} for i, a in enumerate(doc["actions"])]


def test_a_refused_import_creates_no_database(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    """The document is read and checked before any database is opened: a mistyped URL and a
    refused document leave no new database file behind."""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": 1, "game": "chess"}))
    target = tmp_path / "mistyped.db"
    code, _, err = run_cli(capsys, "matches", "import", str(bad), "--database-url",
                           sqlite_url(target))
    assert code == 1 and "not a Tavolo export" in err
    assert not target.exists()


def test_import_of_a_tampered_document_exits_1_and_adds_nothing(
        saved: Saved, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, out, _ = run_cli(capsys, "matches", "export", str(saved.active), "--database-url", saved.url)
    doc = json.loads(out)
    doc["actions"][1]["action"] = doc["actions"][0]["action"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    code, _, err = run_cli(capsys, "matches", "import", str(bad), "--database-url", saved.url)
    assert code == 1 and "does not replay" in err and "Traceback" not in err
    _, out, _ = run_cli(capsys, "matches", "list", "--json", "--database-url", saved.url)
    assert len(json.loads(out)) == 3
    code, _, err = run_cli(capsys, "matches", "import", str(tmp_path / "none.json"),
                           "--database-url", saved.url)
    assert code == 2 and "cannot read" in err


def _export_of(saved: Saved, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    _, out, _ = run_cli(capsys, "matches", "export", str(saved.active), "--database-url", saved.url)
    doc: dict[str, Any] = json.loads(out)
    return doc


def _refused_and_nothing_added(saved: Saved, capsys: pytest.CaptureFixture[str], file: str,
                               reason: str) -> None:
    code, out, err = run_cli(capsys, "matches", "import", file, "--database-url", saved.url)
    lines = [line for line in err.splitlines() if line.startswith("tavolo:")]
    assert code == 1 and out == "" and len(lines) == 1 and reason in lines[0], err
    assert "Traceback" not in err and "RecursionError" not in err
    _, out, _ = run_cli(capsys, "matches", "list", "--json", "--database-url", saved.url)
    assert len(json.loads(out)) == 3


def test_import_reads_a_bounded_amount(saved: Saved, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 25: ``import /dev/zero`` read forever; it stops after the size limit."""
    _refused_and_nothing_added(saved, capsys, "/dev/zero", "the document is larger than")


def test_import_of_a_deep_document_is_one_line_not_a_recursion_error(
        saved: Saved, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    _refused_and_nothing_added(saved, capsys, str(deep), "JSON nested deeper than")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": 1,')
    _refused_and_nothing_added(saved, capsys, str(broken), "not valid JSON")


@pytest.mark.parametrize("field, value, reason", [
    ("nickname", "mallory\u202e", "nickname 'mallory\\u202e' refused"),
    ("bot_level", "evil", f"no bot level 'evil' (levels: {', '.join(sorted(LEVELS))})"),
])
def test_import_applies_the_nickname_rule_and_knows_the_bot_levels(
        saved: Saved, capsys: pytest.CaptureFixture[str], tmp_path: Path, field: str,
        value: str, reason: str) -> None:
    """Issue 25: a right-to-left override was accepted as a nickname, and ``"evil"`` made a
    bot the server could not play."""
    doc = _export_of(saved, capsys)
    doc["seats"][1][field] = value
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    _refused_and_nothing_added(saved, capsys, str(bad), reason)


def test_replay_at_shows_the_position_after_n_actions(
        saved: Saved, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "matches", "replay", str(saved.active), "--at", "2", "--json",
                           "--database-url", saved.url)
    position = json.loads(out)
    assert code == 0 and position["version"] == 2 and position["action"]["seq"] == 2
    code, out, _ = run_cli(capsys, "matches", "replay", str(saved.active), "--at", "0",
                           "--database-url", saved.url)
    assert code == 0 and "after 0 of 2 actions" in out and "(the start)" in out
    code, out, _ = run_cli(capsys, "matches", "replay", str(saved.active), "--moves",
                           "--database-url", saved.url)
    assert code == 0 and out.splitlines()[0].startswith("   1. ") and "(carol)" in out
    code, _, err = run_cli(capsys, "matches", "replay", str(saved.active), "--at", "3",
                           "--database-url", saved.url)
    assert code == 1 and "from 0 to 2" in err


@pytest.mark.parametrize("what", ["canonical", "dolphinfox", "eriantys", "renaissance", "santorini"])
def test_schema_prints_json_schema(capsys: pytest.CaptureFixture[str], what: str) -> None:
    code, out, _ = run_cli(capsys, "schema", what)
    document = json.loads(out)
    assert code == 0 and document["$schema"].startswith("https://json-schema.org/")
    if what == "canonical":
        assert "hello" in json.dumps(document["client"]) and "ack" in json.dumps(document["server"])


@pytest.mark.parametrize("argv", [
    ["serve", "--log-level", "verbose"],
    ["serve", "--http-port", "eighty"],
    ["schema", "chess"],
    ["matches", "replay", "1", "--at", "x"],
    ["bot", "--game", "santorini", "--options", "[1]"],
])
def test_a_bad_flag_is_one_usage_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "error:" in err and "Traceback" not in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.startswith("tavolo ")


def test_every_flag_has_help() -> None:
    def walk(parser: argparse.ArgumentParser) -> list[str]:
        missing = [f"{parser.prog} {a.dest}" for a in parser._actions
                   if not a.help and not isinstance(a, argparse._SubParsersAction)]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for child in action.choices.values():
                    missing += walk(child)
        return missing

    assert walk(build_parser()) == []


@pytest.mark.parametrize("url, says", [
    ("mysql://root@localhost/tavolo", "unsupported database 'mysql'"),
    ("nonsense", "bad database URL"),
])
@pytest.mark.parametrize("command", [["matches", "list"], ["db", "upgrade"], ["serve"]])
def test_an_unusable_url_is_one_line(capsys: pytest.CaptureFixture[str], url: str, says: str,
                                     command: list[str]) -> None:
    code, out, err = run_cli(capsys, *command, "--database-url", url)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1


def test_read_only_commands_never_create_a_database(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "typo.db"
    for command in (["list"], ["show", "1"], ["replay", "1"], ["export", "1"]):
        code, _, err = run_cli(capsys, "matches", *command, "--database-url", sqlite_url(missing))
        assert code == 2 and "no database file" in err and not missing.exists()


@pytest.mark.postgres
def test_a_missing_postgres_database_is_one_line(
        capsys: pytest.CaptureFixture[str], database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL only")
    gone = database_url.rsplit("/", 1)[0] + "/tavolo_no_such_database"
    for command in (["matches", "list"], ["db", "upgrade"]):
        code, _, err = run_cli(capsys, *command, "--database-url", gone)
        assert code == 2 and 'database "tavolo_no_such_database" does not exist' in err
        assert "Traceback" not in err


def test_settings_come_from_the_environment_and_flags_win(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVOLO_HTTP_PORT", "9001")
    monkeypatch.setenv("TAVOLO_OUTBOX", "77")
    monkeypatch.setenv("TAVOLO_CORS_ORIGINS", "https://a.example, https://b.example")
    monkeypatch.setenv("TAVOLO_LISTEN", '{"santorini": null}')
    args = build_parser().parse_args(["serve", "--set", "outbox=88"])
    settings = serve_settings(args, "sqlite:///x.db")
    assert (settings.http_port, settings.outbox) == (9001, 88)
    assert settings.listen == {"santorini": None}
    assert settings.cors_origins == ["https://a.example", "https://b.example"]
    args = build_parser().parse_args(["serve", "--http-port", "9002", "--hand-testing"])
    settings = serve_settings(args, "sqlite:///x.db")
    assert settings.http_port == 9002 and settings.heartbeat_scale == 100
    args = build_parser().parse_args(["serve", "--listen", "santorini=0"])
    assert serve_settings(args, "sqlite:///x.db").listen == {"santorini": 0}
    assert Settings().listen == {"santorini": None}
