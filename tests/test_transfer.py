"""Export, import and time travel (service/transfer.py) on SQLite and PostgreSQL: every game
round-trips through its export document, and a document that does not replay changes nothing."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest

from service.bots.policies import LEVELS
from service.games.registry import GAME_MODULES, get_game
from service.inspection import position_at, replay
from service.sessions.hub import Hub
from service.sessions.match import MatchRuntime
from service.store import OPERATOR, PlayerRecord, Store
from service.transfer import (
    ImportRefused, describe, export_document, import_match, load_document, move_list,
)


async def _table(store: Store, game: str, moves: int, options: dict[str, Any] | None = None,
                 ) -> tuple[MatchRuntime, list[PlayerRecord]]:
    """A match of ``game`` with two people (one in a one-seat game) and ``moves`` random
    legal actions (fewer if it ends first)."""
    hub = Hub(store)
    seats = max(get_game(game).min_seats, 2)
    players = [(await hub.identify(nickname=f"{game[:6]}{i}")).player for i in range(seats)]
    runtime, _ = await hub.create(game, options, seats=seats, player=players[0])
    for other in players[1:]:
        await hub.join(runtime.id, other)
    rng = random.Random(7)
    for _ in range(moves):
        if runtime.status != "active":
            break
        seat = min(s for s in runtime.game.to_act(runtime.state)
                   if runtime.game.legal_actions(runtime.state, s))
        action = rng.choice(runtime.game.legal_actions(runtime.state, seat))
        await runtime.act(players[seat].id, runtime.game.dump_action(action))
    return runtime, players


async def _export(store: Store, match_id: int) -> dict[str, Any]:
    record = await store.get_match(match_id)
    assert record is not None
    return export_document(record, await store.actions(match_id))


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
async def test_every_game_round_trips_through_its_export(store: Store, game: str) -> None:
    runtime, _ = await _table(store, game, 15)
    doc = await _export(store, runtime.id)
    assert doc["game"] == game and doc["version"] == runtime.version == len(doc["actions"])
    assert doc["seed"] == runtime.seed and doc["tavolo"]
    assert [s["nickname"] for s in doc["seats"]][:2] == [f"{game[:6]}0", f"{game[:6]}1"]
    imported, difference = await import_match(store, doc, bot_levels=LEVELS)
    assert difference is None and imported.id != runtime.id
    original = await store.get_match(runtime.id)
    assert original is not None
    assert imported.snapshot == original.snapshot and imported.status == original.status
    assert [s.nickname for s in imported.seats] == [s.nickname for s in original.seats]
    assert replay(imported, await store.actions(imported.id)) is None
    lines = move_list(imported, await store.actions(imported.id), viewer=OPERATOR)
    assert len(lines) == imported.version and lines[0].startswith("   1. ")


async def test_a_finished_match_keeps_its_result(store: Store) -> None:
    runtime, _ = await _table(store, "dolphinfox", 5, {"max_moves": 1})
    assert runtime.status == "finished"
    doc = await _export(store, runtime.id)
    imported, difference = await import_match(store, doc, bot_levels=LEVELS)
    assert difference is None
    assert imported.status == "finished" and imported.result == doc["result"] is not None


async def test_a_resigned_match_keeps_its_result(store: Store) -> None:
    """A match ended by a resignation replays to no outcome; its saved result travels as is."""
    runtime, players = await _table(store, "santorini", 4)
    hub = Hub(store)
    await hub.lifecycle.resign(runtime.id, players[0].id)
    doc = await _export(store, runtime.id)
    assert doc["status"] == "finished" and doc["result"]["reason"] == "resigned"
    imported, difference = await import_match(store, doc, bot_levels=LEVELS)
    assert difference is None
    assert imported.status == "finished" and imported.result == doc["result"]


def _tampered(doc: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(doc)
    if how == "illegal action":
        bad["actions"][1]["action"] = bad["actions"][0]["action"]
        bad["actions"][1]["seat"] = bad["actions"][0]["seat"]
    elif how == "forged result":
        bad["status"], bad["result"] = "finished", {"winners": [1], "draw": False, "reason": "x"}
    elif how == "gap":
        del bad["actions"][1]
        bad["version"] -= 1
    elif how == "unknown game":
        bad["game"] = "chess"
    elif how == "version":
        bad["version"] += 1
    elif how == "extra field":
        bad["surprise"] = 1
    return bad


@pytest.mark.parametrize("how", ["illegal action", "forged result", "gap", "unknown game",
                                 "version", "extra field"])
async def test_a_document_that_does_not_replay_changes_nothing(store: Store, how: str) -> None:
    runtime, _ = await _table(store, "dolphinfox", 6)
    before = len(await store.list_matches())
    with pytest.raises(ImportRefused):
        await import_match(store, _tampered(await _export(store, runtime.id), how),
                           bot_levels=LEVELS)
    assert len(await store.list_matches()) == before
    assert await store.player_by_nickname("dolphi0") is not None  # nobody new either


@pytest.mark.parametrize("nickname", ["alice\u202e", "\u202eecila", "a\u200bb", " ", "x" * 40,
                                      "\u0430lice"])
async def test_a_nickname_the_rules_refuse_is_refused_and_changes_nothing(
        store: Store, nickname: str) -> None:
    """Issue 25: a right-to-left override (and everything else the one nickname rule refuses)
    was imported as a player's nickname."""
    runtime, _ = await _table(store, "dolphinfox", 2)
    doc = await _export(store, runtime.id)
    doc["seats"][1]["nickname"] = nickname
    before = len(await store.list_matches())
    with pytest.raises(ImportRefused, match="seat 1: nickname .* refused"):
        await import_match(store, doc, bot_levels=LEVELS)
    assert len(await store.list_matches()) == before
    assert await store.player_by_nickname(nickname) is None


