from __future__ import annotations

import asyncio
from typing import Any

import pytest

from service.errors import SessionError
from service.store import MatchRecord, SeatRecord, SeatSpec, Store, StoreConflict

SNAPSHOT: dict[str, Any] = {
    "board": [[0, 1, None], [2, -3, 4]],
    "bag": {"order": ["a", "b", "ü"], "left": 17},
    "flags": {"done": False, "score": 1.5, "nested": {"deep": [{"x": [1, [2, [3]]]}]}},
}


async def _match(
    store: Store,
    seats: list[SeatSpec] | None = None,
    *,
    game: str = "dolphinfox",
    status: str = "waiting",
    rematch_of: int | None = None,
) -> MatchRecord:
    return await store.create_match(
        game=game,
        options={"variant": "basic", "rounds": 3},
        seed=2**62 + 12345,
        seats=seats if seats is not None else [(0, None, None, None), (1, None, None, None)],
        snapshot=SNAPSHOT,
        status=status,
        dialect="ws",
        rematch_of=rematch_of,
    )


def _ids(matches: list[MatchRecord]) -> list[int]:
    return [match.id for match in matches]


async def test_create_and_get_match(store: Store) -> None:
    ada = await store.create_player("Ada", None)
    created = await _match(store, [(1, None, 2, "black"), (0, ada.id, 1, "white")])
    assert created.game == "dolphinfox" and created.status == "waiting"
    assert created.version == 0 and created.result is None
    assert created.seed == 2**62 + 12345
    assert created.options == {"variant": "basic", "rounds": 3}
    assert created.dialect == "ws"
    assert created.rematch_of is None and created.rematch_id is None
    assert created.seats == (  # in seat order, whatever the order given
        SeatRecord(seat=0, player_id=ada.id, nickname="Ada", team=1, label="white"),
        SeatRecord(seat=1, player_id=None, nickname=None, team=2, label="black"),
    )
    assert created.created_at.tzinfo is not None and created.updated_at.tzinfo is not None
    assert await store.get_match(created.id) == created
    assert await store.get_match(created.id + 1) is None


async def test_json_round_trip_of_nested_snapshot(store: Store) -> None:
    created = await _match(store)
    again = await store.get_match(created.id)
    assert again is not None and again.snapshot == SNAPSHOT
    assert again.snapshot["flags"]["nested"]["deep"][0]["x"][1][1] == [3]


async def test_seat_with_unknown_player_is_a_conflict(store: Store) -> None:
    with pytest.raises(StoreConflict):
        await _match(store, [(0, 999, None, None)])
    assert await store.list_matches() == []


async def test_rematch_is_linked_and_idempotent(store: Store) -> None:
    old = await _match(store, status="finished")
    new = await _match(store, rematch_of=old.id)
    assert new.id != old.id and new.rematch_of == old.id
    linked = await store.get_match(old.id)
    assert linked is not None and linked.rematch_id == new.id
    assert await _match(store, rematch_of=old.id) == new
    racing = await asyncio.gather(*(_match(store, rematch_of=old.id) for _ in range(3)))
    assert {match.id for match in racing} == {new.id}
    assert len(await store.list_matches()) == 2


async def test_concurrent_rematch_race_past_the_check(store: Store) -> None:
    """Both writers miss the existence check; the unique constraint decides."""
    old = await _match(store, status="finished")
    real = store._rematch_of
    calls = 0

    async def nothing_at_first(match_id: int) -> MatchRecord | None:
        nonlocal calls
        calls += 1
        return None if calls <= 2 else await real(match_id)

    store._rematch_of = nothing_at_first  # type: ignore[method-assign]
    results = await asyncio.gather(*(_match(store, rematch_of=old.id) for _ in range(2)))
    assert results[0].id == results[1].id and calls == 3
    assert len(await store.list_matches()) == 2


async def test_sit(store: Store) -> None:
    ada = await store.create_player("Ada", None)
    match = await _match(store)
    await store.sit(match.id, 1, ada.id)
    seated = await store.get_match(match.id)
    assert seated is not None
    assert seated.seats[1].player_id == ada.id and seated.seats[1].nickname == "Ada"
    assert seated.snapshot == SNAPSHOT and seated.status == "waiting"
    assert seated.updated_at >= match.updated_at
    await store.sit(match.id, 1, ada.id, snapshot={"started": True}, status="active")
    again = await store.get_match(match.id)
    assert again is not None
    assert again.seats[1].player_id == ada.id  # one's own seat: fine
    assert again.snapshot == {"started": True} and again.status == "active"


