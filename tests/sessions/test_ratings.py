"""How a finished match moves ratings: the rated rules, ranks, teams, and the Plackett-Luce
update checked against the update equations of Weng & Lin (2011, Algorithm 4) as the
openskill docs give them, written out here independently of the code under test; and
matches played through the hub taken in once, after the commit."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest

from service.sessions.hub import Hub
from service.sessions.ratings import (
    display,
    judge,
    provisional,
    rating_change,
    ranks,
    sides,
    unrated_reason,
)
from service.store import SeatRecord, Store
from service.store.ratings import RatingFacts, Standing
from tests.sessions.test_hub import first_legal, two_players

# -- the reference: Weng-Lin Plackett-Luce with openskill's documented defaults -------------

MU, SIGMA = 25.0, 25.0 / 3
BETA, TAU, KAPPA = 25.0 / 6, 25.0 / 300, 0.0001


def pl_update(teams: Sequence[Sequence[tuple[float, float]]],
              team_ranks: Sequence[int]) -> list[list[tuple[float, float]]]:
    """New (mu, sigma) of every player: teams of (mu, sigma), lower rank is better."""
    teams = [[(mu, math.sqrt(sigma**2 + TAU**2)) for mu, sigma in team] for team in teams]
    team_mu = [sum(mu for mu, _ in team) for team in teams]
    team_var = [sum(sigma**2 for _, sigma in team) for team in teams]
    c = math.sqrt(sum(v + BETA**2 for v in team_var))
    k = range(len(teams))
    sum_q = [sum(math.exp(team_mu[s] / c) for s in k if team_ranks[s] >= team_ranks[q])
             for q in k]
    a = [sum(1 for s in k if team_ranks[s] == team_ranks[q]) for q in k]
    out = []
    for i in k:
        p = [math.exp(team_mu[i] / c) / sum_q[q] for q in k]
        better_or_equal = [q for q in k if team_ranks[q] <= team_ranks[i]]
        omega = team_var[i] / c * sum(((1 if q == i else 0) - p[q]) / a[q] for q in better_or_equal)
        gamma = math.sqrt(team_var[i]) / c
        delta = gamma * team_var[i] / c**2 * sum(p[q] * (1 - p[q]) / a[q] for q in better_or_equal)
        out.append([(mu + sigma**2 / team_var[i] * omega,
                     sigma * math.sqrt(max(1 - sigma**2 / team_var[i] * delta, KAPPA)))
                    for mu, sigma in teams[i]])
    return out


# -- facts of made-up matches ---------------------------------------------------------------


def facts(players: Sequence[int | None], result: dict[str, Any] | None, *,
          teams: Sequence[int | None] | None = None, bots: Sequence[int] = (),
          acted: Sequence[int] | None = None, status: str = "finished",
          private: bool = False) -> RatingFacts:
    seats = tuple(SeatRecord(seat=i, player_id=p, nickname=f"p{p}", label=None,
                             team=teams[i] if teams else None,
                             bot_level="random" if i in bots else None)
                  for i, p in enumerate(players))
    return RatingFacts(1, "eriantys", status, private, result, seats,
                       frozenset(range(len(players)) if acted is None else acted))


def win(*seats: int) -> dict[str, Any]:
    return {"winners": list(seats), "draw": False, "reason": "rules"}


def close(got: Standing, expected: tuple[float, float]) -> bool:
    return abs(got.mu - expected[0]) < 1e-9 and abs(got.sigma - expected[1]) < 1e-9


def test_two_players_from_scratch_match_the_equations() -> None:
    verdict = judge(facts([10, 20], win(1)), {})
    [[loser], [winner]] = pl_update([[(MU, SIGMA)], [(MU, SIGMA)]], [2, 1])
    assert verdict.unrated is None
    assert close(verdict.after[20], winner) and close(verdict.after[10], loser)
    assert verdict.after[20].mu > MU > verdict.after[10].mu
    assert (verdict.after[20].games, verdict.after[20].wins, verdict.after[10].losses) == (1, 1, 1)


def test_two_players_with_ratings_already_match_the_equations() -> None:
    current = {10: Standing(31.5, 4.2, 7, 5, 2, 0), 20: Standing(22.25, 6.0, 3, 1, 2, 0)}
    verdict = judge(facts([10, 20], win(1)), current)
    [[a], [b]] = pl_update([[(31.5, 4.2)], [(22.25, 6.0)]], [2, 1])
    assert close(verdict.after[10], a) and close(verdict.after[20], b)
    assert verdict.after[10].games == 8 and verdict.after[10].losses == 3
    assert verdict.after[20].wins == 2


@pytest.mark.parametrize("count", [3, 4])
def test_free_for_all_one_winner_the_rest_share_second(count: int) -> None:
    priors = [(25.0 + i, SIGMA - i / 2) for i in range(count)]
    current = {100 + i: Standing(mu, sigma, 1, 0, 1, 0) for i, (mu, sigma) in enumerate(priors)}
    verdict = judge(facts([100 + i for i in range(count)], win(1)), current)
    expected = pl_update([[p] for p in priors], [2 if i != 1 else 1 for i in range(count)])
    for i in range(count):
        assert close(verdict.after[100 + i], expected[i][0])
    moved = [verdict.after[100 + i].mu - priors[i][0] for i in range(count)]
    assert moved[1] > 0 and all(m < 0 for i, m in enumerate(moved) if i != 1)


def test_two_against_two_teams_match_the_equations() -> None:
    priors = {0: (27.0, 7.0), 1: (24.0, 8.0), 2: (26.0, 6.5), 3: (23.0, 8.3)}
    current = {10 + s: Standing(mu, sigma, 2, 1, 1, 0) for s, (mu, sigma) in priors.items()}
    made = facts([10, 11, 12, 13], win(1, 3), teams=[0, 1, 0, 1])
    assert sides(made) == [[0, 2], [1, 3]]
    verdict = judge(made, current)
    [[s0, s2], [s1, s3]] = pl_update([[priors[0], priors[2]], [priors[1], priors[3]]], [2, 1])
    for seat, expected in ((0, s0), (1, s1), (2, s2), (3, s3)):
        assert close(verdict.after[10 + seat], expected)
    assert verdict.after[11].wins == 2 and verdict.after[10].losses == 2


def test_a_draw_ties_everyone_and_counts_as_one() -> None:
    current = {1: Standing(30.0, 5.0), 2: Standing(20.0, 7.0)}
    verdict = judge(facts([1, 2], {"winners": [], "draw": True, "reason": "draw"}), current)
    [[a], [b]] = pl_update([[(30.0, 5.0)], [(20.0, 7.0)]], [1, 1])
    assert close(verdict.after[1], a) and close(verdict.after[2], b)
    assert verdict.after[1].draws == 1 and verdict.after[1].mu < 30.0 < verdict.after[2].mu + 10
    shared = {"winners": [0, 2], "draw": True, "reason": "draw"}
    assert ranks(shared, [[0], [1], [2]]) == [1, 2, 1]


def test_changes_keep_before_and_after_per_seat() -> None:
    verdict = judge(facts([10, 20], win(0)), {})
    assert verdict.changes is not None
    assert verdict.changes["0"]["before"] == {"mu": MU, "sigma": SIGMA}
    assert verdict.changes["0"]["after"] == {"mu": verdict.after[10].mu,
                                             "sigma": verdict.after[10].sigma}
    assert verdict.changes["1"]["player_id"] == 20 and verdict.changes["1"]["outcome"] == "loss"
    change = rating_change(verdict.changes, 0)
    assert change == display(verdict.after[10].mu, verdict.after[10].sigma) - 1500
    assert change is not None and change > 0 and rating_change(None, 0) is None


def test_display_starts_at_1500_and_a_rating_is_provisional_for_five_games() -> None:
    assert display(MU, SIGMA) == 1500
    assert display(MU + 1, SIGMA) == 1520
    assert [provisional(g) for g in (0, 4, 5)] == [True, True, False]


@pytest.mark.parametrize(("made", "why"), [
    (facts([1, 2], win(0), bots=[1]), "bot"),
    (facts([1, None], win(0)), "bot"),
    (facts([1, 2], win(0), private=True), "private"),
    (facts([1, 2], {"winners": [], "draw": False, "reason": "aborted"}, status="aborted"),
     "aborted"),
    (facts([1, 2], win(0), acted=[0]), "too_short"),
    (facts([1], win(0)), "solo"),
    (facts([1, 2], win(0, 1), teams=[0, 0]), "solo"),
    (facts([1, 1], win(0)), "same_player"),
    (facts([1, 2], {"winners": [], "draw": False, "reason": "none"}), "no_result"),
    (facts([1, 2], None), "no_result"),
])
def test_unrated_matches_move_nothing(made: RatingFacts, why: str) -> None:
    assert unrated_reason(made) == why
    verdict = judge(made, {1: Standing(30.0, 5.0)})
    assert (verdict.unrated, verdict.after, verdict.changes) == (why, {}, None)


# -- through the hub ------------------------------------------------------------------------


async def played_and_resigned(hub: Hub) -> tuple[int, int, int]:
    """A public dolphinfox match both seats acted in, bob resigned: (match, alice, bob)."""
    runtime, alice, bob = await two_players(hub)
    await runtime.act(alice.id, first_legal(runtime, 0))
    await runtime.act(bob.id, first_legal(runtime, 1))
    await hub.lifecycle.resign(runtime.id, bob.id)
    return runtime.id, alice.id, bob.id


async def test_a_match_that_ends_is_taken_in_after_its_commit(store: Store) -> None:
    hub = Hub(store)
    match_id, alice, bob = await played_and_resigned(hub)
    await hub.ratings.idle()
    saved = await store.standings("dolphinfox", [alice, bob])
    [[won], [lost]] = pl_update([[(MU, SIGMA)], [(MU, SIGMA)]], [1, 2])
    assert close(saved[alice], won) and close(saved[bob], lost)
    again = await hub.ratings.take(match_id)  # twice is once
    assert again is not None and not again.fresh and again.unrated is None
    assert await store.standings("dolphinfox", [alice, bob]) == saved
    assert await store.untaken_matches(limit=10) == []


async def test_a_match_too_short_is_taken_in_unrated(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, bob = await two_players(hub)
    await runtime.act(alice.id, first_legal(runtime, 0))
    await hub.lifecycle.resign(runtime.id, alice.id)  # bob never moved
    await hub.ratings.idle()
    taken = await hub.ratings.take(runtime.id)
    assert taken is not None and taken.unrated == "too_short" and not taken.fresh
    assert await store.standings("dolphinfox", [alice.id, bob.id]) == {}


async def test_an_aborted_match_is_never_taken_in(store: Store) -> None:
    hub = Hub(store)
    runtime, alice, _ = await two_players(hub)
    await runtime.act(alice.id, first_legal(runtime, 0))
    await hub.lifecycle.abort(runtime.id)
    await hub.ratings.idle()
    assert await hub.ratings.take(runtime.id) is None
    assert await store.untaken_matches(limit=10) == []


async def test_a_take_in_missed_is_made_by_the_sweep(store: Store) -> None:
    hub = Hub(store)
    hub.ratings.match_ended = lambda runtime: None  # type: ignore[method-assign]
    match_id, alice, bob = await played_and_resigned(hub)
    assert await store.untaken_matches(limit=10) == [match_id]
    restarted = Hub(store)  # a process that starts finds it at its first sweep
    await restarted.lifecycle.sweep()
    assert await store.untaken_matches(limit=10) == []
    assert set(await store.standings("dolphinfox", [alice, bob])) == {alice, bob}
    assert await restarted.ratings.sweep() == 0  # caught up: nothing more to look at


async def test_a_failed_take_in_is_tried_again_by_the_next_sweep(store: Store) -> None:
    hub = Hub(store)
    real = store.take_in_match
    failures = []

    async def failing(match_id: int, judge: Any) -> Any:
        failures.append(match_id)
        raise OSError("the store is away")

    store.take_in_match = failing  # type: ignore[method-assign]
    match_id, alice, _ = await played_and_resigned(hub)
    await hub.ratings.idle()
    assert failures == [match_id]
    store.take_in_match = real  # type: ignore[method-assign]
    assert await hub.ratings.sweep() == 1
    assert alice in await store.standings("dolphinfox", [alice])


async def test_a_four_player_eriantys_is_rated_two_against_two(store: Store) -> None:
    hub = Hub(store)
    players = [(await hub.identify(nickname=f"e{i}")).player for i in range(4)]
    runtime, _ = await hub.create("eriantys", seats=4, player=players[0])
    for who in players[1:]:
        await hub.join(runtime.id, who)
    acted: set[int] = set()
    while acted != {0, 1, 2, 3}:  # everyone plays once (the planning phase)
        seat = min(runtime.game.to_act(runtime.state))
        await runtime.act(players[seat].id, first_legal(runtime, seat))
        acted.add(seat)
    await hub.lifecycle.resign(runtime.id, players[1].id)  # seats 1 and 3 are one team
    await hub.ratings.idle()
    saved = await store.standings("eriantys", [p.id for p in players])
    [[s0, s2], [s1, s3]] = pl_update([[(MU, SIGMA)] * 2] * 2, [1, 2])
    for seat, expected in ((0, s0), (1, s1), (2, s2), (3, s3)):
        assert close(saved[players[seat].id], expected)
    assert saved[players[2].id].wins == 1 and saved[players[3].id].losses == 1
