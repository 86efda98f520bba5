"""A readable text picture of a position, for operators (CLI and logs); shows everything."""

from __future__ import annotations

from service.games.renaissance import catalog as K
from service.games.renaissance.faith import score
from service.games.renaissance.legal import to_act
from service.games.renaissance.state import Player, State

MARBLE_LETTERS = {"white": "W", "blue": "B", "grey": "G", "yellow": "Y", "purple": "P",
                  "red": "R"}


def render(state: State) -> str:
    lines = [f"Masters of Renaissance {state.seats}p - {state.phase}, turn {state.turns}, "
             f"to act: {sorted(to_act(state))}{', LAST ROUND' if state.final_round else ''}",
             f"market {' / '.join(_marbles(state, r) for r in range(K.ROWS))}  spare "
             f"{MARBLE_LETTERS[state.spare]}",
             "grid " + " ".join(f"{K.CARDS[d[-1]].level}{K.CARDS[d[-1]].colour[0]}"
                                f"{K.CARDS[d[-1]].vp}x{len(d)}" if d else "--"
                                for d in state.decks)]
    if state.main or any(state.pending) or state.pending_white:
        lines.append(f"  turn: main {state.main or '-'} used {state.used} pending "
                     f"{K.named(state.pending)} white {state.pending_white}")
    lines += [_player(s, p) for s, p in enumerate(state.players)]
    if state.solo:
        lines.append(f"  Lorenzo at {state.lorenzo}, tokens {state.tokens} (top last), "
                     f"last {state.last_token}")
    if state.phase == "over":
        lines.append(f"  OVER: {state.end_reason}, winners {state.winners}"
                     f"{' (draw)' if state.draw else ''}, scores {state.scores}")
    return "\n".join(lines)


def _marbles(state: State, row: int) -> str:
    return "".join(MARBLE_LETTERS[m] for m in state.market[row * K.COLUMNS:(row + 1) * K.COLUMNS])


def _player(seat: int, p: Player) -> str:
    depots = " ".join(f"{n}{K.RESOURCES[r]}" if n else "-" for r, n in p.depots)
    slots = " | ".join(" ".join(f"{K.CARDS[c].level}{K.CARDS[c].colour[0]}{K.CARDS[c].vp}"
                                for c in stack) or "-" for stack in p.slots)
    leaders = " ".join(f"{lid}:{st}" for lid, st in zip(p.leaders, p.status)) or f"dealt {p.dealt}"
    return (f"  seat {seat} faith {p.faith} favours {p.favours} depots [{depots}] extra "
            f"{K.named(p.extra)} strongbox {K.named(p.strongbox)} slots [{slots}] "
            f"leaders {leaders} score {score(p)}")
