"""`tavolo bot` reports results: each finished match's winners (and scores where the game
keeps them) and its own seats' verdicts, then the wins, losses and draws of its seats."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from service.app import create_app
from service.bots.client import MatchResult, Plan, Tally, run, verdict
from service.cli import main
from service.gateway.keys import HUB
from service.settings import Settings


def test_a_seat_won_lost_or_drew() -> None:
    won = {"winners": [1], "draw": False, "reason": "climbed"}
    assert [verdict(won, "finished", s) for s in (0, 1)] == ["lost", "won"]
    tie = {"winners": [0, 1], "draw": True, "reason": "tie"}
    assert verdict(tie, "finished", 1) == "drawn"
    assert verdict({"winners": [], "draw": True}, "finished", 0) == "drawn"
    assert verdict({"winners": [], "reason": "aborted"}, "aborted", 0) == "aborted"
    assert verdict(None, "active", 0) == "unfinished"


def test_lines_say_the_winner_the_scores_and_the_own_seats() -> None:
    solo = MatchResult(4, "renaissance", "finished",
                       {"winners": [0], "draw": False, "reason": "seventh_card",
                        "detail": {"scores": [41]}}, (0,))
    assert solo.line() == ("match 4 (renaissance) won by seat 0 (seventh_card); scores 41; "
                           "own seat 0: won")
    pair = MatchResult(5, "santorini", "finished", {"winners": [1], "draw": False}, (0, 1))
    assert pair.line() == "match 5 (santorini) won by seat 1; own seat 0: lost; own seat 1: won"
    tally = Tally(finished=2, results=[pair, solo])
    lines = tally.summary(1.0).splitlines()
    assert lines[:2] == [solo.line(), pair.line()]  # in match order
    assert lines[2] == "own seats over 2 match(es): 2 won, 1 lost, 0 drawn"
    assert lines[3].startswith("2 match(es) finished")


@pytest.fixture
async def server(aiohttp_client: Any, database_url: str) -> AsyncIterator[Any]:
    settings = Settings.for_tests(database_url, bot_budget=0.01, bot_pace=0.0)
    yield await aiohttp_client(create_app(settings))


def ws_url(client: Any) -> str:
    return f"ws://{client.server.host}:{client.server.port}/ws"


async def test_results_match_what_the_server_saved(server: Any) -> None:
    plan = Plan(url=ws_url(server), game="santorini", options={"gods": False}, seats=None,
                against="easy", seed=2)
    tally, _, ids = await run(plan, 2, 1)
    assert sorted(r.match_id for r in tally.results) == sorted(ids) and len(ids) == 2
    store = server.server.app[HUB].store
    for result in tally.results:
        saved = await store.get_match(result.match_id)
        assert saved is not None and saved.status == "finished"
        assert result.outcome is not None
        assert result.outcome["winners"] == saved.result["winners"]
        assert result.seats == (0,)  # the external bot sat first; a server bot took seat 1
        assert result.verdicts == ["won" if 0 in saved.result["winners"] else "lost"]
    both = Plan(url=ws_url(server), game="santorini", options={"gods": False}, seats=None,
                against=None, seed=3)
    tally, _, ids = await run(both, 1, 1)
    assert tally.results[0].seats == (0, 1) and sorted(tally.results[0].verdicts) == ["lost", "won"]


async def test_the_bot_command_prints_each_result_and_the_record(
        server: Any, capsys: pytest.CaptureFixture[str]) -> None:
    code = await asyncio.to_thread(main, [
        "bot", "--url", ws_url(server), "--game", "santorini", "--options", '{"gods": false}',
        "--matches", "2", "--against", "medium", "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    lines = out.splitlines()
    ids = [int(i) for i in lines[0].removeprefix("matches: ").split()]
    store = server.server.app[HUB].store
    verdicts = []
    for match_id in ids:
        saved = await store.get_match(match_id)
        assert saved is not None
        mine = "won" if 0 in saved.result["winners"] else "lost"
        verdicts.append(mine)
        line = next(line for line in lines if line.startswith(f"match {match_id} (santorini) "))
        assert f"won by seat {saved.result['winners'][0]}" in line
        assert line.endswith(f"own seat 0: {mine}")
    record = f"own seats over 2 match(es): {verdicts.count('won')} won, {verdicts.count('lost')} lost, 0 drawn"
    assert record in lines
    assert any(line.startswith("2 match(es) finished") for line in lines)
