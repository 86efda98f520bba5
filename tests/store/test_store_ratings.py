"""The store's side of ratings: a finished match taken in once, in one transaction; the
ratings, leaderboards, counts and history read back; a rebuild that reproduces what was
saved and finds what was changed. Matches are built directly through the store."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from service.sessions.ratings import judge
from service.store import Store
from service.store.ratings import Standing
from tests.sessions.test_ratings import MU, SIGMA, pl_update, win


async def people(store: Store, *names: str) -> list[int]:
    return [(await store.create_player(name, None)).id for name in names]


async def finished(store: Store, players: Sequence[int | None], result: dict[str, Any] | None,
                   *, game: str = "eriantys", teams: Sequence[int | None] | None = None,
                   acted: Sequence[int] | None = None, private: bool = False,
                   status: str = "finished") -> int:
    """A match of ``players`` whose seats in ``acted`` (default: all) moved once, ended."""
    record = await store.create_match(
        game=game, options={}, seed=1, snapshot={}, status="active",
        seats=[(i, p, teams[i] if teams else None, None) for i, p in enumerate(players)],
        invite_hash="secret-hash" if private else None)
    for seq, seat in enumerate(range(len(players)) if acted is None else acted, start=1):
        await store.append_action(record.id, seq=seq, seat=seat, action={"type": "x"},
                                  snapshot={}, status="active", result=None)
    await store.set_status(record.id, status, result=result)
    return record.id


def near(got: Standing, expected: tuple[float, float]) -> bool:
    return abs(got.mu - expected[0]) < 1e-9 and abs(got.sigma - expected[1]) < 1e-9


async def test_a_match_is_taken_in_once_and_ratings_follow_on(store: Store) -> None:
    a, b, c = await people(store, "ann", "ben", "cy")
    first = await finished(store, [a, b, c], win(2))
    taken = await store.take_in_match(first, judge)
    assert taken is not None and taken.fresh and taken.unrated is None
    again = await store.take_in_match(first, judge)
    assert again is not None and not again.fresh and again.changes == taken.changes
    [[ra], [rb], [rc]] = pl_update([[(MU, SIGMA)]] * 3, [2, 2, 1])
    saved = await store.standings("eriantys", [a, b, c])
    assert near(saved[a], ra) and near(saved[b], rb) and near(saved[c], rc)
    assert (saved[c].games, saved[c].wins, saved[a].losses) == (1, 1, 1)
    second = await finished(store, [c, a], win(1))  # the second starts from the first
    await store.take_in_match(second, judge)
    [[rc2], [ra2]] = pl_update([[rc], [ra]], [2, 1])
    saved = await store.standings("eriantys", [a, c])
    assert near(saved[c], rc2) and near(saved[a], ra2) and saved[a].games == 2


async def test_two_against_two_teams_take_in(store: Store) -> None:
    ids = await people(store, "t0", "t1", "t2", "t3")
    match_id = await finished(store, ids, win(0, 2), teams=[0, 1, 0, 1])
    await store.take_in_match(match_id, judge)
    [[r0, r2], [r1, r3]] = pl_update([[(MU, SIGMA)] * 2] * 2, [1, 2])
    saved = await store.standings("eriantys", ids)
    assert all(near(saved[ids[s]], r) for s, r in ((0, r0), (1, r1), (2, r2), (3, r3)))


async def test_unrated_matches_are_taken_in_with_their_reason(store: Store) -> None:
    a, b = await people(store, "ann", "ben")
    bot = (await store.create_player("random-bot-1", None, bot_level="random")).id
    cases = {"private": await finished(store, [a, b], win(0), private=True),
             "bot": await finished(store, [a, bot], win(0)),
             "too_short": await finished(store, [a, b], win(0), acted=[0])}
    for why, match_id in cases.items():
        taken = await store.take_in_match(match_id, judge)
        assert taken is not None and taken.unrated == why and taken.changes is None
    aborted = await finished(store, [a, b], {"winners": [], "draw": False, "reason": "aborted"},
                             status="aborted")
    assert await store.take_in_match(aborted, judge) is None
    live = await finished(store, [a, b], None, status="active")
    assert await store.take_in_match(live, judge) is None
    assert await store.standings("eriantys", [a, b, bot]) == {}
    assert await store.untaken_matches(limit=10) == []


async def test_take_ins_at_once_are_serialised_per_game(store: Store) -> None:
    ids = await people(store, "p0", "p1", "p2", "p3")
    matches = [await finished(store, [ids[i % 4], ids[(i + 1) % 4]], win(i % 2))
               for i in range(8)]
    await asyncio.gather(*(store.take_in_match(m, judge) for m in matches))
    report = await store.rebuild_ratings(judge, write=False)
    assert report.differences == [] and report.rated == 8 and not report.written
    saved = await store.standings("eriantys", ids)
    assert sum(s.games for s in saved.values()) == 16


async def test_rebuild_reproduces_what_was_saved_and_finds_tampering(store: Store) -> None:
    a, b, c = await people(store, "ann", "ben", "cy")
    for players, result in (([a, b], win(0)), ([b, c], win(1)), ([c, a, b], win(0)),
                            ([a, c], {"winners": [], "draw": True, "reason": "draw"})):
        await store.take_in_match(await finished(store, players, result), judge)
    before = await store.standings("eriantys", [a, b, c])
    assert (await store.rebuild_ratings(judge, write=False)).differences == []
    await store._write(lambda connection: connection.exec_driver_sql(
        f"UPDATE ratings SET mu = mu + 0.5 WHERE player_id = {b}"))
    missed = await finished(store, [a, b], win(1))  # finished, never taken in
    report = await store.rebuild_ratings(judge, write=False)
    assert any(f"player {b} in eriantys" in d for d in report.differences)
    assert f"match {missed}: finished but not taken in yet" in report.differences
    assert await store.untaken_matches(limit=10) == [missed]  # --check writes nothing
    written = await store.rebuild_ratings(judge, write=True)
    assert written.written and written.matches == 5
    assert (await store.rebuild_ratings(judge, write=False)).differences == []
    after = await store.standings("eriantys", [a, b, c])
    assert after[c] == before[c] and after[a] != before[a] and after[a].games == 4
    assert await store.untaken_matches(limit=10) == []


async def test_leaderboard_best_first_without_provisional_or_banned(store: Store) -> None:
    a, b, c = await people(store, "ann", "ben", "cy")
    for _ in range(5):
        await store.take_in_match(await finished(store, [a, b], win(0)), judge)
    await store.take_in_match(await finished(store, [c, b], win(0)), judge)
    total, rows = await store.leaderboard("eriantys", z=3, min_games=5, offset=0, limit=10)
    assert total == 2 and [r.player_id for r in rows] == [a, b]
    total, rows = await store.leaderboard("eriantys", z=3, min_games=0, offset=1, limit=1)
    assert total == 3 and len(rows) == 1
    await store.set_ban(a, "cheating")
    total, rows = await store.leaderboard("eriantys", z=3, min_games=5, offset=0, limit=10)
    assert total == 1 and rows[0].nickname == "ben"


async def test_counts_and_history_show_public_ended_matches_only(store: Store) -> None:
    a, b = await people(store, "ann", "ben")
    won = await finished(store, [a, b], win(0))
    await store.take_in_match(won, judge)
    await finished(store, [b, a], win(0), game="santorini")
    await finished(store, [a, b], {"winners": [], "draw": True, "reason": "draw"},
                   game="santorini")
    await finished(store, [a, b], win(0), private=True)
    await finished(store, [a, b], None, status="active")
    aborted = await finished(store, [a, b], {"winners": [], "draw": False,
                                             "reason": "aborted"}, status="aborted")
    stats = {s.game: s for s in await store.game_stats(a)}
    assert (stats["eriantys"].played, stats["eriantys"].wins) == (1, 1)
    assert (stats["santorini"].played, stats["santorini"].losses,
            stats["santorini"].draws) == (2, 1, 1)
    total, entries = await store.match_history(a, offset=0, limit=2)
    assert total == 4 and len(entries) == 2
    _, every = await store.match_history(a, offset=0, limit=10)
    assert {e.status for e in every} == {"finished", "aborted"} and aborted in {
        e.match_id for e in every}
    rated = next(e for e in every if e.match_id == won)
    assert rated.taken and rated.unrated is None and rated.changes is not None
    assert all(e.ended_at.tzinfo is not None for e in every)
