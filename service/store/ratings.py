"""What the store keeps of ratings: each finished match taken in once (``rated_matches``, in
the order taken), every player's rating per game (``ratings``), and what profiles and
leaderboards read. Whether and how a match moves ratings is decided in sessions/ratings.py,
passed in as a ``Judge`` and run inside the store's one transaction (docs/ratings.md)."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import delete, exists, func, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncSession

from service.games.registry import all_games
from service.store.models import Action, Match, Player, RatedMatch, Rating, Seat, utcnow
from service.store.records import SeatRecord

#: the first key of the two-key advisory locks that serialise rating writes per game (ASCII
#: "Rate"; the cluster's ownership locks use another space)
RATINGS_LOCK_SPACE = 0x52617465
#: match ids read per query when many are (SQL parameter limits)
CHUNK = 500

Outcome = Literal["win", "loss", "draw"]


@dataclass(frozen=True)
class Standing:
    """A player's rating in one game and the counts of their rated matches there."""

    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0


@dataclass(frozen=True)
class RatingFacts:
    """What decides whether and how a finished match moves ratings."""

    match_id: int
    game: str
    status: str
    private: bool
    result: dict[str, Any] | None
    seats: tuple[SeatRecord, ...]
    #: the seats with at least one action in the log
    acted: frozenset[int]


@dataclass(frozen=True)
class Verdict:
    """What taking a match in does: ``unrated`` (why not) or the new standings of its
    players, with the per-seat ``changes`` kept for history."""

    unrated: str | None
    after: dict[int, Standing]
    changes: dict[str, Any] | None


#: (the facts of a match, the standings its players have now in its game) -> verdict
Judge = Callable[[RatingFacts, Mapping[int, Standing]], Verdict]


@dataclass(frozen=True)
class TakenIn:
    match_id: int
    game: str
    unrated: str | None
    changes: dict[str, Any] | None
    #: False when the match had been taken in before (nothing changed now)
    fresh: bool


@dataclass(frozen=True)
class Ranked:
    """One row of a leaderboard."""

    player_id: int
    nickname: str
    standing: Standing


@dataclass(frozen=True)
class GameStats:
    """A player's public finished matches of one game, rated or not."""

    game: str
    played: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0


@dataclass(frozen=True)
class HistoryEntry:
    match_id: int
    game: str
    status: str
    result: dict[str, Any] | None
    seats: tuple[SeatRecord, ...]
    ended_at: datetime
    #: whether the match was taken in, and if so why it is unrated (None: rated)
    taken: bool
    unrated: str | None
    changes: dict[str, Any] | None


@dataclass(frozen=True)
class RebuildReport:
    matches: int
    rated: int
    differences: list[str]
    written: bool


def outcome_of(result: dict[str, Any] | None, seat: int) -> Outcome | None:
    """What a finished match's result means for ``seat``: the listed winners of a draw share
    it (no winners listed: everyone does); None without a result."""
    if not result:
        return None
    winners = set(result.get("winners") or ())
    if result.get("draw"):
        return "draw" if not winners or seat in winners else "loss"
    return "win" if seat in winners else "loss"


def lock_key(game: str) -> int:
    """The second key of a game's rating lock: a signed 32-bit CRC of its name."""
    crc = zlib.crc32(game.encode())
    return crc - 2**32 if crc >= 2**31 else crc


