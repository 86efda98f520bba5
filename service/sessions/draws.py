"""Draws by agreement, in the games that allow one (``Game.draws_by_agreement``): a player
offers, every other side accepts by offering too, and the match ends drawn (``result
{winners: every seat, draw: true, reason: "agreed"}``). An offer stands until the next action
(a move answers it) or until a side declines; it is saved with the match (its dialect data,
as stand-ins are), so it survives a restart and reaches every node of a cluster."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.errors import SessionError
from service.sessions.notices import DrawOffers

if TYPE_CHECKING:
    from service.sessions.match import MatchRuntime

#: the key of the offers in the match's dialect data: {"version": v, "seats": [...]}
DRAW_OFFERS = "draw_offers"


def offers(runtime: MatchRuntime) -> tuple[int, ...]:
    """The seats offering a draw now (an offer made before the last action has lapsed)."""
    saved: dict[str, Any] = runtime.dialect_data.get(DRAW_OFFERS) or {}
    if saved.get("version") != runtime.version or runtime.status != "active":
        return ()
    return tuple(sorted(saved.get("seats", ())))


def side(runtime: MatchRuntime, seat: int) -> int:
    team = runtime.seats[seat].team
    return team if team is not None else -1 - seat


def agreed(runtime: MatchRuntime, seats: tuple[int, ...]) -> bool:
    """Every side has a seat among ``seats``."""
    return {side(runtime, s) for s in seats} == {side(runtime, s.seat) for s in runtime.seats}


def check_allowed(runtime: MatchRuntime) -> None:
    if not runtime.game.draws_by_agreement:
        raise SessionError(f"{runtime.game.name} has no draws by agreement",
                           code="session/no_draws")
    if runtime.status != "active":
        raise SessionError(f"the match is {runtime.status}", code="session/match_over")


async def save(runtime: MatchRuntime, seats: tuple[int, ...]) -> None:
    """Save the offers (none: forget them), then tell everyone following the match."""
    data = {"version": runtime.version, "seats": list(seats)} if seats else None
    await runtime.save_dialect_data(DRAW_OFFERS, data)
    runtime.publish(DrawOffers(seats))


def told_change(runtime: MatchRuntime, before: tuple[int, ...]) -> None:
    """A copy that took the owner's record tells its listeners when the offers changed."""
    now = offers(runtime)
    if now != before:
        runtime.publish(DrawOffers(now), local=True)
