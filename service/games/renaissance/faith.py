"""The faith track: markers, Vatican reports, the end triggers and the final score."""

from __future__ import annotations

from typing import Any

from service.games.renaissance import catalog as K
from service.games.renaissance.board import held
from service.games.renaissance.state import Player, State

Events = list[dict[str, Any]]

LORENZO = -1


def advance(state: State, moves: dict[int, int], events: Events) -> None:
    """Move several markers at once (seat -> steps, LORENZO for the black cross), then resolve
    every Vatican report whose Pope space one of them reached, in order."""
    for who, steps in moves.items():
        if steps <= 0:
            continue
        before = state.lorenzo if who == LORENZO else state.players[who].faith
        after = min(K.FAITH_END, before + steps)
        if after == before:
            continue
        if who == LORENZO:
            state.lorenzo = after
        else:
            state.players[who].faith = after
        events.append({"type": "faith_moved", "seat": who if who != LORENZO else None,
                       **({"lorenzo": True} if who == LORENZO else {}), "to": after})
    _reports(state, events)


def _reports(state: State, events: Events) -> None:
    furthest = max([p.faith for p in state.players] + [state.lorenzo])
    for report, start, pope, _vp in K.REPORTS:
        if state.reports[report - 1] or furthest < pope:
            continue
        state.reports[report - 1] = True
        flipped = []
        for seat, p in enumerate(state.players):
            p.favours[report - 1] = 1 if p.faith >= start else -1
            if p.faith >= start:
                flipped.append(seat)
        events.append({"type": "vatican_report", "report": report, "flipped": flipped})


def cards_bought(p: Player) -> int:
    return sum(len(stack) for stack in p.slots)


def score(p: Player) -> int:
    cards = sum(K.CARDS[cid].vp for stack in p.slots for cid in stack)
    track = next((vp for space, vp in K.TRACK_VP if p.faith >= space), 0)
    tiles = sum(vp for (_r, _s, _p, vp), f in zip(K.REPORTS, p.favours) if f == 1)
    leaders = sum(K.LEADERS[lid].vp for lid, st in zip(p.leaders, p.status) if st == "active")
    return cards + track + tiles + leaders + sum(held(p)) // 5


def check_end(state: State, events: Events) -> None:
    """After every change: the end triggers (multiplayer: the last round; solo: at once)."""
    if state.phase != "play":
        return
    if state.solo:
        _check_solo(state, events)
        return
    if state.final_round:
        return
    for seat, p in enumerate(state.players):
        reason = _player_trigger(p)
        if reason:
            state.final_round = True
            state.end_reason = reason
            events.append({"type": "last_round_triggered", "seat": seat, "reason": reason})
            return


def _player_trigger(p: Player) -> str:
    if cards_bought(p) >= K.CARDS_TO_END:
        return "seventh_card"
    return "faith_track" if p.faith >= K.FAITH_END else ""


def _check_solo(state: State, events: Events) -> None:
    reason = _player_trigger(state.players[0])
    if reason:
        finish(state, [0], reason, events)
    elif state.lorenzo >= K.FAITH_END:
        finish(state, [], "lorenzo_faith", events)
    elif any(not any(state.decks[K.deck_index(lv, c)] for lv in (1, 2, 3)) for c in K.COLOURS):
        finish(state, [], "lorenzo_cards", events)


def finish(state: State, winners: list[int] | None, reason: str, events: Events) -> None:
    """End the game; ``winners=None`` ranks the players by score, then resources left."""
    state.phase = "over"
    state.end_reason = reason
    state.scores = [score(p) for p in state.players]
    if winners is None:
        best = max(zip(state.scores, (sum(held(p)) for p in state.players)))
        winners = [s for s, p in enumerate(state.players)
                   if (state.scores[s], sum(held(p))) == best]
    state.winners = winners
    state.draw = len(winners) > 1
    events.append({"type": "game_ended", "reason": reason, "winners": list(winners),
                   "draw": state.draw, "scores": list(state.scores)})
