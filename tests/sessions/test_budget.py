"""Issue 25: what one connection and one address may cost in frames (sessions/budget.py).

No clock is asserted on: each test watches what the budget decides (a pause asked for, a
connection to close, a debt) and, where a wait is involved, only that the frame does get
through."""

from __future__ import annotations

import asyncio
from typing import Any

from service.sessions.budget import FrameBudgets, FrameLimits, current, identified
from service.store.lanes import PLAYERS, STRANGERS, lane

QUICK = FrameLimits(free_streak=3, close_streak=6, max_pause=0.05,
                    rejected_per_address_burst=4, rejected_per_address_per_second=0.001)


def test_rejected_frames_in_a_row_pause_more_and_more_then_close() -> None:
    budget = FrameBudgets(QUICK).connection("10.0.0.1")
    pauses = []
    for _ in range(5):
        assert not budget.rejected()
        pauses.append(budget._pause)
    assert pauses[:3] == [0.0, 0.0, 0.0]  # free
    assert 0 < pauses[3] < pauses[4] <= QUICK.max_pause  # then twice as long each time
    assert budget.rejected()  # the sixth in a row: close


def test_an_accepted_frame_ends_the_streak() -> None:
    budget = FrameBudgets(QUICK).connection("10.0.0.1")
    for _ in range(5):
        budget.rejected()
    budget.accepted()
    assert budget.streak == 0 and not budget.rejected()


async def test_a_new_connection_of_an_indebted_address_waits_unless_identified() -> None:
    budgets = FrameBudgets(QUICK)
    first = budgets.connection("10.0.0.1")
    for _ in range(QUICK.rejected_per_address_burst + 2):
        first.rejected()
    assert budgets.address("10.0.0.1").wait() > 0  # in debt: reconnecting does not start afresh
    again = budgets.connection("10.0.0.1")
    paused = budgets.paused
    await asyncio.wait_for(again.before_frame(), 5)  # held back (up to max_pause), then let in
    assert budgets.paused == paused + 1
    player = budgets.connection("10.0.0.1")
    player.identify()
    await player.before_frame()
    assert budgets.paused == paused + 1  # a player does not wait for its neighbours' debt
    other = budgets.connection("10.0.0.2")
    await other.before_frame()
    assert budgets.paused == paused + 1  # nor does another address


async def test_strangers_have_a_small_frame_budget_players_a_large_one() -> None:
    limits = FrameLimits(stranger_frame_burst=2, stranger_frames_per_second=1000.0,
                         frame_burst=50, frames_per_second=1000.0)
    budgets = FrameBudgets(limits)
    stranger = budgets.connection("10.0.0.3")
    for _ in range(3):
        await stranger.before_frame()
    assert budgets.paused == 1  # the third frame waited for a token
    player = budgets.connection("10.0.0.4")
    player.identify()
    for _ in range(50):
        await player.before_frame()
    assert budgets.paused == 1


async def test_a_connection_task_is_a_stranger_to_the_store_until_it_identifies() -> None:
    budgets = FrameBudgets()

    async def connection_task() -> list[str]:
        budget = budgets.connection("10.0.0.5")
        budget.enter()
        seen = [lane.get()]
        identified()  # what the hub calls once the client said who it is
        seen.append(lane.get())
        assert current.get() is budget and budget.identified
        return seen

    assert await asyncio.create_task(connection_task()) == [STRANGERS, PLAYERS]
    assert lane.get() == PLAYERS  # work done by no connection is the players'
    identified()  # outside a connection: nothing to mark


def test_addresses_are_forgotten_least_recent_first() -> None:
    budgets = FrameBudgets(FrameLimits(addresses=2))
    for address in ("a", "b", "a", "c"):
        budgets.address(address)
    assert list(budgets._addresses) == ["a", "c"]


async def test_strangers_of_one_address_take_turns_players_do_not() -> None:
    budgets = FrameBudgets()
    first, second = budgets.connection("10.0.0.6"), budgets.connection("10.0.0.6")
    elsewhere = budgets.connection("10.0.0.7")
    release = asyncio.Event()
    inside: list[str] = []

    async def handle(budget: Any, name: str, hold: bool) -> None:
        async with budget.handling():
            inside.append(name)
            if hold:
                await release.wait()

    holding = asyncio.create_task(handle(first, "first", True))
    while inside != ["first"]:
        await asyncio.sleep(0)
    waiting = asyncio.create_task(handle(second, "second", False))
    await asyncio.wait_for(handle(elsewhere, "elsewhere", False), 5)  # another address: no wait
    player = budgets.connection("10.0.0.6")
    player.identify()
    await asyncio.wait_for(handle(player, "player", False), 5)  # a player: no wait
    assert inside == ["first", "elsewhere", "player"]  # the second stranger still waits
    release.set()
    await asyncio.wait_for(asyncio.gather(holding, waiting), 5)
    assert inside[-1] == "second" and budgets._turns == {}  # nothing left behind


async def test_a_task_the_service_starts_from_a_strangers_frame_is_not_that_strangers() -> None:
    """A bot, a reload or the lobby's pushes started while a stranger's frame is handled keep
    neither its frame budget nor its database lane (they would for the task's whole life)."""
    from service.sessions.budget import current, detached
    from service.store.lanes import PLAYERS, lane

    stranger = FrameBudgets().connection("203.0.113.9")
    seen: dict[str, object] = {}

    async def service_work() -> None:
        seen["lane"], seen["budget"] = lane.get(), current.get()

    async def frame() -> None:
        stranger.enter()
        await detached(service_work(), name="bot")

    await asyncio.create_task(frame())
    assert seen == {"lane": PLAYERS, "budget": None}