class RatingQueries:
    """Mixed into ``Store``."""

    is_sqlite: bool
    _tx: Callable[[], AbstractAsyncContextManager[AsyncSession]]
    _write: Callable[[Callable[[Connection], Any]], Any]

    # -- taking matches in -----------------------------------------------------------

    async def take_in_match(self, match_id: int, judge: Judge) -> TakenIn | None:
        """Take a finished match into the ratings, once: its ``rated_matches`` row and its
        players' new ratings in one transaction, rating writes of its game serialised.
        None when there is no such match or it is not finished (nothing written)."""
        def take(connection: Connection) -> TakenIn | None:
            game = connection.execute(select(Match.game).where(
                Match.id == match_id, Match.status == "finished")).scalar()
            if game is None:
                return None
            self._lock_games(connection, [game])
            return _take(connection, match_id, judge)

        return await self._write(take)

    async def untaken_matches(self, *, limit: int) -> list[int]:
        """Finished matches not taken in yet, in the order they finished (oldest first)."""
        taken = exists().where(RatedMatch.match_id == Match.id)
        statement = (select(Match.id).where(Match.status == "finished", ~taken)
                     .order_by(Match.updated_at, Match.id).limit(limit))
        async with self._tx() as session:
            return list((await session.scalars(statement)).all())

    def _lock_games(self, connection: Connection, games: Iterable[str]) -> None:
        """Serialise rating writes per game (PostgreSQL; SQLite's writes are serialised)."""
        if self.is_sqlite:
            return
        for game in sorted(set(games)):
            connection.execute(text("SELECT pg_advisory_xact_lock(:space, :key)"),
                               {"space": RATINGS_LOCK_SPACE, "key": lock_key(game)})

    # -- reading ---------------------------------------------------------------------

    async def standings(self, game: str, player_ids: Sequence[int]) -> dict[int, Standing]:
        """The ratings in ``game`` of those of ``player_ids`` who have one."""
        if not player_ids:
            return {}
        statement = select(Rating).where(Rating.game == game,
                                         Rating.player_id.in_(list(player_ids)))
        async with self._tx() as session:
            return {row.player_id: _standing(row) for row in await session.scalars(statement)}

    async def standings_of_player(self, player_id: int) -> dict[str, Standing]:
        """game -> the player's rating there."""
        async with self._tx() as session:
            rows = await session.scalars(select(Rating).where(Rating.player_id == player_id))
            return {row.game: _standing(row) for row in rows}

    async def leaderboard(self, game: str, *, z: float, min_games: int, offset: int,
                          limit: int) -> tuple[int, list[Ranked]]:
        """The players rated in ``game`` (banned ones left out) with at least ``min_games``
        rated matches, best first by ``mu - z * sigma``; and how many there are."""
        where = (Rating.game == game, Rating.games >= min_games, Player.banned_at.is_(None))
        joined = select(Rating, Player.nickname).join(Player, Player.id == Rating.player_id)
        page = (joined.where(*where).order_by((Rating.mu - z * Rating.sigma).desc(),
                                              Rating.player_id).offset(offset).limit(limit))
        count = (select(func.count()).select_from(Rating)
                 .join(Player, Player.id == Rating.player_id).where(*where))
        async with self._tx() as session:
            total = int((await session.scalar(count)) or 0)
            rows = (await session.execute(page)).all()
        return total, [Ranked(row.player_id, nickname, _standing(row)) for row, nickname in rows]

    async def game_stats(self, player_id: int) -> list[GameStats]:
        """Per game, the player's public finished matches: played, won, lost, drawn."""
        statement = (select(Match.game, Seat.seat, Match.result)
                     .join(Seat, Seat.match_id == Match.id)
                     .where(Seat.player_id == player_id, Match.status == "finished",
                            Match.invite_hash.is_(None)))
        async with self._tx() as session:
            rows = (await session.execute(statement)).all()
        stats: dict[str, GameStats] = {}
        for game, seat, result in rows:
            was = stats.get(game, GameStats(game))
            outcome = outcome_of(result, seat)
            stats[game] = replace(
                was, played=was.played + 1, wins=was.wins + (outcome == "win"),
                losses=was.losses + (outcome == "loss"), draws=was.draws + (outcome == "draw"))
        return [stats[game] for game in sorted(stats)]

    async def match_history(self, player_id: int, *, offset: int,
                            limit: int) -> tuple[int, list[HistoryEntry]]:
        """The player's public finished and aborted matches, the last ended first; and how
        many there are. Private and live matches are never among them."""
        where = (Match.id.in_(select(Seat.match_id).where(Seat.player_id == player_id)),
                 Match.status.in_(("finished", "aborted")), Match.invite_hash.is_(None))
        ended = func.coalesce(RatedMatch.rated_at, Match.updated_at)
        page = (select(Match, RatedMatch, ended.label("ended"))
                .outerjoin(RatedMatch, RatedMatch.match_id == Match.id).where(*where)
                .order_by(ended.desc(), Match.id.desc()).offset(offset).limit(limit))
        async with self._tx() as session:
            total = int((await session.scalar(
                select(func.count()).select_from(Match).where(*where))) or 0)
            rows = (await session.execute(page)).all()
            seats = await _seats_of(session, [match.id for match, _, _ in rows])
        return total, [_history_entry(match, rated, ended_at, seats.get(match.id, ()))
                       for match, rated, ended_at in rows]

    # -- rebuilding ------------------------------------------------------------------

    async def rebuild_ratings(self, judge: Judge, *, write: bool) -> RebuildReport:
        """Every rating again from nothing: the matches taken in, in the order they were
        (``rated_matches.seq``), then the finished ones not taken in yet, in the order they
        finished. Compared with what is saved; with ``write``, saved instead (one
        transaction, every game's rating writes held meanwhile)."""
        def rebuild(connection: Connection) -> RebuildReport:
            self._lock_games(connection, [g.name for g in all_games()] + list(
                connection.execute(select(Rating.game).distinct()).scalars()))
            return _rebuild(connection, judge, write)

        return await self._write(rebuild)


