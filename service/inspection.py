"""Operator views of saved matches, shared by the CLI and the HTTP API."""

from __future__ import annotations

import json
from typing import Any

from service.bots.marks import level_of
from service.games.registry import get_game
from service.store import ActionRecord, MatchRecord, OperatorEntry, PlayerRecord, Viewer


def match_summary(record: MatchRecord) -> dict[str, Any]:
    game = get_game(record.game)
    return {
        "id": record.id,
        "game": record.game,
        "status": record.status,
        "version": record.version,
        "players": [s.nickname or game.seat_label(s.seat) for s in record.seats],
        "player_ids": [s.player_id for s in record.seats],
        "bots": [s.bot_level for s in record.seats],
        "rematch_of": record.rematch_of,
        "rematch_id": record.rematch_id,
        "private": record.invite_hash is not None,
        "created_at": record.created_at.isoformat(),
        "updated_at": record.updated_at.isoformat(),
    }


def match_detail(record: MatchRecord, recent: list[ActionRecord], *,
                 viewer: Viewer) -> dict[str, Any]:
    game = get_game(record.game)
    state = game.load_state(record.snapshot)
    seats = [{"seat": s.seat, "label": game.seat_label(s.seat), "nickname": s.nickname,
              "team": s.team} for s in record.seats]
    return {
        **match_summary(record),
        "options": record.options,
        "dialect": record.dialect,
        "seats": seats,
        "result": record.result,
        "to_act": sorted(game.to_act(state)) if record.status == "active" else [],
        "view": game.view(state, None),
        "recent_actions": [_with_level(a.seen_by(game, viewer), a) for a in recent],
    }


def _with_level(shown: dict[str, Any], action: ActionRecord) -> dict[str, Any]:
    """``shown`` with ``bot``, the level that chose the move, when a bot's ``client_id``
    says it (service/bots/marks.py); a person's move is left as it was."""
    level = level_of(action.client_id)
    return {**shown, "bot": level} if level else shown


def render_detail(record: MatchRecord, recent: list[ActionRecord]) -> str:
    """The `matches show` text: seats, status, result, last actions and the position."""
    game = get_game(record.game)
    state = game.load_state(record.snapshot)
    lines = [f"match {record.id}  {game.title} ({record.game})  status {record.status}"
             f"  version {record.version}"]
    if record.rematch_of or record.rematch_id:
        lines.append(f"rematch of {record.rematch_of or '-'}  rematched as {record.rematch_id or '-'}")
    for s in record.seats:
        lines.append(f"  seat {s.seat} [{game.seat_label(s.seat)}]: {s.nickname or '(empty)'}")
    if record.result:  # in words, not as the dict it is saved as
        lines.append(f"result: {result_in_words(record)}")
    lines.append("last actions:" if recent else "no actions yet")
    for a in recent:
        level = level_of(a.client_id)
        lines.append(f"  #{a.seq} seat {a.seat}: {a.action}" + (f"  (bot {level})" if level else ""))
    lines.append(game.render(state))
    return "\n".join(lines)


def result_in_words(record: MatchRecord) -> str:
    """``alice (seat 0) won: resigned``, ``a draw: ...``, ``aborted by admin``."""
    result = record.result or {}
    names = {s.seat: s.nickname or "(empty)" for s in record.seats}
    detail = result.get("detail") or {}
    if record.status == "aborted":
        return f"aborted by {detail.get('by', 'unknown')}"
    reason = result.get("reason") or "no reason given"
    extra = "".join(f", {key} {value}" for key, value in detail.items())
    if result.get("draw"):
        return f"a draw: {reason}{extra}"
    winners = [f"{names.get(seat, '?')} (seat {seat})" for seat in result.get("winners", [])]
    if not winners:
        return f"no winner: {reason}{extra}"
    verb = "won" if len(winners) == 1 else "won together"
    return f"{' and '.join(winners)} {verb}: {reason}{extra}"


def initial_state(game_name: str, seats: int, options: dict[str, Any], seed: int) -> Any:
    """The state a match starts from: its game set up for its seats, options and seed."""
    game = get_game(game_name)
    return game.setup(seats, game.parse_options(options), seed)


def _initial_state(record: MatchRecord) -> Any:
    return initial_state(record.game, len(record.seats), record.options, record.seed)


