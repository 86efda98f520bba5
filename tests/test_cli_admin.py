"""The operator's CLI: matches abort/delete, players list/show (on a SQLite file; the store
underneath is tested on both databases in tests/store/test_store_admin.py)."""

from __future__ import annotations

import json

import pytest

from tests.test_cli import Saved, listed, run_cli, saved  # noqa: F401  (saved is a fixture)


def test_abort_ends_a_live_match_once(saved: Saved, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "matches", "abort", str(saved.active), "--database-url", saved.url)
    assert code == 0 and out.strip() == f"match {saved.active} aborted"
    row = next(r for r in listed(capsys, saved.url) if r["id"] == saved.active)
    assert row["status"] == "aborted"
    code, _, err = run_cli(capsys, "matches", "abort", str(saved.active), "--database-url", saved.url)
    assert code == 1 and "the match is aborted" in err
    code, _, err = run_cli(capsys, "matches", "abort", str(saved.finished), "--database-url", saved.url)
    assert code == 1 and "finished" in err
    code, out, _ = run_cli(capsys, "matches", "replay", str(saved.active), "--database-url", saved.url)
    assert code == 0 and "snapshot matches" in out  # aborting left the log as it was


def test_abort_of_no_match_says_so(saved: Saved, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "matches", "abort", "9999", "--database-url", saved.url)
    assert code == 1 and "no match 9999" in err


def test_delete_removes_a_match_and_only_it(saved: Saved, capsys: pytest.CaptureFixture[str]) -> None:
    before = {r["id"] for r in listed(capsys, saved.url)}
    code, out, _ = run_cli(capsys, "matches", "delete", str(saved.finished), "--database-url", saved.url)
    assert code == 0 and "deleted" in out
    assert {r["id"] for r in listed(capsys, saved.url)} == before - {saved.finished}
    code, _, err = run_cli(capsys, "matches", "delete", str(saved.finished), "--database-url", saved.url)
    assert code == 1 and f"no match {saved.finished}" in err


def test_players_list_and_show(saved: Saved, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "players", "list", "--json", "--database-url", saved.url)
    rows = json.loads(out)
    assert code == 0 and [r["nickname"] for r in rows] == ["erin", "dave", "carol", "bob", "alice"]
    code, out, _ = run_cli(capsys, "players", "list", "--database-url", saved.url)
    assert code == 0 and out.splitlines()[0].split()[:2] == ["id", "nickname"] and "alice" in out
    code, out, _ = run_cli(capsys, "players", "show", "carol", "--json", "--database-url", saved.url)
    carol = json.loads(out)
    assert code == 0 and carol["nickname"] == "carol"
    assert [(m["id"], m["seat"], m["status"]) for m in carol["matches"]] == [(saved.active, 0, "active")]
    code, out, _ = run_cli(capsys, "players", "show", f"#{carol['id']}", "--database-url", saved.url)
    assert code == 0 and f"match {saved.active:>6}" in out and "carol" in out
    code, _, err = run_cli(capsys, "players", "show", "nobody", "--database-url", saved.url)
    assert code == 1 and "no player 'nobody'" in err


def test_every_admin_flag_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["matches", "abort"], ["matches", "delete"], ["players", "list"],
                 ["players", "show"]):
        with pytest.raises(SystemExit):
            run_cli(capsys, *argv, "--help")
        out = capsys.readouterr().out
        assert "--database-url" in out
        if argv[1] in ("list", "show"):
            assert "--json" in out and "print JSON" in out


# --- what operators do to players ------------------------------------------------------------

def test_reset_rename_ban_unban_and_the_log(saved: Saved,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = ("--database-url", saved.url)
    code, out, _ = run_cli(capsys, "players", "reset", "carol", "--by", "sam", *db)
    assert code == 0 and "recovery code" in out
    code_line = out.strip().splitlines()[-1]
    assert code_line.split(": ")[-1].count("-") == 4
    code, out, _ = run_cli(capsys, "players", "rename", "carol", "Caroline", *db)
    assert code == 0 and "'Caroline'" in out
    code, _, err = run_cli(capsys, "players", "rename", "caroline", "BOB", *db)
    assert code == 1 and "session/nickname_taken" in err  # and nothing changed:
    code, out, _ = run_cli(capsys, "players", "show", "caroline", "--json", *db)
    assert json.loads(out)["nickname"] == "Caroline"
    code, out, _ = run_cli(capsys, "players", "ban", "caroline", "--reason", "cheating", *db)
    assert code == 0 and "banned: cheating" in out
    code, out, _ = run_cli(capsys, "players", "show", "caroline", "--json", *db)
    shown = json.loads(out)
    assert shown["banned"]["reason"] == "cheating"
    # carol's active match of two sides ended: the other side won
    row = next(r for r in listed(capsys, saved.url) if r["id"] == saved.active)
    assert row["status"] == "finished"
    code, out, _ = run_cli(capsys, "players", "unban", "caroline", *db)
    assert code == 0 and "no longer banned" in out
    code, out, _ = run_cli(capsys, "players", "log", "--player", "caroline", "--json", *db)
    log = json.loads(out)
    assert [e["what"] for e in log] == ["unban", "ban", "rename", "reset"]
    assert log[-1]["operator"].startswith("sam (CLI on ")
    assert log[2]["detail"] == {"from": "carol", "to": "Caroline"}
    code, _, err = run_cli(capsys, "players", "ban", "nobody", "--reason", "x", *db)
    assert code == 1 and "no player 'nobody'" in err
