"""Draws by agreement: one side offers, the other accepts by offering too, and the match ends
drawn; a move answers an offer, a side may decline, and games without draws refuse."""

from __future__ import annotations

import pytest

from service.errors import SessionError
from service.sessions import draws
from service.sessions.hub import Hub
from service.sessions.notices import DrawOffers, Ended
from service.store import Store
from tests.sessions.test_hub import Recorder, first_legal, two_players


async def test_both_sides_offering_is_a_draw(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, bob = await two_players(hub)
    seen = Recorder()
    runtime.attach(seen, None)
    assert await hub.lifecycle.offer_draw(runtime.id, alice.id) == (0,)
    assert await hub.lifecycle.offer_draw(runtime.id, alice.id) == (0,)  # twice is once
    assert seen.of(DrawOffers) == [DrawOffers((0,))]
    assert await hub.lifecycle.offer_draw(runtime.id, bob.id) == ()
    assert runtime.status == "finished"
    result = (await store.get_match(runtime.id)).result
    assert result == {"winners": [0, 1], "draw": True, "reason": "agreed"}
    assert seen.of(Ended)[0].result == result
    with pytest.raises(SessionError) as over:
        await hub.lifecycle.offer_draw(runtime.id, alice.id)
    assert over.value.code == "session/match_over"


async def test_a_move_answers_an_offer_and_a_decline_ends_it(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, bob = await two_players(hub)
    await hub.lifecycle.offer_draw(runtime.id, alice.id)
    await runtime.act(bob.id, first_legal(runtime, 1))  # bob plays on instead
    assert draws.offers(runtime) == ()
    assert await hub.lifecycle.offer_draw(runtime.id, bob.id) == (1,)  # a new offer
    restarted = await Hub(store).get(runtime.id)  # saved with the match
    assert draws.offers(restarted) == (1,)
    await hub.lifecycle.decline_draw(runtime.id, alice.id)
    assert draws.offers(runtime) == () and runtime.status == "active"


async def test_games_without_draws_and_strangers_are_refused(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, bob = await two_players(hub)
    carol = (await hub.identify(nickname="carol")).player
    santorini, _ = await hub.create("santorini", player=alice)
    await hub.join(santorini.id, bob)
    with pytest.raises(SessionError) as none:
        await hub.lifecycle.offer_draw(santorini.id, alice.id)
    assert none.value.code == "session/no_draws"
    with pytest.raises(SessionError) as stranger:
        await hub.lifecycle.offer_draw(runtime.id, carol.id)
    assert stranger.value.code == "session/not_seated"
    assert draws.offers(runtime) == ()


def test_the_new_ends_are_told_in_words() -> None:
    from service.games.describing import tell_outcome
    from service.games.registry import get_game

    game, names = get_game("santorini"), {0: "alice", 1: "bob"}
    timed = {"winners": [1], "draw": False, "reason": "time_out", "detail": {"seat": 0}}
    assert tell_outcome(game, timed, 1, names) == ["You win: alice ran out of time."]
    assert tell_outcome(game, timed, 0, names) == ["bob wins: you ran out of time."]
    solo = {"winners": [], "draw": False, "reason": "time_out", "detail": {"seat": 0}}
    assert tell_outcome(get_game("renaissance"), solo, 0, {0: "ada"}) == ["Your time ran out."]
    banned = {"winners": [0], "draw": False, "reason": "banned", "detail": {"seat": 1}}
    assert tell_outcome(game, banned, None, names) == ["alice wins: bob was banned."]
    agreed = {"winners": [0, 1], "draw": True, "reason": "agreed"}
    assert tell_outcome(get_game("dolphinfox"), agreed, 0, names) == ["A draw, by agreement."]