def state_after(record: MatchRecord, log: list[ActionRecord]) -> Any:
    """The game state after the actions of ``log`` (the first ones, in order)."""
    game = get_game(record.game)
    state = _initial_state(record)
    for action in log:
        game.apply(state, action.seat, game.parse_action(action.action))
    return state


def position_at(record: MatchRecord, log: list[ActionRecord], *,
                viewer: Viewer) -> dict[str, Any]:
    """The match as a spectator saw it after the actions of ``log`` (the first ones, in order):
    the replay's picture of one version, its last action as ``viewer`` may know it."""
    game = get_game(record.game)
    state = state_after(record, log)
    outcome = game.outcome(state)
    last = log[-1] if log else None
    return {
        "match_id": record.id, "game": record.game, "version": len(log), "last": record.version,
        "seats": [{"seat": s.seat, "label": game.seat_label(s.seat), "nickname": s.nickname,
                   "team": s.team} for s in record.seats],
        "status": "finished" if outcome else record.status if len(log) == record.version else "active",
        "to_act": [] if outcome else sorted(game.to_act(state)),
        "view": game.view(state, None),
        "outcome": outcome.to_dict() if outcome else None,
        "action": None if last is None else last.seen_by(game, viewer),
    }


def replay(record: MatchRecord, log: list[ActionRecord]) -> str | None:
    """Replay the log from the seed; None when it reproduces the saved snapshot (at the
    version it was saved at) and the state at the match's version, else the first difference."""
    game = get_game(record.game)
    state = _initial_state(record)
    at = record.version if record.snapshot_version is None else record.snapshot_version
    for expected_seq, action in enumerate(log, start=1):
        if expected_seq - 1 == at and (diff := _differs_from_saved(game, state, record)):
            return f"the snapshot saved at version {at}: {diff}"
        if action.seq != expected_seq:
            return f"the log skips from {expected_seq - 1} to {action.seq}"
        game.apply(state, action.seat, game.parse_action(action.action))
    if len(log) != record.version:
        return f"the log holds {len(log)} actions but the match is at version {record.version}"
    if at == record.version:
        return _differs_from_saved(game, state, record)
    return first_difference(json.loads(json.dumps(game.dump_state(state))), record.snapshot)


def _differs_from_saved(game: Any, state: Any, record: MatchRecord) -> str | None:
    return first_difference(json.loads(json.dumps(game.dump_state(state))),
                            record.saved_snapshot)


def first_difference(replayed: Any, saved: Any, path: str = "$") -> str | None:
    if type(replayed) is not type(saved):
        return f"{path}: replayed {replayed!r}, saved {saved!r}"
    if isinstance(saved, dict):
        for key in sorted(set(replayed) | set(saved), key=str):
            if key not in replayed or key not in saved:
                return f"{path}.{key}: present only in the {'saved' if key in saved else 'replayed'} state"
            diff = first_difference(replayed[key], saved[key], f"{path}.{key}")
            if diff:
                return diff
        return None
    if isinstance(saved, list):
        if len(replayed) != len(saved):
            return f"{path}: replayed {len(replayed)} items, saved {len(saved)}"
        for i, (a, b) in enumerate(zip(replayed, saved)):
            diff = first_difference(a, b, f"{path}[{i}]")
            if diff:
                return diff
        return None
    return None if replayed == saved else f"{path}: replayed {replayed!r}, saved {saved!r}"


def player_summary(player: PlayerRecord) -> dict[str, Any]:
    return {"id": player.id, "nickname": player.nickname, "protected": player.has_token,
            "password": player.has_password, "bot": player.bot_level,
            "created_at": player.created_at.isoformat(),
            "last_seen_at": player.last_seen_at.isoformat() if player.last_seen_at else None,
            "banned": None if player.banned_at is None else {
                "at": player.banned_at.isoformat(), "reason": player.ban_reason}}


def operator_entry(entry: OperatorEntry) -> dict[str, Any]:
    """One line of the operators' log (what was done to which player, by whom)."""
    return {"id": entry.id, "at": entry.at.isoformat(), "operator": entry.operator,
            "what": entry.what, "player_id": entry.player_id, "detail": entry.detail}


def player_detail(player: PlayerRecord, matches: list[MatchRecord]) -> dict[str, Any]:
    """A player and the matches it holds a seat in, newest first."""
    return {**player_summary(player), "matches": [
        {**match_summary(m), "seat": next(s.seat for s in m.seats if s.player_id == player.id)}
        for m in matches]}
