"""What used to live only in memory is saved with the match and survives a restart: rematch
votes and per-match dialect data (the Santorini dialect's basic-turn choice); PostgreSQL keeps
the JSON columns as jsonb."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from service.errors import SessionError
from service.games.santorini.state import PLAY
from service.sessions.dialects import santorini_views as views
from service.sessions.hub import Hub
from service.store import Store
from tests.sessions.test_hub import finish, first_legal


async def test_rematch_votes_survive_a_restart(database_url: str) -> None:
    store = Store(database_url)
    await store.upgrade()
    hub = Hub(store)
    alice = (await hub.identify(nickname="alice")).player
    bob = (await hub.identify(nickname="bob")).player
    runtime, _ = await hub.create("dolphinfox", {"size": 4, "units": 1, "max_moves": 6}, player=alice)
    await hub.join(runtime.id, bob)
    await finish(runtime, [alice, bob])
    await hub.rematch(runtime.id, alice)
    await store.close()

    store = Store(database_url)  # a new process: nothing in memory
    try:
        hub = Hub(store)
        again = await hub.get(runtime.id)
        assert again.rematch_votes == {0} and again.rematch_id is None
        assert (await store.get_match(runtime.id)).rematch_votes == (0,)  # type: ignore[union-attr]
        await hub.rematch(runtime.id, bob)  # the second vote completes the first one's
        assert again.rematch_id is not None
    finally:
        await store.close()


async def _santorini_at_play(hub: Hub) -> Any:
    players = [(await hub.identify(nickname=n)).player for n in ("ann", "ben")]
    runtime, _ = await hub.create("santorini", {"gods": True}, player=players[0])
    await hub.join(runtime.id, players[1])
    while runtime.state.phase != PLAY:
        seat = min(runtime.to_act())
        await runtime.act(players[seat].id, first_legal(runtime, seat))
    return runtime


async def test_santorini_basic_turn_choice_survives_a_restart(database_url: str) -> None:
    store = Store(database_url)
    await store.upgrade()
    runtime = await _santorini_at_play(Hub(store))
    seat = runtime.state.current
    assert not views.saved_basic(runtime, seat)
    await runtime.save_dialect_data("santorini", {"basic_turn": runtime.state.turn_number})
    await runtime.save_dialect_data("other", {"kept": True})  # one dialect's data leaves the other's
    assert views.saved_basic(runtime, seat) and not views.saved_basic(runtime, 1 - seat)
    await store.close()

    store = Store(database_url)
    try:
        again = await Hub(store).get(runtime.id)
        assert views.saved_basic(again, seat)
        assert again.dialect_data == {"santorini": {"basic_turn": again.state.turn_number},
                                      "other": {"kept": True}}
        await again.save_dialect_data("santorini", None)  # forgotten
        saved = await store.get_match(runtime.id)
        assert saved is not None and saved.dialect_data == {"other": {"kept": True}}
    finally:
        await store.close()


async def test_dialect_data_of_a_missing_match_is_refused(store: Store) -> None:
    with pytest.raises(SessionError) as missing:
        await store.set_dialect_data(999, "santorini", {"basic_turn": 1})
    assert missing.value.code == "session/no_such_match"
    with pytest.raises(SessionError):
        await store.set_rematch_votes(999, [0])


@pytest.mark.postgres
async def test_postgres_keeps_json_as_jsonb(store: Store) -> None:
    if store.is_sqlite:
        pytest.skip("SQLite has one JSON type")
    async with store.engine.connect() as connection:
        rows = (await connection.execute(text(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_name IN ('matches', 'actions') AND data_type LIKE 'json%'"))).all()
    assert {(t, c): d for t, c, d in rows} == {
        ("matches", name): "jsonb" for name in
        ("options", "snapshot", "result", "rematch_votes", "dialect_data", "clock")} | {
        ("actions", "action"): "jsonb"}