async def test_an_imported_nickname_is_normalised_as_a_new_player_would_be(store: Store) -> None:
    runtime, _ = await _table(store, "dolphinfox", 2)
    doc = await _export(store, runtime.id)
    doc["seats"][1]["nickname"] = "  \uff4e\uff45\uff57   one "  # full-width "new", spaces
    imported, difference = await import_match(store, doc, bot_levels=LEVELS)
    assert difference is None and imported.seats[1].nickname == "new one"


async def test_an_unknown_bot_level_is_refused_and_changes_nothing(store: Store) -> None:
    """Issue 25: ``"evil"`` made a bot the server then failed to play on every move."""
    runtime, _ = await _table(store, "dolphinfox", 2)
    doc = await _export(store, runtime.id)
    doc["seats"][1]["bot_level"] = "evil"
    before = len(await store.list_matches())
    levels = re.escape(", ".join(sorted(LEVELS)))
    with pytest.raises(ImportRefused, match=f"seat 1: no bot level 'evil' \\(levels: {levels}\\)"):
        await import_match(store, doc, bot_levels=LEVELS)
    assert len(await store.list_matches()) == before
    with pytest.raises(ImportRefused, match="levels: none"):
        await import_match(store, doc, bot_levels=())
    doc["seats"][1]["bot_level"] = "random"  # a known level is seated as a new bot
    imported, difference = await import_match(store, doc, bot_levels=LEVELS)
    assert difference is None and imported.seats[1].bot_level == "random"


def test_a_document_is_read_within_its_size_and_depth() -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(ImportRefused, match="^not a Tavolo export: JSON nested deeper than 32 "):
        load_document(deep)
    with pytest.raises(ImportRefused, match="larger than 10 bytes"):
        load_document(b'{"a": "12345"}', limit=10)
    assert load_document(b'{"a": "1234"}', limit=13) == {"a": "1234"}
    with pytest.raises(ImportRefused, match="not UTF-8"):
        load_document(b'{"a": "\xff"}')
    with pytest.raises(ImportRefused, match="not valid JSON"):
        load_document(b'{"a": NaN}')


async def test_position_at_travels_to_every_version(store: Store) -> None:
    runtime, _ = await _table(store, "santorini", 8)
    record = await store.get_match(runtime.id)
    assert record is not None
    log = await store.actions(record.id)
    start, end = position_at(record, [], viewer=None), position_at(record, log, viewer=None)
    assert start["version"] == 0 and start["action"] is None
    assert end["view"] == runtime.game.view(runtime.state, None)
    assert position_at(record, log[:3], viewer=None)["action"]["seq"] == 3


def test_an_action_reads_as_its_type_then_its_fields() -> None:
    assert describe({"type": "move", "to": [1, 2], "god": True}) == "move to=1,2 god=true"
    assert describe({"kind": "buy", "row": 2, "cards": []}) == "buy row=2 cards=-"
    assert describe({"type": "place", "at": [{"x": 2, "y": 0}, {"x": 3, "y": 3}]}) == "place at=(2,0),(3,3)"