def _standing(row: Any) -> Standing:
    """A Standing from a ``ratings`` row (ORM object or Core row)."""
    return Standing(row.mu, row.sigma, row.games, row.wins, row.losses, row.draws)


def _history_entry(match: Match, rated: RatedMatch | None, ended_at: datetime,
                   seats: tuple[SeatRecord, ...]) -> HistoryEntry:
    return HistoryEntry(match.id, match.game, match.status, match.result, seats, ended_at,
                        taken=rated is not None, unrated=rated.unrated if rated else None,
                        changes=rated.changes if rated else None)


async def _seats_of(session: AsyncSession,
                    match_ids: list[int]) -> dict[int, tuple[SeatRecord, ...]]:
    if not match_ids:
        return {}
    statement = (select(Seat.match_id, Seat.seat, Seat.player_id, Seat.team, Seat.label,
                        Player.nickname, Player.bot_level)
                 .outerjoin(Player, Player.id == Seat.player_id)
                 .where(Seat.match_id.in_(match_ids)).order_by(Seat.match_id, Seat.seat))
    found: dict[int, list[SeatRecord]] = {}
    for row in await session.execute(statement):
        found.setdefault(row.match_id, []).append(_seat(row))
    return {match_id: tuple(seats) for match_id, seats in found.items()}


def _seat(row: Any) -> SeatRecord:
    return SeatRecord(seat=row.seat, player_id=row.player_id, nickname=row.nickname,
                      team=row.team, label=row.label, bot_level=row.bot_level)


# -- inside one transaction ----------------------------------------------------------


def _facts(connection: Connection, match_ids: Sequence[int]) -> dict[int, RatingFacts]:
    """The rating facts of these matches (those that exist), read in chunks."""
    found: dict[int, RatingFacts] = {}
    for start in range(0, len(match_ids), CHUNK):
        chunk = list(match_ids[start:start + CHUNK])
        seats: dict[int, list[SeatRecord]] = {}
        for row in connection.execute(
                select(Seat.match_id, Seat.seat, Seat.player_id, Seat.team, Seat.label,
                       Player.nickname, Player.bot_level)
                .outerjoin(Player, Player.id == Seat.player_id)
                .where(Seat.match_id.in_(chunk)).order_by(Seat.match_id, Seat.seat)):
            seats.setdefault(row.match_id, []).append(_seat(row))
        acted: dict[int, set[int]] = {}
        for match_id, seat in connection.execute(
                select(Action.match_id, Action.seat).where(Action.match_id.in_(chunk)).distinct()):
            acted.setdefault(match_id, set()).add(seat)
        for row in connection.execute(select(Match.id, Match.game, Match.status,
                                             Match.invite_hash, Match.result)
                                      .where(Match.id.in_(chunk))):
            found[row.id] = RatingFacts(row.id, row.game, row.status, row.invite_hash is not None,
                                        row.result, tuple(seats.get(row.id, ())),
                                        frozenset(acted.get(row.id, ())))
    return found


def _take(connection: Connection, match_id: int, judge: Judge) -> TakenIn:
    """Take one match in (the caller holds its game's lock), unless it was already."""
    done = connection.execute(select(RatedMatch).where(RatedMatch.match_id == match_id)).first()
    if done is not None:
        return TakenIn(match_id, done.game, done.unrated, done.changes, fresh=False)
    facts = _facts(connection, [match_id])[match_id]
    players = [s.player_id for s in facts.seats if s.player_id is not None]
    current = {row.player_id: _standing(row) for row in connection.execute(
        select(Rating).where(Rating.game == facts.game, Rating.player_id.in_(players)))}
    verdict = judge(facts, current)
    now = utcnow()
    connection.execute(insert(RatedMatch.__table__), {
        "match_id": match_id, "game": facts.game, "unrated": verdict.unrated,
        "changes": verdict.changes, "rated_at": now})
    _save_standings(connection, facts.game, verdict.after, set(current), now)
    return TakenIn(match_id, facts.game, verdict.unrated, verdict.changes, fresh=True)


