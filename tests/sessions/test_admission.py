"""What one player, one address and the process may hold open (sessions/admission.py), at the
hub over a real store: counts that follow the matches' fate, a restart, and the fair lobby."""

from __future__ import annotations

import pytest

from service.errors import SessionError
from service.sessions.admission import OpenLimits
from service.sessions.hub import Hub
from service.sessions.lobby_feed import fair_order
from service.store import PlayerRecord, Store

SMALL = {"size": 4, "units": 1, "max_moves": 12}


async def player(hub: Hub, nickname: str) -> PlayerRecord:
    return (await hub.identify(nickname=nickname)).player


async def test_an_address_gets_its_room_back_as_its_matches_start_or_end(store: Store) -> None:
    hub = Hub(store, open_limits=OpenLimits(waiting_per_player=5, waiting_per_address=2),
              waiting_grace=0)
    ada, bob, cid = [await player(hub, n) for n in ("ada", "bob", "cid")]
    with hub.limits.client_scope("10.0.0.7"):
        first, _ = await hub.create("dolphinfox", SMALL, player=ada)
        second, _ = await hub.create("santorini", player=ada)
        with pytest.raises(SessionError) as refused:
            await hub.quick_join("eriantys", bob, seats=3)
        assert refused.value.code == "session/too_many_waiting"
        assert await store.list_matches(game="eriantys") == []
    with hub.limits.client_scope("10.0.0.8"):  # another address is not bound by it
        await hub.create("eriantys", seats=3, player=bob)
        await hub.join(first.id, cid)  # the first one starts
    await hub.lifecycle.abort(second.id, by="admin")  # the second one ends
    hub.forget(second.id)  # out of memory: its fate is read from the store
    with hub.limits.client_scope("10.0.0.7"):
        await hub.create("santorini", player=ada)
        await hub.create("santorini", player=cid)
        with pytest.raises(SessionError):
            await hub.create("santorini", player=bob)


async def test_a_players_waiting_seats_are_counted_from_the_store(store: Store) -> None:
    limits = OpenLimits(waiting_per_player=2)
    hub = Hub(store, open_limits=limits)
    ada = await player(hub, "ada")
    await hub.create("dolphinfox", player=ada)
    await hub.create_private("santorini", player=ada)
    restarted = Hub(store, open_limits=limits)  # nothing in memory
    with pytest.raises(SessionError) as refused:
        await restarted.create("santorini", player=ada)
    assert refused.value.code == "session/too_many_waiting"
    waiting = await store.matches_of_player(ada.id, statuses=("waiting",))
    assert await restarted.give_up_seat(await restarted.get(waiting[0].id), ada.id)
    runtime, seat = await restarted.create("santorini", player=ada)  # room again
    assert seat == 0 and runtime.status == "waiting"


async def test_matches_of_bots_only_follow_the_process_and_the_player(store: Store) -> None:
    hub = Hub(store, open_limits=OpenLimits(bot_matches_per_player=1, bot_matches=2))
    hub.bot_levels = frozenset({"random"})  # nobody drives them: they stay running
    ada, bob = await player(hub, "ada"), await player(hub, "bob")
    mine, seat = await hub.create("santorini", bots=["random", "random"], owner=ada)
    assert seat is None and mine.status == "active"
    with pytest.raises(SessionError) as refused:
        await hub.create("santorini", bots=["random", "random"], owner=ada)
    assert refused.value.code == "session/too_many_bot_matches"
    with pytest.raises(SessionError) as half:
        await hub.create("santorini", bots=["random"], owner=bob)  # not sitting: bots only
    assert half.value.code == "session/too_few_bots"
    await hub.create("santorini", bots=["random", "random"], operator=True)
    with pytest.raises(SessionError) as busy:
        await hub.create("santorini", bots=["random", "random"], owner=bob)
    assert busy.value.code == "session/bots_busy"
    await hub.lifecycle.abort(mine.id, by="admin")
    await hub.create("santorini", bots=["random", "random"], owner=ada)


async def test_the_fair_order_deals_creators_round_robin_newest_first(store: Store) -> None:
    hub = Hub(store, open_limits=OpenLimits(waiting_per_player=100))
    ada, bob, cid = [await player(hub, n) for n in ("ada", "bob", "cid")]
    made = {}
    for name, who in [("a1", ada), ("b1", bob), ("a2", ada), ("a3", ada), ("c1", cid), ("a4", ada)]:
        made[(await hub.create("dolphinfox", player=who))[0].id] = name
    ordered = fair_order(await store.list_matches(status="waiting"))
    assert [made[r.id] for r in ordered] == ["a4", "c1", "b1", "a3", "a2", "a1"]
    page = await hub.lobby_feed.page(offset=1, limit=2)
    assert [made[m["match_id"]] for m in page["matches"]] == ["c1", "b1"] and page["total"] == 6