async def test_sit_refusals_change_nothing(store: Store) -> None:
    ada = await store.create_player("Ada", None)
    bob = await store.create_player("Bob", None)
    match_id = (await _match(store)).id
    await store.sit(match_id, 0, ada.id)
    match = await store.get_match(match_id)
    assert match is not None
    with pytest.raises(SessionError) as caught:
        await store.sit(match.id, 0, bob.id, status="active")
    assert caught.value.code == "session/seat_taken"
    with pytest.raises(SessionError) as caught:
        await store.sit(match.id, 7, bob.id, status="active")
    assert caught.value.code == "session/no_such_seat"
    with pytest.raises(SessionError):
        await store.sit(match.id + 100, 0, bob.id)
    assert await store.get_match(match.id) == match


async def test_concurrent_sit_one_winner(store: Store) -> None:
    players = [await store.create_player(name, None) for name in ("a", "b", "c")]
    match = await _match(store)
    results = await asyncio.gather(
        *(store.sit(match.id, 0, player.id) for player in players), return_exceptions=True
    )
    winners = [result for result in results if result is None]
    losers = [result for result in results if isinstance(result, SessionError)]
    assert len(winners) == 1 and len(losers) == 2
    assert all(loser.code == "session/seat_taken" for loser in losers)


async def test_set_status(store: Store) -> None:
    match = await _match(store, status="active")
    await store.set_status(match.id, "finished", result={"winners": [0], "scores": [3, 1]})
    done = await store.get_match(match.id)
    assert done is not None and done.status == "finished"
    assert done.result == {"winners": [0], "scores": [3, 1]}
    await store.set_status(match.id, "aborted")
    aborted = await store.get_match(match.id)
    assert aborted is not None and aborted.status == "aborted" and aborted.result == done.result
    with pytest.raises(SessionError) as caught:
        await store.set_status(match.id + 1, "aborted")
    assert caught.value.code == "session/no_such_match"


async def test_list_matches_and_matches_of_player(store: Store) -> None:
    ada = await store.create_player("Ada", None)
    bob = await store.create_player("Bob", None)
    m1 = await _match(store, [(0, ada.id, None, None)], game="g1", status="waiting")
    m2 = await _match(store, [(0, bob.id, None, None)], game="g1", status="active")
    m3 = await _match(store, [(0, ada.id, None, None), (1, bob.id, None, None)], game="g2")
    m4 = await _match(store, [(0, ada.id, None, None)], game="g2", status="finished")

    assert _ids(await store.list_matches()) == [m4.id, m3.id, m2.id, m1.id]
    assert _ids(await store.list_matches(game="g1")) == [m2.id, m1.id]
    assert _ids(await store.list_matches(status="waiting")) == [m3.id, m1.id]
    assert _ids(await store.list_matches(game="g2", status="finished")) == [m4.id]
    assert _ids(await store.list_matches(player_id=ada.id)) == [m4.id, m3.id, m1.id]
    assert _ids(await store.list_matches(player_id=bob.id, game="g2")) == [m3.id]
    assert _ids(await store.list_matches(limit=2)) == [m4.id, m3.id]
    assert _ids(await store.list_matches(limit=2, offset=2)) == [m2.id, m1.id]
    assert await store.list_matches(game="nope") == []

    assert _ids(await store.matches_of_player(ada.id)) == [m3.id, m1.id]
    assert _ids(await store.matches_of_player(ada.id, game="g1")) == [m1.id]
    assert _ids(await store.matches_of_player(ada.id, statuses=("finished",))) == [m4.id]
    assert _ids(await store.matches_of_player(bob.id, statuses=("active",))) == [m2.id]
    assert await store.matches_of_player(bob.id + 1) == []

    # the same questions answered without reading records (the creation limits ask them)
    assert await store.count_matches_of_player(ada.id, statuses=("waiting",)) == 2
    assert await store.count_matches_of_player(ada.id, statuses=("finished", "active")) == 1
    assert await store.count_matches_of_player(bob.id + 1, statuses=("waiting",)) == 0
    assert await store.statuses_of([m1.id, m2.id, m4.id, m4.id + 99]) == {
        m1.id: "waiting", m2.id: "active", m4.id: "finished"}
    assert await store.statuses_of([]) == {}
