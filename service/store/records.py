"""Immutable records the store hands out: no ORM objects ever leave ``service.store``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any, Literal

from service.games.base import Game
from service.games.registry import get_game
from service.store.models import Action, Match, Player, Seat

#: the viewer who sees every action whole: an operator (the CLI, the admin API), never a client
OPERATOR: Literal["operator"] = "operator"
#: who looks at a match: a seat, a spectator (None), or an operator
Viewer = int | None | Literal["operator"]


@dataclass(frozen=True)
class PlayerRecord:
    id: int
    nickname: str
    created_at: datetime
    #: whether a secret (a token) reached the player: then only a secret reaches them
    has_token: bool = field(default=False, compare=False)
    #: the level of a computer player; None for a person
    bot_level: str | None = None
    last_seen_at: datetime | None = field(default=None, compare=False)
    #: whether a password protects the nickname (then it signs in from any device)
    has_password: bool = field(default=False, compare=False)
    #: when an operator banned the player (None: not banned), and why
    banned_at: datetime | None = field(default=None, compare=False)
    ban_reason: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    player_id: int | None
    nickname: str | None
    team: int | None
    label: str | None
    #: the level of the computer player in this seat; None for a person or an empty seat
    bot_level: str | None = None


@dataclass(frozen=True)
class MatchRecord:
    id: int
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    version: int
    #: the state saved at ``snapshot_version`` (the store writes it every few actions, see
    #: ``Store.snapshot_due``); read ``snapshot`` for the state at ``version``
    saved_snapshot: dict[str, Any]
    result: dict[str, Any] | None
    rematch_of: int | None
    rematch_id: int | None
    dialect: str | None
    seats: tuple[SeatRecord, ...]
    created_at: datetime
    updated_at: datetime
    #: hash of the invitation code of a private match; None: public
    invite_hash: str | None = None
    #: the seats that agreed to a rematch
    rematch_votes: tuple[int, ...] = ()
    #: per dialect, what it remembers about this match (``Store.set_dialect_data``)
    dialect_data: dict[str, Any] = field(default_factory=dict)
    #: the time control and each seat's time left (sessions/clocks.py); None: no clock
    clock: dict[str, Any] | None = None
    #: the version ``saved_snapshot`` is at (None: at ``version``)
    snapshot_version: int | None = None
    #: the logged actions after ``snapshot_version`` up to ``version``, in order
    tail: tuple[ActionRecord, ...] = field(default=(), repr=False)

    @cached_property
    def snapshot(self) -> dict[str, Any]:
        """The state at ``version``: the saved snapshot with the log's tail replayed through
        the game's rules (deterministic: the state is a function of the actions)."""
        at = self.version if self.snapshot_version is None else self.snapshot_version
        if [a.seq for a in self.tail] != list(range(at + 1, self.version + 1)):
            raise ValueError(f"match {self.id}: the log after its snapshot (version {at}) does "
                             f"not reach version {self.version} (a record listed by "
                             f"Store.list_matches carries no tail: read it with get_match)")
        return replayed(self.game, self.saved_snapshot, self.tail)


def replayed(game_name: str, snapshot: dict[str, Any],
             tail: tuple[ActionRecord, ...]) -> dict[str, Any]:
    """``snapshot`` with the actions of ``tail`` played on it, as the store saves a state."""
    if not tail:
        return snapshot
    game = get_game(game_name)
    state = game.load_state(snapshot)
    for action in tail:
        game.apply(state, action.seat, game.parse_action(action.action))
    return json.loads(json.dumps(game.dump_state(state)))


@dataclass(frozen=True)
class ActionRecord:
    seq: int
    seat: int
    action: dict[str, Any]
    created_at: datetime
    client_id: str | None = None

    def seen_by(self, game: Game[Any], viewer: Viewer) -> dict[str, Any]:
        """``{seq, seat, action}`` with the action as ``viewer`` may know it: every channel
        that shows saved actions goes through here (service/games/base.py, action_seen_by)."""
        action = self.action if viewer == OPERATOR else game.action_seen_by(
            self.action, self.seat, viewer)
        return {"seq": self.seq, "seat": self.seat, "action": action}


def player_record(player: Player) -> PlayerRecord:
    return PlayerRecord(id=player.id, nickname=player.nickname, created_at=player.created_at,
                        has_token=player.claimed_at is not None,
                        bot_level=player.bot_level, last_seen_at=player.last_seen_at,
                        has_password=player.password_hash is not None,
                        banned_at=player.banned_at, ban_reason=player.ban_reason)


def seat_record(seat: Seat) -> SeatRecord:
    return SeatRecord(
        seat=seat.seat,
        player_id=seat.player_id,
        nickname=seat.player.nickname if seat.player is not None else None,
        team=seat.team,
        label=seat.label,
        bot_level=seat.player.bot_level if seat.player is not None else None,
    )


def match_record(match: Match, rematch_id: int | None,
                 tail: tuple[ActionRecord, ...] = ()) -> MatchRecord:
    return MatchRecord(
        id=match.id,
        game=match.game,
        options=match.options,
        seed=match.seed,
        status=match.status,
        version=match.version,
        saved_snapshot=match.snapshot,
        result=match.result,
        rematch_of=match.rematch_of,
        rematch_id=rematch_id,
        dialect=match.dialect,
        seats=tuple(seat_record(seat) for seat in match.seats),
        created_at=match.created_at,
        updated_at=match.updated_at,
        invite_hash=match.invite_hash,
        rematch_votes=tuple(match.rematch_votes or ()),
        dialect_data=dict(match.dialect_data or {}),
        clock=match.clock,
        snapshot_version=match.snapshot_version,
        tail=tail,
    )


def action_record(action: Action) -> ActionRecord:
    return ActionRecord(
        seq=action.seq, seat=action.seat, action=action.action, created_at=action.created_at,
        client_id=action.client_id,
    )


@dataclass(frozen=True)
class DeviceRecord:
    """One of a player's tokens (never the token itself)."""

    id: int
    player_id: int
    label: str
    created_at: datetime
    last_used_at: datetime


@dataclass(frozen=True)
class Credentials:
    """What checks a player's password or recovery code (hashes only), and the cost so far
    of wrong ones."""

    player_id: int
    password_hash: str | None
    recovery_hash: str | None
    login_failures: int
    login_blocked_until: datetime | None


@dataclass(frozen=True)
class OperatorEntry:
    id: int
    at: datetime
    operator: str
    what: str
    player_id: int | None
    detail: dict[str, Any] | None
