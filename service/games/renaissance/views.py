"""What a seat may see: everything public, its own hand; never deck order or the token pile."""

from __future__ import annotations

from typing import Any

from service.games.renaissance import board as B
from service.games.renaissance import catalog as K
from service.games.renaissance.faith import score
from service.games.renaissance.state import Player, State


def view(state: State, seat: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "phase": state.phase, "seats": state.seats, "current": state.current,
        "turn": {"main": state.main, "used": list(state.used),
                 "pending": K.named(state.pending), "pending_white": state.pending_white},
        "market": {"rows": [state.market[r * K.COLUMNS:(r + 1) * K.COLUMNS]
                            for r in range(K.ROWS)], "spare": state.spare},
        "grid": [_deck(state, level, colour) for level in (1, 2, 3) for colour in K.COLOURS],
        "reports": list(state.reports), "final_round": state.final_round,
        "turns": state.turns,
        "players": [_player(p, s, s == seat) for s, p in enumerate(state.players)],
    }
    if state.solo:
        token = K.TOKENS.get(state.last_token)
        out["lorenzo"] = {"black_cross": state.lorenzo, "tokens_left": len(state.tokens),
                          "last_token": _token(token) if token else None,
                          "removed": len(state.removed)}
    if state.phase == "over":
        out["result"] = {"reason": state.end_reason, "winners": list(state.winners),
                         "draw": state.draw, "scores": list(state.scores)}
    return out


#: what only a player's own seat sees of it
OWN_FIELDS = ("dealt", "leaders")


def view_beside(state: State, seat: int | None, seen: dict[int | None, dict[str, Any]]
                ) -> dict[str, Any]:
    """``view(state, seat)`` from a view of the same state for another viewer: everything but
    the players' own fields is public, so only ``seat``'s own player is worked out again
    (the rest is shared, read-only)."""
    other = next(iter(seen.values()))
    players = [entry if OWN_FIELDS[0] not in entry
               else {k: v for k, v in entry.items() if k not in OWN_FIELDS}
               for entry in other["players"]]
    if seat is not None:
        players[seat] = _player(state.players[seat], seat, True)
    return {**other, "players": players}


def _deck(state: State, level: int, colour: str) -> dict[str, Any]:
    deck = state.decks[K.deck_index(level, colour)]
    return {"level": level, "color": colour, "count": len(deck),
            "top": K.card_view(K.CARDS[deck[-1]]) if deck else None}


def _token(token: K.Token) -> dict[str, Any]:
    if token.colour:
        return {"id": token.id, "kind": "discard_cards", "color": token.colour, "count": 2}
    return {"id": token.id, "kind": "black_cross", "steps": token.steps,
            "shuffle": token.shuffle}


def _player(p: Player, seat: int, own: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": seat, "faith": p.faith, "favours": list(p.favours),
        "depots": [{"depot": i + 1, "resource": K.RESOURCES[r] if n else None, "count": n}
                   for i, (r, n) in enumerate(p.depots)],
        "extra": {K.RESOURCES[r]: p.extra[r] for r in B.powers(p, "extra_depot")},
        "strongbox": K.named(p.strongbox), "produced": K.named(p.produced),
        "slots": [[K.card_view(K.CARDS[c]) for c in stack] for stack in p.slots],
        "active_leaders": [K.leader_view(ld) for ld in _with_status(p, "active")],
        "hand_size": len(B.hand(p)), "bonus_left": p.bonus_left,
        "setup_done": not p.dealt and not p.bonus_left,
        "score": score(p),
    }
    if own:
        out["dealt"] = [K.leader_view(K.LEADERS[lid]) for lid in p.dealt]
        out["leaders"] = [{**K.leader_view(K.LEADERS[lid]), "status": st}
                          for lid, st in zip(p.leaders, p.status)]
    return out


def _with_status(p: Player, status: str) -> list[K.Leader]:
    return [K.LEADERS[lid] for lid, st in zip(p.leaders, p.status) if st == status]
