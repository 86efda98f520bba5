"""What anyone may see of a player and of a game's ratings (docs/ratings.md): profiles with
their public match history, leaderboards, and the ratings shown beside names. Only finished
and aborted public matches are ever listed: a profile never shows a private match, nor
anything of a live one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.errors import SessionError
from service.games.registry import get_game
from service.sessions.ratings import (
    DISPLAY_Z,
    PROVISIONAL_BELOW,
    display,
    provisional,
    rating_change,
    rating_view,
)
from service.store import Store
from service.store.ratings import HistoryEntry, Ranked, outcome_of


async def profile(store: Store, player_id: int, *, offset: int, limit: int) -> dict[str, Any]:
    """``{id, nickname, member_since, bot, games, history}``; ``session/unknown_player``."""
    player = await store.player_by_id(player_id)
    if player is None:
        raise SessionError(f"no player {player_id}", code="session/unknown_player")
    stats = {s.game: s for s in await store.game_stats(player_id)}
    standings = await store.standings_of_player(player_id)
    games = [{"game": game, "played": stats[game].played if game in stats else 0,
              "wins": stats[game].wins if game in stats else 0,
              "losses": stats[game].losses if game in stats else 0,
              "draws": stats[game].draws if game in stats else 0,
              "rating": rating_view(standings.get(game))}
             for game in sorted(set(stats) | set(standings))]
    total, entries = await store.match_history(player_id, offset=offset, limit=limit)
    return {"id": player.id, "nickname": player.nickname,
            "member_since": player.created_at.isoformat(), "bot": player.bot_level,
            "games": games,
            "history": {"matches": [history_item(e, player_id) for e in entries],
                        "total": total, "offset": offset, "limit": limit}}


def history_item(entry: HistoryEntry, player_id: int) -> dict[str, Any]:
    """One ended match as the player's history shows it."""
    seat = next(s.seat for s in entry.seats if s.player_id == player_id)
    rated = entry.taken and entry.unrated is None
    return {"match_id": entry.match_id, "game": entry.game,
            "ended_at": entry.ended_at.isoformat(), "status": entry.status,
            "outcome": outcome_of(entry.result, seat) if entry.status == "finished" else None,
            "reason": (entry.result or {}).get("reason"), "seat": seat,
            "opponents": [{"player_id": s.player_id, "nickname": s.nickname, "seat": s.seat,
                           "team": s.team, "bot": s.bot_level}
                          for s in entry.seats if s.seat != seat],
            "rated": rated, "rating_change": rating_change(entry.changes, seat) if rated else None}


async def leaderboard(store: Store, game: str, *, offset: int, limit: int,
                      with_provisional: bool) -> dict[str, Any]:
    """``{game, total, offset, limit, players}``, best first; ``session/unknown_game``."""
    name = get_game(game).name
    total, rows = await store.leaderboard(
        name, z=DISPLAY_Z, min_games=0 if with_provisional else PROVISIONAL_BELOW,
        offset=offset, limit=limit)
    return {"game": name, "total": total, "offset": offset, "limit": limit,
            "players": [_ranked(offset + i + 1, row) for i, row in enumerate(rows)]}


def _ranked(rank: int, row: Ranked) -> dict[str, Any]:
    st = row.standing
    return {"rank": rank, "player_id": row.player_id, "nickname": row.nickname,
            "rating": display(st.mu, st.sigma), "mu": st.mu, "sigma": st.sigma,
            "games": st.games, "wins": st.wins, "losses": st.losses, "draws": st.draws,
            "provisional": provisional(st.games)}


async def ratings_of(store: Store, game: str, player_ids: Sequence[int]) -> dict[str, Any]:
    """``{game, ratings: {"<id>": {value, provisional}}}`` (the unrated are left out)."""
    name = get_game(game).name
    found = await store.standings(name, player_ids)
    return {"game": name, "ratings": {
        str(player_id): {"value": display(st.mu, st.sigma), "provisional": provisional(st.games)}
        for player_id, st in sorted(found.items())}}
