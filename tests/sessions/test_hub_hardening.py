"""Issue 8 at the hub: answers for finished matches, unknown commit outcomes, identity
rules, bounded creation."""

from __future__ import annotations

from typing import Any

import pytest
from test_hub import first_legal, two_players

from service.errors import SessionError
from service.sessions.hub import Hub
from service.store import Store


async def test_d8_the_client_id_that_finished_a_match_is_still_a_duplicate(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, bob = await two_players(hub)
    players = [alice, bob]
    last: tuple[int, dict[str, Any], str] | None = None
    for n in range(1000):
        if runtime.status != "active":
            break
        seat = min(runtime.game.to_act(runtime.state))
        action = first_legal(runtime, seat)
        await runtime.act(players[seat].id, action, f"c{n}")
        last = (seat, action, f"c{n}")
    assert runtime.status == "finished" and last is not None
    seat, action, client_id = last
    again = await runtime.act(players[seat].id, action, client_id)
    assert (again.version, again.duplicate) == (runtime.version, True)
    with pytest.raises(SessionError) as over:
        await runtime.act(players[seat].id, action, "a-new-one")
    assert over.value.code == "session/match_over"
    restarted = await Hub(store).get(runtime.id)  # the same after a restart
    assert (await restarted.act(players[seat].id, action, client_id)).duplicate
