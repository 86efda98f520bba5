"""The bodies the HTTP API answers with, as pydantic models: the OpenAPI document is written
from them (service/gateway/api_spec.py) and every route's JSON is checked against its model
before it leaves (``reply``), so the document cannot drift from what is sent.

The route builds its body as before (service/inspection.py, sessions/profiles.py...); ``reply``
validates it against the model (``extra="forbid"``: a key the model does not know is an error)
and sends it unchanged. A body that does not fit is a bug of ours: 500 ``service/internal``,
logged with the difference."""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, RootModel, TypeAdapter

from service.store import MAX_ID

Id = Annotated[int, Field(ge=0, le=MAX_ID)]
Count = Annotated[int, Field(ge=0)]
#: a moment as ISO 8601 text (``2026-11-26T21:11:51.951000+00:00``)
Moment = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
MatchStatus = Literal["waiting", "active", "finished", "aborted"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ErrorDetail(_Body):
    code: str
    message: str
    details: dict[str, Any] | None = None


class Error(_Body):
    """Every refusal and failure: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


# --- health and games ----------------------------------------------------------------------

class ClusterView(_Body):
    bus: str
    members: list[str]
    owned_matches: Count


class Health(_Body):
    """``ok``, or ``degraded`` (503) with the reason the store cannot write."""

    status: Literal["ok", "degraded"]
    listeners: dict[str, int]
    live_matches: Count
    node: str
    cluster: ClusterView
    reason: str | None = None


class HealthUnavailable(_Body):
    """The database does not answer (503)."""

    status: Literal["unavailable"]
    error: ErrorDetail


class GameInfo(_Body):
    name: str
    title: str
    min_seats: int
    max_seats: int
    real_time: bool
    #: how to win, in one sentence
    goal: str
    #: whether the players may agree to a draw (``offer_draw``)
    draws: bool
    #: whether a match may have a clock (``create {clock}``): not in a real-time game
    clocks: bool
    #: the JSON Schema of the game's options
    options: dict[str, Any]
    catalog: dict[str, Any]


class JsonSchema(RootModel[dict[str, Any]]):
    """A JSON Schema (or this OpenAPI document)."""


# --- matches -------------------------------------------------------------------------------

class MatchSummary(_Body):
    id: Id
    game: str
    status: MatchStatus
    version: Count
    players: list[str]
    #: each seat's player (None: an empty seat), for profile links and ratings
    player_ids: list[Id | None]
    #: each seat's computer level (None: a person or an empty seat), to show "Bot (level)"
    bots: list[str | None]
    rematch_of: Id | None
    rematch_id: Id | None
    private: bool
    created_at: Moment
    updated_at: Moment


class SeatRow(_Body):
    seat: Count
    label: str
    nickname: str | None
    team: int | None


class SeenAction(_Body):
    """A saved action as the caller may know it (hidden parts of others' actions left out)."""

    seq: Count
    seat: Count
    action: dict[str, Any]


class RecentAction(SeenAction):
    #: the bot level that chose the move (absent for a person's)
    bot: str | None = None


class LoggedAction(SeenAction):
    at: Moment


class MatchDetail(MatchSummary):
    options: dict[str, Any]
    dialect: str | None
    seats: list[SeatRow]
    result: dict[str, Any] | None
    to_act: list[int]
    view: Any
    recent_actions: list[RecentAction]


class Position(_Body):
    """The spectator's picture after the first ``version`` actions."""

    match_id: Id
    game: str
    version: Count
    last: Count
    seats: list[SeatRow]
    status: MatchStatus
    to_act: list[int]
    view: Any
    outcome: dict[str, Any] | None
    action: SeenAction | None


class MoveLine(_Body):
    seq: Count
    seat: Count
    text: str


class LobbySeat(_Body):
    seat: Count
    label: str
    nickname: str | None
    player_id: Id | None
    bot: str | None


class LobbyEntry(_Body):
    match_id: Id
    game: str
    title: str
    status: MatchStatus
    options: dict[str, Any]
    #: the match's time control in words ("5 min + 5 s a move"); None: no clock
    clock: str | None
    seats: list[LobbySeat]
    free: list[int]
    created_at: Moment


class LobbyPage(_Body):
    matches: list[LobbyEntry]
    total: Count
    offset: Count
    limit: Count


class PublicSeat(_Body):
    seat: Count
    label: str
    nickname: str | None
    player_id: Id | None
    team: int | None
    present: bool
    bot: str | None
    stand_in: str | None


class Created(_Body):
    """A new match (201): the creator's seat (None when they watch), its status and seats."""

    match_id: Id
    seat: int | None
    status: MatchStatus
    seats: list[PublicSeat]


# --- profiles and ratings ------------------------------------------------------------------

class RatingView(_Body):
    value: int
    mu: float
    sigma: float
    games: Count
    provisional: bool


class GameRecord(_Body):
    game: str
    played: Count
    wins: Count
    losses: Count
    draws: Count
    rating: RatingView | None


class Opponent(_Body):
    player_id: Id | None
    nickname: str | None
    seat: Count
    team: int | None
    #: the level of a computer player (None: a person)
    bot: str | None


class HistoryItem(_Body):
    match_id: Id
    game: str
    ended_at: Moment
    status: MatchStatus
    outcome: Literal["win", "loss", "draw"] | None
    reason: str | None
    seat: Count
    opponents: list[Opponent]
    rated: bool
    rating_change: int | None


class History(_Body):
    matches: list[HistoryItem]
    total: Count
    offset: Count
    limit: Count


class Profile(_Body):
    id: Id
    nickname: str
    member_since: Moment
    bot: str | None
    games: list[GameRecord]
    history: History


class Ranked(_Body):
    rank: int = Field(ge=1)
    player_id: Id
    nickname: str
    rating: int
    mu: float
    sigma: float
    games: Count
    wins: Count
    losses: Count
    draws: Count
    provisional: bool


class Leaderboard(_Body):
    game: str
    total: Count
    offset: Count
    limit: Count
    players: list[Ranked]


class ShownRating(_Body):
    value: int
    provisional: bool


class Ratings(_Body):
    """The displayed rating of each rated player asked for, by id (the unrated left out)."""

    game: str
    ratings: dict[str, ShownRating]


# --- accounts ------------------------------------------------------------------------------

class PlayerWords(_Body):
    id: Id
    nickname: str
    protected: bool
    password: bool


class Issued(_Body):
    """A new device token (keep it: it is shown once) and the player it names."""

    token: str
    player: PlayerWords


class AccountPlayer(PlayerWords):
    created_at: Moment


class Device(_Body):
    id: Id
    label: str
    created_at: Moment
    last_used_at: Moment
    current: bool


class AccountView(_Body):
    player: AccountPlayer
    devices: list[Device]
    current_device: Id | None


class PasswordSet(_Body):
    password: Literal[True]


class RecoveryCode(_Body):
    """A one-time recovery code, shown once."""

    code: str


class Revoked(_Body):
    device_id: Id
    revoked: Literal[True]


class SignedOut(_Body):
    signed_out: Literal[True]


# --- the admin API -------------------------------------------------------------------------

class BanNote(_Body):
    at: Moment
    reason: str | None


class PlayerSummary(_Body):
    id: Id
    nickname: str
    protected: bool
    password: bool
    bot: str | None
    created_at: Moment
    last_seen_at: Moment | None
    banned: BanNote | None


class SeatedMatch(MatchSummary):
    seat: Count


class PlayerDetail(PlayerSummary):
    matches: list[SeatedMatch]


class Deleted(_Body):
    id: Id
    deleted: Literal[True]


class PlayerReset(_Body):
    """The new recovery code, to hand to the player."""

    player_id: Id
    recovery_code: str


class Renamed(_Body):
    player_id: Id
    nickname: str


class Banned(_Body):
    player_id: Id
    banned: Literal[True]
    reason: str


class Unbanned(_Body):
    player_id: Id
    banned: Literal[False]


class OperatorEntry(_Body):
    id: Id
    at: Moment
    operator: str
    what: str
    player_id: Id | None
    detail: dict[str, Any] | None


@lru_cache(maxsize=None)
def adapter(shape: Any) -> TypeAdapter[Any]:
    return TypeAdapter(shape)


def checked(shape: Any, body: Any) -> Any:
    """``body`` once it fits ``shape`` (a model or ``list[Model]``); a pydantic
    ValidationError (500, logged) when it does not."""
    adapter(shape).validate_python(body)
    return body


def reply(shape: Any, body: Any, *, status: int = 200,
          headers: dict[str, str] | None = None) -> web.Response:
    """``body`` as JSON, once it fits ``shape``."""
    return web.json_response(checked(shape, body), status=status, headers=headers)