def _save_standings(connection: Connection, game: str, after: Mapping[int, Standing],
                    existing: set[int], now: datetime) -> None:
    for player_id, standing in after.items():
        values = {"mu": standing.mu, "sigma": standing.sigma, "games": standing.games,
                  "wins": standing.wins, "losses": standing.losses, "draws": standing.draws,
                  "updated_at": now}
        if player_id in existing:
            connection.execute(update(Rating).where(Rating.player_id == player_id,
                                                    Rating.game == game).values(**values))
        else:
            connection.execute(insert(Rating.__table__),
                               {"player_id": player_id, "game": game, **values})


def _rebuild(connection: Connection, judge: Judge, write: bool) -> RebuildReport:
    saved = {row.match_id: row for row in connection.execute(
        select(RatedMatch).order_by(RatedMatch.seq))}
    taken = (select(RatedMatch.match_id).where(RatedMatch.match_id == Match.id)).exists()
    untaken = list(connection.execute(select(Match.id).where(Match.status == "finished", ~taken)
                                      .order_by(Match.updated_at, Match.id)).scalars())
    order = list(saved) + untaken
    facts = _facts(connection, order)
    ratings: dict[tuple[int, str], Standing] = {}
    verdicts: dict[int, Verdict] = {}
    for match_id in order:
        fact = facts[match_id]
        current = {p: ratings[(p, fact.game)] for s in fact.seats
                   if (p := s.player_id) is not None and (p, fact.game) in ratings}
        verdicts[match_id] = judge(fact, current)
        ratings.update({(p, fact.game): st for p, st in verdicts[match_id].after.items()})
    stored = {(row.player_id, row.game): _standing(row)
              for row in connection.execute(select(Rating))}
    differences = _match_differences(saved, untaken, verdicts) + _rating_differences(
        stored, ratings)
    if write and differences:
        _write_rebuild(connection, saved, untaken, facts, verdicts, ratings)
    rated = sum(1 for v in verdicts.values() if v.unrated is None)
    return RebuildReport(len(order), rated, differences, written=write and bool(differences))


def _match_differences(saved: Mapping[int, Any], untaken: list[int],
                       verdicts: Mapping[int, Verdict]) -> list[str]:
    found = [f"match {m}: finished but not taken in yet" for m in untaken]
    for match_id, row in saved.items():
        verdict = verdicts[match_id]
        if (row.unrated, row.changes) != (verdict.unrated, verdict.changes):
            found.append(f"match {match_id}: saved {row.unrated or 'rated'} {row.changes}, "
                         f"recomputed {verdict.unrated or 'rated'} {verdict.changes}")
    return found


def _rating_differences(stored: Mapping[tuple[int, str], Standing],
                        computed: Mapping[tuple[int, str], Standing]) -> list[str]:
    found = []
    for player_id, game in sorted(set(stored) | set(computed)):
        was, now = stored.get((player_id, game)), computed.get((player_id, game))
        if was != now:
            found.append(f"player {player_id} in {game}: saved {was}, recomputed {now}")
    return found


def _write_rebuild(connection: Connection, saved: Mapping[int, Any], untaken: list[int],
                   facts: Mapping[int, RatingFacts], verdicts: Mapping[int, Verdict],
                   ratings: Mapping[tuple[int, str], Standing]) -> None:
    now = utcnow()
    for match_id, row in saved.items():
        verdict = verdicts[match_id]
        if (row.unrated, row.changes) != (verdict.unrated, verdict.changes):
            connection.execute(update(RatedMatch).where(RatedMatch.seq == row.seq).values(
                unrated=verdict.unrated, changes=verdict.changes))
    for match_id in untaken:
        connection.execute(insert(RatedMatch.__table__), {
            "match_id": match_id, "game": facts[match_id].game,
            "unrated": verdicts[match_id].unrated, "changes": verdicts[match_id].changes,
            "rated_at": now})
    connection.execute(delete(Rating))
    by_game: dict[str, dict[int, Standing]] = {}
    for (player_id, game), standing in ratings.items():
        by_game.setdefault(game, {})[player_id] = standing
    for game, standings in sorted(by_game.items()):
        _save_standings(connection, game, standings, set(), now)
