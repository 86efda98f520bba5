"""How a finished match moves ratings (docs/ratings.md): whether it is rated, the ranks of
its sides, and the OpenSkill Plackett-Luce (Weng-Lin) update with the library's default
parameters. Pure: the store runs :func:`judge` inside the transaction that saves it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openskill.models import PlackettLuce

from service.store.ratings import RatingFacts, Standing, Verdict, outcome_of

#: the model, with its defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
MODEL = PlackettLuce()
#: the displayed rating is the library's ordinal ``alpha * (mu - z * sigma) + target``: a new
#: player (mu 25, sigma 25/3, so mu - 3 sigma = 0) shows 1500, the familiar starting number
DISPLAY_Z = 3.0
DISPLAY_ALPHA = 20.0
DISPLAY_TARGET = 1500.0
#: a rating is provisional until this many rated matches of its game
PROVISIONAL_BELOW = 5


def fresh() -> Standing:
    """The rating of a player's first rated match of a game."""
    return Standing(mu=MODEL.mu, sigma=MODEL.sigma)


def display(mu: float, sigma: float) -> int:
    """The number shown for a rating (its ordinal, rounded)."""
    ordinal = MODEL.rating(mu=mu, sigma=sigma).ordinal(DISPLAY_Z, DISPLAY_ALPHA, DISPLAY_TARGET)
    return round(ordinal)


def provisional(games: int) -> bool:
    return games < PROVISIONAL_BELOW


def unrated_reason(facts: RatingFacts) -> str | None:
    """Why the match moves no rating, or None when it is rated."""
    if facts.status != "finished":
        return "aborted" if facts.status == "aborted" else "not_finished"
    if facts.private:
        return "private"
    if len(facts.seats) < 2 or len(sides(facts)) < 2:
        return "solo"
    players = [s.player_id for s in facts.seats]
    if any(s.bot_level is not None or s.player_id is None for s in facts.seats):
        return "bot"
    if len(set(players)) != len(players):
        return "same_player"
    result = facts.result or {}
    if not result.get("winners") and not result.get("draw"):
        return "no_result"
    if any(s.seat not in facts.acted for s in facts.seats):
        return "too_short"
    return None


def sides(facts: RatingFacts) -> list[list[int]]:
    """The seats of each side, in seat order: seats with the same team form one side, a seat
    without a team is a side of its own."""
    found: dict[Any, list[int]] = {}
    for seat in sorted(facts.seats, key=lambda s: s.seat):
        found.setdefault(("team", seat.team) if seat.team is not None else ("seat", seat.seat),
                         []).append(seat.seat)
    return list(found.values())


def ranks(result: dict[str, Any], teams: list[list[int]]) -> list[int]:
    """1 for the sides that won (or shared a draw), 2 for the others."""
    return [1 if any(outcome_of(result, seat) in ("win", "draw") for seat in side) else 2
            for side in teams]


def judge(facts: RatingFacts, current: Mapping[int, Standing]) -> Verdict:
    """What taking ``facts``' match in does, given its players' standings now."""
    why = unrated_reason(facts)
    if why is not None:
        return Verdict(why, {}, None)
    player_of = {s.seat: s.player_id for s in facts.seats if s.player_id is not None}
    before = {seat: current.get(player, fresh()) for seat, player in player_of.items()}
    teams = sides(facts)
    rated = MODEL.rate([[MODEL.rating(mu=before[s].mu, sigma=before[s].sigma) for s in side]
                        for side in teams], ranks=[float(r) for r in ranks(facts.result or {},
                                                                             teams)])
    after: dict[int, Standing] = {}
    changes: dict[str, Any] = {}
    for side, new in zip(teams, rated):
        for seat, rating in zip(side, new):
            outcome = outcome_of(facts.result, seat)
            was = before[seat]
            after[player_of[seat]] = Standing(
                rating.mu, rating.sigma, was.games + 1, was.wins + (outcome == "win"),
                was.losses + (outcome == "loss"), was.draws + (outcome == "draw"))
            changes[str(seat)] = {"player_id": player_of[seat], "outcome": outcome,
                                  "before": {"mu": was.mu, "sigma": was.sigma},
                                  "after": {"mu": rating.mu, "sigma": rating.sigma}}
    return Verdict(None, after, changes)


def rating_change(changes: dict[str, Any] | None, seat: int) -> int | None:
    """How much a rated match moved the displayed rating of ``seat`` (None: unrated)."""
    entry = (changes or {}).get(str(seat))
    if entry is None:
        return None
    before, after = entry["before"], entry["after"]
    return display(after["mu"], after["sigma"]) - display(before["mu"], before["sigma"])


def rating_view(standing: Standing | None) -> dict[str, Any] | None:
    """``{value, mu, sigma, games, provisional}`` of a rating, or None."""
    if standing is None:
        return None
    return {"value": display(standing.mu, standing.sigma), "mu": standing.mu,
            "sigma": standing.sigma, "games": standing.games,
            "provisional": provisional(standing.games)}
